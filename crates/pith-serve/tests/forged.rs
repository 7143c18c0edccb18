//! A bundle cannot raise a badge: a forged bundle (no receipt) and an edited one (its receipt
//! signature changed), each stating every status flag, give the same badge from `pith badge
//! --bundle`, from `pith serve` and from its static export: `computed`, never `anchored`; a
//! bundle whose receipt verifies gets `verified` and no more, whatever else it states.

use serde_json::{json, Value};

use crate::common::{self, code, run, signed_bundle, vectors, Server};

/// Sets every status flag the SPEC names, at the top level, in `state` and as events.
fn state_every_flag(b: &mut Value) {
    let flags = [
        "author_attested",
        "externally_anchored",
        "storage_verified",
        "references_resolved",
    ];
    let mut state = serde_json::Map::new();
    for f in flags {
        b[f] = json!(true);
        state.insert(f.into(), json!(true));
        b["events"]
            .as_array_mut()
            .unwrap()
            .push(json!({"event_type": f}));
    }
    b["state"] = Value::Object(state);
}

#[test]
fn a_forged_or_edited_bundle_raises_no_badge_anywhere() {
    let all = vectors();
    let dir = tempfile::tempdir().unwrap();
    // 0: forged, no receipt at all. 1: edited, its receipt signature changed. 2: genuine,
    // signed with the key the index trusts, stating every flag besides.
    let (mut forged, key) = signed_bundle(&all[0]);
    forged["events"][0]["payload"]
        .as_object_mut()
        .unwrap()
        .remove("receipt");
    state_every_flag(&mut forged);
    let (mut edited, _) = signed_bundle(&all[1]);
    let sig = edited["events"][0]["payload"]["receipt"]["signature_b64"]
        .as_str()
        .unwrap()
        .to_owned();
    let flipped = format!(
        "{}{}",
        if sig.starts_with('A') { "B" } else { "A" },
        &sig[1..]
    );
    edited["events"][0]["payload"]["receipt"]["signature_b64"] = json!(flipped);
    state_every_flag(&mut edited);
    let (mut genuine, _) = signed_bundle(&all[2]);
    state_every_flag(&mut genuine);
    let cases = [
        (forged, "computed"),
        (edited, "computed"),
        (genuine, "verified"),
    ];
    let named: Vec<(String, Value)> = cases
        .iter()
        .enumerate()
        .map(|(i, (b, _))| (format!("{i}.json"), b.clone()))
        .collect();
    let index = dir.path().join("i.pith-index");
    let r = common::index_with_bundles(dir.path(), &index, &named, &key, &[]);
    let bundles = dir.path().join("bundles");
    // The edited bundle is left out, and the build says so (exit 2, the rest indexed).
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("1.json: the bundle does not verify"),
        "{}",
        r.stderr
    );
    let site = dir.path().join("site");
    let r = common::export(&index, &site, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = Server::start(&index, &[]);
    for (i, (_, want)) in cases.iter().enumerate() {
        let number = all[i]["pith_number"].as_str().unwrap();
        let c = code(number);
        let file = bundles.join(format!("{i}.json"));
        let cli = run(
            &common::pith(),
            &[
                "badge",
                number,
                "--bundle",
                file.to_str().unwrap(),
                "--key",
                &key,
            ],
            &[],
        );
        assert_eq!(cli.code, 0, "{i}: {}", cli.stderr);
        assert!(
            cli.stderr
                .contains("the bundle states that the record is anchored"),
            "{i}: what the bundle states is reported: {}",
            cli.stderr
        );
        let served = s.get(&format!("/badge/{c}.svg"), &[]);
        assert_eq!(served.status, 200);
        let exported = std::fs::read(site.join(format!("badge/{c}.svg"))).unwrap();
        assert!(
            served.body == cli.stdout.as_bytes() && exported == served.body,
            "{i}: the CLI, the server and the export draw the same badge"
        );
        assert!(
            cli.stdout.contains(&format!(">{want}</text>")) && !cli.stdout.contains("anchored"),
            "{i}: {}",
            cli.stdout
        );
        // The PDF badge and the shields document say the same.
        let pdf = s.get(&format!("/badge/{c}.pdf"), &[]);
        assert_eq!(pdf.header("content-type"), Some("application/pdf"));
        assert_eq!(
            pdf.body,
            std::fs::read(site.join(format!("badge/{c}.pdf"))).unwrap()
        );
        // The dark variant the <picture> snippet names: `pith badge --dark`'s bytes.
        let dark = s.get(&format!("/badge/{c}-dark.svg"), &[]);
        assert_eq!(dark.status, 200);
        assert_eq!(
            dark.body,
            std::fs::read(site.join(format!("badge/{c}-dark.svg"))).unwrap()
        );
        let cli_dark = run(
            &common::pith(),
            &[
                "badge",
                number,
                "--dark",
                "--bundle",
                file.to_str().unwrap(),
                "--key",
                &key,
            ],
            &[],
        );
        assert!(dark.body == cli_dark.stdout.as_bytes(), "{i}: dark badge");
        assert!(
            !cli_dark.stdout.contains("prefers-color-scheme")
                && cli_dark.stdout.contains("#79c0ff"),
            "{}",
            cli_dark.stdout
        );
        let shields = s.get(&format!("/badge/{c}.json"), &[]).json();
        assert_eq!(shields["message"], format!("{} {want}", &c[..8]));
        let ld = s.get(&format!("/pith/{c}.json"), &[]).json();
        assert_eq!(ld["status"], *want);
        let page = s
            .get(&format!("/pith/{c}"), &[("Accept", "text/html")])
            .text();
        assert!(page.contains("<html"), "{page}");
        assert!(!page.contains(">anchored<"), "{i}: {page}");
        // The edited bundle is not served at all (its checks fail); the others are, with
        // what they state listed as statements, not as a status.
        let state = s.get(&format!("/pith/{c}/state.json"), &[]);
        if i == 1 {
            assert_eq!(state.status, 404);
            continue;
        }
        let state = state.json();
        assert_eq!(state["status"], *want);
        assert!(state.get("externally_anchored").is_none(), "{state}");
        let stated: Vec<&str> = state["bundle_states"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                assert_eq!(c["checked"], false);
                c["flag"].as_str().unwrap()
            })
            .collect();
        assert!(stated.contains(&"externally_anchored"), "{state}");
        assert!(
            page.contains("the bundle states that the record is anchored"),
            "{i}: the record page lists the statement"
        );
    }
}

/// What a mirror says of the first vector's record and of a PDF carrying its number: the
/// badge's status, the JSON-LD's status, `/verify`'s verdict, and whether the signing keys
/// list `key`.
fn said(s: &Server, pdf: &[u8], key: &str) -> (String, String, String, bool) {
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    let badge = s.get(&format!("/badge/{c}.json"), &[]).json();
    let badge = badge["message"]
        .as_str()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_owned();
    let ld = s.get(&format!("/pith/{c}.json"), &[]).json()["status"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut req = format!(
        "POST /verify?file=paper.pdf HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        pdf.len()
    )
    .into_bytes();
    req.extend_from_slice(pdf);
    let verdict = s.raw(&req).json()["verdict"].as_str().unwrap().to_owned();
    let keys = s.get("/pith-signing-key.json", &[]).text().contains(key);
    (badge, ld, verdict, keys)
}

/// `pith index` run again to add records, without repeating `--key`, keeps the key the index
/// trusts: the badge, the record's JSON-LD and `/verify` still agree on "verified". Only
/// `--drop-keys` forgets it, and then all three agree on the record being no longer verified.
#[test]
fn an_index_keeps_its_keys_when_records_are_added() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, key) = signed_bundle(&vectors()[0]);
    let index = dir.path().join("i.pith-index");
    let r = common::index_with_bundles(dir.path(), &index, &[("b.json".into(), bundle)], &key, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pdf = dir.path().join("paper.pdf");
    common::inject(vectors()[0]["pith_number"].as_str().unwrap(), &pdf);
    let pdf = std::fs::read(&pdf).unwrap();
    let verified = || {
        (
            "verified".into(),
            "verified".into(),
            "verified".into(),
            true,
        )
    };
    assert_eq!(said(&Server::start(&index, &[]), &pdf, &key), verified());
    // Again, adding the OAI pages, without --key: the key is kept.
    let oai = common::data("arxiv/vectors.arxivraw.xml");
    let r = common::build_index(&index, &["--arxiv-oai", oai.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(said(&Server::start(&index, &[]), &pdf, &key), verified());
    // Dropped on purpose: the bundle is checked again with the registry key alone, and every
    // door says the record is no longer verified.
    let r = common::build_index(
        &index,
        &["--arxiv-oai", oai.to_str().unwrap(), "--drop-keys"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        said(&Server::start(&index, &[]), &pdf, &key),
        (
            "computed".into(),
            "computed".into(),
            "unverified".into(),
            false
        )
    );
    // Pinned again: verified again.
    let r = common::build_index(&index, &["--key", &key]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(said(&Server::start(&index, &[]), &pdf, &key), verified());
}
