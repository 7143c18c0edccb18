//! Every route for the published vectors, against `pith serve` on 127.0.0.1.

use serde_json::Value;

use crate::common::{self, code, have_tool, run, vectors, Fixture, Server};

#[test]
fn records_redirects_and_aliases_for_every_vector() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    for v in vectors() {
        let number = v["pith_number"].as_str().unwrap();
        let c = code(number);
        // The record, as /pith/<26>.json and as JSON-LD by Accept.
        let json = s.get(&format!("/pith/{c}.json"), &[]);
        assert_eq!(json.status, 200, "{c}: {}", json.text());
        assert_eq!(json.header("content-type"), Some("application/json"));
        let ld = s.get(&format!("/pith/{c}"), &[("Accept", "application/ld+json")]);
        assert_eq!(ld.status, 200);
        assert_eq!(ld.header("content-type"), Some("application/ld+json"));
        assert_eq!(ld.body, json.body);
        let doc = ld.json();
        assert_eq!(doc["canonical_record"], v["canonical_record"], "{c}");
        assert_eq!(doc["pith_number"], v["pith_number"]);
        assert_eq!(doc["canonical_sha256"], v["canonical_sha256"]);
        // The resolver client reads it as pith.science's answer.
        let r = pith::net::resolver::read_record(&json.body).unwrap();
        assert_eq!(r.record.number().to_string(), number);
        // arXiv ids: the latest version and the version named.
        let id = v["canonical_record"]["source"]["id"].as_str().unwrap();
        let version = v["canonical_record"]["source"]["version"].as_u64().unwrap();
        for path in [format!("/arxiv/{id}"), format!("/arxiv/{id}v{version}")] {
            let r = s.get(&path, &[]);
            assert_eq!(r.status, 303, "{path}");
            assert_eq!(
                r.header("location"),
                Some(format!("/pith/{c}").as_str()),
                "{path}"
            );
        }
        // Short aliases and a lower-case code.
        for len in [8, 12, 16] {
            let r = s.get(&format!("/pith/{}", &c[..len]), &[]);
            assert_eq!(r.status, 303, "{c} {len}");
            assert_eq!(r.header("location"), Some(format!("/pith/{c}").as_str()));
        }
        let r = s.get(&format!("/pith/{}.json", c.to_lowercase()), &[]);
        assert_eq!(r.status, 301);
        assert_eq!(
            r.header("location"),
            Some(format!("/pith/{c}.json").as_str())
        );
    }
    // An older version than the one indexed, and an unknown id: 404 in JSON.
    let r = s.get("/arxiv/2402.03791v1", &[("Accept", "application/json")]);
    assert_eq!(r.status, 404);
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .contains("2402.03791v1"));
    assert_eq!(s.get("/arxiv/2402.99999", &[]).status, 404);
}

#[test]
fn the_record_pages_recipe_gives_the_canonical_hash() {
    let t = "the_record_pages_recipe_gives_the_canonical_hash";
    if !(have_tool("curl", t) && have_tool("jq", t) && have_tool("python3", t)) {
        return;
    }
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    for v in vectors() {
        let c = code(v["pith_number"].as_str().unwrap());
        // SPEC's recipe, word for word, with this server's URL.
        let script = format!(
            "curl -sH 'Accept: application/ld+json' {}/pith/{c} \
             | jq -c '.canonical_record' \
             | python3 -c \"import sys,json,hashlib; b=json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(',',':'), ensure_ascii=False).encode(); print(hashlib.sha256(b).hexdigest())\"",
            s.url
        );
        let r = run("sh".as_ref(), &["-c", &script], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout.trim(),
            v["canonical_sha256"].as_str().unwrap(),
            "{c}"
        );
    }
}

/// `pith badge`'s bytes for these arguments.
fn pith_badge(args: &[&str]) -> Vec<u8> {
    let o = std::process::Command::new(common::pith())
        .arg("badge")
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn badges_are_pith_badges_bytes_with_the_records_status() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let all = vectors();
    for (i, v) in all.iter().enumerate() {
        let number = v["pith_number"].as_str().unwrap();
        let c = code(number);
        // The first vector's bundle carries a receipt signed with the key the index was given:
        // `pith badge` finds "verified" in it with that key.
        let status = if i == 0 { "verified" } else { "computed" };
        let bundle_file = f.dir.path().join("bundles/first.json");
        let look: Vec<String> = if i == 0 {
            vec![
                "--bundle".into(),
                bundle_file.display().to_string(),
                "--key".into(),
                f.key.clone(),
            ]
        } else {
            vec!["--status".into(), "computed".into()]
        };
        for (query, args) in [
            ("", vec![]),
            ("?full=1", vec!["--full"]),
            ("?style=flat-square", vec!["--style", "flat-square"]),
            ("?qr=1", vec!["--qr"]),
            (
                "?qr_module=4&full=true",
                vec!["--qr", "--qr-module", "4", "--full"],
            ),
        ] {
            let r = s.get(&format!("/badge/{c}.svg{query}"), &[]);
            assert_eq!(r.status, 200, "{c}{query}: {}", r.text());
            assert_eq!(r.header("content-type"), Some("image/svg+xml"));
            let mut want: Vec<&str> = look.iter().map(String::as_str).collect();
            want.extend(args);
            want.push(number);
            assert!(
                r.body == pith_badge(&want),
                "{c}{query}: bytes differ from pith badge {want:?}"
            );
        }
        let shields = s.get(&format!("/badge/{c}.json"), &[]).json();
        assert_eq!(shields["schemaVersion"], 1);
        assert_eq!(shields["message"], format!("{} {status}", &c[..8]));
    }
    let c = code(all[0]["pith_number"].as_str().unwrap());
    for bad in [
        "?style=plastic",
        "?full=maybe",
        "?qr_module=99",
        "?qr_module=x",
    ] {
        let r = s.get(&format!("/badge/{c}.svg{bad}"), &[]);
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
    }
    assert_eq!(
        s.get("/badge/AAAAAAAAAAAAAAAAAAAAAAAAAA.svg", &[]).status,
        404
    );
    assert_eq!(s.get(&format!("/badge/{c}.png"), &[]).status, 404);
}

/// shields.io's endpoint schema (https://shields.io/badges/endpoint-badge), as JSON Schema.
const SHIELDS_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["schemaVersion", "label", "message"],
  "properties": {
    "schemaVersion": {"const": 1},
    "label": {"type": "string"},
    "message": {"type": "string", "minLength": 1},
    "color": {"type": "string"},
    "labelColor": {"type": "string"},
    "isError": {"type": "boolean"},
    "namedLogo": {"type": "string"},
    "logoSvg": {"type": "string"},
    "logoColor": {"type": "string"},
    "logoWidth": {"type": "number"},
    "style": {"enum": ["plastic", "flat", "flat-square", "for-the-badge", "social"]},
    "cacheSeconds": {"type": "integer", "minimum": 300}
  },
  "additionalProperties": false
}"#;

#[test]
fn the_shields_document_validates() {
    let t = "the_shields_document_validates";
    if !have_tool("python3", t) {
        return;
    }
    let ok = std::process::Command::new("python3")
        .args(["-c", "import jsonschema"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            !common::tools_required(),
            "python3 module jsonschema is missing"
        );
        common::skips::skip(t, "python3 module jsonschema not installed");
        return;
    }
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.json");
    std::fs::write(&schema, SHIELDS_SCHEMA).unwrap();
    for v in vectors().iter().take(3) {
        let c = code(v["pith_number"].as_str().unwrap());
        for q in ["", "?full=1"] {
            let doc = dir.path().join("doc.json");
            std::fs::write(&doc, s.get(&format!("/badge/{c}.json{q}"), &[]).body).unwrap();
            let r = run(
                "python3".as_ref(),
                &[
                    "-c",
                    "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1]))); \
                     c=json.load(open(sys.argv[2]))['color']; assert len(c)==6 and int(c,16)>=0, c",
                    schema.to_str().unwrap(),
                    doc.to_str().unwrap(),
                ],
                &[],
            );
            assert_eq!(r.code, 0, "{c}{q}: {}", r.stderr);
        }
    }
}

#[test]
fn bundles_state_etags_cors_and_404s() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let all = vectors();
    let first = code(all[0]["pith_number"].as_str().unwrap());
    let second = code(all[1]["pith_number"].as_str().unwrap());
    let b = s.get(&format!("/pith/{first}/bundle.json"), &[]);
    assert_eq!(b.status, 200);
    let bundle = b.json();
    assert_eq!(bundle["bundle_type"], "pith_open_graph_bundle");
    let state = s.get(&format!("/pith/{first}/state.json"), &[]).json();
    assert_eq!(state["status"], "verified");
    assert_eq!(state["receipt_verified"], true);
    assert_eq!(state["event_count"], 1);
    let ld = s.get(&format!("/pith/{first}.json"), &[]).json();
    assert_eq!(ld["status"], "verified");
    assert_eq!(ld["status_flags"]["receipt_verified"], true);
    assert_eq!(
        s.get(&format!("/pith/{second}/bundle.json"), &[]).status,
        404
    );
    assert_eq!(
        s.get(&format!("/pith/{second}/state.json"), &[]).status,
        404
    );
    assert_eq!(s.get(&format!("/pith/{first}/other.json"), &[]).status, 404);

    // ETag and 304, Cache-Control, CORS, on JSON, JSON-LD and SVG.
    for path in [
        format!("/pith/{first}.json"),
        format!("/badge/{first}.svg"),
        format!("/badge/{first}.json"),
        format!("/pith/{first}/bundle.json"),
    ] {
        let r = s.get(&path, &[]);
        assert_eq!(r.status, 200, "{path}");
        let etag = r
            .header("etag")
            .unwrap_or_else(|| panic!("{path}: no ETag"));
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        assert!(r
            .header("cache-control")
            .is_some_and(|c| c.contains("max-age")));
        assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{path}");
        let again = s.get(&path, &[("If-None-Match", etag)]);
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag));
        let other = s.get(&path, &[("If-None-Match", "\"something-else\"")]);
        assert_eq!(other.status, 200);
    }
    // Unknown numbers: 404 in JSON, or HTML for a browser; both with ETag and Cache-Control.
    let missing = "/pith/AAAAAAAAAAAAAAAAAAAAAAAAAA";
    let j = s.get(missing, &[("Accept", "application/json")]);
    assert_eq!(j.status, 404);
    assert_eq!(j.json()["status"], 404);
    assert!(j.header("etag").is_some() && j.header("cache-control").is_some());
    let h = s.get(missing, &[("Accept", "text/html,application/xhtml+xml")]);
    assert_eq!(h.status, 404);
    assert!(h.header("content-type").unwrap().starts_with("text/html"));
    assert!(h.text().contains("AAAAAAAAAAAAAAAAAAAAAAAAAA"));
    let health = s.get("/healthz", &[]);
    assert_eq!(health.status, 200);
    assert!(health.text().starts_with("ok "), "{}", health.text());
    // HEAD: the headers of GET, no body.
    let head = s.raw(
        format!("HEAD /pith/{first}.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    // A HEAD first is not kept as the answer to the GETs after it.
    let path = format!("/badge/{second}.svg?full=1");
    let head =
        s.raw(format!("HEAD {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes());
    assert_eq!((head.status, head.body.len()), (200, 0));
    let get = s.get(&path, &[]);
    assert!(get.text().starts_with("<svg"), "{}", get.text());
    assert_eq!(get.header("content-length"), head.header("content-length"));
    let _: Value = ld;
}

#[test]
fn pith_verify_passes_against_the_server() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let v = &vectors()[0];
    let number = v["pith_number"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("numbered.pdf");
    common::inject(number, &pdf);
    crate::export::verify_with_resolver(&s.url, &pdf, number, &f.key);
}
