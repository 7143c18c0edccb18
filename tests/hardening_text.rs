//! Hardening, caller text in every output format: attack strings in badge labels
//! and snippets stay text, read back with parsers we did not write (roxmltree, Python's
//! html.parser, docutils).

use crate::common;

use crate::common::tools::python;
use crate::common::{run_pith as pith, ATTACKS, SEED, SEED_URL};

#[test]
fn attack_strings_in_badge_labels_stay_text_in_the_svg() {
    for a in ATTACKS {
        let r = pith(&["badge", SEED, "--label", a, "--status", "computed"]);
        assert_eq!(r.code, 0, "{a}: {}", r.stderr);
        let doc = roxmltree::Document::parse(&r.stdout).expect("SVG is well-formed XML");
        let svg = doc.root_element();
        assert_eq!(svg.tag_name().name(), "svg");
        // Only the elements a badge has: no script, no foreignObject, no event attributes.
        for n in doc.descendants().filter(roxmltree::Node::is_element) {
            assert!(
                [
                    "svg",
                    "title",
                    "style",
                    "linearGradient",
                    "stop",
                    "rect",
                    "path",
                    "g",
                    "text"
                ]
                .contains(&n.tag_name().name()),
                "{a}: unexpected <{}>",
                n.tag_name().name()
            );
            assert!(
                n.attributes()
                    .all(|at| !at.name().starts_with("on") && !at.value().contains("javascript:")),
                "{a}: {:?}",
                n.attributes().collect::<Vec<_>>()
            );
        }
        let aria = svg.attribute("aria-label").unwrap();
        assert!(aria.starts_with(&format!("{a}: ")), "{aria}");
        let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some(aria));
        assert!(
            doc.descendants()
                .any(|n| n.has_tag_name("text") && n.text() == Some(a)),
            "{a}: label drawn as text"
        );
    }
    // Control characters (a line break in a label) are refused, not written.
    let r = pith(&["badge", SEED, "--label", "a\u{1b}[31mb"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
}

const HTML_TAGS: &str = r#"
import sys, json
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.tags = []; self.data = []
    def handle_starttag(self, tag, attrs): self.tags.append([tag, dict(attrs)])
    def handle_data(self, d): self.data.append(d)
    def handle_comment(self, d): self.tags.append(["!--", {}])
p = P(); p.feed(sys.stdin.read()); p.close(); print(json.dumps({"tags": p.tags, "data": "".join(p.data).strip()}))
"#;

const RST_TREE: &str = r#"
import sys, json
from docutils.core import publish_doctree
doc = publish_doctree(sys.stdin.read(), settings_overrides={"report_level": 2, "halt_level": 2})
kinds = sorted({n.tagname for n in doc.findall()})
img = next(iter(doc.findall(lambda n: n.tagname == "image")))
ref = next(iter(doc.findall(lambda n: n.tagname == "reference")))
print(json.dumps({"kinds": kinds, "uri": img["uri"], "alt": img["alt"], "refuri": ref["refuri"]}))
"#;

/// The lines of a LaTeX snippet TeX reads: those that are no comment.
fn live_tex(out: &str) -> impl Iterator<Item = &str> {
    out.lines().filter(|l| !l.starts_with('%'))
}

/// What TeX makes of the lines it reads, label text aside: per line, its control sequences
/// and its unescaped comment characters.
fn shape_of_tex(out: &str) -> Vec<(Vec<&str>, usize)> {
    live_tex(out)
        .map(|l| {
            let comments = l
                .match_indices('%')
                .filter(|(i, _)| !l[..*i].ends_with('\\'))
                .count();
            (control_sequences(l), comments)
        })
        .collect()
}

/// The names of the TeX control sequences of `line` made of letters (`\href` → `href`).
fn control_sequences(line: &str) -> Vec<&str> {
    line.match_indices('\\')
        .map(|(i, _)| {
            let rest = &line[i + 1..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// Removes CommonMark backslash escapes.
fn md_unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && it.peek().is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(it.next().unwrap());
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn attack_strings_in_snippets_are_escaped_or_refused() {
    let py = common::have_tool("python3", "attack_strings_in_snippets");
    let rst = py && common::have_python_module("docutils", "attack_strings_in_snippets");
    let plain = pith(&["snippet", SEED, "--format", "tex", "--label", "plain"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let plain_tex = shape_of_tex(&plain.stdout);
    for a in ATTACKS {
        let alt = format!("{a}: {SEED}");
        let src = format!("https://example.org/{a}.svg");
        let snip = |format: &str, with_src: bool| {
            let mut args = vec!["snippet", SEED, "--format", format, "--label", a];
            if with_src {
                args.extend(["--src", &src]);
            }
            pith(&args)
        };
        // HTML: exactly <a><img>, attribute values read back unchanged.
        let r = snip("html", true);
        assert_eq!(r.code, 0, "{}", r.stderr);
        if py {
            let v: serde_json::Value =
                serde_json::from_str(&python(HTML_TAGS, &r.stdout).unwrap()).unwrap();
            let names: Vec<&str> = v["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t[0].as_str().unwrap())
                .collect();
            assert_eq!(names, ["a", "img"], "{a}: {}", r.stdout);
            assert_eq!(v["tags"][1][1]["alt"], alt.as_str());
            assert_eq!(v["data"], "", "{a}: no text outside attributes");
            let got = v["tags"][1][1]["src"].as_str().unwrap();
            assert!(!got.contains(['<', '>', '"', ' ']), "{got}");
        }
        // reStructuredText: docutils sees one image and one reference, nothing else.
        let r = snip("rst", true);
        assert_eq!(r.code, 0, "{}", r.stderr);
        if rst {
            let v: serde_json::Value = serde_json::from_str(
                &python(RST_TREE, &r.stdout).unwrap_or_else(|e| panic!("{a}: {e}\n{}", r.stdout)),
            )
            .unwrap();
            // Only an image inside a reference (docutils may wrap them in a paragraph).
            let kinds: Vec<&str> = v["kinds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .collect();
            assert!(
                kinds.contains(&"image") && kinds.contains(&"reference"),
                "{a}: {kinds:?}"
            );
            assert!(
                kinds
                    .iter()
                    .all(|k| ["document", "image", "paragraph", "reference"].contains(k)),
                "{a}: {kinds:?}\n{}",
                r.stdout
            );
            assert_eq!(v["alt"], alt.as_str());
            assert_eq!(v["refuri"], SEED_URL);
        }
        // Markdown: alt text escaped (one unescaped `](` per link), destinations encoded.
        let r = snip("md", true);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let md = r.stdout.trim_end();
        let inner = md.strip_prefix("[![").unwrap();
        let (alt_md, rest) = inner.split_once("](").unwrap();
        assert_eq!(md_unescape(alt_md), alt, "{md}");
        let (img_src, rest) = rest.split_once(")](").unwrap();
        assert!(!img_src.contains([' ', '(', ')', '<', '>', '"']), "{md}");
        assert_eq!(rest, format!("{SEED_URL})"), "{md}");
        // Every `<` is escaped, so no CommonMark renderer sees an HTML tag.
        assert!(
            alt_md
                .match_indices('<')
                .all(|(i, _)| alt_md[..i].ends_with('\\')),
            "{md}"
        );
        // AsciiDoc: exactly one unescaped `]` (the macro's end), quotes escaped.
        let r = snip("adoc", true);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let ad = r.stdout.trim_end();
        let unescaped = |ch: char| {
            ad.match_indices(ch)
                .filter(|(i, _)| !ad[..*i].ends_with('\\'))
                .count()
        };
        assert_eq!(unescaped(']'), 1, "{ad}");
        assert_eq!(
            unescaped('"'),
            4,
            "alt and link are the only quoted values: {ad}"
        );
        assert!(ad.ends_with(']'), "{ad}");
        // LaTeX: the label is text (no control sequence from the caller, `%` escaped); an image
        // path TeX would misread is refused.
        let r = snip("tex", false);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // The link TeX reads (not a comment line) goes to the record.
        let href = format!("\\href{{{SEED_URL}}}");
        assert!(
            live_tex(&r.stdout).any(|l| l.contains(&href)),
            "{a}: {}",
            r.stdout
        );
        assert!(!r.stdout.contains("\\input{"), "{}", r.stdout);
        for l in r.stdout.lines().filter(|l| l.contains("sure")) {
            assert!(l.contains("100\\% sure"), "{l}");
        }
        // The lines TeX reads hold the same control sequences and comment characters as with a
        // plain label: the caller's label can add none, nor end a line early with `%`.
        assert_eq!(shape_of_tex(&r.stdout), plain_tex, "{a}: {}", r.stdout);
        // An SVG URL is no image pdfLaTeX can include: refused, whatever its characters.
        let r = snip("tex", true);
        assert_eq!(r.code, 2, "{a}: {}", r.stdout);
        assert!(
            r.stdout.is_empty() && r.stderr.starts_with("pith: "),
            "{}",
            r.stderr
        );
    }
}
