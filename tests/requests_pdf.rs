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
            input: Some(src.clone()),
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
        input: Some("-".into()),
        in_place: true,
        ..Default::default()
    }
    .validate()
    .unwrap_err();
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
    ]
    .into_iter()
    .collect();
    assert_eq!(sentences.len(), 4, "{sentences:#?}");
}

/// The requests of inject and inspect survive JSON unchanged, `{}` is the default request,
/// an option they do not have is refused, and a password is never written out.
#[test]
fn pdf_requests_round_trip_through_json() {
    use pith::job::update::UpdateRequest;
    use pith::job::{InjectRequest, InspectRequest};
    let inject = InjectRequest {
        input: Some("in.pdf".into()),
        output: Some("out/".into()),
        rewrite: true,
        update: UpdateRequest {
            stamp: true,
            stamp_size: Some(8.0),
            file_timeout: Some(0.0),
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
        input: Some("-".into()),
        deep: true,
        expected: Some("pith:7BMK4ZKT".into()),
        password: None,
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
        password: Some(b"hunter2".to_vec()),
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    let secret = InjectRequest {
        update: UpdateRequest {
            password: Some(b"hunter2".to_vec()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(!serde_json::to_string(&secret).unwrap().contains("hunter2"));
    assert!(serde_json::from_str::<InspectRequest>(r#"{"stamp": true}"#).is_err());
    assert!(serde_json::from_str::<InjectRequest>(r#"{"stamp": true}"#).is_err());
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
