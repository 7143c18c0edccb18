//! `pith serve` on an index built to hurt, on 127.0.0.1: records larger than the answer cache
//! keeps are served whole, an index written over in place is answered 503, and an export
//! writes every record but those whose ids it cannot name.

use std::path::Path;

use crate::attacks::{ask, big_index};
use crate::common::{self, code, vectors, wait, Fixture, Server};

#[test]
#[ignore = "full tier (an index of 50,000 authors; a few seconds)"]
fn every_record_is_served_whatever_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let (index, page_code, json_code) = big_index(dir.path());
    let site = dir.path().join("site");
    let r = common::export(&index, &site, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for args in [&[][..], &["--cache-bytes", "0"][..]] {
        let s = Server::start(&index, args);
        for (path, accept, min) in [
            // The page names the first authors and links the rest: small, however many.
            (format!("/pith/{page_code}"), "text/html", 16 << 10),
            (
                format!("/pith/{json_code}.json"),
                "application/json",
                1 << 20,
            ),
            (
                format!("/pith/{json_code}.bib"),
                "application/x-bibtex",
                1 << 20,
            ),
        ] {
            // Twice: made, then (when small enough) from the cache.
            for round in 0..2 {
                let get = ask(&s, "GET", &path, accept);
                assert_eq!(
                    get.status,
                    200,
                    "{path} {args:?} round {round}: {}",
                    get.text()
                );
                assert!(get.body.len() > min, "{path}: {} bytes", get.body.len());
                let head = ask(&s, "HEAD", &path, accept);
                assert_eq!(head.status, 200, "HEAD {path}");
                assert!(head.body.is_empty());
                for h in ["content-type", "etag", "cache-control"] {
                    assert_eq!(head.header(h), get.header(h), "HEAD {path}: {h}");
                }
                let len = get
                    .header("content-length")
                    .map_or(get.body.len(), |l| l.parse().unwrap());
                assert_eq!(len, get.body.len(), "{path}");
                if let Some(l) = head.header("content-length") {
                    assert_eq!(l.parse::<usize>().unwrap(), get.body.len(), "HEAD {path}");
                }
            }
        }
        let json = ask(
            &s,
            "GET",
            &format!("/pith/{json_code}.json"),
            "application/json",
        );
        let file = std::fs::read(site.join(format!("pith/{json_code}.json"))).unwrap();
        assert!(
            json.body == file,
            "the export holds other bytes than the server answers"
        );
    }
}

#[test]
#[ignore = "full tier (an index copied over the one served; a few seconds)"]
fn an_index_overwritten_in_place_is_answered_503() {
    let f = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let served = dir.path().join("served.pith-index");
    std::fs::copy(&f.index, &served).unwrap();
    let (other, _, _) = big_index(dir.path());
    let log = dir.path().join("stderr");
    let s = Server::start_logged(&served, &[], &log);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    let path = format!("/pith/{c}.json");
    assert_eq!(s.get(&path, &[]).status, 200);
    // `cp other served`: the same file, written over.
    #[cfg(unix)]
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    #[cfg(unix)]
    let before = inode(&served);
    std::fs::copy(&other, &served).unwrap();
    #[cfg(unix)]
    assert_eq!(inode(&served), before, "the copy was not made in place");
    std::process::Command::new("kill")
        .args(["-HUP", &s.pid().to_string()])
        .status()
        .unwrap();
    // SIGHUP is the event: the server looks at its file again when told, so the next
    // answers say 503, once the signal was delivered.
    let r = wait::until_within("a 503 after SIGHUP", wait::CEILING, || {
        Some(s.get(&path, &[])).filter(|r| r.status == 503)
    });
    assert!(r.text().contains("overwritten"), "{}", r.text());
    assert!(r.header("retry-after").is_some());
    for p in ["/healthz", &format!("/badge/{c}.svg"), "/"] {
        assert_eq!(s.get(p, &[("Accept", "text/html")]).status, 503, "{p}");
    }
    wait::lines_of(&log, "the overwritten file to be said", |t| {
        t.contains("overwritten")
    });
    // A new index renamed into place is served again, once the watcher looked (it says so).
    let fresh = dir.path().join("fresh.pith-index");
    std::fs::copy(&f.index, &fresh).unwrap();
    std::fs::rename(&fresh, &served).unwrap();
    let said = wait::lines_of(&log, "the rebuilt index to be served", |t| {
        t.contains("rebuilt index served")
    });
    // Said once, whoever found it, over every look and answer from the overwrite to the swap.
    let lines: Vec<&str> = said.lines().filter(|l| l.contains("overwritten")).collect();
    assert_eq!(lines.len(), 1, "{said}");
    assert!(!said.contains("malformed"), "{said}");
    let r = s.get(&path, &[]);
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn an_export_writes_every_record_but_those_it_cannot_name() {
    let f = Fixture::new();
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("hostile.pith-index");
    std::fs::copy(&f.index, &index).unwrap();
    let conn = rusqlite::Connection::open(&index).unwrap();
    let total: i64 = conn
        .query_row("SELECT count(*) FROM records", [], |r| r.get(0))
        .unwrap();
    let codes: Vec<String> = conn
        .prepare("SELECT code FROM records ORDER BY code LIMIT 6")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(codes.len(), 6, "the fixture has too few records");
    // Each row edited as an attacker with write access to the file would: an id that leaves
    // the folder, 300 characters, a NUL, CR LF and ESC, and a code of 27 characters.
    let long = format!("2402.{}", "1".repeat(295));
    let edits: [(&str, String); 5] = [
        ("arxiv_id", "../../escaped".into()),
        ("arxiv_id", long),
        ("arxiv_id", "2402.03791\0x".into()),
        ("arxiv_id", "2402.0379\r\n\x1b[31m1".into()),
        ("code", format!("{}A", codes[4])),
    ];
    for ((column, value), code) in edits.iter().zip(&codes) {
        conn.execute(
            &format!("UPDATE records SET {column} = ?1 WHERE code = ?2"),
            [value, code],
        )
        .unwrap();
    }
    drop(conn);
    let site = dir.path().join("out/site");
    let r = common::export(&index, &site, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("5 records skipped"), "{}", r.stderr);
    for code in &codes[..5] {
        assert!(r.stderr.contains(code.as_str()), "{code}: {}", r.stderr);
        assert!(!site.join(format!("pith/{code}.json")).exists(), "{code}");
    }
    // One line per skipped record, each a line: no control character reached the report.
    assert!(
        !r.stderr.contains('\x1b') && !r.stderr.contains('\0'),
        "{:?}",
        r.stderr
    );
    assert!(!dir.path().join("escaped").exists() && !dir.path().join("out/escaped").exists());
    // Every other record has its badges (named by code) and its JSON.
    let written: std::collections::BTreeSet<String> = std::fs::read_dir(site.join("badge"))
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().to_string_lossy()[..26].to_owned())
        .collect();
    assert_eq!(written.len() as i64, total - 5, "{written:?}");
    assert!(written.contains(&codes[5]));
    for code in &written {
        assert!(site.join(format!("pith/{code}.json")).is_file(), "{code}");
    }
    assert!(site.join("healthz").is_file());
    // No file or folder name holds a control character.
    fn walk(dir: &Path, names: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            names.push(e.file_name().to_string_lossy().into_owned());
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), names);
            }
        }
    }
    let mut names = Vec::new();
    walk(&site, &mut names);
    assert!(names.len() > 100);
    for n in &names {
        assert!(!n.chars().any(char::is_control), "{n:?}");
        assert!(n.len() < 100, "{n:?}");
    }
}
