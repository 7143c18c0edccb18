//! Badges and snippets (here and in `badge_qr`, `badge_render`, `badge_snippets`), checked with
//! tools we did not write: roxmltree parses the SVG, resvg renders it with DejaVu Sans, rqrr and
//! `zbarimg` decode the QR code from the PNG, Python's html.parser and docutils read the snippets,
//! pdfLaTeX compiles the LaTeX one.
//!
//! Goldens live in `tests/golden/`; `BLESS=1 cargo test --test main -- badge:: badge_snippets::`
//! rewrites them (review the diff and the PNGs in `examples/` before committing). shields.io
//! reference badges in `tests/golden/badge-shields-*.svg` come from
//! `bench/badge-shields-fixtures.mjs`.

use crate::common;

use std::path::{Path, PathBuf};

use pith::badge::{self, Format, Look, RecordStatus, SnippetOptions, Style};
use pith::PithNumber;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::common::SEED;

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

pub(crate) fn seed() -> PithNumber {
    PithNumber::parse(SEED).unwrap()
}

/// Every combination of style, status, long/short value, QR, and a few labels.
pub(crate) fn variants() -> Vec<Look> {
    let mut v = Vec::new();
    for style in Style::ALL {
        for status in [
            None,
            Some(RecordStatus::Computed),
            Some(RecordStatus::Verified),
            Some(RecordStatus::Stored),
            Some(RecordStatus::Anchored),
        ] {
            for full in [false, true] {
                for qr in [None, Some(2)] {
                    for label in [
                        "pith",
                        "Pith Number <&\"'> ]",
                        "WWWWWWWWWWWWWWWWWWWWWWWWWWWW",
                        "ÄÖÜ 漢字 pith",
                    ] {
                        v.push(
                            Look::default()
                                .style(style)
                                .status(status)
                                .full(full)
                                .qr(qr)
                                .label(label),
                        );
                    }
                }
            }
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Rendering helpers

/// usvg options with DejaVu Sans loaded from Debian's fonts-dejavu-core, or None (SKIP).
pub(crate) fn usvg_options(test: &str) -> Option<usvg::Options<'static>> {
    if !Path::new(DEJAVU).is_file() {
        if common::tools_required() {
            panic!("{test}: {DEJAVU} is missing (fonts-dejavu-core; PITH_REQUIRE_TOOLS=1)");
        }
        common::skips::skip(test, &format!("{DEJAVU} not installed"));
        return None;
    }
    let mut opt = usvg::Options::default();
    opt.fontdb_mut()
        .load_font_data(std::fs::read(DEJAVU).unwrap());
    opt.font_family = "DejaVu Sans".into();
    Some(opt)
}

pub(crate) fn tree(svg: &str, opt: &usvg::Options) -> usvg::Tree {
    usvg::Tree::from_str(svg, opt).unwrap_or_else(|e| panic!("usvg: {e}\n{svg}"))
}

/// Renders at `zoom` on a page of colour `page` (RGB) and round-trips through PNG bytes.
pub(crate) fn render_png(
    svg: &str,
    opt: &usvg::Options,
    zoom: f32,
    page: [u8; 3],
) -> (Vec<u8>, Pixmap) {
    let t = tree(svg, opt);
    let size = t.size().to_int_size().scale_by(zoom).unwrap();
    let mut pm = Pixmap::new(size.width(), size.height()).unwrap();
    pm.fill(resvg::tiny_skia::Color::from_rgba8(
        page[0], page[1], page[2], 255,
    ));
    resvg::render(&t, Transform::from_scale(zoom, zoom), &mut pm.as_mut());
    let png = pm.encode_png().unwrap();
    let back = Pixmap::decode_png(&png).unwrap();
    (png, back)
}

pub(crate) fn rgb(pm: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let p = pm.pixel(x, y).unwrap().demultiply();
    [p.red(), p.green(), p.blue()]
}

pub(crate) fn hex(c: &str) -> [u8; 3] {
    let c = c.trim_start_matches('#');
    let c: String = if c.len() == 3 {
        c.chars().flat_map(|x| [x, x]).collect()
    } else {
        c.into()
    };
    let v = u32::from_str_radix(&c, 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

pub(crate) fn close(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tol)
}

/// The dark-scheme version of a badge: the rules inside `@media(prefers-color-scheme:dark)`
/// made unconditional, as a browser in dark mode applies them (resvg ignores media queries).
pub(crate) fn as_dark(svg: &str) -> String {
    let start = svg
        .find("@media(prefers-color-scheme:dark){")
        .expect("dark-mode media query");
    let inner_start = start + "@media(prefers-color-scheme:dark){".len();
    let end = svg[inner_start..].find("}</style>").unwrap() + inner_start;
    format!(
        "{}{}{}",
        &svg[..start],
        &svg[inner_start..end],
        &svg[end + 1..]
    )
}

// ---------------------------------------------------------------------------------------------
// Structure read back with a real XML parser

/// One segment as drawn: its class, x range, background and text colours, text.
#[derive(Debug, Clone)]
pub(crate) struct Seg {
    pub(crate) class: String,
    pub(crate) x0: f64,
    pub(crate) x1: f64,
    pub(crate) bg: String,
    pub(crate) fg: String,
    pub(crate) text: String,
    pub(crate) text_length: f64,
    pub(crate) center: f64,
}

pub(crate) fn segments(svg: &str) -> Vec<Seg> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    // (class, x0, x1 as drawn, fill); a segment ends where the next one starts.
    let mut shapes: Vec<(String, f64, f64, String)> = Vec::new();
    for n in root.children().filter(|n| n.is_element()) {
        let Some(class) = n.attribute("class") else {
            continue;
        };
        let (x0, x1) = match n.tag_name().name() {
            "rect" => {
                let x: f64 = n.attribute("x").map_or(0.0, |x| x.parse().unwrap());
                let w: f64 = n.attribute("width").unwrap().parse().unwrap();
                (x, x + w)
            }
            "path" => {
                // M{x} 0h{n}a3 3 0 0 1 3 3…: n px straight, then the 3 px corner.
                let d = n.attribute("d").unwrap();
                let x: f64 = d[1..d.find(' ').unwrap()].parse().unwrap();
                let h = &d[d.find('h').unwrap() + 1..];
                let len: f64 = h[..h.find('a').unwrap()].parse().unwrap();
                (x, x + len + 3.0)
            }
            other => panic!("unexpected segment element {other}"),
        };
        assert!(x1 <= width);
        shapes.push((
            class.to_owned(),
            x0,
            x1,
            n.attribute("fill").unwrap().to_owned(),
        ));
    }
    let texts: Vec<roxmltree::Node> = root
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .collect();
    assert_eq!(texts.len(), shapes.len(), "one text per segment");
    shapes
        .iter()
        .enumerate()
        .map(|(i, (class, x0, x1, bg))| {
            let t = texts[i];
            assert_eq!(t.attribute("class"), Some(format!("{class}t").as_str()));
            Seg {
                class: class.clone(),
                x0: *x0,
                x1: shapes.get(i + 1).map_or(*x1, |s| s.1),
                bg: bg.clone(),
                fg: t
                    .attribute("fill")
                    .or_else(|| t.parent().unwrap().attribute("fill"))
                    .unwrap()
                    .to_owned(),
                text: t.text().unwrap_or("").to_owned(),
                text_length: t.attribute("textLength").unwrap().parse().unwrap(),
                center: t.attribute("x").unwrap().parse().unwrap(),
            }
        })
        .collect()
}

/// The dark-scheme colour of every class, from the media query.
pub(crate) fn dark_rules(svg: &str) -> Vec<(String, String)> {
    let d = as_dark(svg);
    let doc = roxmltree::Document::parse(&d).unwrap();
    let css = doc
        .descendants()
        .find(|n| n.has_tag_name("style"))
        .unwrap()
        .text()
        .unwrap()
        .to_owned();
    css.split('}')
        .filter(|r| !r.is_empty())
        .map(|r| {
            let (sel, body) = r.split_once('{').unwrap();
            (
                sel.trim_start_matches('.').to_owned(),
                body.trim_start_matches("fill:").to_owned(),
            )
        })
        .collect()
}

#[test]
fn every_variant_is_well_formed_accessible_and_self_contained() {
    let n = seed();
    for o in variants() {
        let svg = badge::svg(&n, &o).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        assert_eq!(root.attribute("role"), Some("img"));
        let height: u32 = root.attribute("height").unwrap().parse().unwrap();
        assert!(
            if o.get_qr().is_some() {
                height > 60
            } else {
                height == 20
            },
            "{svg}"
        );
        // The accessible name, read back unescaped, carries label, full number and status
        // ("Pith Number" for the default label).
        let mut want = match o.get_label() {
            "pith" => format!("Pith Number {SEED}"),
            label => format!("{label}: {SEED}"),
        };
        if let Some(s) = o.get_status() {
            want.push_str(&format!(", {s}"));
        }
        assert_eq!(root.attribute("aria-label"), Some(want.as_str()));
        let title = root.children().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some(want.as_str()));
        // Caller text comes back exactly as given.
        let texts: Vec<&str> = root
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap())
            .collect();
        assert_eq!(texts[0], o.get_label());
        assert_eq!(
            texts[1],
            if o.get_full() {
                "2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
            } else {
                "7BMK4ZKT"
            }
        );
        // No scripts, no event handlers, no external references: only local url(#…) paints.
        for node in root.descendants().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            assert!(
                !matches!(name, "script" | "image" | "use" | "a" | "foreignObject"),
                "{name}"
            );
            for a in node.attributes() {
                assert!(!a.name().starts_with("on"), "{}", a.name());
                assert!(a.name() != "href", "href in {name}");
                if a.value().contains("url(") {
                    assert!(a.value().starts_with("url(#"), "{}", a.value());
                }
            }
        }
        assert!(
            !svg.contains("http://") || svg.matches("http://").count() == 1,
            "only the xmlns"
        );
        assert!(!svg.contains("https://"), "no links in the badge itself");
        assert!(!svg.contains("@import"));
        // Deterministic.
        assert_eq!(svg, badge::svg(&n, &o).unwrap());
    }
}

#[test]
fn control_characters_are_rejected_everywhere() {
    let n = seed();
    for c in [
        '\0', '\u{7}', '\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}',
    ] {
        let e = badge::svg(&n, &Look::default().label(format!("pi{c}th"))).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                badge::ErrorKind::ControlCharacter {
                    field: "label",
                    position: 3
                }
            ),
            "{c:?}"
        );
        let e = badge::snippet(
            &n,
            Format::Html,
            &SnippetOptions {
                src: Some(format!("a{c}.svg")),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(
            matches!(
                e.kind(),
                badge::ErrorKind::ControlCharacter { field: "src", .. }
            ),
            "{c:?}"
        );
    }
    common::pith()
        .args(["badge", SEED, "--label", "a\u{7}b"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "label holds a control character at position 2",
        ));
}

// ---------------------------------------------------------------------------------------------
// Goldens and size

fn golden_dir() -> PathBuf {
    common::root().join("tests/golden")
}

pub(crate) fn check_golden(name: &str, got: &str) {
    let path = golden_dir().join(name);
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (BLESS=1 to create)", path.display()));
    if want != got {
        panic!(
            "golden {name} differs\n--- EXPECTED\n{want}\n--- FOUND\n{got}\n(BLESS=1 to accept)"
        );
    }
}

/// (golden name, options) for each style, plus status, full and QR variants.
pub(crate) fn golden_cases() -> Vec<(&'static str, Look)> {
    vec![
        ("badge-flat.svg", Look::default()),
        (
            "badge-flat-square.svg",
            Look::default().style(Style::FlatSquare),
        ),
        (
            "badge-flat-full-verified.svg",
            Look::default()
                .full(true)
                .status(Some(RecordStatus::Verified)),
        ),
        (
            "badge-flat-square-anchored.svg",
            Look::default()
                .style(Style::FlatSquare)
                .status(Some(RecordStatus::Anchored)),
        ),
        (
            "badge-flat-stored.svg",
            Look::default().status(Some(RecordStatus::Stored)),
        ),
        (
            "badge-flat-computed-qr.svg",
            Look::default()
                .status(Some(RecordStatus::Computed))
                .qr(Some(2)),
        ),
    ]
}

#[test]
fn goldens_per_style() {
    for (name, o) in golden_cases() {
        check_golden(name, &badge::svg(&seed(), &o).unwrap());
    }
}

#[test]
fn the_cli_writes_the_library_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.svg");
    common::pith()
        .args(["badge", SEED, "--style", "flat-square", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    // The file and standard output are the library's SVG and a final newline.
    let golden = |name: &str| std::fs::read_to_string(golden_dir().join(name)).unwrap() + "\n";
    let want = golden("badge-flat-square.svg");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    common::pith()
        .args(["badge", SEED])
        .assert()
        .success()
        .stdout(golden("badge-flat.svg"));
    common::pith()
        .args(["badge", SEED, "--qr", "--status", "computed"])
        .assert()
        .success()
        .stdout(golden("badge-flat-computed-qr.svg"));
    // A short alias cannot make a badge: the URL needs all 26 characters.
    common::pith()
        .args(["badge", "pith:7BMK4ZKT"])
        .assert()
        .code(2);
    common::pith()
        .args(["badge", SEED, "--style", "plastic"])
        .assert()
        .code(2);
    common::pith()
        .args(["badge", SEED, "--qr", "--qr-module", "1"])
        .assert()
        .code(2);
}

#[test]
fn no_larger_than_shields_flat_for_the_same_text() {
    // (ours, shields.io badge-maker 5 flat with the same texts; see bench/badge-shields-fixtures.mjs)
    let cases = [
        (Look::default(), "badge-shields-short.svg"),
        (
            Look::default().style(Style::FlatSquare),
            "badge-shields-short.svg",
        ),
        (Look::default().full(true), "badge-shields-full.svg"),
        (
            Look::default().style(Style::FlatSquare).full(true),
            "badge-shields-full.svg",
        ),
        (
            Look::default().status(Some(RecordStatus::Verified)),
            "badge-shields-short-verified.svg",
        ),
        (
            Look::default()
                .full(true)
                .status(Some(RecordStatus::Anchored)),
            "badge-shields-full-anchored.svg",
        ),
    ];
    for (o, shields) in cases {
        let ours = badge::svg(&seed(), &o).unwrap();
        let theirs = std::fs::read_to_string(golden_dir().join(shields)).unwrap();
        // The reference really is shields.io output for the same texts.
        let doc = roxmltree::Document::parse(&theirs).unwrap();
        let shown: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("aria-hidden").is_none())
            .map(|n| n.text().unwrap())
            .collect();
        let ours_shown: Vec<String> = segments(&ours).into_iter().map(|s| s.text).collect();
        assert_eq!(shown.join(" "), ours_shown.join(" "), "{shields}");
        eprintln!(
            "{:>40} ours {:>5} B, shields.io flat {:>5} B",
            format!("{o:?}").chars().take(40).collect::<String>(),
            ours.len(),
            theirs.len()
        );
        assert!(
            ours.len() <= theirs.len(),
            "{} > {} for {o:?}",
            ours.len(),
            theirs.len()
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any label either makes a well-formed badge that shows it exactly, in a segment wide
    /// enough for the table's width, or is refused with a typed error; nothing panics.
    #[test]
    fn any_label_is_escaped_or_refused(label in "\\PC{0,70}|[<>&\"'\\]\\x00-\\x1f]{0,8}") {
        match badge::svg(&seed(), &Look::default().label(label.clone())) {
            Ok(svg) => {
                let doc = roxmltree::Document::parse(&svg).unwrap();
                let t = doc.descendants().find(|n| n.has_tag_name("text")).unwrap();
                proptest::prop_assert_eq!(t.text().unwrap_or(""), label.as_str());
                let segs = segments(&svg);
                proptest::prop_assert!(segs[0].x1 - segs[0].x0 >= badge::text_width(&label) + 10.0);
            }
            Err(e) => proptest::prop_assert!(matches!(
                e.kind(),
                badge::ErrorKind::ControlCharacter { .. }
                    | badge::ErrorKind::EmptyLabel
                    | badge::ErrorKind::LabelTooLong { .. }
            ), "{e}"),
        }
    }
}
