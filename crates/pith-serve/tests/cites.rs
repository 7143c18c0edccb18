//! "Cited by" from the papers' own reference lists: the lines `pith refs` writes, given to
//! `pith index --refs`, become edges between the papers of the index. The cited paper's page,
//! JSON and JSON-LD list the papers that cite it (and only those of the index); the citing
//! paper's list its references, an indexed one linked to its page; a line without a citing
//! paper is reported and skipped; the export writes the edges as OpenCitations lines.

use serde_json::{json, Value};

use crate::common::{self, code, vectors, Server};

/// (arXiv id, version, code) of vector `i`.
fn paper(v: &Value) -> (String, u64, String) {
    let s = &v["canonical_record"]["source"];
    (
        s["id"].as_str().unwrap().to_owned(),
        s["version"].as_u64().unwrap(),
        code(v["pith_number"].as_str().unwrap()),
    )
}

fn line(citing: &str, cited: Value, page: u32, l: u32) -> String {
    let mut v = json!({"file": format!("{citing}.pdf"), "citing": citing, "page": page, "line": l});
    for (k, x) in cited.as_object().unwrap() {
        v[k] = x.clone();
    }
    v.to_string()
}

#[test]
fn references_become_cited_by_on_the_page_the_json_and_the_export() {
    let all = vectors();
    let (a, b, c) = (paper(&all[0]), paper(&all[1]), paper(&all[2]));
    let dir = tempfile::tempdir().unwrap();
    let records = common::records_dir(dir.path());
    let refs = dir.path().join("refs.jsonl");
    let lines = [
        // A cites B (by arXiv id, no version), a DOI, and a paper the index does not hold.
        line(&format!("{}v{}", a.0, a.1), json!({"arxiv": b.0}), 9, 12),
        line(
            &format!("{}v{}", a.0, a.1),
            json!({"doi": "10.1103/PhysRevLett.116.061102"}),
            9,
            14,
        ),
        line(
            &format!("{}v{}", a.0, a.1),
            json!({"arxiv": "1706.03762", "version": 5}),
            10,
            1,
        ),
        // C cites B too, read from its source's .bbl.
        json!({"file": "c.tar.gz", "member": "main.bbl", "citing": c.0, "arxiv": b.0, "line": 40})
            .to_string(),
        // No citing paper: reported, skipped.
        json!({"file": "paper.pdf", "arxiv": b.0, "page": 1, "line": 1}).to_string(),
        "not json".to_owned(),
    ];
    std::fs::write(&refs, lines.join("\n") + "\n").unwrap();
    let index = dir.path().join("i.pith-index");
    let run = common::build_index(
        &index,
        &[
            "--records",
            records.to_str().unwrap(),
            "--refs",
            refs.to_str().unwrap(),
        ],
    );
    // Two bad lines: reported one each, the rest indexed, the exit status says so.
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("refs.jsonl:5: no citing paper"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("refs.jsonl:6: not a line of pith refs"),
        "{}",
        run.stderr
    );
    assert!(index.exists());

    let s = Server::start(&index, &[]);
    // B: cited by A and C, both papers of the index.
    let jb = s.get(&format!("/pith/{}.json", b.2), &[]).json();
    assert_eq!(jb["cited_by"]["count"], 2, "{jb}");
    let citing: Vec<&str> = jb["cited_by"]["papers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["@id"].as_str().unwrap())
        .collect();
    assert!(citing.iter().any(|u| u.ends_with(&a.2)), "{citing:?}");
    assert!(citing.iter().any(|u| u.ends_with(&c.2)), "{citing:?}");
    let page = s
        .get(&format!("/pith/{}", b.2), &[("accept", "text/html")])
        .text();
    assert!(page.contains("Cited by 2 papers"), "{page}");
    assert!(page.contains(&format!("pith/{}\"", a.2)));
    // A: three references, one of them a paper here, with where the list gives it.
    let ja = s.get(&format!("/pith/{}.json", a.2), &[]).json();
    assert_eq!(ja["references"]["count"], 3, "{ja}");
    assert_eq!(ja["references"]["resolved"], 1, "{ja}");
    assert_eq!(ja["references"]["shown"], 3, "{ja}");
    let cited = ja["citation"].as_array().unwrap();
    assert_eq!(cited.len(), 3);
    assert!(cited[0]["@id"].as_str().unwrap().ends_with(&b.2), "{ja}");
    assert_eq!(cited[0]["evidence"], "page 9, line 12");
    assert_eq!(cited[1]["doi"], "10.1103/physrevlett.116.061102");
    assert_eq!(cited[2]["sameAs"], "https://arxiv.org/abs/1706.03762");
    assert_eq!(ja["cited_by"]["count"], 0);
    let page_a = s
        .get(&format!("/pith/{}", a.2), &[("accept", "text/html")])
        .text();
    assert!(page_a.contains("References: 3 read from the paper, 1 in this index"));
    assert!(page_a.contains("https://doi.org/10.1103/physrevlett.116.061102"));
    assert!(page_a.contains("Its reference list was read from the paper: 3 arXiv ids and DOIs, 1 of them a paper of this index."));
    // The page's head carries the same JSON-LD.
    assert!(page_a.contains("\"citation\""));
    drop(s);

    // The export: one OpenCitations line per edge of an indexed citing paper.
    let site = dir.path().join("site");
    let r = common::export(&index, &site, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(site.join("citations.jsonl")).unwrap();
    let oc: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(oc.len(), 4, "{text}");
    let ab = oc
        .iter()
        .find(|o| {
            o["citing"] == format!("10.48550/arxiv.{}", a.0)
                && o["cited"] == format!("10.48550/arxiv.{}", b.0)
        })
        .unwrap();
    let keys: Vec<&String> = ab.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["cited", "citing", "creation", "oci", "timespan"]);
    assert!(
        ab["oci"]
            .as_str()
            .unwrap()
            .starts_with("oci:02004080505003610273318"),
        "{ab}"
    );
    assert!(ab["oci"].as_str().unwrap()[4..]
        .bytes()
        .all(|c| c.is_ascii_digit() || c == b'-'));
    assert_eq!(ab["creation"].as_str().unwrap().len(), 10);
    // The cited paper is in the index: the time between them is known.
    assert!(
        ab["timespan"].as_str().unwrap().starts_with('P')
            || ab["timespan"].as_str().unwrap().starts_with("-P")
    );
    let to_doi = oc
        .iter()
        .find(|o| o["cited"] == "10.1103/physrevlett.116.061102")
        .unwrap();
    assert_eq!(to_doi["timespan"], "");
}
