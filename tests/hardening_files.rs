//! Hardening, files on disk: symlinks, devices and FIFOs as outputs, unwritable
//! directories, a full disk, concurrent and killed updates. The input is never modified except
//! by an in-place update, no partial output is left, and qpdf checks every result.

use crate::common;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::tools::*;
use crate::common::{
    assert_one_line_error, batch_manifest, copy_writable, fixture, inject_seed,
    inject_seed_in_place, leftovers, run_pith as pith, run_pith_with as pith_run, tmpdir, SEED,
};

#[test]
fn output_over_a_symlink_replaces_the_link_never_its_target() {
    let dir = tmpdir();
    let input = dir.path().join("in.pdf");
    copy_writable(&fixture("minimal.pdf"), &input);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    for (i, cmd) in [
        vec!["inject", input.to_str().unwrap(), "--number", SEED, "-o"],
        vec!["badge", SEED, "-o"],
        vec!["sty", "-o"],
    ]
    .into_iter()
    .enumerate()
    {
        let link = dir.path().join(format!("link{i}"));
        let target = if cmd[0] == "sty" {
            // `pith sty -o DIR` writes DIR/pith.sty: the link is that file.
            std::fs::create_dir_all(&link).unwrap();
            let l = link.join("pith.sty");
            std::os::unix::fs::symlink(&victim, &l).unwrap();
            l
        } else {
            std::os::unix::fs::symlink(&victim, &link).unwrap();
            link.clone()
        };
        let mut args = cmd.clone();
        let ls = link.to_str().unwrap().to_string();
        args.push(&ls);
        let r = pith(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(
            std::fs::read(&victim).unwrap(),
            b"precious",
            "{args:?} wrote through the link"
        );
        let m = std::fs::symlink_metadata(&target).unwrap();
        assert!(
            m.file_type().is_file(),
            "{args:?}: the link became the new file"
        );
    }
    // A dangling link: the same, nothing is created where it points.
    let dangling = dir.path().join("dangling.svg");
    std::os::unix::fs::symlink(dir.path().join("nowhere/x.svg"), &dangling).unwrap();
    let r = pith(&["badge", SEED, "-o", dangling.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!dir.path().join("nowhere").exists());
    // An input given through a link to the output is the same file: refused.
    let alias = dir.path().join("alias.pdf");
    std::os::unix::fs::symlink(&input, &alias).unwrap();
    let before = std::fs::read(&input).unwrap();
    let r = inject_seed(&input, &alias);
    assert_one_line_error(&r, "in.pdf");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// A private null device (`mknod c 1 3`) in `dir`, when the user may create one (root).
fn null_device(dir: &Path, name: &str) -> Option<PathBuf> {
    let p = dir.join(name);
    let ok = Command::new("mknod")
        .arg(&p)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(p)
}

fn is_char_device(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// `-o /dev/null` must write to the device, not rename a temporary file over it: as root that
/// replaced /dev/null itself with a regular file holding the output. Tested on a private null
/// device made with mknod (SKIP when that is not allowed).
#[test]
fn device_outputs_are_written_to_not_replaced() {
    let dir = tmpdir();
    let Some(null) = null_device(dir.path(), "null") else {
        common::skips::skip("device_outputs", "cannot mknod (needs root)");
        return;
    };
    let r = pith(&["badge", SEED, "-o", null.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(is_char_device(&null), "pith badge replaced the device");
    let r = inject_seed(&fixture("minimal.pdf"), &null);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(is_char_device(&null), "pith inject replaced the device");
    let pdf = dir.path().join("a.pdf");
    copy_writable(&fixture("minimal.pdf"), &pdf);
    let m = dir.path().join("m.jsonl");
    std::fs::write(
        &m,
        format!("{{\"pdf\": \"a.pdf\", \"number\": \"{SEED}\", \"out\": \"null\"}}\n"),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let r = batch_manifest(&m, &out_dir);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("\"injected\""), "{}", r.stdout);
    assert!(is_char_device(&null), "pith batch replaced the device");
}

/// The same for `pith sty -o DIR` when `DIR/pith.sty` is a device: src/cli/sty.rs renames its
/// staged temporary file over it (as root, `pith sty -o /dev` would replace a device named
/// pith.sty; with `-o DIR` the names are fixed, so this needs a planted device).
#[test]
fn sty_writes_to_a_device_at_its_output_path() {
    let dir = tmpdir();
    let Some(sty) = null_device(dir.path(), "pith.sty") else {
        return;
    };
    let r = pith(&["sty", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(is_char_device(&sty), "pith sty replaced the device");
}

/// Whether the current user can create files in a directory whose mode forbids it (root can).
fn permissions_bind() -> bool {
    let d = tmpdir();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let can = std::fs::write(d.path().join("probe"), b"x").is_err();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    can
}

/// A small tmpfs mounted for the test (root only), unmounted on drop.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str, read_only: bool) -> Option<Tmpfs> {
        let dir = tmpdir();
        let mut opts = format!("size={size},mode=0777");
        if read_only {
            opts.push_str(",ro");
        }
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &opts, "pith-test"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs { dir })
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[test]
fn unwritable_directory_is_a_one_line_error_without_leftovers() {
    let dir = tmpdir();
    let input = dir.path().join("in.pdf");
    copy_writable(&fixture("minimal.pdf"), &input);
    let (ro_dir, _mount);
    if permissions_bind() {
        let d = dir.path().join("ro");
        std::fs::create_dir(&d).unwrap();
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o555)).unwrap();
        ro_dir = d;
        _mount = None;
    } else if let Some(m) = Tmpfs::mount("1m", true) {
        ro_dir = m.path().to_owned();
        _mount = Some(m);
    } else {
        common::skips::skip(
            "unwritable_directory",
            "running as root and cannot mount a read-only tmpfs",
        );
        return;
    }
    let out = ro_dir.join("out.pdf");
    for args in [
        vec![
            "inject",
            input.to_str().unwrap(),
            "--number",
            SEED,
            "-o",
            out.to_str().unwrap(),
        ],
        vec!["badge", SEED, "-o", out.to_str().unwrap()],
        vec!["sty", "-o", ro_dir.to_str().unwrap()],
    ] {
        let r = pith(&args);
        assert_one_line_error(&r, ro_dir.to_str().unwrap());
        assert!(
            std::fs::read_dir(&ro_dir).unwrap().next().is_none(),
            "{args:?} left a file"
        );
    }
    // A read-only input file with --in-place: refused (unless the mode does not bind).
    if permissions_bind() {
        std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o444)).unwrap();
        let before = std::fs::read(&input).unwrap();
        let r = inject_seed_in_place(&input);
        assert_eq!(std::fs::read(&input).unwrap(), before);
        assert_one_line_error(&r, "in.pdf");
    }
}

/// A valid PDF of exactly `len` bytes: a fixture followed by comment lines and a repeated
/// `startxref` tail that points to the original xref.
fn padded_pdf(len: usize) -> Vec<u8> {
    let base = std::fs::read(fixture("qpdf-object-stream.pdf")).unwrap();
    let sx = base.windows(9).rposition(|w| w == b"startxref").unwrap();
    let tail = base[sx..].to_vec();
    let mut out = base;
    out.push(b'\n');
    let line = format!("%{}\n", "p".repeat(98));
    while out.len() + line.len() + tail.len() + 100 < len {
        out.extend_from_slice(line.as_bytes());
    }
    let rest = len - out.len() - tail.len();
    out.push(b'%');
    out.extend(std::iter::repeat_n(b'p', rest - 2));
    out.push(b'\n');
    out.extend_from_slice(&tail);
    assert_eq!(out.len(), len);
    out
}

#[test]
fn full_disk_leaves_no_partial_file_and_the_input_whole() {
    if !common::have_tool("qpdf", "full_disk") {
        return;
    }
    let Some(fs) = Tmpfs::mount("512k", false) else {
        common::skips::skip("full_disk", "cannot mount a tmpfs (needs root)");
        return;
    };
    // 100 bytes short of a page boundary: an in-place append fills them, then hits the full disk.
    let big = padded_pdf((75 << 12) - 100);
    let src = tmpdir();
    let input = src.path().join("big.pdf");
    std::fs::write(&input, &big).unwrap();
    assert!(qpdf_clean(&input), "the padded file is valid");
    // A new output that does not fit: error, nothing left on the full file system.
    let filler = fs.path().join("filler");
    std::fs::write(&filler, vec![0u8; 300 << 10]).unwrap();
    let out = fs.path().join("out.pdf");
    let r = inject_seed(&input, &out);
    assert_one_line_error(&r, "out.pdf");
    assert!(!out.exists());
    assert!(
        leftovers(fs.path()).is_empty(),
        "{:?}",
        leftovers(fs.path())
    );
    let r = pith(&["sty", "-o", fs.path().to_str().unwrap()]);
    if r.code != 0 {
        assert_one_line_error(&r, fs.path().to_str().unwrap());
        assert!(!fs.path().join("pith.sty").exists());
    }
    std::fs::remove_file(&filler).unwrap();
    let _ = std::fs::remove_file(fs.path().join("pith.sty"));
    // In place on a file system with too little room for the update: the file stays the
    // original, byte for byte (an append that fails part-way is cut back).
    let inplace = fs.path().join("inplace.pdf");
    std::fs::write(&inplace, &big).unwrap();
    fill_up(fs.path());
    let r = inject_seed_in_place(&inplace);
    assert_one_line_error(&r, "inplace.pdf");
    assert_eq!(
        std::fs::read(&inplace).unwrap(),
        big,
        "inject --in-place changed the file"
    );
    assert!(leftovers(fs.path()).is_empty());
    // `pith batch --in-place` appends under a lock; the append fails part-way (the last page
    // of the file has room for a few bytes) and is cut back: the original bytes, exactly.
    let _ = std::fs::remove_file(fs.path().join("filler-0"));
    std::fs::write(fs.path().join("inplace.pith"), SEED).unwrap();
    fill_up(fs.path());
    let r = pith(&["batch", "--in-place", "--dir", fs.path().to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stdout.contains("cannot append"), "{}", r.stdout);
    assert_eq!(
        std::fs::read(&inplace).unwrap(),
        big,
        "a failed append is undone"
    );
    assert!(qpdf_clean(&inplace));
}

/// Writes filler files until the file system is full.
fn fill_up(dir: &Path) {
    use std::io::Write;
    for i in 0.. {
        let p = dir.join(format!("filler-{i}"));
        let Ok(mut f) = std::fs::File::create(&p) else {
            return;
        };
        let mut wrote = false;
        while f.write_all(&[0u8; 512]).is_ok() {
            wrote = true;
        }
        if !wrote {
            return;
        }
    }
}

/// Number of `startxref` keywords (one per xref section written).
fn sections(bytes: &[u8]) -> usize {
    bytes.windows(9).filter(|w| w == b"startxref").count()
}

#[test]
fn concurrent_in_place_updates_never_corrupt_a_file() {
    if !common::have_tool("qpdf", "concurrent_in_place") {
        return;
    }
    let dir = tmpdir();
    let bin = assert_cmd::cargo::cargo_bin!("pith");
    let src = fixture("qpdf-object-stream.pdf");
    let original = std::fs::read(&src).unwrap();
    for round in 0..8 {
        let f = dir.path().join(format!("c{round}.pdf"));
        copy_writable(&src, &f);
        let children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(bin)
                    .args(["inject", "--in-place", "--number", SEED])
                    .arg(&f)
                    .env("SOURCE_DATE_EPOCH", "1700000000")
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        // The lock makes the second wait; it then finds the number there.
        let mut unchanged = 0;
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            unchanged += usize::from(String::from_utf8_lossy(&o.stdout).contains("unchanged"));
        }
        assert_eq!(
            unchanged, 1,
            "round {round}: one injects, one finds it done"
        );
        let now = std::fs::read(&f).unwrap();
        assert!(
            now.starts_with(&original),
            "round {round}: original bytes changed"
        );
        assert_eq!(
            sections(&now),
            sections(&original) + 1,
            "round {round}: exactly one update"
        );
        assert!(qpdf_clean(&f), "round {round}");
        assert!(leftovers(dir.path()).is_empty());
    }
    // `pith batch --in-place` appends under an exclusive lock: the second process waits, then
    // finds the number there ("unchanged").
    for round in 0..8 {
        let d = dir.path().join(format!("b{round}"));
        std::fs::create_dir(&d).unwrap();
        let f = d.join("p.pdf");
        copy_writable(&src, &f);
        std::fs::write(d.join("p.pith"), SEED).unwrap();
        let children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(bin)
                    .args(["batch", "--in-place", "--dir"])
                    .arg(&d)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut statuses = Vec::new();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let first: serde_json::Value =
                serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().next().unwrap())
                    .unwrap();
            statuses.push(first["status"].as_str().unwrap().to_string());
        }
        statuses.sort();
        assert_eq!(statuses, ["injected", "unchanged"], "round {round}");
        let now = std::fs::read(&f).unwrap();
        assert!(now.starts_with(&original));
        assert_eq!(
            sections(&now),
            sections(&original) + 1,
            "round {round}: exactly one update"
        );
        assert!(qpdf_clean(&f));
    }
}

#[test]
fn in_place_keeps_permissions_and_the_file() {
    let dir = tmpdir();
    for (i, cmd) in ["inject", "batch"].iter().enumerate() {
        let d = dir.path().join(format!("d{i}"));
        std::fs::create_dir(&d).unwrap();
        let f = d.join("p.pdf");
        copy_writable(&fixture("minimal.pdf"), &f);
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_times(
                std::fs::FileTimes::new()
                    .set_modified(old)
                    .set_accessed(old),
            )
            .unwrap();
        let r = if *cmd == "inject" {
            inject_seed_in_place(&f)
        } else {
            std::fs::write(d.join("p.pith"), SEED).unwrap();
            pith(&["batch", "--in-place", "--dir", d.to_str().unwrap()])
        };
        assert_eq!(r.code, 0, "{cmd}: {}", r.stderr);
        let m = std::fs::metadata(&f).unwrap();
        assert_eq!(m.permissions().mode() & 0o7777, 0o640, "{cmd}: mode kept");
        assert!(m.len() > std::fs::metadata(fixture("minimal.pdf")).unwrap().len());
        // The append keeps the inode and the timestamps.
        assert_eq!(m.mtime(), 1_500_000_000, "{cmd}: mtime kept");
    }
}

/// `pith inject --in-place` appends to the file itself, as `pith batch --in-place` does (both
/// through the engine's commit, `pith_pdf::commit`): same inode, timestamps kept, a symlink's
/// target updated. A copy renamed over the input would lose all three.
#[test]
fn inject_in_place_appends_to_the_file_itself() {
    let dir = tmpdir();
    let f = dir.path().join("p.pdf");
    copy_writable(&fixture("minimal.pdf"), &f);
    let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
    std::fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_times(std::fs::FileTimes::new().set_modified(old))
        .unwrap();
    let ino = std::fs::metadata(&f).unwrap().ino();
    let link = dir.path().join("link.pdf");
    std::os::unix::fs::symlink(&f, &link).unwrap();
    let r = inject_seed_in_place(&link);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "link kept"
    );
    let m = std::fs::metadata(&f).unwrap();
    assert_eq!(m.ino(), ino, "same inode");
    assert_eq!(m.mtime(), 1_500_000_000, "mtime kept");
}

/// `pith batch` without --in-place never writes over its input (--out-dir the input's own
/// directory, or an "out" naming the input) and never mirrors a `..` path out of --out-dir.
#[test]
fn batch_never_writes_over_its_input_or_outside_out_dir() {
    let dir = tmpdir();
    let base = dir.path().join("in");
    std::fs::create_dir_all(base.join("sub")).unwrap();
    copy_writable(&fixture("minimal.pdf"), &base.join("a.pdf"));
    copy_writable(&fixture("minimal.pdf"), &base.join("b.pdf"));
    copy_writable(&fixture("minimal.pdf"), &dir.path().join("up.pdf"));
    let before = std::fs::read(base.join("a.pdf")).unwrap();
    let m = base.join("m.jsonl");
    std::fs::write(
        &m,
        format!(
            "{{\"pdf\": \"a.pdf\", \"number\": \"{SEED}\"}}\n\
             {{\"pdf\": \"b.pdf\", \"number\": \"{SEED}\", \"out\": \"sub/../b.pdf\"}}\n\
             {{\"pdf\": \"../up.pdf\", \"number\": \"{SEED}\"}}\n"
        ),
    )
    .unwrap();
    let out = base.join("out");
    std::fs::create_dir(&out).unwrap();
    for out_dir in [&base, &out] {
        let r = batch_manifest(&m, out_dir);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        let lines: Vec<serde_json::Value> = r
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for l in &lines[..3] {
            if l["pdf"].as_str().unwrap().ends_with("a.pdf") && out_dir == &out {
                assert_eq!(l["status"], "injected", "{l}");
            } else {
                assert_eq!(l["status"], "refused", "{l}");
            }
        }
        for f in ["a.pdf", "b.pdf"] {
            assert_eq!(std::fs::read(base.join(f)).unwrap(), before, "{f} modified");
        }
        assert_eq!(std::fs::read(dir.path().join("up.pdf")).unwrap(), before);
    }
    assert!(out.join("a.pdf").exists());
}

/// Broken and hostile files from the corpus, and a few made here: `inject -o` and
/// `inject --in-place` either succeed with a valid file or fail with one line naming the file,
/// leaving no output, no temporary file and the input unchanged.
#[test]
#[ignore = "full tier (the shared corpus): cargo test -- --include-ignored"]
fn bad_inputs_never_leave_partial_outputs_or_modified_inputs() {
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("empty.pdf".into(), vec![]),
        ("header-only.pdf".into(), b"%PDF-1.7\n".to_vec()),
        ("not-a-pdf.pdf".into(), b"<script>alert(1)</script>".to_vec()),
        ("nul.pdf".into(), vec![0; 4096]),
        (
            "prev-loop.pdf".into(),
            b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer<</Size 2/Root 1 0 R/Prev 43>>\nstartxref\n43\n%%EOF\n".to_vec(),
        ),
        (
            "xref-past-end.pdf".into(),
            b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Size 2/Root 1 0 R>>\nstartxref\n99999999\n%%EOF\n".to_vec(),
        ),
        (
            "huge-size.pdf".into(),
            b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\nxref\n0 4000000000\n0000000000 65535 f \ntrailer<</Size 4000000000/Root 1 0 R>>\nstartxref\n43\n%%EOF\n".to_vec(),
        ),
    ];
    if let Some(corpus) = common::corpus("bad_inputs") {
        let mut names: Vec<PathBuf> = Vec::new();
        let mut stack = vec![corpus.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let n = p.file_name().unwrap().to_string_lossy().to_lowercase();
                if p.is_dir() {
                    stack.push(p);
                } else if n.ends_with(".pdf")
                    && ["bad", "fuzz", "broken", "damaged", "fail"]
                        .iter()
                        .any(|k| n.contains(k))
                    && e.metadata().is_ok_and(|m| m.len() < 256 << 10)
                {
                    names.push(p);
                }
            }
        }
        names.sort();
        // Every fourth file keeps the run short; the full corpus runs in tests/pdf_corpus.rs.
        for p in names.iter().step_by(4) {
            inputs.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(p).unwrap(),
            ));
        }
    }
    let dir = tmpdir();
    let (mut ok, mut refused) = (0, 0);
    for (i, (name, bytes)) in inputs.iter().enumerate() {
        let sub = dir.path().join(format!("{i}"));
        std::fs::create_dir(&sub).unwrap();
        let input = sub.join(name);
        std::fs::write(&input, bytes).unwrap();
        let out = sub.join("out.pdf");
        let limit = Duration::from_secs(60);
        let r = pith_run(
            &[
                "inject".as_ref(),
                input.as_os_str(),
                "--number".as_ref(),
                SEED.as_ref(),
                "-o".as_ref(),
                out.as_os_str(),
            ],
            None,
            limit,
        );
        assert_eq!(
            std::fs::read(&input).unwrap(),
            *bytes,
            "{name}: input modified"
        );
        if r.code == 0 {
            ok += 1;
            let o = std::fs::read(&out).unwrap();
            assert!(
                o.starts_with(bytes),
                "{name}: output does not start with the input"
            );
        } else {
            refused += 1;
            assert_one_line_error(&r, name);
            assert!(!out.exists(), "{name}: partial output");
        }
        let r = pith_run(
            &[
                "inject".as_ref(),
                "--in-place".as_ref(),
                input.as_os_str(),
                "--number".as_ref(),
                SEED.as_ref(),
            ],
            None,
            limit,
        );
        let now = std::fs::read(&input).unwrap();
        if r.code == 0 {
            assert!(
                now.starts_with(bytes),
                "{name}: in-place rewrote original bytes"
            );
        } else {
            assert_one_line_error(&r, name);
            assert_eq!(
                now, *bytes,
                "{name}: a refused in-place update modified the file"
            );
        }
        let r = pith_run(&["inspect".as_ref(), input.as_os_str()], None, limit);
        assert!(!r.stderr.contains("panicked"), "{name}: {}", r.stderr);
        assert!(leftovers(&sub).is_empty(), "{name}: {:?}", leftovers(&sub));
    }
    eprintln!(
        "bad_inputs: {} files, {ok} updated, {refused} refused",
        inputs.len()
    );
}

/// Killing `pith inject -o NEW` at any moment leaves either no output or a complete one (the
/// in-place kill loop is `killed_in_place_inject_never_tears_a_file` in tests/batch.rs).
#[test]
#[ignore = "full tier (kills processes in a loop): cargo test -- --include-ignored"]
fn killed_inject_to_a_new_file_leaves_nothing_or_everything() {
    if !common::have_tool("qpdf", "killed_inject_new_file") {
        return;
    }
    let dir = tmpdir();
    let bin = assert_cmd::cargo::cargo_bin!("pith");
    let big = padded_pdf(2 << 20);
    let input = dir.path().join("big.pdf");
    std::fs::write(&input, &big).unwrap();
    let (mut whole, mut none) = (0, 0);
    for round in 0..30u64 {
        let out = dir.path().join(format!("o{round}.pdf"));
        let mut child = Command::new(bin)
            .args(["inject", "--number", SEED, "-o"])
            .arg(&out)
            .arg(&input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros((round * 911) % 20_000));
        let _ = child.kill();
        let _ = child.wait();
        if out.exists() {
            let o = std::fs::read(&out).unwrap();
            assert!(
                o.len() > big.len() && o.starts_with(&big),
                "round {round}: torn output"
            );
            assert!(qpdf_clean(&out), "round {round}");
            whole += 1;
        } else {
            none += 1;
        }
        // A killed process cannot remove its temporary file; it must never be the output.
        for l in leftovers(dir.path()) {
            std::fs::remove_file(dir.path().join(l)).unwrap();
        }
    }
    assert_eq!(std::fs::read(&input).unwrap(), big);
    eprintln!("killed_inject_new_file: {whole} complete outputs, {none} without output, none torn");
}
