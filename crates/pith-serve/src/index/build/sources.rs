//! Reading an index's sources from folders: the proofs' claims, the `*.ots` and `*.json` files,
//! and what a records or bundles file holds (or why it is left out).

use std::path::{Path, PathBuf};

use pith::verify::{Bundle, Key, Verdict};
use pith::PithNumber;

use super::super::Error;
use super::writer::Row;

/// What the readable proofs of `dirs` claim: the Bitcoin blocks, lowest first, each once (the
/// headers to fetch for them), and the merkle roots they arrive at (the headers worth keeping
/// from a file). A proof that cannot be read or replayed is left out: the build reports it.
///
/// # Errors
/// A folder that cannot be read.
pub fn anchor_claims(
    dirs: &[PathBuf],
) -> Result<(Vec<u64>, std::collections::HashSet<[u8; 32]>), Error> {
    let mut heights = Vec::new();
    let mut roots = std::collections::HashSet::new();
    for dir in dirs {
        for file in ots_files(dir)? {
            let Ok((p, _)) = pith::ots::file::read_proof(&file) else {
                continue;
            };
            if let Ok(r) = p.bitcoin_roots() {
                heights.extend(p.bitcoin_heights());
                roots.extend(r);
            }
        }
    }
    heights.sort_unstable();
    heights.dedup();
    Ok((heights, roots))
}

/// The `*.ots` files of a folder, sorted.
pub(super) fn ots_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::from(e).at(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ots"))
        .collect();
    v.sort();
    Ok(v)
}

/// The `*.json` files under `dir`, recursively, in path order.
pub(super) fn json_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| Error::from(e).at(&d))?;
        for e in rd {
            let e = e.map_err(|e| Error::from(e).at(&d))?;
            let p = e.path();
            let t = e.file_type().map_err(|e| Error::from(e).at(&p))?;
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() && p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// What a file of a records or bundles folder holds.
pub(super) enum Item {
    Row(Box<Row>),
    Bundle(Box<Bundle>),
}

/// The bundle a file of a bundles folder holds, or why it is not served: a bundle whose own
/// statements disagree with its record is left out.
pub(super) fn bundle_in(text: &str, keys: &[Key]) -> Result<Box<Bundle>, String> {
    let b = Bundle::from_json(text).map_err(|e| e.to_string())?;
    match b.check(keys).verdict() {
        Verdict::Mismatch => {
            Err("the bundle does not verify (`pith verify --bundle` says why)".to_owned())
        }
        _ => Ok(Box::new(b)),
    }
}

/// The records a file of a records folder holds: `(record, title, authors, abstract)`, or why
/// not.
pub(super) fn records_in(
    text: &str,
) -> Vec<Result<(pith::Record, String, String, String), String>> {
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![Err(format!("not JSON: {e}"))],
    };
    let items = match v {
        serde_json::Value::Array(a) => a,
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| {
            let bytes = serde_json::to_vec(&item).map_err(|e| e.to_string())?;
            let r = pith::net::resolver::read_record(&bytes).map_err(|e| e.to_string())?;
            let n = r.record.number();
            if let Some(stated) = &r.stated_number {
                let ok = PithNumber::parse(stated).is_ok_and(|s| {
                    s.code() == n.code() && s.year().is_none_or(|y| Some(y) == n.year())
                });
                if !ok {
                    return Err(format!("states {stated} but the record's number is {n}"));
                }
            }
            if let Some(sha) = &r.stated_sha256 {
                if !sha.eq_ignore_ascii_case(&r.record.canonical_sha256()) {
                    return Err(format!(
                        "states canonical_sha256 {sha}, the record hashes to {}",
                        r.record.canonical_sha256()
                    ));
                }
            }
            let text = |k: &str| {
                item.get(k)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            Ok((r.record, text("title"), text("authors"), text("abstract")))
        })
        .collect()
}
