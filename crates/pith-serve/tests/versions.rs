//! Versions of a paper in the index: an older version's record says a newer one exists, the
//! concept badge follows the newest, and verifying against a mirror names the newer version.

use serde_json::Value;

use crate::common::{self, code, run, Server};

/// An index built from an older snapshot (2402.03791 at v1 only) and then the vectors'
/// snapshot (v1 and v3), in `dir`.
fn older_and_newer_index(dir: &std::path::Path) -> std::path::PathBuf {
    let snapshot = common::data("arxiv/vectors.snapshot.jsonl");
    let text = std::fs::read_to_string(&snapshot).unwrap();
    // The older snapshot: arXiv's metadata before 2402.03791 had its v2 and v3.
    let older: String = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["id"] == "2402.03791" {
                v["versions"] = Value::Array(v["versions"].as_array().unwrap()[..1].to_vec());
            }
            format!("{v}\n")
        })
        .collect();
    let old = dir.join("old.jsonl");
    std::fs::write(&old, older).unwrap();
    let index = dir.join("i.pith-index");
    for snap in [&old, &snapshot] {
        let r = common::build_index(&index, &["--arxiv-snapshot", snap.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    index
}

#[test]
fn an_older_version_says_a_newer_one_exists_and_the_concept_badge_follows_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let index = older_and_newer_index(dir.path());
    let s = Server::start(&index, &[]);
    let v1 = s.get("/arxiv/2402.03791v1", &[]);
    assert_eq!(v1.status, 303);
    let v1 = v1.header("location").unwrap().to_owned();
    let newest = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
    assert_ne!(v1, format!("/pith/{newest}"));
    // The page of v1 says so at the top, with the newest number and its link.
    let page = s.get(&v1, &[]).text();
    let main = &page[page.find("<main").unwrap()..];
    let notice = &main[..main.find("class=\"number\"").unwrap()];
    assert!(notice.contains("A newer version exists"), "{notice}");
    assert!(
        notice.contains(&format!("href=\"/pith/{newest}\"")),
        "{notice}"
    );
    assert!(notice.contains("version 3"), "{notice}");
    // The newest page says nothing of the kind.
    let latest = s.get(&format!("/pith/{newest}"), &[]).text();
    assert!(!latest.contains("A newer version exists"));
    // The record JSON lists every version, marks the latest and names it.
    let doc = s.get(&format!("{v1}.json"), &[]).json();
    let versions = doc["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2, "{doc}");
    assert_eq!(versions[0]["version"], 1);
    assert_eq!(versions[0]["latest"], false);
    assert_eq!(versions[1]["version"], 3);
    assert_eq!(versions[1]["latest"], true);
    assert_eq!(
        doc["newer_version"]["pith_number"],
        format!("pith:2024:{newest}")
    );
    assert_eq!(
        s.get(&format!("/pith/{newest}.json"), &[]).json()["newer_version"],
        Value::Null
    );
    // The concept badge is the newest version's badge, byte for byte, and so is its document.
    for ext in ["svg", "json"] {
        let concept = s.get(&format!("/badge/arxiv/2402.03791.{ext}"), &[]);
        assert_eq!(concept.status, 200, "{ext}");
        assert_eq!(
            concept.body,
            s.get(&format!("/badge/{newest}.{ext}"), &[]).body
        );
        let pinned = s.get(&format!("/badge/arxiv/2402.03791v1.{ext}"), &[]);
        assert_eq!(
            pinned.body,
            s.get(&format!("/badge/{}.{ext}", &v1[6..]), &[]).body
        );
    }
    let styled = s.get("/badge/arxiv/1608.03461.svg?style=flat-square", &[]);
    assert_eq!(styled.status, 200, "{}", styled.text());
    assert!(styled.text().starts_with("<svg"));
    assert_eq!(s.get("/badge/arxiv/2402.99999.svg", &[]).status, 404);
    assert_eq!(s.get("/badge/arxiv/2402.03791.png", &[]).status, 404);
}

#[test]
fn verify_against_a_mirror_names_a_newer_version() {
    let dir = tempfile::tempdir().unwrap();
    let index = older_and_newer_index(dir.path());
    let s = Server::start(&index, &[]);
    let newest = "7BMK4ZKTPUTUY3JKWBANNPOFR5";
    let v1 = s.get("/arxiv/2402.03791v1", &[]);
    assert_eq!(v1.status, 303);
    let v1 = v1
        .header("location")
        .unwrap()
        .trim_start_matches("/pith/")
        .to_owned();
    assert_ne!(v1, newest);
    let number_of = |c: &str| {
        s.get(&format!("/pith/{c}.json"), &[]).json()["pith_number"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (old, new) = (number_of(&v1), number_of(newest));
    assert_eq!(new, format!("pith:2024:{newest}"));
    let verify = |number: &str, json: bool| {
        let pdf = dir.path().join(format!("{}.pdf", code(number)));
        if !pdf.exists() {
            common::inject(number, &pdf);
        }
        let cache = tempfile::tempdir().unwrap();
        let mut args = vec!["verify", pdf.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let r = run(
            &common::pith(),
            &args,
            &[
                ("PITH_RESOLVER_URL", s.url.as_str()),
                ("PITH_CACHE_DIR", cache.path().to_str().unwrap()),
            ],
        );
        assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
        (r, pdf)
    };
    // A PDF of v1: the key names v3, its number and its page at this mirror.
    let (r, old_pdf) = verify(&old, true);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["pith_number"], old.as_str(), "{report}");
    assert_eq!(report["arxiv_version"], 1, "{report}");
    let newer = &report["newer_version"];
    assert_eq!(newer["version"], 3, "{report}");
    assert_eq!(newer["pith_number"], new.as_str(), "{report}");
    assert_eq!(newer["url"], format!("{}/pith/{newest}", s.url), "{report}");
    // The page it names is the newest version's record.
    assert_eq!(number_of(newest), new);
    let text = verify(&old, false).0.stdout;
    let line = format!("newer version: v3 is {new} ({}/pith/{newest})", s.url);
    assert!(text.lines().any(|l| l == line), "{text}");
    // A newer version changes no verdict: v1's is that of the newest, checked the same way.
    let (latest, _) = verify(&new, true);
    let latest: Value = serde_json::from_str(&latest.stdout).unwrap();
    assert_eq!(report["verdict"], latest["verdict"], "{report}\n{latest}");
    assert_eq!(report["holds"], true, "{report}");
    // The newest version's PDF has no such key value nor line.
    assert_eq!(latest["newer_version"], Value::Null, "{latest}");
    assert_eq!(latest["arxiv_version"], 3, "{latest}");
    let text = verify(&new, false).0.stdout;
    assert!(!text.contains("newer version"), "{text}");
    // The mirror's check page answers the same report, and says so in words.
    let pdf = std::fs::read(&old_pdf).unwrap();
    let post = |accept: &str| {
        let mut req = format!(
            "POST /verify?file={} HTTP/1.1\r\nHost: {}\r\nAccept: {accept}\r\nContent-Type: application/pdf\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            old_pdf.file_name().unwrap().to_str().unwrap(),
            s.url.trim_start_matches("http://"),
            pdf.len()
        )
        .into_bytes();
        req.extend_from_slice(&pdf);
        s.raw(&req)
    };
    let checked = post("application/json");
    assert_eq!(checked.status, 200, "{}", checked.text());
    // The same report, its URLs under the mirror's --base-url (relative to it without one,
    // as here) where the command's name the resolver it asked.
    let mut newer = report["newer_version"].clone();
    newer["url"] = Value::from(format!("/pith/{newest}"));
    assert_eq!(checked.json()["newer_version"], newer);
    let page = post("text/html").text();
    assert!(page.contains("A newer version exists"), "{page}");
    assert!(page.contains(&format!("href=\"/pith/{newest}\"")), "{page}");
}
