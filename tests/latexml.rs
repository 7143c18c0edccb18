//! `pith.sty.ltxml`: LaTeXML, which arXiv uses for its HTML view, converts papers
//! that use `pith.sty` with the binding `pith sty` writes next to it. Each document goes
//! through Debian's `latexml` and `latexmlpost --format=html5`; the HTML is parsed with
//! python3's `html.parser` (a real parser, not a regex) and must hold the badge (a link to
//! the record page whose text is the short number), a `<link rel="cite-as">` in the head, and
//! no raw `\pithnumber`/`\pithbadge` or `ltx_ERROR`.
//!
//! Documents: the example paper's front matter (`tests/latex/example-paper.tex`) and the
//! matrix documents of `tests/latex.rs` for article, revtex4-2, acmart, elsarticle and
//! IEEEtran, plus `nobadge`, `\pithbadge` and an invalid argument.

use crate::common;
use crate::common::tex;

use std::path::Path;

use serde_json::Value;

use crate::common::{SEED as FULL, SEED_CODE as CODE, SEED_SHORT as SHORT, SEED_URL as URL};

/// Reads an HTML file with `html.parser` and prints JSON: the head's `<link>`s, every `<a>`
/// with its text, whether any element has the class `ltx_ERROR`, and the body text.
const PARSE_HTML: &str = r#"
import json, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_head = False
        self.head_links = []
        self.anchors = []
        self.open_a = []
        self.errors = 0
        self.text = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'ltx_ERROR' in (a.get('class') or '').split():
            self.errors += 1
        if tag == 'head':
            self.in_head = True
        elif tag == 'link' and self.in_head:
            self.head_links.append(a)
        elif tag == 'a':
            self.open_a.append({'attrs': a, 'text': ''})
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == 'a':
            self.handle_endtag(tag)
    def handle_endtag(self, tag):
        if tag == 'head':
            self.in_head = False
        elif tag == 'a' and self.open_a:
            self.anchors.append(self.open_a.pop())
    def handle_data(self, data):
        for a in self.open_a:
            a['text'] += data
        if not self.in_head:
            self.text.append(data)

p = P()
with open(sys.argv[1], encoding='utf-8') as f:
    p.feed(f.read())
p.close()
print(json.dumps({'head_links': p.head_links, 'anchors': p.anchors, 'errors': p.errors,
                  'text': ''.join(p.text)}))
"#;

fn have_tools(test: &str) -> bool {
    ["latexml", "latexmlpost", "python3"]
        .iter()
        .all(|t| common::have_tool(t, test))
}

/// Runs a program in `dir` (at most two minutes, in a tool slot: [`tex::run_tool`]);
/// returns (ok, stdout+stderr).
fn run_in(dir: &Path, program: &str, args: &[&str]) -> (bool, String) {
    const LIMIT: u32 = 120;
    let mut cmd = tex::timed(LIMIT);
    cmd.arg(program).args(args).current_dir(dir);
    tex::run_tool(cmd, program, LIMIT)
}

/// The HTML of `doc.tex` in `dir` after LaTeXML, with the generated `pith.sty` and
/// `pith.sty.ltxml` next to it (as `pith sty -o DIR` writes them); (html, latexml log).
fn convert(dir: &Path, tex: &str) -> Result<(String, String), String> {
    let opts = pith::sty::Release::default();
    std::fs::write(dir.join("pith.sty"), pith::sty::render(&opts).unwrap()).unwrap();
    std::fs::write(
        dir.join("pith.sty.ltxml"),
        pith::sty::render_ltxml(&opts).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("doc.tex"), tex).unwrap();
    let (ok, out) = run_in(dir, "latexml", &["--dest=doc.xml", "doc.tex"]);
    if !ok || !dir.join("doc.xml").is_file() {
        return Err(format!("latexml failed:\n{out}"));
    }
    let (ok, out2) = run_in(
        dir,
        "latexmlpost",
        &["--format=html5", "--dest=doc.html", "doc.xml"],
    );
    if !ok {
        return Err(format!("latexmlpost failed:\n{out2}"));
    }
    let html = std::fs::read_to_string(dir.join("doc.html")).map_err(|e| e.to_string())?;
    Ok((html, out))
}

/// The parsed view of `doc.html` in `dir`.
fn parse(dir: &Path) -> Value {
    let (ok, out, err) = common::run(
        "python3",
        &["-c", PARSE_HTML, dir.join("doc.html").to_str().unwrap()],
        None,
    );
    assert!(ok, "html.parser: {err}");
    serde_json::from_str(&out).expect("parser JSON")
}

/// Links to the record page in the body whose text is the short number.
fn badges(parsed: &Value) -> Vec<&Value> {
    parsed["anchors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["attrs"]["href"] == URL && a["text"].as_str().map(str::trim) == Some(SHORT))
        .collect()
}

fn cite_as_links(parsed: &Value) -> Vec<&Value> {
    parsed["head_links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["rel"] == "cite-as")
        .collect()
}

/// What one converted document must show.
struct Expect {
    badges: usize,
    head_link: bool,
}

/// The common checks of a converted document; returns the problems found.
fn check(html: &str, parsed: &Value, e: &Expect) -> Vec<String> {
    let mut errs = vec![];
    let b = badges(parsed);
    if b.len() != e.badges {
        errs.push(format!(
            "{} badge link(s) ({URL} with text {SHORT}), expected {}",
            b.len(),
            e.badges
        ));
    }
    for a in &b {
        if a["attrs"]["title"] != FULL {
            errs.push(format!(
                "badge link title {}, expected {FULL}",
                a["attrs"]["title"]
            ));
        }
    }
    let links = cite_as_links(parsed);
    if e.head_link {
        if links.len() != 1 || links[0]["href"] != URL || links[0]["title"] != FULL {
            errs.push(format!(
                "head: expected one <link rel=\"cite-as\" href=\"{URL}\" title=\"{FULL}\">, got {links:?}"
            ));
        }
    } else if !links.is_empty() {
        errs.push(format!("unexpected head links {links:?}"));
    }
    for raw in ["\\pithnumber", "\\pithbadge", "ltx_ERROR", "pith@"] {
        if html.contains(raw) {
            errs.push(format!("the HTML contains {raw}"));
        }
    }
    if parsed["errors"] != 0 {
        errs.push(format!("{} ltx_ERROR element(s)", parsed["errors"]));
    }
    errs
}

/// A matrix document of `tests/latex/` with pith loaded and the number given.
fn matrix_doc(doc: &str, opts: &str) -> String {
    let src = std::fs::read_to_string(common::root().join(format!("tests/latex/{doc}.tex")))
        .unwrap_or_else(|e| panic!("tests/latex/{doc}.tex: {e}"));
    let pkg = format!(
        "\\usepackage{{pith}}\\pithnumber{{{FULL}}}\n\\newcommand\\lipsumtext{{Filler words fill the column.}}\n"
    );
    // LaTeXML 0.8.7's elsarticle binding predates elsarticle 3.3's \affiliation (an undefined
    // macro there, unrelated to pith); its \address takes the same place.
    src.replace("%%PRE%%", "")
        .replace("%%OPTS%%", opts)
        .replace("%%PKG%%", &pkg)
        .replace(
            "\\affiliation{organization={Somewhere University},city={Town},country={Land}}",
            "\\address{Somewhere University, Town, Land}",
        )
}

/// The documents converted by `documents_render_the_badge`: (name, source).
fn documents() -> Vec<(&'static str, String)> {
    let example = std::fs::read_to_string(common::root().join("tests/latex/example-paper.tex"))
        .expect("tests/latex/example-paper.tex");
    vec![
        ("example-paper", example),
        ("article", matrix_doc("article", "")),
        ("revtex-reprint", matrix_doc("revtex", "reprint")),
        ("acmart-sigconf", matrix_doc("acmart", "sigconf")),
        ("elsarticle-preprint", matrix_doc("elsarticle", "preprint")),
        ("ieeetran-conference", matrix_doc("ieeetran", "conference")),
    ]
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn documents_render_the_badge() {
    if !have_tools("documents_render_the_badge") {
        return;
    }
    let failures = tex::parallel("latexml", documents(), |(name, tex)| {
        let dir = tempfile::Builder::new()
            .prefix(&format!("pith-latexml-{name}-"))
            .tempdir()
            .unwrap();
        let errs = match convert(dir.path(), tex) {
            Err(e) => vec![e],
            Ok((html, _)) => check(
                &html,
                &parse(dir.path()),
                &Expect {
                    badges: 1,
                    head_link: true,
                },
            ),
        };
        (name.to_string(), errs)
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A small article with `preamble` and `body`, converted; (html, parsed, latexml log).
fn small(preamble: &str, body: &str) -> (String, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let tex = format!(
        "\\documentclass{{article}}\n{preamble}\n\\title{{Zebrafish}}\\author{{Ada}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    );
    let (html, log) = convert(dir.path(), &tex).unwrap_or_else(|e| panic!("{e}"));
    let parsed = parse(dir.path());
    (html, parsed, log)
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn nobadge_keeps_the_head_link() {
    if !have_tools("nobadge_keeps_the_head_link") {
        return;
    }
    let (html, parsed, _) = small(
        &format!("\\usepackage[nobadge]{{pith}}\\pithnumber{{{CODE}}}"),
        "\\maketitle Text.",
    );
    assert!(badges(&parsed).is_empty(), "badge despite nobadge");
    let links = cite_as_links(&parsed);
    assert_eq!(links.len(), 1, "{html}");
    assert_eq!(links[0]["href"], URL);
    // Without a year the full form is the 26 characters.
    assert_eq!(links[0]["title"], CODE);
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn manual_badge_is_printed_once() {
    if !have_tools("manual_badge_is_printed_once") {
        return;
    }
    let (html, parsed, _) = small(
        &format!("\\usepackage{{pith}}\\pithnumber{{{FULL}}}"),
        "\\maketitle Zebrafish first. \\pithbadge\\ and again \\pithbadge.",
    );
    let errs = check(
        &html,
        &parsed,
        &Expect {
            badges: 1,
            head_link: true,
        },
    );
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

/// An invalid argument is an error in LaTeXML's log, never executed, and leaves no badge,
/// no head link and no raw macro in the HTML.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn invalid_argument_is_not_executed() {
    if !have_tools("invalid_argument_is_not_executed") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("evil.tex"),
        "EVIL-FILE-WAS-READ\\typeout{EVIL-FILE-WAS-READ}\n",
    )
    .unwrap();
    let tex = "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{\\input{evil}\\typeout{X\\romannumeral4 Y}}\n\\title{Zebrafish}\\author{Ada}\n\\begin{document}\n\\maketitle Text.\n\\end{document}\n";
    let (html, log) = convert(dir.path(), tex).unwrap_or_else(|e| panic!("{e}"));
    let parsed = parse(dir.path());
    assert!(log.contains("Invalid Pith Number"), "{log}");
    assert!(
        !log.contains("EVIL-FILE-WAS-READ") && !log.contains("evil.tex"),
        "{log}"
    );
    assert!(!log.contains("XivY"), "the argument was expanded:\n{log}");
    assert!(!html.contains("EVIL-FILE-WAS-READ"), "{html}");
    assert!(badges(&parsed).is_empty());
    assert!(cite_as_links(&parsed).is_empty());
    assert!(!html.contains("\\pithnumber"));
}
