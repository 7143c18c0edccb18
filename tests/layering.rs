//! The layering the workspace promises (issue 25): the PDF engine, `pith-pdf`, depends on none
//! of the front ends' or the other outputs' crates, as `cargo metadata` reports its resolved
//! dependency graph (normal dependencies, transitively).

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

use crate::common::root;

/// Crates of the command line, Python, templates, badges and progress bars.
const FRONT_END_CRATES: [&str; 8] = [
    "clap",
    "pyo3",
    "tera",
    "qrcode",
    "svg",
    "indicatif",
    "clap_complete",
    "clap_mangen",
];

/// The host's target triple, as `rustc -vV` reports it.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .trim()
        .to_owned()
}

/// Every crate `pith-pdf` depends on, transitively, by its normal (non-dev, non-build) edges.
fn engine_dependencies() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Offline (no test touches the network) and for the host only: the crates of other
    // platforms (Windows, macOS) were never downloaded on a fresh clone, and without the filter
    // `cargo metadata` needs them all.
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host_triple()])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: HashMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let start = names
        .iter()
        .find(|(_, name)| **name == "pith-pdf")
        .map(|(id, _)| *id)
        .expect("pith-pdf is a workspace member");
    let (mut seen, mut todo) = (BTreeSet::new(), vec![start]);
    while let Some(id) = todo.pop() {
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            let pkg = dep["pkg"].as_str().unwrap();
            if normal && seen.insert(names[pkg].to_string()) {
                todo.push(pkg);
            }
        }
    }
    seen
}

#[test]
fn the_pdf_engine_depends_on_no_front_end_crate() {
    let deps = engine_dependencies();
    assert!(
        deps.contains("lopdf") && deps.contains("flate2"),
        "{deps:?}"
    );
    for name in FRONT_END_CRATES {
        assert!(!deps.contains(name), "pith-pdf depends on {name}: {deps:?}");
    }
    assert!(
        !deps.contains("pith-number"),
        "pith-pdf depends on pith-number"
    );
}
