//! What each command does with what it is asked, whichever way it is asked: reruns that
//! find the work done, dry runs that check what they plan, outputs that keep the input's
//! permissions, formats that follow the output's name, and refusals that give a reason.
//! PDFs are checked with qpdf and exiftool, not only with pith.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::tools::{exif_tag, qpdf_clean};
use crate::common::{copy_writable, fixture, SEED};
use serde_json::Value;

fn report_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("report line {l:?}: {e}")))
        .collect()
}

fn line_of<'a>(lines: &'a [Value], name: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["pdf"].as_str().is_some_and(|p| p.ends_with(name)))
        .unwrap_or_else(|| panic!("no line for {name}: {lines:?}"))
}

/// A second stamped run into the same output folder finds every output done: `unchanged`,
/// and not a byte rewritten (same content, same inode, same modification time).
#[test]
fn stamped_rerun_is_unchanged() {
    if !common::have_tool("qpdf", "stamped_rerun")
        || !common::have_tool("exiftool", "stamped_rerun")
    {
        return;
    }
    let dir = common::tmpdir();
    copy_writable(&fixture("minimal.pdf"), &dir.path().join("in/a.pdf"));
    std::fs::write(dir.path().join("in/a.pith"), SEED).unwrap();
    copy_writable(
        &fixture("qpdf-object-stream.pdf"),
        &dir.path().join("in/sub/b.pdf"),
    );
    std::fs::write(dir.path().join("in/sub/b.pith"), SEED).unwrap();
    let run = || {
        let o = common::pith()
            .current_dir(dir.path())
            .args(["batch", "--dir", "in", "--out-dir", "out", "--stamp"])
            .args(["--report", "-"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        report_lines(&o.stdout)
    };
    let first = run();
    let outs = ["out/a.pdf", "out/sub/b.pdf"].map(|p| dir.path().join(p));
    for (name, out) in ["a.pdf", "b.pdf"].iter().zip(&outs) {
        assert_eq!(line_of(&first, name)["status"], "injected", "{first:?}");
        assert!(qpdf_clean(out));
        assert_eq!(exif_tag(out, "PithNumber"), SEED);
    }
    let before: Vec<_> = outs
        .iter()
        .map(|p| {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::metadata(p).unwrap();
            (std::fs::read(p).unwrap(), m.ino(), m.modified().unwrap())
        })
        .collect();
    let second = run();
    for name in ["a.pdf", "b.pdf"] {
        assert_eq!(line_of(&second, name)["status"], "unchanged", "{second:?}");
    }
    assert_eq!(second.last().unwrap()["unchanged"], 2, "{second:?}");
    for (p, (bytes, ino, mtime)) in outs.iter().zip(&before) {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(p).unwrap();
        assert_eq!(&std::fs::read(p).unwrap(), bytes, "{}", p.display());
        assert_eq!(
            (m.ino(), m.modified().unwrap()),
            (*ino, *mtime),
            "rewritten"
        );
    }
}

/// A dry run plans from the inputs: a manifest entry whose PDF is missing is an error line,
/// not `planned`; a present one is planned and nothing is written.
#[test]
fn batch_dry_run_checks_its_inputs() {
    let dir = common::tmpdir();
    copy_writable(&fixture("minimal.pdf"), &dir.path().join("here.pdf"));
    let manifest = dir.path().join("m.jsonl");
    std::fs::write(
        &manifest,
        format!(
            "{{\"pdf\":\"here.pdf\",\"number\":\"{SEED}\"}}\n\
             {{\"pdf\":\"gone.pdf\",\"number\":\"{SEED}\"}}\n"
        ),
    )
    .unwrap();
    let o = common::pith()
        .args(["batch", "--dry-run", "--report", "-", "--manifest"])
        .arg(&manifest)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let lines = report_lines(&o.stdout);
    assert_eq!(
        line_of(&lines, "here.pdf")["status"],
        "planned",
        "{lines:?}"
    );
    let gone = line_of(&lines, "gone.pdf");
    assert!(
        gone["status"] == "failed" || gone["status"] == "refused",
        "{gone}"
    );
    assert!(
        gone["reason"]
            .as_str()
            .is_some_and(|r| r.contains("gone.pdf")),
        "{gone}"
    );
    assert!(!dir.path().join("out").exists(), "a dry run writes nothing");
}

/// `inject --dry-run` needs no output: it reports what it would write, from a file or from
/// standard input, and writes nothing.
#[test]
fn inject_dry_run_needs_no_output() {
    let dir = common::tmpdir();
    let input = dir.path().join("a.pdf");
    copy_writable(&fixture("minimal.pdf"), &input);
    let before = std::fs::read(&input).unwrap();
    let o = common::pith()
        .arg("inject")
        .arg(&input)
        .args(["--number", SEED, "--dry-run", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "planned", "{v}");
    assert!(
        v["bytes_after"].as_u64() > v["bytes_before"].as_u64(),
        "{v}"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let o = common::pith()
        .args(["inject", "-", "--number", SEED, "--dry-run", "--json"])
        .write_stdin(before.clone())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "planned", "{v}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

/// An output keeps the input's permissions whether it is an incremental update or a whole
/// rewrite (with and without a stamp on top).
#[test]
fn rewrite_keeps_the_inputs_permissions() {
    if !common::have_tool("qpdf", "rewrite_permissions") {
        return;
    }
    let dir = common::tmpdir();
    let input = dir.path().join("a.pdf");
    copy_writable(&fixture("minimal.pdf"), &input);
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o640)).unwrap();
    for (name, extra) in [
        ("update.pdf", &[][..]),
        ("rewrite.pdf", &["--rewrite"][..]),
        ("rewrite-stamp.pdf", &["--rewrite", "--stamp"][..]),
    ] {
        let out = dir.path().join(name);
        let (code, _, stderr) = common::inject(&input, SEED, &out, extra);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(qpdf_clean(&out), "{name}");
        assert_eq!(mode(&out), 0o640, "{name}");
    }
}

/// `pith number --arxiv-atom F --next`, offline: the record of the next version is the
/// entry's record with the version one higher (its v1 date and metadata kept), so its number
/// is that of the example record with `"version": 4`; `--next` without a latest version to
/// follow is refused with what to give.
#[test]
fn next_version_from_an_atom_file_offline() {
    let dir = common::tmpdir();
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(common::example("2402.03791v3.record.json")).unwrap(),
    )
    .unwrap();
    v["source"]["version"] = 4.into();
    let v4 = dir.path().join("v4.record.json");
    std::fs::write(&v4, v.to_string()).unwrap();
    let number = |args: &[&str]| {
        let o = common::pith()
            .arg("number")
            .args(args)
            .arg("--offline")
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).trim().to_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, want, e) = number(&["--record", v4.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{e}");
    let atom = common::example("2402.03791v3.atom.xml");
    let (code, got, e) = number(&["--arxiv-atom", atom.to_str().unwrap(), "--next"]);
    assert_eq!((code, got.as_str()), (Some(0), want.as_str()), "{e}");
    assert_ne!(got, SEED, "the next version has a number of its own");
    let (code, _, e) = number(&[
        "--record",
        common::example("2402.03791v3.record.json")
            .to_str()
            .unwrap(),
        "--next",
    ]);
    assert_eq!(code, Some(2));
    assert!(e.contains("--arxiv-atom") && e.contains("--arxiv"), "{e}");
    // Offline with nothing cached, the way out is the Atom file, not back to the network.
    let (code, _, e) = number(&["2402.03791", "--next"]);
    assert_eq!(code, Some(2));
    assert!(e.contains("--arxiv-atom FILE"), "{e}");
}

/// A badge's format follows the output's name: `.pdf` is a PDF, `.svg` or no name an SVG, and
/// a name of another image format (`.png`) or one that contradicts `--format` is refused
/// with nothing written. `--status` offers only what a badge may be told.
#[test]
fn badge_format_follows_the_output_name() {
    let dir = common::tmpdir();
    let badge = |extra: &[&str]| {
        common::pith()
            .current_dir(dir.path())
            .args(["badge", SEED])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = badge(&["-o", "b.pdf"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(dir.path().join("b.pdf"))
        .unwrap()
        .starts_with(b"%PDF-"));
    let o = badge(&["-o", "b.svg"]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(dir.path().join("b.svg"))
        .unwrap()
        .starts_with("<svg"));
    for (extra, says) in [
        (&["-o", "b.png"][..], "not PNG"),
        (&["-o", "c.PNG"][..], "not PNG"),
        (&["-o", "c.pdf", "--format", "svg"][..], "the name says PDF"),
    ] {
        let o = badge(extra);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(e.contains(says) && e.lines().count() == 1, "{e}");
        assert!(
            !dir.path().join(extra[1]).exists(),
            "{extra:?} wrote a file"
        );
    }
    // The help offers the values a badge accepts; "verified" is refused with the reason.
    let help = common::pith().args(["badge", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("[possible values: computed]"), "{help}");
    let o = badge(&["--status", "verified"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        e.contains("found, not stated") && e.contains("--bundle"),
        "{e}"
    );
    assert!(o.stdout.is_empty());
}

/// `-q` means errors only: `inspect -q` and `verify -q` print no report and answer with
/// their exit status; an error is still its one line; `--json` is printed when asked for.
#[test]
fn quiet_means_errors_only() {
    let dir = common::tmpdir();
    let plain = fixture("minimal.pdf");
    let numbered = dir.path().join("n.pdf");
    let (code, _, e) = common::inject(&plain, SEED, &numbered, &[]);
    assert_eq!(code, 0, "{e}");
    let record = common::example("2402.03791v3.record.json");
    let run = |args: &[&str]| {
        let o = common::pith().args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let n = numbered.to_str().unwrap();
    let r = record.to_str().unwrap();
    for (args, want) in [
        (vec!["inspect", "-q", n], 0),
        (vec!["inspect", "-q", n, "--number", common::OTHER], 1),
        (vec!["verify", "-q", n, "--record", r], 0),
        (
            vec!["verify", "-q", plain.to_str().unwrap(), "--record", r],
            1,
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(want), "{args:?}: {out}{err}");
        assert!(out.is_empty() && err.is_empty(), "{args:?}: {out}{err}");
    }
    let (code, _, err) = run(&["inspect", "-q", "/nonexistent/x.pdf"]);
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, out, _) = run(&["inspect", "-q", "--json", n]);
    assert_eq!(code, Some(0));
    assert!(out.contains(SEED), "{out}");
}

/// One arXiv id grammar: an id with an upper-case archive is refused by the record code (a
/// record file) and by the network code (`--arxiv`), both before anything is sent.
#[test]
fn one_arxiv_id_grammar() {
    let dir = common::tmpdir();
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(common::example("1608.03461v2.record.json")).unwrap(),
    )
    .unwrap();
    for (id, ok) in [("hep-th/9901001", true), ("HEP-TH/9901001", false)] {
        v["source"]["id"] = id.into();
        let rec = dir.path().join("r.json");
        std::fs::write(&rec, v.to_string()).unwrap();
        let o = common::pith()
            .args(["number", "--offline", "--record"])
            .arg(&rec)
            .output()
            .unwrap();
        assert_eq!(o.status.success(), ok, "record {id}: {o:?}");
        let o = common::pith()
            .args(["number", "--offline", id])
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{id}");
        // A good id fails for want of the cache, a bad one as not an id.
        assert_eq!(e.contains("not in the cache"), ok, "{id}: {e}");
    }
}

/// Each default of Python's signatures (python/src) and of its stubs (`_native.pyi`), as
/// `name=value` or `name: type = value`.
fn python_defaults(name: &str) -> Vec<(String, String)> {
    let python = common::root().join("python");
    let mut found = Vec::new();
    let mut sources: Vec<_> = std::fs::read_dir(python.join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    sources.sort();
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        for signature in text.split("#[pyo3(signature = (").skip(1) {
            let signature = &signature[..signature.find("))]").unwrap()];
            for part in signature.split(',') {
                if let Some((n, v)) = part.trim().split_once('=') {
                    if n.trim() == name {
                        found.push((path.display().to_string(), v.trim().to_owned()));
                    }
                }
            }
        }
    }
    let stub = python.join("pith_number/_native.pyi");
    for line in std::fs::read_to_string(&stub).unwrap().lines() {
        let line = line.trim().trim_end_matches(',');
        if let Some((n, rest)) = line.split_once(':') {
            if n == name {
                if let Some((_, v)) = rest.split_once(" = ") {
                    found.push((stub.display().to_string(), v.trim().to_owned()));
                }
            }
        }
    }
    found
}

/// Python leaves the library's defaults to the library: each of these keywords defaults to
/// `None` in its signatures and stubs, and the request the keywords fill
/// (`job::update::UpdateRequest`, `job::badge::BadgeRequest`) gives the default — the
/// same value `pith`'s help shows — so that no door spells a default of its own.
#[test]
fn python_leaves_the_librarys_defaults_to_its_requests() {
    use pith::job::defaults as d;
    for name in [
        "stamp_size",
        "file_timeout",
        "stamp_form",
        "stamp_position",
        "style",
        "label",
        "field",
    ] {
        let found = python_defaults(name);
        assert!(!found.is_empty(), "{name}: no default found in python/");
        for (file, value) in found {
            assert_eq!(value, "None", "{file}: {name}'s default");
        }
    }
    // What `None` becomes is the library's table, whichever door fills the request.
    let s = pith::job::update::UpdateRequest {
        stamp: true,
        ..Default::default()
    }
    .settings()
    .unwrap();
    let stamp = s.stamp.unwrap();
    assert_eq!(stamp.size, d::STAMP_SIZE);
    assert_eq!(Ok(stamp.form), d::STAMP_FORM.parse());
    assert_eq!(Ok(stamp.position), d::STAMP_POSITION.parse());
    assert_eq!(
        s.file_timeout,
        Some(std::time::Duration::from_secs(d::FILE_TIMEOUT_SECS))
    );
    let badge = pith::job::badge::BadgeRequest::default().options().unwrap();
    assert_eq!(
        format!("{badge:?}"),
        format!("{:?}", pith::badge::Look::default())
    );
}

/// Every request the doors build as data survives JSON unchanged, and a request left empty
/// takes the library's defaults: what a door leaves out, the library fills.
#[test]
fn requests_round_trip_through_json() {
    use pith::job::badge::BadgeRequest;
    use pith::job::pdf_input::PdfInput;
    use pith::job::sty::StyRequest;
    use pith::job::update::UpdateRequest;
    use pith::job::StripRequest;
    use serde::{de::DeserializeOwned, Serialize};

    fn round<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Default>(r: T) {
        let text = serde_json::to_string(&r).unwrap();
        let back: T = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r, "{text}");
        let empty: T = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, T::default(), "{{}} is the default request");
    }
    round(StripRequest {
        pdf: PdfInput {
            input: Some("in.pdf".into()),
            file_timeout: Some(0.0),
            password: None,
        },
        output: Some("out/".into()),
        in_place: false,
        force: true,
        repair: true,
        no_clobber: true,
    });
    round(UpdateRequest {
        stamp: true,
        stamp_size: Some(8.0),
        file_timeout: Some(3.5),
        ..Default::default()
    });
    round(BadgeRequest {
        full: true,
        ..Default::default()
    });
    round(pith::job::badge::SnippetRequest {
        format: Some("html".into()),
        dark_src: Some("dark.svg".into()),
        ..Default::default()
    });
    round(StyRequest {
        date: Some("2026/01/02".into()),
        ..Default::default()
    });
    round(pith::job::refs::request::RefsRequest {
        paths: vec!["a.pdf".into(), "srcs/".into()],
        output: Some("refs.jsonl".into()),
        file_timeout: Some(0.0),
    });
    round(pith::job::number::NumberSources {
        ids: vec!["2402.03791".into()],
        strict: true,
        jobs: Some(2),
        json: true,
        ..Default::default()
    });
    round(pith::job::number::BulkRequest {
        snapshot: vec!["s.jsonl.gz".into()],
        oai: vec!["-".into()],
        strict: true,
        jobs: Some(4),
    });
    round(pith::job::record::RecordRequest {
        given: pith::job::given::Given {
            arxiv_atom: Some("a.atom.xml".into()),
            id: Some("2402.03791".into()),
            title: Some(pith::job::given::Text::File("t.txt".into())),
            record_value: Some(serde_json::json!({"v": 1})),
            cross: vec!["cs.LG".into()],
            ..Default::default()
        },
        canonical: true,
    });
    round(pith::job::run::BatchRequest {
        dir: Some("papers".into()),
        arxiv_metadata: vec!["-".into(), "oai.xml.gz".into()],
        unmatched: Some("unmatched.txt".into()),
        shard: Some("1/4".into()),
        out_dir: Some("numbered".into()),
        mirror: true,
        strict: true,
        jobs: Some(8),
        report: Some("reports/r.jsonl".into()),
        refs: Some("refs.jsonl".into()),
        update: UpdateRequest {
            stamp: true,
            file_timeout: Some(0.0),
            ..Default::default()
        },
        no_clobber: true,
        ..Default::default()
    });
    round(pith::job::run::BatchRequest {
        arxiv_metadata: vec!["meta.jsonl".into()],
        tar: pith::job::tar::request::TarRequest {
            tar: Some("-".into()),
            out_tar: Some("out.tar".into()),
            arxiv_manifest: Some("arXiv_pdf_manifest.xml".into()),
            tar_name: Some("arXiv_pdf_2402_001.tar".into()),
            spool_dir: Some("/var/tmp".into()),
            ..Default::default()
        },
        ..Default::default()
    });
    // A batch's password, like every update's, stays out of the text; an option no batch
    // has (a tar option outside its section) is refused.
    let locked = pith::job::run::BatchRequest {
        update: UpdateRequest {
            password: Some(b"hunter2".to_vec()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(!serde_json::to_string(&locked).unwrap().contains("hunter2"));
    assert!(serde_json::from_str::<pith::job::run::BatchRequest>(r#"{"out_tar": "x"}"#).is_err());
    // `pith ots`: each question's request, what a proof is of flattened beside the rest.
    use pith::job::ots::{OtsStampRequest, OtsUpgradeRequest, OtsVerifyRequest, ProofSubject};
    round(OtsStampRequest {
        subject: ProofSubject {
            file: Some("-".into()),
            ..Default::default()
        },
        output: Some("proofs/".into()),
        file_timeout: Some(0.0),
        no_clobber: true,
        net: Default::default(),
    });
    round(OtsUpgradeRequest {
        proof: Some("a.ots".into()),
        net: Default::default(),
    });
    round(OtsVerifyRequest {
        proof: Some("-".into()),
        subject: ProofSubject {
            subject: Some("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5".into()),
            ..Default::default()
        },
        headers: Some("headers.hex".into()),
        file_timeout: Some(3.5),
        net: Default::default(),
    });
    // The password is never written out with a request.
    let secret = StripRequest {
        pdf: PdfInput {
            password: Some(b"hunter2".to_vec()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    // An option no request has is refused, not ignored.
    assert!(serde_json::from_str::<StripRequest>(r#"{"stamp": true}"#).is_err());
}

/// `pith strip` refuses what its request refuses, with the library's sentence, and writes
/// nothing: an output and in place; neither.
#[test]
fn strip_refuses_what_its_request_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.pdf");
    copy_writable(&fixture("minimal.pdf"), &src);
    let out = dir.path().join("out.pdf");
    let before = std::fs::read(&src).unwrap();
    for (args, says) in [
        (
            vec!["-o", out.to_str().unwrap(), "--in-place"],
            "an output file or in place, not both",
        ),
        (vec![], "say where the result goes"),
    ] {
        let o = common::pith()
            .arg("strip")
            .arg(&src)
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("pith: ") && err.contains(says), "{err}");
        assert!(!out.exists());
        assert_eq!(std::fs::read(&src).unwrap(), before);
    }
}

/// Each contradiction the command line once left to clap is refused by the library's
/// request, with the library's sentence, exit 2, one line, nothing on standard output but
/// `{error, kind}` under `--json`, and nothing written.
#[test]
fn contradictions_are_the_requests_at_the_command_line() {
    use pith::job::badge::{BadgeRequest, BundleRequest};
    use pith::job::update::UpdateRequest;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.pdf");
    copy_writable(&fixture("minimal.pdf"), &src);
    let before = std::fs::read(&src).unwrap();
    let out = dir.path().join("out.pdf");
    let (pdf, o) = (src.to_str().unwrap(), out.to_str().unwrap());
    let n = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
    let said = |e: &dyn std::fmt::Display| e.to_string();
    let size_alone = UpdateRequest {
        stamp_size: Some(8.0),
        ..Default::default()
    };
    let full_and_short = pith::job::update::stamp_form(true, Some("short".into()));
    let keys_alone = BundleRequest {
        key: vec!["k".into()],
        ..Default::default()
    };
    let told = BadgeRequest {
        status: Some("computed".into()),
        ..Default::default()
    };
    let bundle_and_status = BundleRequest {
        bundle: Some("b.json".into()),
        ..Default::default()
    };
    let title_twice = pith::job::given::text(Some("t".into()), Some("t.txt".into()), "title");
    let password_twice = pith::job::given::text(Some("p".into()), Some("p.txt".into()), "password");
    let offline_refresh = pith::net::Settings {
        offline: true,
        refresh: true,
        ..Default::default()
    };
    let bulk_alone = pith::job::number::BulkRequest {
        strict: true,
        ..Default::default()
    };
    let stdin_twice = pith::job::number::BulkRequest {
        snapshot: vec!["-".into()],
        oai: vec!["-".into()],
        ..Default::default()
    };
    let record_twice = pith::job::record::RecordRequest {
        given: pith::job::given::Given {
            record: Some("r.json".into()),
            arxiv_atom: Some("a.xml".into()),
            ..Default::default()
        },
        canonical: false,
    };
    let next_alone = pith::job::record::RecordRequest {
        given: pith::job::given::Given {
            record: Some("r.json".into()),
            next: true,
            ..Default::default()
        },
        canonical: true,
    };
    let tar_alone = pith::job::run::BatchRequest {
        arxiv_metadata: vec!["m.json".into()],
        tar: pith::job::tar::request::TarRequest {
            tar: Some("a.tar".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let tars_without_out = pith::job::run::BatchRequest {
        arxiv_metadata: vec!["m.json".into()],
        tar: pith::job::tar::request::TarRequest {
            tar_dir: Some("tars".into()),
            arxiv_manifest: Some("m.xml".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    // (arguments, the library's sentence, the kind under --json when the command takes it)
    let rows: Vec<(Vec<&str>, String, Option<&str>)> = vec![
        (
            vec!["inject", pdf, "--number", n, "-o", o, "--stamp-size", "8"],
            said(&size_alone.validate().unwrap_err()),
            Some("stamp"),
        ),
        (
            vec![
                "inject",
                pdf,
                "--number",
                n,
                "-o",
                o,
                "--stamp",
                "--stamp-full",
                "--stamp-form",
                "short",
            ],
            said(&full_and_short.unwrap_err()),
            Some("stamp"),
        ),
        (
            vec![
                "batch",
                "--dir",
                dir.path().to_str().unwrap(),
                "--dry-run",
                "--in-place",
                "--stamp-position",
                "top",
            ],
            said(
                &UpdateRequest {
                    stamp_position: Some("top".into()),
                    ..Default::default()
                }
                .validate()
                .unwrap_err(),
            ),
            Some("stamp"),
        ),
        (
            vec!["batch", "--tar", "a.tar", "--arxiv-metadata", "m.json"],
            said(&tar_alone.validate().unwrap_err()),
            Some("request"),
        ),
        (
            vec![
                "batch",
                "--tar-dir",
                "tars",
                "--arxiv-manifest",
                "m.xml",
                "--arxiv-metadata",
                "m.json",
            ],
            said(&tars_without_out.validate().unwrap_err()),
            Some("request"),
        ),
        (
            vec!["badge", n, "--key", "k"],
            said(&keys_alone.validate(&BadgeRequest::default()).unwrap_err()),
            None,
        ),
        (
            vec!["badge", n, "--bundle", "b.json", "--status", "computed"],
            said(&bundle_and_status.validate(&told).unwrap_err()),
            None,
        ),
        (
            vec![
                "number",
                "--id",
                "2402.03791",
                "--title",
                "t",
                "--title-file",
                "t.txt",
            ],
            said(&title_twice.unwrap_err()),
            Some("request"),
        ),
        (
            vec![
                "inspect",
                pdf,
                "--password",
                "p",
                "--password-file",
                "p.txt",
            ],
            said(&password_twice.unwrap_err()),
            Some("request"),
        ),
        (
            vec!["number", "2402.03791", "--record", "r.json"],
            said(&pith::job::given::Conflict::SeveralNumberSources),
            Some("request"),
        ),
        (
            vec!["number", "--record", "r.json", "--tex", "--json"],
            said(&pith::job::given::Conflict::TexAndJson),
            None,
        ),
        (
            vec!["number", "--record", "r.json", "--strict"],
            said(&bulk_alone.validate().unwrap_err()),
            Some("request"),
        ),
        (
            vec!["number", "--arxiv-snapshot", "-", "--arxiv-oai", "-"],
            said(&stdin_twice.validate().unwrap_err()),
            Some("request"),
        ),
        (
            vec!["record", "--record", "r.json", "--arxiv-atom", "a.xml"],
            said(&record_twice.validate().unwrap_err()),
            None,
        ),
        (
            vec!["record", "--record", "r.json", "--next", "--canonical"],
            said(&next_alone.validate().unwrap_err()),
            None,
        ),
        (
            vec!["number", "--offline", "--refresh", "2402.03791"],
            said(&offline_refresh.validate().unwrap_err()),
            Some("setting"),
        ),
        (
            vec!["cite", "--offline", "--refresh", "2402.03791"],
            said(&offline_refresh.validate().unwrap_err()),
            None,
        ),
        (
            vec!["ots", "stamp", "--file", pdf, "--digest", "00"],
            said(&pith::job::given::Conflict::SeveralSubjects),
            None,
        ),
    ];
    for (args, sentence, kind) in rows {
        let r = common::run_pith(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("pith: ") && r.stderr.contains(&sentence),
            "{args:?}: {} (the library says {sentence:?})",
            r.stderr
        );
        if !args.contains(&"--json") {
            assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        }
        if let Some(kind) = kind {
            let mut json = args.clone();
            json.push("--json");
            let r = common::run_pith(&json);
            assert_eq!(r.code, 2, "{json:?}: {}", r.stderr);
            let v: Value = serde_json::from_str(&r.stdout).unwrap();
            assert_eq!(v["kind"], kind, "{json:?}: {v}");
            assert!(
                v["error"].as_str().unwrap().contains(&sentence),
                "{json:?}: {v}"
            );
        }
        assert!(!out.exists(), "{args:?}");
        assert_eq!(std::fs::read(&src).unwrap(), before, "{args:?}");
    }
}
