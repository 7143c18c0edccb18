//! Badge snippets in every format, read back with tools we did not write (Python's html.parser,
//! docutils, pdfLaTeX), and their goldens.

use crate::common;

use pith::badge::{self, Format, Look, RecordStatus, SnippetOptions};
use resvg::tiny_skia::Pixmap;

use crate::common::{SEED, SEED_URL as URL};

use crate::badge::{as_dark, check_golden, golden_cases, render_png, seed, usvg_options};

// ---------------------------------------------------------------------------------------------
// Snippets

/// The snippet of `opts` in `format`, the dark image kept for HTML only (the one format that
/// takes it; any other refuses it, see `a_snippet_option_for_another_format_is_refused`).
fn snip(format: Format, opts: &SnippetOptions) -> String {
    let opts = SnippetOptions {
        dark_src: opts.dark_src.clone().filter(|_| format == Format::Html),
        ..opts.clone()
    };
    badge::snippet(&seed(), format, &opts).unwrap()
}

#[test]
fn a_snippet_option_for_another_format_is_refused() {
    for f in Format::ALL {
        let dark = badge::snippet(&seed(), f, &tricky());
        assert_eq!(dark.is_ok(), f == Format::Html, "{f:?}");
        let download = SnippetOptions {
            src: Some("badge.pdf".into()),
            download: Some("https://mirror.example/badge/x.pdf".into()),
            ..SnippetOptions::default()
        };
        let r = badge::snippet(&seed(), f, &download);
        assert_eq!(r.is_ok(), f == Format::Latex, "{f:?}: {r:?}");
        if let Err(e) = dark.and(r) {
            assert!(
                matches!(e.kind(), badge::ErrorKind::NotForFormat { .. }),
                "{e}"
            );
        }
    }
}

fn tricky() -> SnippetOptions {
    SnippetOptions {
        badge: Look::default()
            .label("a]b&c_d#e%f")
            .status(Some(RecordStatus::Verified)),
        src: Some("https://example.org/b adge.svg?x=1&y=2".into()),
        dark_src: Some("https://example.org/dark,1.svg".into()),
        download: None,
    }
}

const TRICKY_ALT: &str = "a]b&c_d#e%f: pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5, verified";

#[test]
fn snippet_goldens_per_format() {
    for f in Format::ALL {
        check_golden(
            &format!("badge-snippet.{}", f.name()),
            &snip(f, &SnippetOptions::default()),
        );
        // LaTeX refuses that file name (see latex_snippet_compiles_and_links).
        let t = match f {
            Format::Latex => SnippetOptions {
                src: Some("badge_1.pdf".into()),
                ..tricky()
            },
            _ => tricky(),
        };
        check_golden(&format!("badge-snippet-escaped.{}", f.name()), &snip(f, &t));
        common::pith()
            .args(["snippet", SEED, "--format", f.name()])
            .assert()
            .success()
            .stdout(snip(f, &SnippetOptions::default()));
    }
}

#[test]
fn markdown_snippet_escapes_the_alt_text() {
    let md = snip(Format::Markdown, &tricky());
    assert!(
        md.starts_with("[![a\\]b\\&c\\_d\\#e%f: pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5, verified]("),
        "{md}"
    );
    assert!(
        md.contains("(https://example.org/b%20adge.svg?x=1&y=2)"),
        "{md}"
    );
    assert!(md.trim_end().ends_with(&format!("]({URL})")), "{md}");
}

#[test]
fn html_snippet_reads_back_with_pythons_html_parser() {
    if !common::have_tool(
        "python3",
        "html_snippet_reads_back_with_pythons_html_parser",
    ) {
        return;
    }
    let html = snip(Format::Html, &tricky());
    let script = r#"
import sys, json
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.tags = []
    def handle_starttag(self, tag, attrs): self.tags.append([tag, dict(attrs)])
p = P(); p.feed(sys.stdin.read()); p.close(); print(json.dumps(p.tags))
"#;
    let out = common::tools::python(script, &html).unwrap_or_else(|e| panic!("{html}\n{e}"));
    let tags: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = tags
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t[0].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "picture", "source", "img"], "{html}");
    assert_eq!(tags[0][1]["href"], URL);
    assert_eq!(tags[2][1]["srcset"], "https://example.org/dark%2C1.svg");
    assert_eq!(tags[3][1]["alt"], TRICKY_ALT);
    assert_eq!(
        tags[3][1]["src"],
        "https://example.org/b%20adge.svg?x=1&y=2"
    );
    let (w, h) = badge::dimensions(&seed(), &tricky().badge).unwrap();
    assert_eq!(tags[3][1]["width"], w.to_string());
    assert_eq!(tags[3][1]["height"], h.to_string());
}

#[test]
fn rst_snippet_reads_back_with_docutils() {
    if !common::have_python_module("docutils", "rst_snippet_reads_back_with_docutils") {
        return;
    }
    let rst = snip(Format::Rst, &tricky());
    let script = r#"
import sys, json
from docutils.core import publish_doctree
doc = publish_doctree(sys.stdin.read(), settings_overrides={"report_level": 2, "halt_level": 2})
img = next(iter(doc.findall(lambda n: n.tagname == "image")))
ref = next(iter(doc.findall(lambda n: n.tagname == "reference")))
print(json.dumps({"uri": img["uri"], "alt": img["alt"], "refuri": ref["refuri"]}))
"#;
    let out = common::tools::python(script, &rst).unwrap_or_else(|e| panic!("{rst}\n{e}"));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["alt"], TRICKY_ALT);
    assert_eq!(v["uri"], "https://example.org/b%20adge.svg?x=1&y=2");
    assert_eq!(v["refuri"], URL);
}

#[test]
fn asciidoc_snippet_escapes_the_macro() {
    let a = snip(Format::AsciiDoc, &tricky());
    assert_eq!(
        a,
        format!(
            "image:https://example.org/b%20adge.svg?x=1&y=2[alt=\"a\\]b&c_d#e%f: pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5, verified\",width={},height=20,link=\"{URL}\"]\n",
            badge::dimensions(&seed(), &tricky().badge).unwrap().0
        )
    );
    // Exactly one unescaped ']' closes the macro.
    let unescaped = a
        .match_indices(']')
        .filter(|(i, _)| !a[..*i].ends_with('\\'))
        .count();
    assert_eq!(unescaped, 1, "{a}");
}

#[test]
fn latex_snippet_compiles_and_links() {
    let t = snip(
        Format::Latex,
        &SnippetOptions {
            src: Some("badge_1.png".into()),
            ..tricky()
        },
    );
    assert!(
        t.contains("{a]b\\&c\\_d\\#e\\%f: pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5, verified}"),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "\\href{{{URL}}}{{\\includegraphics[height=1.6em]{{badge_1.png}}}}"
        )),
        "{t}"
    );
    let e = badge::snippet(
        &seed(),
        Format::Latex,
        &SnippetOptions {
            src: Some("a%b.pdf".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(matches!(
        e.kind(),
        badge::ErrorKind::UnsupportedCharacter { character: '%', .. }
    ));
    let e = badge::snippet(
        &seed(),
        Format::Latex,
        &SnippetOptions {
            src: Some("a&b.pdf".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(matches!(
        e.kind(),
        badge::ErrorKind::UnsupportedCharacter { character: '&', .. }
    ));
    // pdfLaTeX includes neither an SVG nor a URL: a clear refusal, never a wrong command.
    for src in ["https://example.org/b.pdf", "pith.svg", "b.SVG?x=1"] {
        let e = badge::snippet(
            &seed(),
            Format::Latex,
            &SnippetOptions {
                src: Some(src.into()),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(
            matches!(e.kind(), badge::ErrorKind::LatexImage(_)),
            "{src}: {e}"
        );
    }
    if !common::have_tool("pdflatex", "latex_snippet_compiles_and_links")
        || !common::have_tool("pdftotext", "latex_snippet_compiles_and_links")
    {
        return;
    }
    let Some(opt) = usvg_options("latex_snippet_compiles_and_links") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let svg = badge::svg(&seed(), &tricky().badge).unwrap();
    std::fs::write(
        dir.path().join("badge_1.png"),
        render_png(&svg, &opt, 4.0, [255, 255, 255]).0,
    )
    .unwrap();
    // Both the badge line and the commented text line, uncommented, must compile.
    let body = t.replace("% \\href", "\\href");
    // Uncompressed objects, so the link annotations can be read from the bytes.
    let tex = format!("\\pdfobjcompresslevel=0\n\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{lmodern}}\n\\usepackage{{graphicx,hyperref}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n");
    std::fs::write(dir.path().join("t.tex"), tex).unwrap();
    let (ok, out, _) = common::run(
        "pdflatex",
        &["-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        Some(dir.path()),
    );
    assert!(ok, "{out}");
    // The default snippet as `pith snippet` prints it, with the badge file written by the
    // command its comment names: compiles as printed, links without a border, and the render
    // shows the badge.
    printed_latex_snippet_compiles(dir.path(), &[]);
    printed_latex_snippet_compiles(dir.path(), &["--full", "--style", "flat-square"]);
    // The pith.sty alternative, uncommented, with the package `pith sty` writes.
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "% \\usepackage{pith}")
        .unwrap();
    assert_eq!(lines[at + 1], format!("% \\pithnumber{{{SEED}}}"));
    let preamble = format!("{}\n{}", &lines[at][2..], &lines[at + 1][2..]);
    common::pith()
        .args(["sty", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let tex = format!("\\pdfobjcompresslevel=0\n\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n\\pithbadge\n\\end{{document}}\n");
    std::fs::write(dir.path().join("s.tex"), tex).unwrap();
    let (ok, out, _) = common::run(
        "pdflatex",
        &["-interaction=nonstopmode", "-halt-on-error", "s.tex"],
        Some(dir.path()),
    );
    assert!(ok, "{out}");
    let pdf = std::fs::read(dir.path().join("s.pdf")).unwrap();
    assert!(
        pdf.windows(URL.len()).any(|w| w == URL.as_bytes()),
        "pith.sty links {URL}"
    );
    let (ok, text, _) = common::run("pdftotext", &["t.pdf", "-"], Some(dir.path()));
    assert!(ok);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // (pdftotext loses the "fi" ligature of "verified"; the escaped characters are the point.)
    assert!(
        text.contains("a]b&c_d#e%f: pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5, ve"),
        "{text}"
    );
    let pdf = std::fs::read(dir.path().join("t.pdf")).unwrap();
    assert!(
        pdf.windows(URL.len())
            .filter(|w| *w == URL.as_bytes())
            .count()
            >= 2,
        "two links to {URL}"
    );
}

#[test]
fn snippet_cli_refuses_dark_src_outside_html_and_bad_bundles() {
    common::pith()
        .args(["snippet", SEED, "--format", "md", "--dark-src", "d.svg"])
        .assert()
        .code(2);
    let dir = tempfile::tempdir().unwrap();
    // A bundle whose record is a real one but carries no receipt: no "verified".
    let recs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(common::data("records.json")).unwrap())
            .unwrap();
    let rec = &recs[0];
    let bundle = serde_json::json!({"canonical_record": rec["canonical_record"], "pith_number": rec["pith_number"]});
    let path = dir.path().join("bundle.json");
    std::fs::write(&path, bundle.to_string()).unwrap();
    let number = rec["pith_number"].as_str().unwrap();
    let computed = common::pith()
        .args(["badge", number, "--status", "computed"])
        .output()
        .unwrap()
        .stdout;
    common::pith()
        .args(["badge", number, "--bundle"])
        .arg(&path)
        .assert()
        .success()
        .stdout(computed)
        .stderr(predicates::str::contains("no receipt signature"));
    // Another number's bundle is the wrong file, not a lower status.
    common::pith()
        .args([
            "badge",
            recs[1]["pith_number"].as_str().unwrap(),
            "--bundle",
        ])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("the bundle is for"));
    // A status is found, never stated above computed.
    for s in ["verified", "stored", "anchored"] {
        common::pith()
            .args(["badge", SEED, "--status", s])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("--status {s}")));
    }
    // --bundle and --status are exclusive.
    common::pith()
        .args(["badge", SEED, "--status", "verified", "--bundle"])
        .arg(&path)
        .assert()
        .code(2);
}

/// Runs `pith snippet --format tex` with `look`, then the `pith badge` command its comment
/// names, compiles the snippet as printed with pdfLaTeX and checks the result with qpdf (one
/// link to the record, no border), pdftotext (the number is text) and pdftoppm (the badge's
/// colours are drawn).
fn printed_latex_snippet_compiles(dir: &std::path::Path, look: &[&str]) {
    let test = "latex_snippet_compiles_and_links";
    if !common::have_tool("qpdf", test) || !common::have_tool("pdftoppm", test) {
        return;
    }
    let printed = common::pith()
        .args(["snippet", SEED, "--format", "tex"])
        .args(look)
        .output()
        .unwrap();
    assert!(printed.status.success());
    let snippet = String::from_utf8(printed.stdout).unwrap();
    let command = snippet
        .lines()
        .find_map(|l| l.strip_prefix("%   pith "))
        .unwrap_or_else(|| panic!("no pith badge command in\n{snippet}"));
    let args: Vec<&str> = command.split(' ').collect();
    common::pith()
        .args(&args)
        .current_dir(dir)
        .assert()
        .success();
    let tex = format!(
        "\\documentclass{{article}}\n\\usepackage{{graphicx,hyperref}}\n\\begin{{document}}\nA paper.\n\n{snippet}\n\\end{{document}}\n"
    );
    std::fs::write(dir.join("p.tex"), tex).unwrap();
    let (ok, out, _) = common::run(
        "pdflatex",
        &["-interaction=nonstopmode", "-halt-on-error", "p.tex"],
        Some(dir),
    );
    assert!(ok, "{out}");
    let (ok, text, _) = common::run("pdftotext", &["p.pdf", "-"], Some(dir));
    assert!(ok && text.contains("7BMK4ZKT"), "the badge text: {text}");
    let (ok, json, err) = common::run("qpdf", &["--json", "p.pdf"], Some(dir));
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let links: Vec<&serde_json::Value> = v["qpdf"][1]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|o| o.get("value"))
        .filter(|o| o["/Subtype"] == "/Link")
        .collect();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0]["/A"]["/URI"], format!("u:{URL}"));
    assert_eq!(
        links[0]["/Border"],
        serde_json::json!([0, 0, 0]),
        "no link border"
    );
    let (ok, _, err) = common::run(
        "pdftoppm",
        &["-r", "150", "-f", "1", "-l", "1", "-png", "p.pdf", "render"],
        Some(dir),
    );
    assert!(ok, "{err}");
    let png = std::fs::read(dir.join("render-1.png")).unwrap();
    let img = Pixmap::decode_png(&png).unwrap();
    let pixels: Vec<[u8; 3]> = img
        .pixels()
        .iter()
        .map(|p| {
            let p = p.demultiply();
            [p.red(), p.green(), p.blue()]
        })
        .collect();
    // The value segment's blue (#0b66c3) and the label's grey (#555555), give or take the
    // renderer's anti-aliasing.
    let near = |p: &[u8; 3], c: [u8; 3]| p.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 6);
    let blue = pixels
        .iter()
        .filter(|p| near(p, [0x0b, 0x66, 0xc3]))
        .count();
    let grey = pixels
        .iter()
        .filter(|p| near(p, [0x55, 0x55, 0x55]))
        .count();
    assert!(
        blue > 200 && grey > 100,
        "badge colours in the render: blue {blue}, grey {grey}"
    );
}

/// Writes the PNGs under `examples/` with `BLESS=1` and otherwise checks they are current.
#[test]
fn example_pngs_are_current() {
    let Some(opt) = usvg_options("example_pngs_are_current") else {
        return;
    };
    for (name, o) in golden_cases() {
        let svg = badge::svg(&seed(), &o).unwrap();
        let (png, _) = render_png(&svg, &opt, 4.0, [255, 255, 255]);
        let stem = name.trim_end_matches(".svg");
        let (dark_png, _) = render_png(&as_dark(&svg), &opt, 4.0, [13, 17, 23]);
        for (file, bytes) in [
            (format!("{stem}.png"), png),
            (format!("{stem}-dark.png"), dark_png),
        ] {
            let path = common::example(&file);
            if std::env::var("BLESS").is_ok_and(|v| v == "1") {
                std::fs::write(&path, &bytes).unwrap();
            } else {
                let want = Pixmap::load_png(&path)
                    .unwrap_or_else(|e| panic!("{}: {e} (BLESS=1)", path.display()));
                let got = Pixmap::decode_png(&bytes).unwrap();
                assert_eq!(
                    (want.width(), want.height()),
                    (got.width(), got.height()),
                    "{file}"
                );
                let diff = want
                    .data()
                    .iter()
                    .zip(got.data())
                    .filter(|(a, b)| a.abs_diff(**b) > 8)
                    .count();
                assert!(
                    diff < want.data().len() / 200,
                    "{file} is stale (BLESS=1 to rewrite)"
                );
            }
        }
    }
}

#[test]
fn snippet_sizes_follow_the_badge_options() {
    let (w, h) = badge::dimensions(
        &seed(),
        &Look::default()
            .full(true)
            .status(Some(RecordStatus::Computed))
            .qr(Some(3)),
    )
    .unwrap();
    assert!(h > 100);
    common::pith()
        .args([
            "snippet",
            SEED,
            "--format",
            "html",
            "--full",
            "--status",
            "computed",
            "--qr",
            "--qr-module",
            "3",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "width=\"{w}\" height=\"{h}\""
        )));
}

/// A bare code's snippet and badge name the number in a form that exists: the bare code itself,
/// not `pith:` + 26 characters (no such form); the year form stays as it was.
#[test]
fn a_bare_codes_alt_text_is_a_form_that_exists() {
    let bare = crate::common::SEED_CODE;
    for f in Format::ALL {
        let o = crate::common::pith()
            .args(["snippet", bare, "--format", f.name()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            !text.contains(&format!("pith:{bare}")),
            "{}: {text}",
            f.name()
        );
        if f != Format::Latex {
            assert!(text.contains(&format!("Pith Number {bare}")), "{text}");
        }
    }
    let md = crate::common::pith()
        .args(["snippet", bare, "--src", "b.svg"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&md.stdout).trim_end(),
        format!("[![Pith Number {bare}](b.svg)]({URL})")
    );
    let svg = crate::common::pith()
        .args(["badge", bare, "-o", "-"])
        .output()
        .unwrap();
    let svg = String::from_utf8_lossy(&svg.stdout).into_owned();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert_eq!(title, format!("Pith Number {bare}"));
}
