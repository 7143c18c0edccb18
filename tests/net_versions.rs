//! Older and next arXiv versions, unannounced versions, and `--arxiv` as a record input everywhere,
//! against a server on 127.0.0.1.

use crate::common;

use crate::common::http::{arxiv_route, Server};
use serde_json::Value;

use crate::net::{assert_error, published_record, python_number, Env};
use crate::net_verify::{pdf_with, resolver};

#[test]
fn older_and_next_versions() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let dir = common::tmpdir();
    let rec = published_record("2402.03791");
    // An older version without its texts: refused, saying why and what to give.
    let r = env.run(&["number", "2402.03791v2"]);
    assert_error(
        &r,
        2,
        &[
            "2402.03791v2",
            "not the latest version (v3)",
            "--title-file",
            "--abstract-file",
        ],
    );
    let r = env.run(&["number", "2402.03791v4"]);
    assert_error(&r, 2, &["does not exist", "latest is v3"]);
    // With them: version 2, the v1 date, the texts given.
    let (title, abs) = ("An earlier title", "An earlier abstract.");
    let (tf, af) = (dir.path().join("t.txt"), dir.path().join("a.txt"));
    std::fs::write(&tf, title).unwrap();
    std::fs::write(&af, abs).unwrap();
    let r = env.run(&[
        "number",
        "2402.03791v2",
        "--title-file",
        tf.to_str().unwrap(),
        "--abstract-file",
        af.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sha = |t: &str| {
        use sha2::Digest;
        let canon = t
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        pith::number::hex(&sha2::Sha256::digest(canon.as_bytes()))
    };
    let mut older = rec["canonical_record"].clone();
    older["source"]["version"] = 2.into();
    older["metadata"]["title_canon_sha256"] = sha(title).into();
    older["metadata"]["abstract_canon_sha256"] = sha(abs).into();
    if let Some(want) = python_number(&older) {
        assert_eq!(r.stdout.trim(), want);
    }
    // The next version: v4, v1's date, the latest metadata.
    let r = env.run(&["number", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut next = rec["canonical_record"].clone();
    next["source"]["version"] = 4.into();
    if let Some(want) = python_number(&next) {
        assert_eq!(r.stdout.trim(), want);
        let r = env.run(&["number", "2402.03791v3", "--next", "--tex"]);
        assert_eq!(r.stdout.trim(), format!("\\pithnumber{{{want}}}"));
    }
    assert!(r.stderr.contains("v1's date stays"), "{}", r.stderr);
    // Overridden fields.
    let r = env.run(&[
        "number",
        "2402.03791",
        "--next",
        "--primary",
        "cs.LG",
        "--cross",
        "cs.DC",
        "--license",
        "http://creativecommons.org/licenses/by/4.0/",
        "--title-file",
        tf.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    next["metadata"]["primary_cat"] = "cs.LG".into();
    next["metadata"]["cross_cats_sorted"] = serde_json::json!(["cs.DC"]);
    next["metadata"]["license"] = "http://creativecommons.org/licenses/by/4.0/".into();
    next["metadata"]["title_canon_sha256"] = sha(title).into();
    if let Some(want) = python_number(&next) {
        assert_eq!(r.stdout.trim(), want);
    }
    let r = env.run(&["number", "2402.03791", "--next", "--primary", "cs.dc"]);
    assert_error(&r, 2, &["did you mean cs.DC?"]);
    let r = env.run(&["number", "2402.03791v2", "--next"]);
    assert_error(&r, 2, &["the next version is v4"]);
}

#[test]
fn arxiv_is_a_record_input_everywhere() {
    let server = Server::start(arxiv_route);
    let env = Env::new(Some(&server), None, true);
    let rec = published_record("2412.14374");
    let r = env.run(&["record", "--arxiv", "2412.14374"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(got, rec["canonical_record"]);
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap();
    let r = env.run(&["verify", "--arxiv", "2412.14374", number]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );
    let r = env.run(&["badge", "--arxiv", "2412.14374", "--full"]);
    assert!(r.stdout.contains(&code[..8]), "{}", r.stderr);
    let r = env.run(&["snippet", "--arxiv", "arXiv:2412.14374", "--format", "md"]);
    assert!(r.stdout.contains(code), "{}", r.stderr);
    let out = env.cache.path().join("out.pdf");
    let r = env.run(&[
        "inject",
        common::fixture("minimal.pdf").to_str().unwrap(),
        "--arxiv",
        "2412.14374",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = env.run(&[
        "inspect",
        out.to_str().unwrap(),
        "--arxiv",
        "2412.14374",
        "--offline",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(number), "{}", r.stdout);
    // One request in all: the cache served the rest.
    assert_eq!(server.requests().len(), 1);
}

/// A paper compiled with the number of the version arXiv has not announced yet (`pith number
/// --next`): the resolver has no record of it, so `pith verify` says UNKNOWN, exit 1, not
/// MISMATCH; the command its sentence names checks it against arXiv's next version and passes.
#[test]
fn an_unannounced_version_is_unknown_and_the_named_command_checks_it() {
    let arxiv = Server::start(arxiv_route);
    let resolver = resolver(Vec::new(), Vec::new());
    let env = Env::new(Some(&arxiv), Some(&resolver), true);
    let r = env.run(&["number", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let next = r.stdout.trim().to_owned();
    let pdf = pdf_with(&env, &next);
    let p = pdf.to_str().unwrap();
    let r = env.run(&["verify", p, "--json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
    let headline = v["headline"].as_str().unwrap();
    let named = format!("pith verify {p} --arxiv ID --next");
    assert!(
        headline.starts_with("UNKNOWN: ") && headline.contains(&named),
        "{headline}"
    );
    let r = env.run(&["verify", p]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().last(), Some(headline), "{}", r.stdout);
    assert!(!r.stdout.contains("MISMATCH"), "{}", r.stdout);
    // The command the sentence names, with the paper's arXiv id.
    let r = env.run(&["verify", p, "--arxiv", "2402.03791", "--next"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.lines().last().unwrap().starts_with("VERIFIED: "),
        "{}",
        r.stdout
    );
}
