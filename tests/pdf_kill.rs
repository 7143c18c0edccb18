//! Part 2: exact crash recovery for `pith inject --in-place`. strace kills pith
//! with SIGKILL on entry to its N-th `pwrite64`, `fdatasync` or `ftruncate` (every N until a
//! run completes), which lands between every step of the commit protocol and between the
//! 1 KB writes of the update itself. After each kill:
//! - the file is the original, byte for byte, or the original followed by pith's
//!   uncommitted update (qpdf --check as clean as the original, pikepdf sees no number,
//!   `pith inspect` reports the uncommitted bytes), or the complete update;
//! - `pith inject -o` from it writes exactly what it writes from the original;
//! - a rerun of `pith inject --in-place` gives exactly the bytes of an uninterrupted run.
//!
//! Before this fix the protocol left the original plus dead bytes that a rerun kept (and
//! appended after), so the last check failed.

use crate::common;

use std::path::Path;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

fn run_inject(file: &Path, extra: &[&str], kill: Option<(&str, usize)>) -> (Option<i32>, String) {
    let pith = assert_cmd::cargo::cargo_bin("pith");
    let mut c = match kill {
        Some((syscall, n)) => {
            let mut c = std::process::Command::new("strace");
            c.args([
                "-f",
                "-qq",
                "-o",
                "/dev/null",
                "-e",
                &format!("trace={syscall}"),
                "-e",
                &format!("inject={syscall}:signal=KILL:when={n}"),
            ])
            .arg(&pith);
            c
        }
        None => std::process::Command::new(&pith),
    };
    c.arg("inject")
        .arg(file)
        .args(["--number", A])
        .args(extra)
        .env("SOURCE_DATE_EPOCH", "1700000000");
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    let o = c.output().expect("run pith");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn qpdf_warnings(path: &Path) -> Vec<String> {
    let p = path.to_str().unwrap();
    let (_, out, err) = common::run("qpdf", &["--check", p], None);
    format!("{out}{err}")
        .lines()
        .filter(|l| l.contains("WARNING") || l.contains("rror"))
        .map(|l| l.replace(p, "FILE"))
        .collect()
}

#[test]
#[ignore = "full tier (kills processes in a loop): cargo test -- --include-ignored"]
fn in_place_kills_at_every_step_are_recovered_exactly() {
    let t = "in_place_kills_at_every_step_are_recovered_exactly";
    if !common::have_tool("strace", t)
        || !common::have_tool("qpdf", t)
        || !common::have_python_module("pikepdf", t)
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut states = 0;
    let mut failures = Vec::new();
    for name in [
        "minimal.pdf",
        "qpdf-object-stream.pdf",
        "pyhanko-signed-twice.pdf",
    ] {
        let original = std::fs::read(common::root().join("tests/fixtures").join(name)).unwrap();
        let work = dir.path().join(name);
        let orig_path = dir.path().join(format!("orig-{name}"));
        std::fs::write(&orig_path, &original).unwrap();
        let orig_warnings = qpdf_warnings(&orig_path);
        // The uninterrupted results.
        std::fs::write(&work, &original).unwrap();
        assert_eq!(run_inject(&work, &["--in-place"], None).0, Some(0));
        let clean_in_place = std::fs::read(&work).unwrap();
        let clean_out = dir.path().join("clean-out.pdf");
        assert_eq!(
            run_inject(&orig_path, &["-o", clean_out.to_str().unwrap()], None).0,
            Some(0)
        );
        let clean_out = std::fs::read(&clean_out).unwrap();

        for syscall in ["pwrite64", "fdatasync", "ftruncate"] {
            for n in 1..=40 {
                std::fs::write(&work, &original).unwrap();
                let (code, err) = run_inject(&work, &["--in-place"], Some((syscall, n)));
                let killed = code != Some(0);
                let s = std::fs::read(&work).unwrap();
                let at = format!("{name}, kill at {syscall} #{n}");
                if killed {
                    states += 1;
                    if s != original && s != clean_in_place {
                        // Pending: the original plus pith's uncommitted bytes.
                        if !s.starts_with(&original) {
                            failures.push(format!("{at}: the original is not a prefix"));
                            continue;
                        }
                        if qpdf_warnings(&work) != orig_warnings {
                            failures.push(format!("{at}: qpdf --check {:?}", qpdf_warnings(&work)));
                        }
                        if common::tools::pikepdf_number(&work) != "None" {
                            failures.push(format!("{at}: pikepdf sees a number"));
                        }
                        let o = common::pith().arg("inspect").arg(&work).output().unwrap();
                        let text = String::from_utf8_lossy(&o.stdout);
                        if !text
                            .contains(&format!("uncommitted: {} bytes", s.len() - original.len()))
                            || !text.contains("number: -")
                        {
                            failures.push(format!("{at}: inspect says {text}"));
                        }
                    }
                    // Any pith run sees the original: -o writes what it writes from it.
                    let out = dir.path().join("out.pdf");
                    let _ = std::fs::remove_file(&out);
                    if run_inject(&work, &["-o", out.to_str().unwrap()], None).0 != Some(0)
                        || std::fs::read(&out).unwrap() != clean_out && s != clean_in_place
                    {
                        failures.push(format!("{at}: -o from the killed file differs"));
                    }
                } else if !err.is_empty() && code != Some(0) {
                    failures.push(format!("{at}: {err}"));
                }
                // A rerun ends exactly where an uninterrupted run does.
                let (code, err) = run_inject(&work, &["--in-place"], None);
                if code != Some(0) {
                    failures.push(format!("{at}: rerun failed: {err}"));
                } else if std::fs::read(&work).unwrap() != clean_in_place {
                    failures.push(format!(
                        "{at}: rerun gives other bytes than an uninterrupted run ({} vs {})",
                        std::fs::metadata(&work).unwrap().len(),
                        clean_in_place.len()
                    ));
                }
                if !killed {
                    break;
                }
            }
        }
    }
    eprintln!("{states} killed states checked");
    assert!(states >= 12, "too few kill points: {states}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "full tier (kills processes in a loop): cargo test -- --include-ignored"]
fn a_kill_during_recovery_is_recovered_too() {
    let t = "a_kill_during_recovery_is_recovered_too";
    if !common::have_tool("strace", t) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read(common::root().join("tests/fixtures/minimal.pdf")).unwrap();
    let work = dir.path().join("m.pdf");
    std::fs::write(&work, &original).unwrap();
    run_inject(&work, &["--in-place"], None);
    let clean = std::fs::read(&work).unwrap();
    // Kill before the commit write: pending state.
    std::fs::write(&work, &original).unwrap();
    let (code, _) = run_inject(&work, &["--in-place"], Some(("pwrite64", 3)));
    assert_ne!(code, Some(0));
    let pending = std::fs::read(&work).unwrap();
    assert!(pending.len() > original.len() && pending.starts_with(&original));
    // Kill the recovering run at its truncation: nothing changed, still recoverable.
    let (code, _) = run_inject(&work, &["--in-place"], Some(("ftruncate", 1)));
    assert_ne!(code, Some(0));
    assert_eq!(std::fs::read(&work).unwrap(), pending);
    // Kill it right after (before its own first write): the original, exactly.
    let (code, _) = run_inject(&work, &["--in-place"], Some(("pwrite64", 1)));
    assert_ne!(code, Some(0));
    assert_eq!(std::fs::read(&work).unwrap(), original);
    assert_eq!(run_inject(&work, &["--in-place"], None).0, Some(0));
    assert_eq!(std::fs::read(&work).unwrap(), clean);
}
