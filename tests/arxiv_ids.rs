//! One arXiv identifier grammar: src/arxiv_id.rs is the only code that spells it (the
//! versions, the old-style archives, the new-style months and digits, the URL and file-name
//! forms). Every other reader calls it; this test looks for another spelling anywhere in the
//! library, the front ends and the server.

use std::path::{Path, PathBuf};

use crate::common::root;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Spellings of the grammar: a version split by hand, the archives' list, the first
/// new-style month, the month from which ids have five digits, the seven digits of an
/// old-style number, the arXiv URL's path forms.
const SPELLINGS: [&str; 6] = [
    "rfind('v')",
    "[&str; 34]",
    "\"0704\"",
    ">= 1501",
    "num.len() == 7",
    "[\"abs/\"",
];

#[test]
fn the_arxiv_id_grammar_is_spelt_once() {
    let r = root();
    let own = r.join("src/arxiv_id.rs");
    let mut files = Vec::new();
    for dir in ["src", "python/src", "crates/pith-serve/src"] {
        sources(&r.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for f in files.iter().filter(|f| **f != own) {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or_default();
            for s in SPELLINGS.iter().filter(|s| code.contains(*s)) {
                let rel = f.strip_prefix(&r).unwrap_or(f).display().to_string();
                found.push(format!("{rel}:{}: {s}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "arXiv ids spelt outside src/arxiv_id.rs:\n{}",
        found.join("\n")
    );
    // The module itself holds each spelling, so the search looks for something real.
    let module = std::fs::read_to_string(&own).unwrap();
    for s in ["rfind('v')", "[&str; 34]", "num.len() == 7", "[\"abs/\""] {
        assert!(module.contains(s), "src/arxiv_id.rs no longer spells {s}");
    }
}
