//! The layering the workspace promises: the PDF engine, `pith-pdf`, depends on none
//! of the front ends' or the other outputs' crates, as `cargo tree` reports its resolved
//! dependency graph (normal dependencies, transitively).

use std::collections::BTreeSet;
use std::process::Command;

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

/// Every crate `pith-pdf` depends on, transitively, by its normal (non-dev, non-build) edges,
/// for the host platform, as `cargo tree` reports them. Offline (no test touches the network):
/// `cargo tree` resolves from the lock file and needs no crate the build did not download,
/// where `cargo metadata` wants every workspace member's dependencies (pyo3 for the Python
/// crate) on disk, which a fresh machine that ran only `cargo test` does not have.
fn engine_dependencies() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "pith-pdf",
            "-e",
            "normal",
            "--locked",
            "--offline",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "pith-pdf")
        .map(str::to_owned)
        .collect()
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

/// The crates whose `src/lib.rs` declares its layers: the library, the web server and the PDF
/// engine.
const LAYERED: [&str; 3] = [".", "crates/pith-serve", "crates/pith-pdf"];

/// The layers `<krate>/src/lib.rs` declares under "## Layers", top first: each a list of
/// modules.
fn declared_layers(krate: &str) -> Vec<Vec<String>> {
    let lib = std::fs::read_to_string(root().join(krate).join("src/lib.rs")).unwrap();
    let section = lib
        .split("//! ## Layers")
        .nth(1)
        .expect("lib.rs declares its layers");
    section
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("//!"))
        .filter_map(|l| {
            let item = l.trim_start_matches("//!").trim();
            let (n, rest) = item.split_once(". ")?;
            n.parse::<u32>().ok()?;
            Some(
                rest.split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_owned)
                    .collect(),
            )
        })
        .collect()
}

/// Every module's `crate::…` paths in code and in doc comments (an intra-doc link is a use
/// that rustdoc resolves), not in plain comments, in `<krate>/src`: `(module, module used,
/// file:line)`.
fn crate_paths(krate: &str) -> Vec<(String, String, String)> {
    let src = root().join(krate).join("src");
    let mut out = Vec::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap().to_owned();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            let module = first.trim_end_matches(".rs").to_owned();
            // The binary's front end and the crate root use the library from outside.
            if ["cli", "main", "lib"].contains(&module.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, line) in text.lines().enumerate() {
                let trimmed = line.trim_start();
                let code = if trimmed.starts_with("///") || trimmed.starts_with("//!") {
                    trimmed
                } else {
                    line.split("//").next().unwrap_or("")
                };
                for (at, _) in code.match_indices("crate::") {
                    if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                        continue; // pith_crate:: or the like, not this crate
                    }
                    let used: String = code[at + 7..]
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    if !used.is_empty() && used != module {
                        let at = format!("{krate}/src/{}:{}", rel.display(), i + 1);
                        out.push((module.clone(), used, at));
                    }
                }
            }
        }
    }
    out
}

/// The uses that run against the layers: of a module of the same layer or of one above, or of
/// a module no layer names.
fn violations(layers: &[Vec<String>], uses: &[(String, String, String)]) -> Vec<String> {
    let layer = |m: &str| layers.iter().position(|l| l.iter().any(|x| x == m));
    uses.iter()
        .filter_map(|(from, to, at)| match (layer(from), layer(to)) {
            (Some(a), Some(b)) if b > a => None,
            (a, b) => Some(format!(
                "{at}: {from} (layer {a:?}) uses crate::{to} (layer {b:?})"
            )),
        })
        .collect()
}

#[test]
fn every_crate_path_follows_the_layers_lib_rs_declares() {
    for (krate, (from, to)) in
        LAYERED
            .into_iter()
            .zip([("job", "batch"), ("routes", "pages"), ("inject", "stamp")])
    {
        let layers = declared_layers(krate);
        assert!(layers.len() >= 5, "{krate}: {layers:?}");
        let lib = std::fs::read_to_string(root().join(krate).join("src/lib.rs")).unwrap();
        for line in lib.lines() {
            if let Some(m) = line
                .strip_prefix("pub mod ")
                .and_then(|m| m.strip_suffix(';'))
            {
                let n = layers.iter().filter(|l| l.iter().any(|x| x == m)).count();
                assert_eq!(n, 1, "{krate}: module {m} is in {n} layers of lib.rs");
            }
        }
        let uses = crate_paths(krate);
        assert!(
            uses.iter().any(|(f, t, _)| f == from && t == to),
            "{krate}: the scan finds {from}'s uses of {to}"
        );
        let bad = violations(&layers, &uses);
        assert!(
            bad.is_empty(),
            "{krate}: imports against the layers:\n{}",
            bad.join("\n")
        );
    }
}

#[test]
fn a_circle_or_an_upward_use_is_found() {
    let layers = vec![vec!["job".to_owned()], vec!["batch".into(), "net".into()]];
    let u = |f: &str, t: &str| (f.to_owned(), t.to_owned(), "x.rs:1".to_owned());
    assert!(violations(&layers, &[u("job", "batch")]).is_empty());
    assert_eq!(violations(&layers, &[u("batch", "job")]).len(), 1);
    assert_eq!(violations(&layers, &[u("batch", "net")]).len(), 1);
    assert_eq!(violations(&layers, &[u("batch", "nowhere")]).len(), 1);
}

/// The lengths of the `fn` items of a Rust source, by their indentation: `(name, lines)`.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let indent = l.len() - l.trim_start().len();
        let rest = l.trim_start();
        let rest = rest.strip_prefix("pub(crate) ").unwrap_or(rest);
        let rest = rest.strip_prefix("pub ").unwrap_or(rest);
        if let Some(sig) = rest.strip_prefix("fn ") {
            let name: String = sig
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end() == format!("{}}}", " ".repeat(indent)));
            if let Some(j) = end {
                out.push((name, j - i + 1));
                i = j;
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_function_of_the_command_line_is_over_60_lines() {
    assert_eq!(
        function_lengths("fn a() {\n    x\n}\n"),
        vec![("a".into(), 3)]
    );
    let mut long = Vec::new();
    for e in std::fs::read_dir(root().join("src/cli")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        for (name, n) in function_lengths(&text) {
            if n > 60 {
                long.push(format!("{}: {name} has {n} lines", p.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "the CLI only translates; move the work into the job layer:\n{}",
        long.join("\n")
    );
}
