//! `pith index`: numbers equal `pith number`'s, rebuilds report what changed, bad inputs are
//! reported, and a `kill -9` leaves the old index whole.

use std::io::Write;
use std::path::{Path, PathBuf};

use pith_serve::index::Index;
use pith_testkit::wait;
use serde_json::Value;

use crate::common::{self, data, have_tool, run, Server};

/// The vectors' snapshot and the extras' in one file.
fn snapshot(dir: &Path) -> PathBuf {
    let p = dir.join("snapshot.jsonl");
    let mut text = std::fs::read_to_string(data("arxiv/vectors.snapshot.jsonl")).unwrap();
    text.push_str(&std::fs::read_to_string(data("arxiv/extras.snapshot.jsonl")).unwrap());
    std::fs::write(&p, text).unwrap();
    p
}

fn index(out: &Path, args: &[&str]) -> common::Run {
    let mut all = vec!["index", "-o", out.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    run(&common::pith(), &all, &[])
}

fn counts(r: &common::Run) -> Value {
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

#[test]
fn the_number_an_id_leads_to_is_pith_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let numbered = run(
        &common::pith(),
        &["number", "--arxiv-snapshot", snap.to_str().unwrap()],
        &[],
    );
    assert_eq!(numbered.code, 0, "{}", numbered.stderr);
    let out = dir.path().join("i.pith-index");
    let r = index(&out, &["--arxiv-snapshot", snap.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<Value> = numbered
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 11);
    assert_eq!(counts(&r)["added"], lines.len());
    let s = Server::start(&out, &[]);
    for l in &lines {
        let code = common::code(l["number"].as_str().unwrap());
        let id = l["id"].as_str().unwrap();
        for path in [
            format!("/arxiv/{id}"),
            format!("/arxiv/{id}v{}", l["version"]),
        ] {
            let r = s.get(&path, &[]);
            assert_eq!(r.status, 303, "{path}");
            assert_eq!(
                r.header("location"),
                Some(format!("/pith/{code}").as_str()),
                "{path}"
            );
        }
        let doc = s.get(&format!("/pith/{code}.json"), &[]).json();
        assert_eq!(doc["pith_number"], l["number"]);
        assert_eq!(doc["canonical_sha256"], l["canonical_sha256"]);
        // Display fields come from the snapshot.
        assert!(!doc["name"].as_str().unwrap_or("").is_empty(), "{doc}");
        assert!(!doc["author"].as_str().unwrap_or("").is_empty(), "{doc}");
    }
}

#[test]
fn a_rebuild_keeps_what_it_had_and_reports_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let out = dir.path().join("i.pith-index");
    let first = index(&out, &["--arxiv-snapshot", snap.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let total = counts(&first)["added"].as_u64().unwrap();
    let old = Index::open(&out).unwrap();
    let before = old.arxiv("2402.03791", None).unwrap().unwrap();
    let changed_before = old.arxiv("2412.14374", None).unwrap().unwrap();
    drop(old);
    // A newer snapshot: 2402.03791 gains a v4, 2412.14374's title is corrected (same version,
    // another record), everything else is the same.
    let newer = dir.path().join("newer.jsonl");
    let mut w = std::fs::File::create(&newer).unwrap();
    for line in std::fs::read_to_string(&snap).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        if v["id"] == "2402.03791" {
            v["versions"].as_array_mut().unwrap().push(
                serde_json::json!({"version": "v4", "created": "Mon, 1 Jul 2024 10:00:00 GMT"}),
            );
        }
        if v["id"] == "2412.14374" {
            v["title"] =
                "Scaling Deep Learning Training with MPMD Pipeline Parallelism, corrected".into();
        }
        writeln!(w, "{v}").unwrap();
    }
    drop(w);
    let second = index(&out, &["--arxiv-snapshot", newer.to_str().unwrap()]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let c = counts(&second);
    assert_eq!(c["added"], 1, "{c}");
    assert_eq!(c["changed"], 1, "{c}");
    assert_eq!(c["unchanged"], total - 2, "{c}");
    assert_eq!(c["records"], total + 2, "{c}");
    assert!(
        second.stderr.contains("1 added, 1 changed"),
        "{}",
        second.stderr
    );
    let idx = Index::open(&out).unwrap();
    // The new version is the latest; the old one keeps its number.
    let latest = idx.arxiv("2402.03791", None).unwrap().unwrap();
    assert_eq!(latest.version, 4);
    assert_ne!(latest.number, before.number);
    assert_eq!(
        idx.arxiv("2402.03791", Some(3)).unwrap().unwrap().number,
        before.number
    );
    let versions: Vec<u32> = idx
        .versions("2402.03791")
        .unwrap()
        .iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(versions, [3, 4]);
    // The corrected record leads; the old number still resolves, marked superseded.
    let now = idx.arxiv("2412.14374", None).unwrap().unwrap();
    assert_ne!(now.number, changed_before.number);
    let kept = idx.record(changed_before.number.code()).unwrap().unwrap();
    assert!(kept.superseded);
    // --fresh forgets what the old index had.
    let fresh = index(
        &out,
        &["--fresh", "--arxiv-snapshot", newer.to_str().unwrap()],
    );
    assert_eq!(counts(&fresh)["records"], total, "{}", fresh.stdout);
}

#[test]
fn bad_inputs_are_reported_and_strict_leaves_the_old_index() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let out = dir.path().join("i.pith-index");
    assert_eq!(
        index(&out, &["--arxiv-snapshot", snap.to_str().unwrap()]).code,
        0
    );
    let before = std::fs::read(&out).unwrap();
    let bad = dir.path().join("bad.jsonl");
    let mut text = std::fs::read_to_string(&snap).unwrap();
    text.push_str("{\"id\": \"2401.00001\", \"title\": 3}\nnot json\n");
    std::fs::write(&bad, text).unwrap();
    let strict = index(
        &out,
        &["--strict", "--arxiv-snapshot", bad.to_str().unwrap()],
    );
    assert_eq!(strict.code, 2, "{}", strict.stderr);
    assert!(strict.stderr.contains("bad.jsonl:"), "{}", strict.stderr);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "--strict changed the index"
    );
    let lenient = index(&out, &["--arxiv-snapshot", bad.to_str().unwrap()]);
    assert_eq!(lenient.code, 2);
    assert_eq!(counts(&lenient)["bad"], 2, "{}", lenient.stdout);
    assert_eq!(
        lenient.stderr.matches("bad.jsonl:").count(),
        2,
        "{}",
        lenient.stderr
    );
    // Something that is not an index is never replaced.
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "my notes").unwrap();
    let r = index(&other, &["--arxiv-snapshot", snap.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("pith: ") && r.stderr.contains("notes.txt"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes");
    let r = run(&common::pith(), &["serve", other.to_str().unwrap()], &[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a pith index"), "{}", r.stderr);
    let r = run(
        &common::pith(),
        &["index", "-o", out.to_str().unwrap()],
        &[],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("nothing to index"), "{}", r.stderr);
}

/// A snapshot of `n` generated papers (short texts, distinct ids).
fn big_snapshot(path: &Path, n: usize) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..n {
        writeln!(
            w,
            r#"{{"id":"{:04}.{:05}","authors":"A. Author","title":"Paper {i}","abstract":"Abstract {i}.","categories":"cs.DC cs.LG","license":null,"versions":[{{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}}]}}"#,
            2301 + i / 100_000,
            i % 100_000
        )
        .unwrap();
    }
}

#[test]
fn kill_9_during_index_leaves_the_old_index_readable() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let out = dir.path().join("i.pith-index");
    let first = index(&out, &["--arxiv-snapshot", snap.to_str().unwrap()]);
    assert_eq!(first.code, 0);
    let records = counts(&first)["records"].as_u64().unwrap();
    let before = std::fs::read(&out).unwrap();
    let big = dir.path().join("big.jsonl");
    big_snapshot(&big, 300_000);
    let mut child = std::process::Command::new(common::pith())
        .args([
            "index",
            "-o",
            out.to_str().unwrap(),
            "--arxiv-snapshot",
            big.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the new index is being written beside the old one.
    let temp = wait::until_within("a temporary index to grow", wait::CEILING, || {
        let growing = std::fs::read_dir(dir.path()).unwrap().flatten().find(|e| {
            e.file_name().to_string_lossy().contains(".pith-index-")
                && e.metadata()
                    .is_ok_and(|m| m.len() > before.len() as u64 + 64 * 1024)
        });
        if growing.is_none() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "pith index ended before it could be killed"
            );
        }
        growing.map(|e| e.path())
    });
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert!(temp.exists());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "the old index was touched"
    );
    let idx = Index::open(&out).unwrap();
    assert_eq!(idx.len().unwrap(), records);
    assert!(idx.arxiv("2402.03791", None).unwrap().is_some());
    if have_tool(
        "sqlite3",
        "kill_9_during_index_leaves_the_old_index_readable",
    ) {
        let r = run(
            "sqlite3".as_ref(),
            &[
                out.to_str().unwrap(),
                "PRAGMA integrity_check; SELECT count(*) FROM records;",
            ],
            &[],
        );
        assert_eq!(r.stdout, format!("ok\n{records}\n"), "{}", r.stderr);
    }
    // The next run builds as usual.
    let again = index(&out, &["--arxiv-snapshot", snap.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}", again.stderr);
}

/// `snap` with its line of arXiv paper `id` changed by `edit` (`None` leaves it out).
fn edited(snap: &Path, out: &Path, id: &str, edit: Option<&dyn Fn(&mut Value)>) {
    let mut w = std::fs::File::create(out).unwrap();
    for line in std::fs::read_to_string(snap).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        if v["id"] == id {
            match edit {
                Some(f) => f(&mut v),
                None => continue,
            }
        }
        writeln!(w, "{v}").unwrap();
    }
}

#[test]
fn a_new_index_with_a_version_met_twice_keeps_both_records() {
    // Builds a new file: its first rows go in without the secondary indexes, the repeated
    // version takes the indexed path; the result must be the same as an update's.
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let text = std::fs::read_to_string(&snap).unwrap();
    let total = text.lines().count() as u64;
    let line = text
        .lines()
        .find(|l| l.contains("\"2412.14374\""))
        .unwrap()
        .to_owned();
    let mut v: Value = serde_json::from_str(&line).unwrap();
    v["title"] = "Scaling Deep Learning Training, corrected".into();
    let twice = dir.path().join("twice.jsonl");
    std::fs::write(&twice, format!("{text}{line}\n{v}\n")).unwrap();
    let out = dir.path().join("i.pith-index");
    let r = index(&out, &["--arxiv-snapshot", twice.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = counts(&r);
    assert_eq!(c["added"], total, "{c}");
    assert_eq!(c["unchanged"], 1, "{c}");
    assert_eq!(c["changed"], 1, "{c}");
    assert_eq!(c["records"], total + 1, "{c}");
    let idx = Index::open(&out).unwrap();
    let now = idx.arxiv("2412.14374", None).unwrap().unwrap();
    assert_eq!(now.title, "Scaling Deep Learning Training, corrected");
    if have_tool(
        "sqlite3",
        "a_new_index_with_a_version_met_twice_keeps_both_records",
    ) {
        let r = run(
            "sqlite3".as_ref(),
            &[
                out.to_str().unwrap(),
                "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name",
            ],
            &[],
        );
        assert_eq!(r.stdout, "records_code\nrecords_current\n", "{}", r.stderr);
    }
}

#[test]
fn a_served_index_rebuilt_in_place_is_served_and_a_broken_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot(dir.path());
    let out = dir.path().join("i.pith-index");
    // The first index lacks 2412.14374.
    let without = dir.path().join("without.jsonl");
    edited(&snap, &without, "2412.14374", None);
    let r = index(&out, &["--arxiv-snapshot", without.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = counts(&r)["records"].as_u64().unwrap();
    let log = dir.path().join("serve.log");
    let s = Server::start_logged(&out, &[], &log);
    let health = |s: &Server| s.get("/healthz", &[]).text();
    assert_eq!(health(&s), format!("ok {first} records\n"));
    assert_eq!(s.get("/arxiv/2412.14374", &[]).status, 404);
    // Asked twice: the second answer comes from the kept answers, which must be forgotten.
    let old = s.get("/arxiv/2402.03791v3", &[]);
    assert_eq!(old.status, 303);
    assert_eq!(
        s.get("/arxiv/2402.03791v3", &[]).header("location"),
        old.header("location")
    );

    // Rebuilt into the same path: the missing paper, and 2402.03791v3 with another record.
    let newer = dir.path().join("newer.jsonl");
    edited(
        &snap,
        &newer,
        "2402.03791",
        Some(&|v: &mut Value| v["title"] = "A corrected title".into()),
    );
    let r = index(
        &out,
        &["--fresh", "--arxiv-snapshot", newer.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let second = counts(&r)["records"].as_u64().unwrap();
    assert_eq!(second, first + 1);
    wait::until("the rebuilt index is served", || {
        s.get("/arxiv/2412.14374", &[]).status == 303
    });
    assert_eq!(health(&s), format!("ok {second} records\n"));
    let new = s.get("/arxiv/2402.03791v3", &[]);
    assert_eq!(new.status, 303);
    assert_ne!(new.header("location"), old.header("location"));
    let expected = Index::open(&out)
        .unwrap()
        .arxiv("2402.03791", Some(3))
        .unwrap()
        .unwrap();
    assert_eq!(
        new.header("location"),
        Some(format!("/pith/{}", expected.number.code()).as_str())
    );
    let doc = s
        .get(&format!("/pith/{}.json", expected.number.code()), &[])
        .json();
    assert_eq!(doc["name"], "A corrected title", "{doc}");

    // A broken file renamed into place is not served: the rebuilt index goes on answering.
    let broken = dir.path().join("broken");
    std::fs::write(&broken, b"SQLite format 3\0 but not really an index").unwrap();
    std::fs::rename(&broken, &out).unwrap();
    wait::until("the server refuses the broken file", || {
        std::fs::read_to_string(&log)
            .is_ok_and(|l| l.contains("the new file is not served, the previous index is"))
    });
    assert_eq!(health(&s), format!("ok {second} records\n"));
    assert_eq!(s.get("/arxiv/2412.14374", &[]).status, 303);
    assert_eq!(
        s.get("/arxiv/2402.03791v3", &[]).header("location"),
        new.header("location")
    );
    // And an index that replaces the broken file is served again (SIGHUP: at once).
    let r = index(
        &out,
        &["--fresh", "--arxiv-snapshot", without.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::process::Command::new("kill")
        .args(["-HUP", &s.pid().to_string()])
        .status()
        .unwrap();
    wait::until("the third index is served", || {
        s.get("/arxiv/2412.14374", &[]).status == 404
    });
    assert_eq!(health(&s), format!("ok {first} records\n"));
    assert_eq!(s.terminate(), Some(0));
}

/// A harvest of several OAI-PMH pages goes after one `--arxiv-oai`, compressed or not, as
/// `pith number --arxiv-oai` takes them, and gives the numbers `pith number` gives.
#[test]
fn several_oai_pages_after_one_flag() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.xml");
    std::fs::copy(data("arxiv/vectors.arxivraw.xml"), &a).unwrap();
    let b = dir.path().join("b.xml.gz");
    if !have_tool("gzip", "several_oai_pages_after_one_flag") {
        return;
    }
    let gz = std::process::Command::new("gzip")
        .arg("-c")
        .arg(data("arxiv/extras.arxivraw.xml"))
        .output()
        .unwrap();
    assert!(gz.status.success());
    std::fs::write(&b, gz.stdout).unwrap();
    let out = dir.path().join("i.pith-index");
    let r = index(
        &out,
        &["--arxiv-oai", a.to_str().unwrap(), b.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let both = counts(&r);
    let numbered = run(
        &common::pith(),
        &[
            "number",
            "--arxiv-oai",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(numbered.code, 0, "{numbered:?}");
    let numbers: Vec<Value> = numbered
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["number"].is_string())
        .collect();
    assert!(!numbers.is_empty(), "{numbered:?}");
    let index = Index::open(&out).unwrap();
    assert_eq!(index.len().unwrap(), numbers.len() as u64, "{both}");
    for v in &numbers {
        let n = pith::PithNumber::parse(v["number"].as_str().unwrap()).unwrap();
        assert!(index.record(n.code()).unwrap().is_some(), "{v} not indexed");
    }
}
