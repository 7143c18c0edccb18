//! The badge routes: the SVG and PNG bytes `pith badge` makes, with the record's status, and
//! the shields.io endpoint document, validated against its schema.

use crate::common::{self, code, have_tool, run, vectors, Fixture, Server};

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
                "?qr=1&qr_module=4&full=true",
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
        "?qr=1&qr_module=99",
        "?qr=1&qr_module=x",
        // A module size without the QR code is refused, as pith badge --qr-module alone is.
        "?qr_module=4",
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
