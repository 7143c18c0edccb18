//! The CLI's output files: umask modes, replacing or --no-clobber, folders made on the way, and a
//! different number replaced being said.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use crate::common::tools::{exif_tag, qpdf_clean};
use crate::common::{fixture, pith, tmpdir, SEED, SEED_CODE};
use predicates::prelude::*;
use serde_json::Value;

/// Bug 2: files written by `badge -o` and `sty -o` get the umask's mode when new, and keep
/// their mode when replaced (they were 0600 whatever the umask).
#[test]
fn bug2_outputs_get_the_umask_mode_and_keep_an_existing_mode() {
    let dir = tmpdir();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let badge = dir.path().join("b.svg");
    let sh = |cmd: String| {
        let o = std::process::Command::new("sh")
            .args(["-c", &cmd])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let bin = assert_cmd::cargo::cargo_bin!("pith").display().to_string();
    sh(format!(
        "umask 022 && {bin} badge {SEED} -o {}",
        badge.display()
    ));
    assert_eq!(mode(&badge), 0o644);
    sh(format!(
        "umask 022 && {bin} sty -o {}",
        dir.path().display()
    ));
    assert_eq!(mode(&dir.path().join("pith.sty")), 0o644);
    assert_eq!(mode(&dir.path().join("pith.sty.ltxml")), 0o644);
    // An existing file keeps its own mode, whatever the umask.
    std::fs::set_permissions(&badge, std::fs::Permissions::from_mode(0o640)).unwrap();
    let sty = dir.path().join("pith.sty");
    std::fs::set_permissions(&sty, std::fs::Permissions::from_mode(0o664)).unwrap();
    sh(format!(
        "umask 077 && {bin} badge {SEED} -o {}",
        badge.display()
    ));
    sh(format!(
        "umask 077 && {bin} sty -o {}",
        dir.path().display()
    ));
    assert_eq!(mode(&badge), 0o640);
    assert_eq!(mode(&sty), 0o664);
    // And a new file under umask 077 is private, as the user asked.
    let private = dir.path().join("p.svg");
    sh(format!(
        "umask 077 && {bin} badge {SEED} -o {}",
        private.display()
    ));
    assert_eq!(mode(&private), 0o600);
}

/// Habit: an explicit overwrite policy. Outputs are replaced by default (atomically, as qpdf
/// does); `--no-clobber` (`-n`, as `cp -n`, exiftool's default) refuses an existing one and
/// leaves it as it was.
#[test]
fn outputs_are_replaced_unless_no_clobber() {
    let dir = tmpdir();
    let badge = dir.path().join("b.svg");
    std::fs::write(&badge, "old").unwrap();
    pith()
        .args(["badge", SEED, "-n", "-o"])
        .arg(&badge)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exists, not replaced"));
    assert_eq!(std::fs::read_to_string(&badge).unwrap(), "old");
    pith()
        .args(["badge", SEED, "-o"])
        .arg(&badge)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&badge).unwrap().starts_with("<svg"));
    let out = dir.path().join("o.pdf");
    std::fs::write(&out, "old").unwrap();
    pith()
        .args(["--no-clobber", "inject"])
        .arg(fixture("minimal.pdf"))
        .args(["--number", SEED, "-o"])
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    std::fs::write(dir.path().join("pith.sty"), "old").unwrap();
    pith()
        .args(["sty", "-n", "-o"])
        .arg(dir.path())
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("pith.sty")).unwrap(),
        "old"
    );
    // -n with /dev/null as output is no refusal: a device is not a file to keep.
    pith()
        .args(["badge", SEED, "-n", "-o", "/dev/null"])
        .assert()
        .success();
}

/// Replacing a different number is said (text, --json, batch line and summary);
/// completing the same code is not a replacement.
#[test]
fn replacing_a_different_number_is_said() {
    let dir = tmpdir();
    let a = dir.path().join("a.pdf");
    common::copy_writable(&fixture("minimal.pdf"), &a);
    let inject = |n: &str, json: bool| {
        let mut c = pith();
        c.args(["inject", "--in-place", "--number", n]).arg(&a);
        if json {
            c.arg("--json");
        }
        c.output().unwrap()
    };
    let first: Value = serde_json::from_slice(&inject(common::OTHER, true).stdout).unwrap();
    assert_eq!(first["replaced"], Value::Null);
    let o = inject(SEED, false);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("replaced {SEED} (was {})", common::OTHER)),
        "{text}"
    );
    let again: Value = serde_json::from_slice(&inject(SEED, true).stdout).unwrap();
    assert_eq!(
        (again["status"].as_str(), &again["replaced"]),
        (Some("unchanged"), &Value::Null)
    );
    // A batch over it with the other number: the line and the summary say so.
    std::fs::write(dir.path().join("a.pith"), common::OTHER).unwrap();
    let o = pith()
        .args(["batch", "--in-place", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["replaced"], SEED);
    assert_eq!(lines.last().unwrap()["replaced"], 1);
}

/// One rule for every output, as `--out-dir` and `--out-tar` have: the folders an output
/// needs are made when it is written (`-o new/x.pdf` in a fresh directory), and none when the
/// input is refused. An output that is a folder (an existing one, or a name ending in `/`)
/// gets the input's name inside it, as with `cp`; a badge gets the name snippets use.
#[test]
fn outputs_make_their_folders_and_go_into_a_named_folder() {
    if !common::have_tool("qpdf", "outputs_make_their_folders") {
        return;
    }
    let dir = tmpdir();
    let pdf = fixture("minimal.pdf");
    let os = |p: &std::path::Path| std::ffi::OsString::from(p);
    let inject = |out: std::ffi::OsString, input: &std::path::Path| {
        pith()
            .arg("inject")
            .arg(input)
            .args(["--number", SEED, "-o"])
            .arg(out)
            .output()
            .unwrap()
    };
    // A missing folder on the way to a file: made, for every writer.
    let missing = dir.path().join("no/such");
    let o = inject(os(&missing.join("a.pdf")), &pdf);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(qpdf_clean(&missing.join("a.pdf")));
    assert!(exif_tag(&missing.join("a.pdf"), "Identifier").contains(SEED_CODE));
    for args in [
        vec![
            os("badge".as_ref()),
            SEED.into(),
            "-o".into(),
            os(&dir.path().join("b1/b.svg")),
        ],
        vec![
            os("strip".as_ref()),
            os(&pdf),
            "-o".into(),
            os(&dir.path().join("s1/c.pdf")),
        ],
    ] {
        let o = pith().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    }
    assert!(dir.path().join("b1/b.svg").is_file() && qpdf_clean(&dir.path().join("s1/c.pdf")));
    // A refused input makes no folder, and names no temporary file.
    let broken = dir.path().join("broken.pdf");
    std::fs::write(&broken, b"%PDF-1.7\nnot a pdf").unwrap();
    let o = inject(os(&dir.path().join("never/made/x.pdf")), &broken);
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("pith-tmp"));
    assert!(!dir.path().join("never").exists());
    // An existing folder, with or without the final slash, and a new one named with it: the
    // input's name inside.
    let existing = dir.path().join("outd");
    std::fs::create_dir(&existing).unwrap();
    let mut slash = os(&dir.path().join("newd"));
    slash.push("/");
    for out in [os(&existing), slash] {
        let o = inject(out.clone(), &pdf);
        assert_eq!(o.status.code(), Some(0), "{out:?}: {o:?}");
        let written = std::path::Path::new(&out).join("minimal.pdf");
        assert!(
            exif_tag(&written, "Identifier").contains(SEED_CODE),
            "{out:?}"
        );
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&*written.to_string_lossy())
                || String::from_utf8_lossy(&o.stdout).contains("minimal.pdf"),
            "{o:?}"
        );
    }
    let o = pith()
        .args(["strip", "-o"])
        .arg(&existing)
        .arg(existing.join("minimal.pdf"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "the input itself: {o:?}");
    let o = pith()
        .args(["badge", SEED, "-o"])
        .arg(&existing)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let svg = existing.join(format!("pith-{}.svg", &SEED_CODE[..8]));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // Standard input has no name to give the file inside a folder: said, nothing written.
    let o = pith()
        .args(["inject", "-", "--number", SEED, "-o"])
        .arg(&existing)
        .write_stdin(std::fs::read(&pdf).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("pith: ") && err.contains("is a folder"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&existing).unwrap().count(), 2);
}
