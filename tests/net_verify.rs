//! `pith verify PAPER.pdf` against resolver answers on 127.0.0.1: wrapped, bare, 404, URL-only
//! PDFs, and a bare code's year.

use crate::common;

use crate::common::http::{Reply, Server};
use serde_json::Value;

use crate::net::{assert_error, published, published_code, published_record, user_agent, Env};

/// The resolver: `records` maps a code to the JSON served at /pith/<code>.json, `bundles` to
/// /pith/<code>/bundle.json; anything else is a 404.
pub(crate) fn resolver(records: Vec<(String, Value)>, bundles: Vec<(String, Value)>) -> Server {
    Server::start(move |r, _| {
        for (code, v) in &records {
            if r.target == format!("/pith/{code}.json") {
                return Reply::ok(v.to_string());
            }
        }
        for (code, v) in &bundles {
            if r.target == format!("/pith/{code}/bundle.json") {
                return Reply::ok(v.to_string());
            }
        }
        Reply::status(404)
    })
}

/// A PDF carrying `number` (written by `pith inject`).
pub(crate) fn pdf_with(env: &Env, number: &str) -> std::path::PathBuf {
    let out = env
        .cache
        .path()
        .join(format!("{}.pdf", number.replace(':', "_")));
    let (code, _, err) = common::inject(&common::fixture("minimal.pdf"), number, &out, &[]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn verify_a_pdf_against_the_resolver() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let wrapped = serde_json::json!({
        "pith_number": rec["pith_number"],
        "canonical_sha256": rec["canonical_sha256"],
        "canonical_record": rec["canonical_record"],
    });
    let (bundle, key) = common::signed_bundle(&rec);
    let server = resolver(
        vec![(code.clone(), wrapped)],
        vec![(code.clone(), bundle.clone())],
    );
    let env = Env::new(None, Some(&server), true);
    let pdf = pdf_with(&env, number);
    let p = pdf.to_str().unwrap();
    // The registry key does not know the test key: no mismatch, but not verified.
    let r = env.run(&["verify", p]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("arXiv:2402.03791v3"), "{}", r.stdout);
    assert!(r.stdout.contains(number), "{}", r.stdout);
    assert!(
        r.stdout
            .trim_end()
            .ends_with("so this is not a verified match."),
        "{}",
        r.stdout
    );
    // With the key, the receipt verifies.
    let r = env.run(&["verify", p, "--key", &key, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "verified", "{v}");
    assert_eq!(v["arxiv_id"], "2402.03791");
    assert_eq!(v["arxiv_version"], 3);
    assert_eq!(v["found_in"], "XMP");
    let reqs: Vec<String> = server.requests().iter().map(|q| q.target.clone()).collect();
    assert_eq!(
        reqs,
        [
            format!("/pith/{code}.json"),
            format!("/pith/{code}/bundle.json"),
            format!("/pith/{code}/bundle.json")
        ],
        "the second run used the record kept; the bundle, which did not verify with the keys \
         of the first run, was not kept and is asked for again"
    );
    assert_eq!(
        server.requests()[0].header("user-agent"),
        Some(user_agent().as_str())
    );
    // Offline, from the cache; and from files, with no server at all.
    drop(server);
    let r = env.run(&["verify", p, "--key", &key, "--offline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}",
        r.stdout
    );
    let files = Env::new(None, None, true);
    let bfile = files.cache.path().join("bundle.json");
    std::fs::write(&bfile, bundle.to_string()).unwrap();
    let r = files.run(&[
        "verify",
        p,
        "--bundle",
        bfile.to_str().unwrap(),
        "--key",
        &key,
    ]);
    assert!(
        r.stdout.trim_end().ends_with("every check holds."),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let rfile = files.cache.path().join("rec.json");
    std::fs::write(&rfile, rec["canonical_record"].to_string()).unwrap();
    let r = files.run(&["verify", p, "--record", rfile.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("arXiv:2402.03791v3"), "{}", r.stdout);
    // Another paper's record: a mismatch, exit 1.
    let other = published_record("2412.14374");
    std::fs::write(&rfile, other["canonical_record"].to_string()).unwrap();
    let r = files.run(&["verify", p, "--record", rfile.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("MISMATCH"), "{}", r.stdout);
}

#[test]
fn verify_bare_records_404s_and_url_only_pdfs() {
    let rec = published_record("2412.14374");
    let number = rec["pith_number"].as_str().unwrap();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let seed_code = published_code("2402.03791");
    // A bare record for one code; for the seed's code, another paper's record.
    let server = resolver(
        vec![
            (code.clone(), rec["canonical_record"].clone()),
            (seed_code.clone(), rec["canonical_record"].clone()),
        ],
        vec![],
    );
    let env = Env::new(None, Some(&server), true);
    let pdf = pdf_with(&env, number);
    let r = env.run(&["verify", pdf.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("no bundle"), "{}", r.stdout);
    assert!(r.stdout.contains("arXiv:2412.14374v1"), "{}", r.stdout);
    // Offline: the cached record, and the bundle said to be unknown rather than failed.
    let r = env.run(&["verify", pdf.to_str().unwrap(), "--offline"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("no bundle in the cache (offline)"),
        "{}",
        r.stdout
    );
    // A PDF carrying only the record link (bare code, no year) verifies through its code.
    let link = format!("<< /PithURL (https://pith.science/pith/{code}) >>");
    let bare = env.cache.path().join("link-only.pdf");
    std::fs::write(
        &bare,
        common::pdfgen::build_pdf(Some(link.as_bytes()), None),
    )
    .unwrap();
    let r = env.run(&["verify", bare.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["found_in"], "record link");
    assert_eq!(v["pith_number"], code);
    // Nothing in the metadata, only the stamp's or badge's link on page 1.
    let page = env.cache.path().join("page-link.pdf");
    std::fs::write(
        &page,
        pdf_with_link(&format!("https://pith.science/pith/{code}")),
    )
    .unwrap();
    let r = env.run(&["verify", page.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["found_in"], "page 1 link");
    assert_eq!(v["arxiv_id"], "2412.14374");
    // The resolver serves another record for the seed's code: a mismatch.
    let seed_pdf = pdf_with(&env, &published("2402.03791"));
    let r = env.run(&["verify", seed_pdf.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("MISMATCH"), "{}", r.stdout);
    // A number the resolver does not know: exit 1, saying so.
    let unknown = pdf_with(&env, "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA");
    let r = env.run(&["verify", unknown.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("no record of"), "{}", r.stdout);
    // A PDF without a number: exit 1 (README: a mismatch or no number), naming the file.
    let none = env.cache.path().join("none.pdf");
    std::fs::copy(common::fixture("minimal.pdf"), &none).unwrap();
    let r = env.run(&["verify", none.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("none.pdf") && r.stdout.contains("NO NUMBER"),
        "{}",
        r.stdout
    );
    let r = env.run(&["verify", none.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "no_number");
    assert_eq!(v["pith_number"], Value::Null);
    // The resolver unreachable: exit 2, what to do.
    let down = Env::new(None, None, true);
    let r = down.run(&["verify", pdf.to_str().unwrap()]);
    assert_error(&r, 2, &["cannot connect", "--offline"]);
}

/// A one-page PDF without metadata whose page carries one link annotation to `uri` (as the
/// stamp and pith.sty's badge write it).
fn pdf_with_link(uri: &str) -> Vec<u8> {
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>".to_owned(),
        format!(
            "<< /Type /Annot /Subtype /Link /Rect [10 10 90 20] /Border [0 0 0] \
             /A << /Type /Action /S /URI /URI ({uri}) >> >>"
        ),
    ];
    crate::common::pdfgen::classic_text(&objs)
}

/// `pith inject --number <26>` (the bare code pith.science's record pages give): the year comes
/// from the code's record at the resolver, checked against the code; offline and uncached, or
/// when the resolver serves another paper's record, it is refused, saying what to give.
#[test]
fn a_bare_code_takes_its_year_from_the_resolver() {
    let rec = published_record("2402.03791");
    let number = rec["pith_number"].as_str().unwrap().to_owned();
    let code = number.rsplit(':').next().unwrap().to_owned();
    let other_code = published_code("2412.14374");
    let server = resolver(
        vec![
            (code.clone(), rec["canonical_record"].clone()),
            // A resolver that answers with another paper's record for this code.
            (other_code.clone(), rec["canonical_record"].clone()),
        ],
        vec![],
    );
    let env = Env::new(None, Some(&server), true);
    let input = common::fixture("minimal.pdf");
    let out = env.cache.path().join("bare.pdf");
    let inject = |code: &str, extra: &[&str]| {
        let mut args = vec![
            "inject",
            input.to_str().unwrap(),
            "--number",
            code,
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        env.run(&args)
    };
    // Offline, with nothing cached: refused, naming what to give.
    let r = inject(&code, &["--offline"]);
    assert_error(
        &r,
        2,
        &["a bare code has no year", "pith:YYYY:", "pith number"],
    );
    assert!(!out.exists());
    // Online: the full number, read back by tools we did not write.
    let r = inject(&code, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&number), "{}", r.stdout);
    if common::have_tool("pdfinfo", "a_bare_code_takes_its_year_from_the_resolver") {
        let info = common::tools::pdfinfo_custom(&out, "PithNumber");
        assert_eq!(info.as_deref(), Some(number.as_str()));
    }
    // Now cached: offline works too.
    std::fs::remove_file(&out).unwrap();
    let r = inject(&code, &["--offline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Another paper's record for the code: refused, nothing written.
    std::fs::remove_file(&out).unwrap();
    let r = inject(&other_code, &[]);
    assert_error(&r, 2, &["a bare code has no year", "not of"]);
    assert!(!out.exists());
}
