//! The requests of `inject`, `inspect`, `verify` and `cite` at the command line: each
//! contradiction is refused by the library's request with its sentence and kind (exit 2, one
//! line, `{error, kind}` under `--json`, nothing written), the requests survive JSON, and
//! standard streams and output folders are the library's rule.

use crate::common;

use crate::common::{copy_writable, fixture, SEED};
use serde_json::Value;

/// Each contradiction of these commands, at the command line, is the request's refusal.
#[test]
fn pdf_contradictions_are_the_requests_at_the_command_line() {
    use pith::job::pdf_input::PdfInput;
    use pith::job::{InjectRequest, VerifyRequest};
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("in.pdf");
    copy_writable(&fixture("minimal.pdf"), &src);
    let before = std::fs::read(&src).unwrap();
    let out = dir.path().join("out.pdf");
    let warc = dir.path().join("crawl.warc");
    std::fs::write(&warc, b"WARC/1.0\r\n").unwrap();
    let (pdf, o) = (src.to_str().unwrap(), out.to_str().unwrap());
    let inject = |f: fn(&mut InjectRequest)| {
        let mut r = InjectRequest {
            pdf: PdfInput {
                input: Some(src.clone()),
                ..Default::default()
            },
            output: Some(out.clone()),
            ..Default::default()
        };
        f(&mut r);
        r.validate().unwrap_err().to_string()
    };
    let key = std::fs::read_to_string(common::example("example-key.pub")).unwrap();
    let key = key.trim();
    let verify = |r: VerifyRequest| r.validate().unwrap_err().to_string();
    let capture_with_key = verify(VerifyRequest {
        pdf: Some(src.clone()),
        captures: vec![pith::job::capture::CaptureSource::File(warc.clone())],
        keys: vec![key.to_owned()],
        ..Default::default()
    });
    let pdf_and_signature = verify(VerifyRequest {
        pdf: Some(src.clone()),
        signature: Some("c2ln".into()),
        ..Default::default()
    });
    let number_alone = verify(VerifyRequest {
        number: Some(SEED.into()),
        ..Default::default()
    });
    let stdin_in_place = InjectRequest {
        pdf: PdfInput {
            input: Some("-".into()),
            ..Default::default()
        },
        in_place: true,
        ..Default::default()
    }
    .validate()
    .unwrap_err();
    let strip_stdin = |in_place: bool| {
        pith::job::StripRequest {
            pdf: PdfInput {
                input: Some("-".into()),
                ..Default::default()
            },
            in_place,
            ..Default::default()
        }
        .validate()
        .unwrap_err()
    };
    let rewrite_and = |flag| vec!["inject", pdf, "--number", SEED, "-o", o, "--rewrite", flag];
    // (arguments, the library's sentence, the kind under --json)
    let rows: Vec<(Vec<&str>, String, &str)> = vec![
        (
            rewrite_and("--dry-run"),
            inject(|r| (r.rewrite, r.dry_run) = (true, true)),
            "request",
        ),
        (
            rewrite_and("--repair"),
            inject(|r| (r.rewrite, r.update.repair) = (true, true)),
            "request",
        ),
        (
            vec!["inject", "-", "--number", SEED, "--in-place"],
            stdin_in_place.to_string(),
            stdin_in_place.kind_name(),
        ),
        // strip takes standard input as inject does: in place is inject's refusal, and its
        // result goes to -o FILE or -o -.
        (
            vec!["strip", "-", "--in-place"],
            stdin_in_place.to_string(),
            strip_stdin(true).kind_name(),
        ),
        (
            vec!["strip", "-"],
            strip_stdin(false).to_string(),
            strip_stdin(false).kind_name(),
        ),
        (
            vec!["inject", "-", "--number", SEED],
            strip_stdin(false).to_string(),
            "request",
        ),
        (
            vec![
                "verify",
                pdf,
                "--capture",
                warc.to_str().unwrap(),
                "--key",
                key,
            ],
            capture_with_key,
            "request",
        ),
        (
            vec!["verify", pdf, "--signature", "c2ln"],
            pdf_and_signature,
            "request",
        ),
        (vec!["verify", SEED], number_alone, "request"),
    ];
    for (args, sentence, kind) in rows {
        for json in [false, true] {
            let mut all = args.clone();
            if json {
                all.push("--json");
            }
            let r = common::run_pith(&all);
            assert_eq!(r.code, 2, "{all:?}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "{all:?}: {}", r.stderr);
            assert!(
                r.stderr.starts_with("pith: ") && r.stderr.contains(&sentence),
                "{all:?}: {} (the library says {sentence:?})",
                r.stderr
            );
            if json {
                let v: Value = serde_json::from_str(&r.stdout).unwrap();
                assert_eq!(v["kind"], kind, "{all:?}: {v}");
                assert!(v["error"].as_str().unwrap().contains(&sentence), "{v}");
            } else {
                assert!(r.stdout.is_empty(), "{all:?}: {}", r.stdout);
            }
        }
        assert!(!out.exists(), "{args:?}");
        assert_eq!(std::fs::read(&src).unwrap(), before, "{args:?}");
    }
    // Each contradiction has a sentence of its own.
    let sentences: std::collections::BTreeSet<_> = [
        inject(|r| (r.rewrite, r.dry_run) = (true, true)),
        inject(|r| (r.rewrite, r.update.repair) = (true, true)),
        inject(|r| r.in_place = true),
        inject(|r| r.update.stamp_size = Some(8.0)),
        inject(|r| r.update.file_timeout = Some(1.0)),
        strip_stdin(false).to_string(),
    ]
    .into_iter()
    .collect();
    assert_eq!(sentences.len(), 6, "{sentences:#?}");
    // Standard input in place: one kind and sentence, whichever command.
    let (a, b) = (strip_stdin(true), stdin_in_place);
    assert_eq!(
        (a.kind_name(), a.to_string()),
        (b.kind_name(), b.to_string())
    );
}

/// The requests of inject and inspect survive JSON unchanged, `{}` is the default request,
/// an option they do not have is refused, and a password is never written out.
#[test]
fn pdf_requests_round_trip_through_json() {
    use pith::job::pdf_input::PdfInput;
    use pith::job::update::UpdateRequest;
    use pith::job::{InjectRequest, InspectRequest};
    let inject = InjectRequest {
        pdf: PdfInput {
            input: Some("in.pdf".into()),
            file_timeout: Some(0.0),
            password: None,
        },
        output: Some("out/".into()),
        rewrite: true,
        update: UpdateRequest {
            stamp: true,
            stamp_size: Some(8.0),
            ..Default::default()
        },
        no_clobber: true,
        ..Default::default()
    };
    let text = serde_json::to_string(&inject).unwrap();
    assert_eq!(
        serde_json::from_str::<InjectRequest>(&text).unwrap(),
        inject
    );
    let inspect = InspectRequest {
        pdf: PdfInput {
            input: Some("-".into()),
            file_timeout: Some(2.5),
            password: None,
        },
        deep: true,
        expected: Some("pith:7BMK4ZKT".into()),
    };
    let text = serde_json::to_string(&inspect).unwrap();
    assert_eq!(
        serde_json::from_str::<InspectRequest>(&text).unwrap(),
        inspect
    );
    assert_eq!(
        serde_json::from_str::<InjectRequest>("{}").unwrap(),
        InjectRequest::default()
    );
    assert_eq!(
        serde_json::from_str::<InspectRequest>("{}").unwrap(),
        InspectRequest::default()
    );
    let secret = InspectRequest {
        pdf: PdfInput {
            password: Some(b"hunter2".to_vec()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    let secret = InjectRequest {
        pdf: PdfInput {
            password: Some(b"hunter2".to_vec()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    assert!(serde_json::from_str::<InspectRequest>(r#"{"stamp": true}"#).is_err());
    assert!(serde_json::from_str::<InjectRequest>(r#"{"stamp": true}"#).is_err());
    // The PDF's keys (PdfInput, flattened) sit beside each request's own, one level, in the
    // three requests alike; a key none of them has is still refused.
    let flat = r#"{"input": "a.pdf", "file_timeout": 0, "in_place": true}"#;
    let inject: InjectRequest = serde_json::from_str(flat).unwrap();
    let strip: pith::job::StripRequest = serde_json::from_str(flat).unwrap();
    assert_eq!(inject.pdf, strip.pdf);
    assert_eq!(inject.pdf.file_timeout, Some(0.0));
    assert!(inject.validate().is_ok() && strip.validate().is_ok());
    let inspect: InspectRequest =
        serde_json::from_str(r#"{"input": "-", "file_timeout": 0, "deep": true}"#).unwrap();
    assert!(inspect.pdf.is_stdin());
    for bad in [
        r#"{"input": "a.pdf", "pdf": {}}"#,
        r#"{"input": "a.pdf", "passwrd": "x"}"#,
    ] {
        assert!(serde_json::from_str::<InjectRequest>(bad).is_err(), "{bad}");
        assert!(
            serde_json::from_str::<pith::job::StripRequest>(bad).is_err(),
            "{bad}"
        );
        assert!(
            serde_json::from_str::<InspectRequest>(bad).is_err(),
            "{bad}"
        );
    }
    // The deadline is the PDF's: given with the update as well, it is refused, not dropped.
    let twice: InjectRequest = serde_json::from_str(
        r#"{"input": "a.pdf", "in_place": true, "update": {"file_timeout": 1}}"#,
    )
    .unwrap();
    assert_eq!(twice.validate().unwrap_err().kind_name(), "request");
    ots_requests_round_trip();
    verify_and_cite_round_trip();
    // An expected number that is no number is the request's refusal, kind and all.
    let bad = InspectRequest {
        expected: Some("pith:not a number".into()),
        ..Default::default()
    };
    let e = bad.validate().unwrap_err();
    assert_eq!(
        e.kind_name(),
        pith::job::kind::of_number(&pith::NumberRef::parse("pith:not a number").unwrap_err())
            .name(),
        "{e}"
    );
}

/// `pith ots` as data: each question tagged by its name, its subject's keys beside its own;
/// a key another question takes, or no question's, is refused.
fn ots_requests_round_trip() {
    use pith::job::ots::{OtsRequest, OtsStampRequest, OtsVerifyRequest, ProofSubject};
    let verify = OtsRequest::Verify(OtsVerifyRequest {
        proof: Some("-".into()),
        subject: ProofSubject {
            digest: Some("ab".repeat(32)),
            ..Default::default()
        },
        headers: Some("headers.hex".into()),
        file_timeout: Some(0.0),
        ..Default::default()
    });
    let text = serde_json::to_string(&verify).unwrap();
    assert!(text.starts_with(r#"{"verify":{"proof":"-","#), "{text}");
    assert_eq!(serde_json::from_str::<OtsRequest>(&text).unwrap(), verify);
    let stamp: OtsRequest = serde_json::from_str(r#"{"stamp": {"file": "paper.pdf"}}"#).unwrap();
    let OtsRequest::Stamp(s) = &stamp else {
        panic!("{stamp:?}")
    };
    assert_eq!(
        (
            s.subject.file.as_deref(),
            s.output.as_deref(),
            s.file_timeout
        ),
        (Some(std::path::Path::new("paper.pdf")), None, None)
    );
    assert_eq!(
        serde_json::from_str::<OtsRequest>(r#"{"stamp": {}}"#).unwrap(),
        OtsRequest::Stamp(OtsStampRequest::default())
    );
    for bad in [
        r#"{"stamp": {"file": "a", "headers": "h"}}"#,
        r#"{"upgrade": {"proof": "a.ots", "file": "a"}}"#,
        r#"{"verify": {"proof": "a.ots", "output": "b.ots"}}"#,
        r#"{"sign": {}}"#,
    ] {
        assert!(serde_json::from_str::<OtsRequest>(bad).is_err(), "{bad}");
    }
}

/// The requests of verify (with its capture form) and cite survive JSON unchanged (a record
/// source, a bundle, texts, captures, keys and the deadline included), `{}` is verify's
/// default request, an option they do not have is refused, and a password is never written.
fn verify_and_cite_round_trip() {
    use pith::job::capture::CaptureSource;
    use pith::job::cite::CiteRequest;
    use pith::job::{RecordSource, VerifyRequest};
    use pith::record::LocalSource;
    use pith::verify::{Bundle, TextField};
    // Neither request compares (a verification may hold a resolver), so each is compared by
    // what it writes: read back and written again, the same JSON.
    fn again<T: serde::Serialize + serde::de::DeserializeOwned>(r: &T) -> (String, String) {
        let text = serde_json::to_string(r).unwrap();
        let back: T = serde_json::from_str(&text).unwrap();
        (serde_json::to_string(&back).unwrap(), text)
    }
    let bundle = std::fs::read_to_string(common::example("2402.03791v3.bundle.json")).unwrap();
    let bundle = Bundle::from_json(&bundle).unwrap();
    let record = VerifyRequest {
        bundle: Some(bundle.clone()),
        number: Some("pith:7BMK4ZKT".into()),
        texts: vec![(TextField::Abstract, "An abstract.".into())],
        keys: vec!["11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=".into()],
        file_timeout: Some(0.0),
        ..Default::default()
    };
    let (back, text) = again(&record);
    assert_eq!(back, text);
    assert!(
        text.contains(r#""texts":[["abstract","An abstract."]]"#),
        "{text}"
    );
    let back: VerifyRequest = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back.bundle.unwrap().record().number(),
        bundle.record().number()
    );
    let capture = VerifyRequest {
        pdf: Some("paper.pdf".into()),
        captures: vec![
            CaptureSource::File("crawl.warc.gz".into()),
            CaptureSource::Online("https://arxiv.org/pdf/2402.03791v3".into()),
        ],
        ..Default::default()
    };
    let (back, text) = again(&capture);
    assert_eq!(back, text);
    let arxiv = VerifyRequest {
        pdf: Some("paper.pdf".into()),
        record: Some(RecordSource::from_text("2402.03791v3").unwrap()),
        ..Default::default()
    };
    let (back, text) = again(&arxiv);
    assert_eq!(back, text);
    assert!(text.contains("2402.03791v3"), "{text}");
    let empty: VerifyRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(again(&empty).0, again(&VerifyRequest::default()).0);
    let secret = VerifyRequest {
        password: Some(b"hunter2".to_vec()),
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    assert!(serde_json::from_str::<VerifyRequest>(r#"{"stamp": true}"#).is_err());
    // A bundle that is no bundle is refused as the request is read.
    assert!(serde_json::from_str::<VerifyRequest>(r#"{"bundle": {}}"#).is_err());
    let cite = CiteRequest {
        input: RecordSource::Local(LocalSource::RecordFile("paper.record.json".into())),
        format: Some("ris".into()),
        output: Some("out/paper.ris".into()),
        no_clobber: true,
        net: Default::default(),
    };
    let text = serde_json::to_string(&cite).unwrap();
    assert_eq!(serde_json::from_str::<CiteRequest>(&text).unwrap(), cite);
    let least: CiteRequest =
        serde_json::from_str(r#"{"input": {"local": {"number": "pith:7BMK4ZKT"}}}"#).unwrap();
    assert_eq!(least.format, None);
    assert!(least.validate().is_ok());
    assert!(serde_json::from_str::<CiteRequest>(
        r#"{"input": {"local": {"number": "x"}}, "deep": true}"#
    )
    .is_err());
}

/// Standard streams and output folders are the library's: `pith inspect -` reads standard
/// input as the file; `pith cite -o -` writes what `pith cite` prints, `-o a/b/c.bib` makes
/// its folders and writes the same bytes, and with `--no-clobber` an existing file is kept.
#[test]
fn inspect_and_cite_streams_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    let numbered = dir.path().join("numbered.pdf");
    let (code, _, err) = common::inject(&fixture("minimal.pdf"), SEED, &numbered, &[]);
    assert_eq!(code, 0, "{err}");
    let file = common::pith()
        .args(["inspect", "--json"])
        .arg(&numbered)
        .output()
        .unwrap();
    let piped = common::pith()
        .args(["inspect", "-", "--json"])
        .write_stdin(std::fs::read(&numbered).unwrap())
        .output()
        .unwrap();
    assert!(file.status.success() && piped.status.success());
    let (mut a, b): (Value, Value) = (
        serde_json::from_slice(&file.stdout).unwrap(),
        serde_json::from_slice(&piped.stdout).unwrap(),
    );
    assert_eq!(b["file"], "-");
    a["file"] = "-".into();
    assert_eq!(a, b, "standard input reads as the file");

    let atom = common::example("2402.03791v3.atom.xml");
    let cite = |extra: &[&str]| {
        common::pith()
            .current_dir(dir.path())
            .args(["cite", "--offline", "--arxiv-atom"])
            .arg(&atom)
            .args(extra)
            .output()
            .unwrap()
    };
    let printed = cite(&[]);
    assert!(printed.status.success(), "{printed:?}");
    assert!(String::from_utf8_lossy(&printed.stdout).contains("@misc{"));
    let dashed = cite(&["-o", "-"]);
    assert_eq!(dashed.stdout, printed.stdout, "-o - is standard output");
    let deep = cite(&["-o", "a/b/c.bib"]);
    assert!(deep.status.success(), "{deep:?}");
    assert!(deep.stdout.is_empty());
    let written = dir.path().join("a/b/c.bib");
    assert_eq!(std::fs::read(&written).unwrap(), printed.stdout);
    std::fs::write(&written, "kept").unwrap();
    let kept = common::pith()
        .current_dir(dir.path())
        .args(["--no-clobber", "cite", "--offline", "--arxiv-atom"])
        .arg(&atom)
        .args(["-o", "a/b/c.bib", "--format", "ris"])
        .output()
        .unwrap();
    assert_eq!(kept.status.code(), Some(2), "{kept:?}");
    assert_eq!(std::fs::read_to_string(&written).unwrap(), "kept");
}

/// `pith strip -` reads standard input as `inject -` and `inspect -` do: `-o -` writes the
/// stripped PDF to standard output (the report on standard error), `-o FILE` the same bytes
/// to a file, both a clean PDF to qpdf with the original bytes first and no number left; a
/// folder has no name to take from standard input, and is refused.
#[test]
fn strip_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let numbered = dir.path().join("numbered.pdf");
    let (code, _, err) = common::inject(&fixture("minimal.pdf"), SEED, &numbered, &[]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&numbered).unwrap();
    let piped = common::pith()
        .args(["strip", "-", "-o", "-"])
        .write_stdin(bytes.clone())
        .output()
        .unwrap();
    assert!(piped.status.success(), "{piped:?}");
    let err = String::from_utf8_lossy(&piped.stderr);
    assert!(err.starts_with(&format!("-: removed {SEED}")), "{err}");
    assert!(piped.stdout.starts_with(&bytes) && piped.stdout.len() > bytes.len());
    let out = dir.path().join("out.pdf");
    let to_file = common::pith()
        .args(["strip", "-", "--json", "-o"])
        .arg(&out)
        .write_stdin(bytes.clone())
        .output()
        .unwrap();
    assert!(to_file.status.success(), "{to_file:?}");
    let v: Value = serde_json::from_slice(&to_file.stdout).unwrap();
    assert_eq!(
        (v["input"].as_str(), v["status"].as_str()),
        (Some("-"), Some("stripped"))
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        piped.stdout,
        "-o - and -o FILE differ"
    );
    if common::have_tool("qpdf", "strip_reads_standard_input") {
        assert!(crate::common::tools::qpdf_clean(&out), "qpdf --check");
    }
    let inspect = common::pith()
        .args(["inspect", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(v["has_number"], false, "{v}");
    let folder = common::pith()
        .args(["strip", "-", "-o"])
        .arg(dir.path())
        .write_stdin(bytes)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&folder.stderr);
    assert_eq!(folder.status.code(), Some(2), "{err}");
    assert!(err.contains("standard input has no name"), "{err}");
}
