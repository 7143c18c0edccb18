//! The console blocks of README.md and docs/*.md run as CLI transcripts: every ```` ```console ````
//! block is split into `$ command` lines (a trailing `\` continues a command) and the output
//! that follows, each command runs with `sh` in a sandbox directory (the repository's
//! `examples/` plus the files the README's commands name), and its standard output and error
//! must equal the lines shown. The test fails when the README and the tool drift apart.
//!
//! Volatile parts are redacted on both sides: `"ms":N` timings. An HTML comment
//! `<!-- transcript: unordered -->` right before a block compares each command's output lines
//! as a multiset (a parallel batch reports files in completion order), `no-eol` says the last
//! line of each command's output has no final newline (`pith record --canonical` prints the
//! exact hashed bytes), and `skip` leaves a block out (none does today); several are
//! separated by commas.

use std::path::Path;
use std::process::Command;

use crate::common::http::{arxiv_route, Server};
use crate::common::{copy_writable, example, have_tool, root};

/// One command of a transcript and the output shown after it.
#[derive(Debug)]
struct Step {
    line: usize,
    /// Index (0-based) of the first line after the command: where its output starts.
    output_at: usize,
    command: String,
    expected: Vec<String>,
}

/// One console block.
#[derive(Debug)]
struct Block {
    line: usize,
    unordered: bool,
    skip: bool,
    no_eol: bool,
    steps: Vec<Step>,
}

/// The console blocks of a Markdown text.
fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```console" {
            i += 1;
            continue;
        }
        let directive = (0..i)
            .rev()
            .map(|k| lines[k].trim())
            .find(|l| !l.is_empty())
            .and_then(|l| l.strip_prefix("<!-- transcript:"))
            .and_then(|l| l.strip_suffix("-->"))
            .unwrap_or("");
        let has = |d: &str| directive.split(',').any(|w| w.trim() == d);
        let mut block = Block {
            line: i + 1,
            unordered: has("unordered"),
            skip: has("skip"),
            no_eol: has("no-eol"),
            steps: Vec::new(),
        };
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            let l = lines[i];
            if let Some(cmd) = l.strip_prefix("$ ") {
                let mut command = cmd.to_owned();
                let start = i + 1;
                while command.ends_with('\\') && i + 1 < lines.len() {
                    command.pop();
                    command.truncate(command.trim_end().len());
                    i += 1;
                    command.push(' ');
                    command.push_str(lines[i].trim_start());
                }
                block.steps.push(Step {
                    line: start,
                    output_at: i + 1,
                    command,
                    expected: Vec::new(),
                });
            } else {
                let step = block
                    .steps
                    .last_mut()
                    .unwrap_or_else(|| panic!("line {}: output before any `$ `", i + 1));
                step.expected.push(l.to_owned());
            }
            i += 1;
        }
        out.push(block);
        i += 1;
    }
    out
}

/// The programs a block's commands run, other than pith: the first word of each command and
/// of each stage of a pipeline.
fn programs(b: &Block) -> Vec<String> {
    let mut out: Vec<String> = b
        .steps
        .iter()
        .flat_map(|s| {
            s.command
                .split(['|', ';', '&'])
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter_map(|stage| stage.split_whitespace().next().map(str::to_owned))
        .filter(|p| p != "pith" && !p.contains('='))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Replaces the digits after every `"ms":` with `N`.
fn redact(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(p) = rest.find("\"ms\":") {
        out.push_str(&rest[..p + 5]);
        rest = rest[p + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('N');
    }
    out.push_str(rest);
    out
}

/// The title and abstract files the docs give `--title-file` and `--abstract-file` are the
/// example Atom entry's texts, as arXiv publishes them.
#[test]
fn example_texts_are_the_atom_entrys() {
    let atom = std::fs::read_to_string(example("2402.03791v3.atom.xml")).unwrap();
    for (tag, file) in [("title", "title"), ("summary", "abstract")] {
        let text = std::fs::read_to_string(example(&format!("2402.03791v3.{file}.txt"))).unwrap();
        assert_eq!(
            text,
            atom_text(&atom, tag),
            "examples/2402.03791v3.{file}.txt"
        );
    }
}

/// The text of `<tag>` in the first Atom `<entry>` of `xml`.
fn atom_text(xml: &str, tag: &str) -> String {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let entry = doc
        .descendants()
        .find(|n| n.tag_name().name() == "entry")
        .expect("an <entry>");
    entry
        .children()
        .find(|n| n.tag_name().name() == tag)
        .and_then(|n| n.text())
        .unwrap_or_else(|| panic!("no <{tag}>"))
        .to_owned()
}

/// The sandbox the README's commands run in: `examples/`, and a copy of the batch example's
/// tree, `examples/archive/` (two good PDFs, a damaged one, their inputs and the manifest),
/// as docs/archives.md tells the reader to make one. Every other file a command names is
/// one of `examples/`.
fn sandbox(dir: &Path) {
    std::os::unix::fs::symlink(root().join("examples"), dir.join("examples")).unwrap();
    // The bulk-metadata fixtures the "Numbering arXiv in bulk" section runs on.
    std::fs::create_dir_all(dir.join("tests/data")).unwrap();
    std::os::unix::fs::symlink(
        root().join("tests/data/arxiv"),
        dir.join("tests/data/arxiv"),
    )
    .unwrap();
    copy_tree(&example("archive"), dir);
}

/// Copies the files under `from` into `to`, following symbolic links (`cp -rL`).
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&p, &dest);
        } else {
            copy_writable(&p, &dest);
        }
    }
}

/// Runs `command` with `sh` in `dir`, with the binary under test first on `PATH`; returns
/// standard output followed by standard error.
/// Runs `command` in the sandbox `dir`, with arXiv served by the stand-in at `arxiv` (the
/// recorded answers of `tests/data/net`) and a cache of its own, so that `pith number <arXiv
/// id>` in a transcript runs for real without the internet.
fn run(command: &str, dir: &Path, arxiv: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin!("pith");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("sh");
    c.args(["-c", command]).current_dir(dir).env("PATH", path);
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    c.env("PITH_ARXIV_URL", arxiv)
        .env("PITH_RESOLVER_URL", crate::common::no_network())
        .env("PITH_ARXIV_SPACING_MS", "0")
        .env("PITH_CACHE_DIR", dir.join(".cache"));
    let o = c.output().expect("sh");
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn compare(got: &str, want: &[String], unordered: bool, no_eol: bool) -> bool {
    // Every shown line ends with a newline (but the last under `no-eol`); a missing or extra
    // final newline is a difference.
    let mut got: Vec<String> = got.split_inclusive('\n').map(redact).collect();
    let mut want: Vec<String> = want.iter().map(|l| redact(&format!("{l}\n"))).collect();
    if no_eol {
        if let Some(last) = want.last_mut() {
            last.pop();
        }
    }
    if unordered {
        got.sort();
        want.sort();
    }
    got == want
}

/// The Markdown files whose console blocks run: the README and the guides in `docs/`.
fn documents() -> Vec<std::path::PathBuf> {
    let mut docs = crate::common::doc_guides();
    docs.insert(0, root().join("README.md"));
    docs
}

/// Whether to rewrite the documents' outputs with what pith prints (`TRYCMD=overwrite`, as
/// trycmd blesses its transcripts) instead of failing; review the diff before committing.
fn overwrite() -> bool {
    std::env::var("TRYCMD").is_ok_and(|v| v == "overwrite")
}

#[test]
fn readme_console_blocks_are_true() {
    let arxiv = Server::start(arxiv_route);
    let mut failures = Vec::new();
    let mut total = 0;
    for doc in documents() {
        let name = doc.strip_prefix(root()).unwrap().display().to_string();
        let md = std::fs::read_to_string(&doc).unwrap();
        let blocks = blocks(&md);
        total += blocks.len();
        // (first line, lines replaced, new lines) of the outputs to rewrite, in order.
        let mut rewrites: Vec<(usize, usize, Vec<String>)> = Vec::new();
        for b in blocks.iter().filter(|b| !b.skip) {
            // A block whose commands need a tool that is missing here (qpdf making an encrypted
            // file for the next command) is skipped as a whole, visibly: its later commands
            // would fail on the files the missing tool makes.
            if !programs(b)
                .iter()
                .all(|p| have_tool(p, "readme_console_blocks_are_true"))
            {
                continue;
            }
            // Each block starts from a fresh sandbox, so blocks do not depend on each other.
            let dir = tempfile::tempdir().unwrap();
            sandbox(dir.path());
            for s in &b.steps {
                let got = run(&s.command, dir.path(), &arxiv.url());
                if compare(&got, &s.expected, b.unordered, b.no_eol) {
                    continue;
                }
                if overwrite() {
                    let lines = got.lines().map(str::to_owned).collect();
                    rewrites.push((s.output_at, s.expected.len(), lines));
                    continue;
                }
                failures.push(format!(
                    "{name}:{} (block at line {}): $ {}\n--- {name} shows\n{}\n--- pith prints\n{}",
                    s.line,
                    b.line,
                    s.command,
                    s.expected.join("\n"),
                    got
                ));
            }
        }
        if !rewrites.is_empty() {
            let mut lines: Vec<String> = md.lines().map(str::to_owned).collect();
            for (at, n, new) in rewrites.into_iter().rev() {
                lines.splice(at..at + n, new);
            }
            std::fs::write(&doc, lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(total >= 6, "console blocks found: {total}");
    assert!(
        failures.is_empty(),
        "{}\n\n(rerun with TRYCMD=overwrite to take pith's output, then review the diff)",
        failures.join("\n\n")
    );
}

#[test]
fn transcript_parser_and_redaction() {
    let md = "text\n<!-- transcript: unordered -->\n```console\n$ a \\\n  b\nout 1\n$ c\n```\n";
    let b = blocks(md);
    assert_eq!(b.len(), 1);
    assert!(b[0].unordered && !b[0].skip);
    assert_eq!(b[0].steps[0].command, "a b");
    let tools = blocks(
        "```console\n$ qpdf --encrypt x y | gzip\n$ pith inspect x\n$ cat z; mkdir w\n```\n",
    );
    assert_eq!(programs(&tools[0]), ["cat", "gzip", "mkdir", "qpdf"]);
    assert_eq!(b[0].steps[0].expected, ["out 1"]);
    assert!(b[0].steps[1].expected.is_empty());
    assert_eq!(
        redact("{\"ms\":25,\"x\":1,\"ms\":3}"),
        "{\"ms\":N,\"x\":1,\"ms\":N}"
    );
    // A drift is caught: a changed line, a missing final newline, a reordering when ordered.
    let want = vec!["a".to_owned(), "b".to_owned()];
    assert!(compare("a\nb\n", &want, false, false));
    assert!(!compare("a\nb", &want, false, false));
    assert!(compare("a\nb", &want, false, true));
    assert!(!compare("a\nb\n", &want, false, true));
    assert!(!compare("b\na\n", &want, false, false));
    assert!(compare("b\na\n", &want, true, false));
    assert!(!compare("a\nc\n", &want, true, false));
}

/// What docs/python.md's commands create in the checkout (`.venv/`, the wheel in `dist/`) is
/// ignored by git, as `git check-ignore` reads .gitignore.
#[test]
fn python_build_leftovers_are_ignored() {
    let test = "python_build_leftovers_are_ignored";
    if !have_tool("git", test) {
        return;
    }
    if !root().join(".git").exists() {
        crate::common::skips::skip(test, "not a git checkout");
        return;
    }
    let guide = std::fs::read_to_string(root().join("docs/python.md")).unwrap();
    for made in [".venv", "dist/"] {
        assert!(
            guide.contains(made),
            "docs/python.md no longer makes {made}"
        );
    }
    for path in [
        ".venv/bin/pip",
        "dist/pith_number-0.1.0-cp39-abi3-linux_x86_64.whl",
        // python/build-wheel.sh's copy of the programs, should a build stop before removing it
        "python/wheel-data/scripts/pith",
    ] {
        let o = Command::new("git")
            .args(["check-ignore", "-q", path])
            .current_dir(root())
            .status()
            .unwrap();
        assert!(o.success(), "{path} is not ignored by .gitignore");
    }
}

/// The example bundle (`examples/2402.03791v3.bundle.json`) is the seed paper's record with
/// one receipt signed by the example key, whose public half is `examples/example-key.pub`
/// (the key's private half is public too: it signs examples, nothing else). Both are the
/// test kit's, byte for byte; `PITH_WRITE_EXAMPLES=1` writes them again.
#[test]
fn example_bundle_is_signed_by_the_example_key() {
    let rec = crate::common::seed_vector();
    let (bundle, key) = pith_testkit::signed_bundle(&rec);
    let text = format!("{}\n", serde_json::to_string_pretty(&bundle).unwrap());
    let key = format!("{key}\n");
    let (bundle_path, key_path) = (
        example("2402.03791v3.bundle.json"),
        example("example-key.pub"),
    );
    if std::env::var_os("PITH_WRITE_EXAMPLES").is_some() {
        std::fs::write(&bundle_path, &text).unwrap();
        std::fs::write(&key_path, &key).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&bundle_path).unwrap(), text);
    assert_eq!(std::fs::read_to_string(&key_path).unwrap(), key);
}
