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

/// The other crates of the workspace: no declared layers, but no two modules of one folder may
/// import each other there either.
const UNLAYERED: [&str; 2] = ["crates/pith-testkit", "python"];

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

/// A module's path inside its crate: `[]` is the crate root, `["net", "client"]` is
/// `crate::net::client`.
type ModPath = Vec<String>;

/// One source file of a crate, as the scanner reads it.
struct Source {
    /// The module the file is (`src/net/mod.rs` and `src/net.rs` are both `net`).
    module: ModPath,
    /// Where it is, for messages.
    at: String,
    /// Its text.
    text: String,
}

/// One use of a module by another: `from` names `to` at `at` (file:line).
#[derive(Debug, Clone)]
struct Edge {
    from: ModPath,
    to: ModPath,
    at: String,
    /// Only an intra-doc link names it: prose that points the reader elsewhere, not a
    /// dependency (the compiler builds the module without it), so no rule counts it.
    doc: bool,
}

/// Every `.rs` file under `<krate>/src`.
fn sources(krate: &str) -> Vec<Source> {
    let src = root().join(krate).join("src");
    let mut out = Vec::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
                out.push(source(
                    &rel,
                    &format!("{krate}/src/{rel}"),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out
}

/// A file at `rel` (relative to `src/`, `/`-separated) holding `text`.
fn source(rel: &str, at: &str, text: String) -> Source {
    let mut module: ModPath = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if matches!(
        module.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        module.pop();
    }
    Source {
        module,
        at: at.trim_start_matches("./").to_owned(),
        text,
    }
}

/// `text` without plain comments (doc comments stay: an intra-doc link is a use that rustdoc
/// resolves), string literals blanked, and without the bodies of `#[cfg(test)]` items (unit
/// tests are no layer): line numbers are kept.
fn code_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_depth: Option<i64> = None;
    let mut pending_cfg_test = false;
    let mut depth = 0i64;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let mut code = if trimmed.starts_with("///") || trimmed.starts_with("//!") {
            trimmed.to_owned()
        } else {
            blank_strings(line.split("//").next().unwrap_or(""))
        };
        let opens = code.matches('{').count() as i64;
        let closes = code.matches('}').count() as i64;
        if trimmed.starts_with("#[cfg(test)]") {
            pending_cfg_test = true;
            out.push(String::new());
            continue;
        }
        if pending_cfg_test && skip_depth.is_none() && !trimmed.starts_with("#[") {
            pending_cfg_test = false;
            if opens > closes {
                skip_depth = Some(depth);
            }
            code.clear();
        }
        depth += opens - closes;
        if let Some(d) = skip_depth {
            if depth <= d {
                skip_depth = None;
            }
            code.clear();
        }
        out.push(code);
    }
    out
}

/// `line` with the insides of its string literals replaced by spaces.
fn blank_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_str = false;
    let mut escaped = false;
    for c in line.chars() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
                out.push(c);
                continue;
            }
            out.push(' ');
        } else {
            if c == '"' {
                in_str = true;
            }
            out.push(c);
        }
    }
    out
}

/// The full paths a `use` tree names (`a::{b, c::{d as e}}` → `a::b`, `a::c::d`), each with
/// the name it is bound to.
fn expand_use(tree: &str) -> Vec<(Vec<String>, String)> {
    fn go(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut p = prefix.to_vec();
            p.extend(head);
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            go(&p, &inner[start..], out);
            return;
        }
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p.trim(), Some(a.trim().to_owned())),
            None => (tree, None),
        };
        let mut p = prefix.to_vec();
        p.extend(path.split("::").map(|s| s.trim().to_owned()));
        if p.last().is_some_and(|l| l == "self") {
            p.pop();
        }
        let name = alias.unwrap_or_else(|| p.last().cloned().unwrap_or_default());
        out.push((p, name));
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// The `use` statements of a file's code: `(line index, tree)`.
fn use_statements(code: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in code.iter().enumerate() {
        let t = line.trim_start();
        if current.is_none() {
            let rest = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|p| t.strip_prefix(p))
                .unwrap_or(t);
            if let Some(rest) = rest.strip_prefix("use ") {
                current = Some((i, String::new()));
                let (_, buf) = current.as_mut().unwrap();
                buf.push_str(rest);
            }
        } else if let Some((_, buf)) = current.as_mut() {
            buf.push(' ');
            buf.push_str(t);
        }
        if let Some((at, buf)) = current.take() {
            if let Some(end) = buf.find(';') {
                out.push((at, buf[..end].to_owned()));
            } else {
                current = Some((at, buf));
            }
        }
    }
    out
}

/// The paths written in code outside `use` statements that start at `crate::`, `super::` or
/// `self::`: `(line index, segments)`.
fn inline_paths(code: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    for (i, line) in code.iter().enumerate() {
        for start in ["crate::", "super::", "self::"] {
            for (at, _) in line.match_indices(start) {
                let before = &line[..at];
                if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue; // pith_crate::, or the middle of a longer path
                }
                let segs: Vec<String> = line[at..]
                    .split("::")
                    .map(|s| {
                        s.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect::<String>()
                    })
                    .take_while(|s| !s.is_empty())
                    .collect();
                out.push((i, segs));
            }
        }
    }
    out
}

/// What the scanner knows of a crate: its modules and the names each module binds with `use`.
struct Crate {
    modules: BTreeSet<ModPath>,
    /// `(module, name)` → the path the name stands for, as written (relative to `module`).
    bindings: std::collections::BTreeMap<(ModPath, String), Vec<String>>,
}

impl Crate {
    fn new(files: &[&Source]) -> Crate {
        let mut modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
        let mut bindings = std::collections::BTreeMap::new();
        for f in files {
            let code = code_of(&f.text);
            // Inline modules (`mod testkit { … }`) and modules declared in a file are modules
            // too, even without a file of their own.
            for line in &code {
                let t = line.trim_start();
                let t = ["pub(crate) ", "pub "]
                    .iter()
                    .find_map(|p| t.strip_prefix(p))
                    .unwrap_or(t);
                if let Some(rest) = t.strip_prefix("mod ") {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        let mut m = f.module.clone();
                        m.push(name);
                        modules.insert(m);
                    }
                }
            }
            for (_, tree) in use_statements(&code) {
                for (path, name) in expand_use(&tree) {
                    if name != "*" && name != "_" {
                        bindings.insert((f.module.clone(), name), path);
                    }
                }
            }
        }
        Crate { modules, bindings }
    }

    /// The module of this crate that `path`, written in `module`, leads to; `None` for a path
    /// into another crate.
    fn resolve(&self, module: &[String], path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let mut at: ModPath = match path[0].as_str() {
            "crate" => Vec::new(),
            "super" | "self" => module.to_vec(),
            first => {
                let mut child = module.to_vec();
                child.push(first.to_owned());
                if self.modules.contains(&child) {
                    module.to_vec()
                } else if let Some(bound) = self.bindings.get(&(module.to_vec(), first.to_owned()))
                {
                    let mut whole = bound.clone();
                    whole.extend(path[1..].iter().cloned());
                    return self.resolve(module, &whole, depth + 1);
                } else {
                    return None;
                }
            }
        };
        let mut rest = if path[0] == "crate" || path[0] == "self" {
            &path[1..]
        } else if path[0] == "super" {
            let mut p = path;
            while p.first().is_some_and(|s| s == "super") {
                at.pop();
                p = &p[1..];
            }
            p
        } else {
            path
        };
        while let Some(seg) = rest.first() {
            let mut child = at.clone();
            child.push(seg.clone());
            if self.modules.contains(&child) {
                at = child;
                rest = &rest[1..];
                continue;
            }
            if let Some(bound) = self.bindings.get(&(at.clone(), seg.clone())) {
                // A name this module imports: where it points, resolved where it was written;
                // a re-export of another crate's module (`pub use pith_pdf::vocab`) is a module
                // of its own in the layers.
                let mut whole = bound.clone();
                whole.extend(rest[1..].iter().cloned());
                return self.resolve(&at, &whole, depth + 1).or(Some(child));
            }
            break;
        }
        Some(at)
    }
}

/// Every use of one module by another in `files`: `use` trees in every form (grouped, nested,
/// renamed, re-exported, `crate::`, `super::`, `self::`, a child's name) and the paths written
/// in code, followed through the names modules import.
fn edges(files: &[Source]) -> Vec<Edge> {
    let tests = test_only(files);
    let files: Vec<&Source> = files
        .iter()
        .filter(|f| !tests.iter().any(|t| f.module.starts_with(t)))
        .collect();
    let krate = Crate::new(&files);
    let mut out = Vec::new();
    for f in &files {
        let code = code_of(&f.text);
        let mut found: Vec<(usize, Vec<String>)> = use_statements(&code)
            .into_iter()
            .flat_map(|(i, tree)| expand_use(&tree).into_iter().map(move |(p, _)| (i, p)))
            .collect();
        found.extend(inline_paths(&code));
        for (i, path) in found {
            let doc = code[i].starts_with("//");
            if let Some(to) = krate.resolve(&f.module, &path, 0) {
                let at = format!("{}:{}", f.at, i + 1);
                if to != f.module && !out.iter().any(|e: &Edge| e.to == to && e.at == at) {
                    out.push(Edge {
                        from: f.module.clone(),
                        to,
                        at,
                        doc,
                    });
                }
            }
        }
    }
    out
}

/// The modules only unit tests build (`#[cfg(test)] mod shapes;`): no layer, as the unit
/// tests inside a file are none.
fn test_only(files: &[Source]) -> Vec<ModPath> {
    let mut out = Vec::new();
    for f in files {
        let mut cfg_test = false;
        for line in f.text.lines() {
            let t = line.trim_start();
            if t.starts_with("#[cfg(test)]") {
                cfg_test = true;
                continue;
            }
            if cfg_test {
                let t = t.strip_prefix("pub(crate) ").unwrap_or(t);
                if let Some(name) = t.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
                    let mut m = f.module.clone();
                    m.push(name.trim().to_owned());
                    out.push(m);
                }
            }
            cfg_test = t.starts_with("#[");
        }
    }
    out
}

/// Where an edge crosses between two modules of one folder: `(folder, from's module there,
/// to's module there)`, or `None` when one of them contains the other.
fn crossing(e: &Edge) -> Option<(ModPath, String, String)> {
    let common = e.from.iter().zip(&e.to).take_while(|(a, b)| a == b).count();
    let a = e.from.get(common)?;
    let b = e.to.get(common)?;
    Some((e.from[..common].to_vec(), a.clone(), b.clone()))
}

/// The uses that run against the crate root's layers: of a module of the same layer or of one
/// above, or of a module no layer names. The front end (`cli`, `main`) is above every layer.
fn layer_violations(layers: &[Vec<String>], edges: &[Edge]) -> Vec<String> {
    let layer = |m: &str| layers.iter().position(|l| l.iter().any(|x| x == m));
    edges
        .iter()
        .filter(|e| !e.doc)
        .filter_map(|e| {
            let (folder, from, to) = crossing(e)?;
            if !folder.is_empty() || from == "cli" {
                return None;
            }
            match (layer(&from), layer(&to)) {
                (Some(a), Some(b)) if b > a => None,
                (a, b) => Some(format!(
                    "{}: {from} (layer {a:?}) uses crate::{to} (layer {b:?})",
                    e.at
                )),
            }
        })
        .collect()
}

/// The circles among the modules of one folder (any folder, the crate root included): each
/// as the uses that close it.
fn circles(edges: &[Edge]) -> Vec<String> {
    use std::collections::BTreeMap;
    let mut graph: BTreeMap<(ModPath, String), BTreeMap<String, String>> = BTreeMap::new();
    for e in edges.iter().filter(|e| !e.doc) {
        if let Some((folder, a, b)) = crossing(e) {
            graph
                .entry((folder, a))
                .or_default()
                .entry(b)
                .or_insert_with(|| e.at.clone());
        }
    }
    // Each circle once, however many of its modules it is found from.
    let mut out = std::collections::BTreeMap::new();
    for ((folder, a), targets) in &graph {
        // A path back from each target to `a`, by a breadth-first search among siblings.
        for (b, at) in targets {
            let mut seen = BTreeSet::new();
            let mut todo = vec![(b.clone(), vec![format!("{a} -> {b} ({at})")])];
            while let Some((m, trail)) = todo.pop() {
                if &m == a {
                    let name = folder.join("::");
                    let members: BTreeSet<&str> =
                        trail.iter().filter_map(|t| t.split(' ').next()).collect();
                    out.entry((folder.clone(), format!("{members:?}")))
                        .or_insert_with(|| format!("in crate::{name}: {}", trail.join(", ")));
                    break;
                }
                if !seen.insert(m.clone()) {
                    continue;
                }
                if let Some(next) = graph.get(&(folder.clone(), m.clone())) {
                    for (n, at) in next {
                        let mut t = trail.clone();
                        t.push(format!("{m} -> {n} ({at})"));
                        todo.push((n.clone(), t));
                    }
                }
            }
        }
    }
    out.into_values().collect()
}

#[test]
fn every_use_follows_the_layers_lib_rs_declares_and_no_folder_has_a_circle() {
    let mut bad = Vec::new();
    for (krate, (from, to)) in
        LAYERED
            .into_iter()
            .zip([("job", "batch"), ("routes", "pages"), ("inject", "stamp")])
    {
        let layers = declared_layers(krate);
        assert!(layers.len() >= 5, "{krate}: {layers:?}");
        let lib = std::fs::read_to_string(root().join(krate).join("src/lib.rs")).unwrap();
        let code = code_of(&lib);
        for line in &code {
            let t = line.trim_start();
            let t = t.strip_prefix("pub ").unwrap_or(t);
            if let Some(m) = t.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
                let n = layers.iter().filter(|l| l.iter().any(|x| x == m)).count();
                assert_eq!(n, 1, "{krate}: module {m} is in {n} layers of lib.rs");
            }
        }
        let files = sources(krate);
        let found = edges(&files);
        assert!(
            found
                .iter()
                .any(|e| e.from.first().is_some_and(|f| f == from)
                    && e.to.first().is_some_and(|t| t == to)),
            "{krate}: the scan finds {from}'s uses of {to}"
        );
        let against = layer_violations(&layers, &found).into_iter();
        bad.extend(
            against
                .chain(circles(&found))
                .map(|b| format!("{krate}: {b}")),
        );
    }
    for krate in UNLAYERED {
        let found = circles(&edges(&sources(krate))).into_iter();
        bad.extend(found.map(|b| format!("{krate}: {b}")));
    }
    assert!(
        bad.is_empty(),
        "imports against the layers, or circles:\n{}",
        bad.join("\n")
    );
}

/// A crate of the given files (`(path under src/, text)`), scanned.
fn planted(files: &[(&str, &str)]) -> Vec<Edge> {
    let files: Vec<Source> = files
        .iter()
        .map(|(rel, text)| source(rel, rel, (*text).to_owned()))
        .collect();
    edges(&files)
}

#[test]
fn a_circle_of_every_import_form_is_found() {
    let layers = vec![vec!["job".to_owned()], vec!["batch".into(), "net".into()]];
    let base = "pub mod batch;\npub mod job;\npub mod net;\npub use net::Client;\n";
    // Each form from batch back up to job, and a sibling circle inside net.
    let upward = [
        "use crate::job;\n",
        "use crate::job::Request;\n",
        "use crate::{\n    job::Request,\n    net,\n};\n",
        "use crate::{job::{self, Request as R}};\n",
        "pub use crate::job::Request;\n",
        "use super::job::Request;\n",
        "fn f() { let _ = crate::job::run(); }\n",
    ];
    for form in upward {
        let found = planted(&[("lib.rs", base), ("batch.rs", form), ("job.rs", "")]);
        let bad = layer_violations(&layers, &found);
        assert!(!bad.is_empty(), "not found: {form:?}");
    }
    // A use through a name the crate root re-exports.
    let found = planted(&[
        ("lib.rs", base),
        ("net/mod.rs", "pub mod client;\npub use client::Client;\n"),
        ("net/client.rs", "use crate::batch::Walk;\n"),
        ("batch.rs", ""),
    ]);
    assert_eq!(layer_violations(&layers, &found).len(), 1, "{found:?}");
    let found = planted(&[
        ("lib.rs", base),
        ("batch.rs", "use crate::Client;\n"),
        ("net/mod.rs", "pub mod client;\npub use client::Client;\n"),
        ("net/client.rs", ""),
    ]);
    assert_eq!(layer_violations(&layers, &found).len(), 1, "{found:?}");
    // Sibling circles inside a folder, in the forms siblings use.
    let net = "pub mod client;\npub mod ots;\npub use ots::Proof;\n";
    for (client, ots) in [
        ("use super::ots::Proof;\n", "use super::client::Client;\n"),
        (
            "use super::Proof;\n",
            "use super::{client::{self, Client}};\n",
        ),
        (
            "use crate::net::ots;\n",
            "fn f() { super::client::get(); }\n",
        ),
    ] {
        let found = planted(&[
            ("lib.rs", base),
            ("net/mod.rs", net),
            ("net/client.rs", client),
            ("net/ots.rs", ots),
        ]);
        assert_eq!(circles(&found).len(), 1, "{client:?} / {ots:?}: {found:?}");
    }
    // Unit tests and plain comments are no uses; a downward use is fine.
    let found = planted(&[
        ("lib.rs", base),
        (
            "batch.rs",
            "// crate::job in a comment\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::job;\n}\n",
        ),
        ("job.rs", "use crate::batch;\n"),
    ]);
    assert!(layer_violations(&layers, &found).is_empty(), "{found:?}");
    assert!(circles(&found).is_empty());
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

/// The calls that read an input whole or by unbounded lines: outside input goes through
/// `pith::bounded` (bytes, lines, JSON within bounds, the stop token seen) instead.
const WHOLE_READS: [&str; 6] = [
    "read_to_end(",
    "read_to_string(",
    "read_line(",
    "read_until(",
    "serde_json::from_reader",
    "serde_json::from_slice",
];

/// Files outside the bounded layer that may still make one of [`WHOLE_READS`], and why: each
/// reads a file pith wrote itself, or bytes already held within a bound set before the call.
/// An entry whose file no longer makes such a call fails the test too, so the list stays
/// exact.
const WHOLE_READS_ALLOWED: &[(&str, &str)] = &[
    // The bounded layer itself: its one whole read is within `Bounds::bytes`, its JSON within
    // a byte and a nesting bound.
    ("src/bounded/mod.rs", "the layer"),
    ("src/bounded/json.rs", "the layer"),
    (
        "src/bounded/lines.rs",
        "the layer, through stream::read_line",
    ),
    // The bounded line reader (a longer line is skipped, never held; decompress re-exports
    // it for the bulk metadata readers), its caller there, and the snapshot's lines parsed
    // once that reader held them.
    ("src/stream.rs", "a bounded line reader"),
    ("src/record/arxiv/bulk.rs", "through decompress::read_line"),
    ("src/record/arxiv/snapshot.rs", "lines within MAX_LINE"),
    // Not bounded yet: a PDF given on standard input is held whole by the job's one reader
    // of it (a PDF given as a file is read where it lies, within the engine's budget).
    // The spacing file pith writes in its own cache (a timestamp).
    ("src/net/client.rs", "our own file"),
    // Answers of the resolver and the mirrors: held within the client's MAX_BODY before
    // they are parsed.
    ("src/net/mirrors.rs", "bounded by the client's MAX_BODY"),
    ("src/net/resolver.rs", "bounded by the client's MAX_BODY"),
    // Headers files: read within `take(MAX_HEADERS_BYTES)`, by lines within `take(MAX_LINE)`.
    ("src/ots/header.rs", "bounded by take()"),
    // A tar's bytes after its end-of-archive, written back as they are by the tar run:
    // within take(TRAILER_BOUND).
    ("src/job/tar/format.rs", "bounded by take()"),
    // The manifest's text is read within take(MAX_BYTES), and a tar run reads back its own
    // report.
    ("src/batch/manifest.rs", "bounded by take()"),
    // The server's own index: documents it stored, and rendered pages it wrote.
    ("crates/pith-serve/src/documents.rs", "our own index"),
    ("crates/pith-serve/src/pages/record.rs", "our own index"),
    (
        "crates/pith-serve/src/rendered.rs",
        "our own files, in chunks",
    ),
];

#[test]
fn outside_input_is_read_through_the_bounded_layer() {
    let mut found: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for krate in [".", "crates/pith-serve"] {
        for s in sources(krate) {
            for (i, line) in code_of(&s.text).iter().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for call in WHOLE_READS {
                    if line.contains(call) {
                        found.entry(s.at.clone()).or_default().push(format!(
                            "{}:{}: {call}",
                            s.at,
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    let allowed: BTreeSet<&str> = WHOLE_READS_ALLOWED.iter().map(|(f, _)| *f).collect();
    let outside: Vec<&String> = found
        .iter()
        .filter(|(f, _)| !allowed.contains(f.as_str()))
        .flat_map(|(_, v)| v)
        .collect();
    assert!(
        outside.is_empty(),
        "whole reads outside the bounded layer (read through pith::bounded, or add the file \
         to WHOLE_READS_ALLOWED with the reason it reads only our own or bounded bytes):\n{}",
        outside
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let stale: Vec<&&str> = allowed
        .iter()
        .filter(|f| !found.contains_key(**f))
        .collect();
    assert!(
        stale.is_empty(),
        "allowed but reading nothing whole: {stale:?}"
    );
}
