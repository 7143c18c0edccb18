//! Badges and snippets, checked with tools we did not write: roxmltree parses the
//! SVG, resvg renders it with DejaVu Sans, rqrr and `zbarimg` decode the QR code from the PNG,
//! Python's html.parser and docutils read the snippets, pdfLaTeX compiles the LaTeX one.
//!
//! Goldens live in `tests/golden/`; `BLESS=1 cargo test --test main badge::` rewrites them (review the
//! diff and the PNGs in `examples/` before committing). shields.io reference badges in
//! `tests/golden/badge-shields-*.svg` come from `bench/badge-shields-fixtures.mjs`.

use crate::common;

use std::path::{Path, PathBuf};

use pith::badge::{self, Format, Options, RecordStatus, SnippetOptions, Style};
use pith::PithNumber;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::common::{SEED, SEED_URL as URL};

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

fn seed() -> PithNumber {
    PithNumber::parse(SEED).unwrap()
}

/// Every combination of style, status, long/short value, QR, and a few labels.
fn variants() -> Vec<Options> {
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
                            Options::default()
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
fn usvg_options(test: &str) -> Option<usvg::Options<'static>> {
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

fn tree(svg: &str, opt: &usvg::Options) -> usvg::Tree {
    usvg::Tree::from_str(svg, opt).unwrap_or_else(|e| panic!("usvg: {e}\n{svg}"))
}

/// Renders at `zoom` on a page of colour `page` (RGB) and round-trips through PNG bytes.
fn render_png(svg: &str, opt: &usvg::Options, zoom: f32, page: [u8; 3]) -> (Vec<u8>, Pixmap) {
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

fn rgb(pm: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let p = pm.pixel(x, y).unwrap().demultiply();
    [p.red(), p.green(), p.blue()]
}

fn hex(c: &str) -> [u8; 3] {
    let c = c.trim_start_matches('#');
    let c: String = if c.len() == 3 {
        c.chars().flat_map(|x| [x, x]).collect()
    } else {
        c.into()
    };
    let v = u32::from_str_radix(&c, 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn close(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tol)
}

/// The dark-scheme version of a badge: the rules inside `@media(prefers-color-scheme:dark)`
/// made unconditional, as a browser in dark mode applies them (resvg ignores media queries).
fn as_dark(svg: &str) -> String {
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
struct Seg {
    class: String,
    x0: f64,
    x1: f64,
    bg: String,
    fg: String,
    text: String,
    text_length: f64,
    center: f64,
}

fn segments(svg: &str) -> Vec<Seg> {
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
fn dark_rules(svg: &str) -> Vec<(String, String)> {
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
        let e = badge::svg(&n, &Options::default().label(format!("pi{c}th"))).unwrap_err();
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

fn check_golden(name: &str, got: &str) {
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
fn golden_cases() -> Vec<(&'static str, Options)> {
    vec![
        ("badge-flat.svg", Options::default()),
        (
            "badge-flat-square.svg",
            Options::default().style(Style::FlatSquare),
        ),
        (
            "badge-flat-full-verified.svg",
            Options::default()
                .full(true)
                .status(Some(RecordStatus::Verified)),
        ),
        (
            "badge-flat-square-anchored.svg",
            Options::default()
                .style(Style::FlatSquare)
                .status(Some(RecordStatus::Anchored)),
        ),
        (
            "badge-flat-stored.svg",
            Options::default().status(Some(RecordStatus::Stored)),
        ),
        (
            "badge-flat-computed-qr.svg",
            Options::default()
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
        (Options::default(), "badge-shields-short.svg"),
        (
            Options::default().style(Style::FlatSquare),
            "badge-shields-short.svg",
        ),
        (Options::default().full(true), "badge-shields-full.svg"),
        (
            Options::default().style(Style::FlatSquare).full(true),
            "badge-shields-full.svg",
        ),
        (
            Options::default().status(Some(RecordStatus::Verified)),
            "badge-shields-short-verified.svg",
        ),
        (
            Options::default()
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

// ---------------------------------------------------------------------------------------------
// Colours and contrast

fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG 2.x contrast ratio.
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

fn blend(bg: [u8; 3], over: [u8; 3], alpha: f64) -> [u8; 3] {
    let m = |a: u8, b: u8| (f64::from(a) * (1.0 - alpha) + f64::from(b) * alpha).round() as u8;
    [m(bg[0], over[0]), m(bg[1], over[1]), m(bg[2], over[2])]
}

/// Lowest contrast of `fg` over `bg`, with the flat gradient's extremes (#bbb and black at 10 %).
fn worst_contrast(bg: [u8; 3], fg: [u8; 3], flat: bool) -> f64 {
    let mut c = contrast(bg, fg);
    if flat {
        c = c
            .min(contrast(blend(bg, hex("#bbb"), 0.1), fg))
            .min(contrast(blend(bg, [0, 0, 0], 0.1), fg));
    }
    c
}

#[test]
fn every_colour_pair_keeps_wcag_aa_in_both_schemes() {
    let mut table = Vec::new();
    for o in variants()
        .into_iter()
        .filter(|o| o.get_label() == "pith" && !o.get_full())
    {
        let svg = badge::svg(&seed(), &o).unwrap();
        let flat = o.get_style() == Style::Flat;
        let dark = dark_rules(&svg);
        let dark_of = |class: &str| {
            dark.iter()
                .find(|(c, _)| c == class)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        for s in segments(&svg) {
            let light = worst_contrast(hex(&s.bg), hex(&s.fg), flat);
            let (dbg, dfg) = (dark_of(&s.class), dark_of(&format!("{}t", s.class)));
            let darkc = worst_contrast(hex(&dbg), hex(&dfg), flat);
            assert!(
                light >= 4.5,
                "{}: light {} on {} is {light:.2}",
                s.text,
                s.fg,
                s.bg
            );
            assert!(
                darkc >= 4.5,
                "{}: dark {dfg} on {dbg} is {darkc:.2}",
                s.text
            );
            let row = format!(
                "| {:<8} | {} on {} | {:.2} | {} on {} | {:.2} |",
                s.text, s.fg, s.bg, light, dfg, dbg, darkc
            );
            if !table.contains(&row) && flat {
                table.push(row);
            }
        }
        if let Some(_px) = o.get_qr() {
            let (dark_mod, light_mod) = badge::QR_COLOURS;
            assert!(contrast(hex(dark_mod), hex(light_mod)) >= 15.0);
        }
    }
    // The palette the library documents is the one drawn.
    for (l, d) in badge::palette() {
        assert!(
            worst_contrast(hex(l.background), hex(l.text), true) >= 4.5,
            "{l:?}"
        );
        assert!(
            worst_contrast(hex(d.background), hex(d.text), true) >= 4.5,
            "{d:?}"
        );
    }
    // shields.io's common colours, for the record: they do not reach 4.5:1 with white text.
    assert!(contrast(hex("#007ec6"), hex("#fff")) < 4.5);
    assert!(contrast(hex("#4c1"), hex("#fff")) < 4.5);
    eprintln!("| segment | light text on bg | ratio (worst, gradient) | dark text on bg | ratio |");
    for r in table {
        eprintln!("{r}");
    }
}

// ---------------------------------------------------------------------------------------------
// Pixels

#[test]
fn rendered_pixels_match_the_declared_colours_in_both_schemes() {
    let Some(opt) = usvg_options("rendered_pixels_match_the_declared_colours_in_both_schemes")
    else {
        return;
    };
    for o in variants().into_iter().filter(|o| o.get_qr().is_none()) {
        let svg = badge::svg(&seed(), &o).unwrap();
        let flat = o.get_style() == Style::Flat;
        let dark = dark_rules(&svg);
        for (scheme, doc) in [("light", svg.clone()), ("dark", as_dark(&svg))] {
            let (_, pm) = render_png(&doc, &opt, 1.0, [255, 0, 255]);
            for s in segments(&svg) {
                let (bg, fg) = if scheme == "light" {
                    (hex(&s.bg), hex(&s.fg))
                } else {
                    let of = |c: &str| hex(&dark.iter().find(|(k, _)| k == c).unwrap().1);
                    (of(&s.class), of(&format!("{}t", s.class)))
                };
                // Background at mid-height just inside the segment's left padding (no text).
                let x = s.x0 as u32 + 2;
                let got = rgb(&pm, x, 10);
                // Under the flat gradient, row 10 (centre 10.5 of 20) is #bbb→black at 52.5 %,
                // laid over at 10 %.
                let want = if flat {
                    blend(bg, [89, 89, 89], 0.1)
                } else {
                    bg
                };
                assert!(
                    close(got, want, 3),
                    "{scheme} {}: {got:?} vs {want:?} at x={x}\n{doc}",
                    s.text
                );
                // Text pixels: some pixel in the text box is (nearly) the text colour.
                let (tx0, tx1) = (
                    (s.center - s.text_length / 2.0) as u32,
                    (s.center + s.text_length / 2.0) as u32,
                );
                let any_text = (tx0..tx1).any(|x| (5..16).any(|y| close(rgb(&pm, x, y), fg, 40)));
                assert!(any_text, "{scheme} {}: no text-coloured pixel", s.text);
                // The page shows nowhere inside the badge, except at rounded corners.
                for y in 0..20 {
                    for x in (s.x0 as u32).max(3)..(s.x1 as u32).min(pm.width() - 3) {
                        assert_ne!(rgb(&pm, x, y), [255, 0, 255], "{scheme} hole at {x},{y}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_text_box_lies_inside_its_segment() {
    let Some(opt) = usvg_options("every_text_box_lies_inside_its_segment") else {
        return;
    };
    for o in variants() {
        let svg = badge::svg(&seed(), &o).unwrap();
        let segs = segments(&svg);
        let t = tree(&svg, &opt);
        let mut boxes = Vec::new();
        collect_text_boxes(t.root(), &mut boxes);
        assert_eq!(boxes.len(), segs.len(), "{svg}");
        for ((text, b), s) in boxes.iter().zip(&segs) {
            assert_eq!(text, &s.text);
            assert!(
                b.left() >= s.x0 as f32 + 1.0 && b.right() <= s.x1 as f32 - 1.0,
                "{text:?}: {b:?} outside {}..{}",
                s.x0,
                s.x1
            );
            assert!(
                b.top() >= 0.0 && b.bottom() <= 20.0,
                "{text:?}: {b:?} outside 0..20"
            );
            // resvg lays the text out to textLength (viewers without it draw DejaVu Sans at about
            // the table's width, ceil'd).
            assert!(
                (f64::from(b.width()) - s.text_length).abs() <= 1.5,
                "{text:?}: {} vs {}",
                b.width(),
                s.text_length
            );
        }
        // And without textLength (a viewer that ignores it), DejaVu Sans still fits: the table
        // measures the font that is drawn.
        let natural = svg.replace("textLength=", "data-l=");
        let t = tree(&natural, &opt);
        let mut boxes = Vec::new();
        collect_text_boxes(t.root(), &mut boxes);
        for ((text, b), s) in boxes.iter().zip(&segs) {
            if text.chars().all(|c| (c as u32) < 0x250) {
                assert!(
                    b.left() >= s.x0 as f32 + 1.0 && b.right() <= s.x1 as f32 - 1.0,
                    "natural {text:?}: {b:?} outside {}..{}",
                    s.x0,
                    s.x1
                );
            }
        }
    }
}

fn collect_text_boxes(g: &usvg::Group, out: &mut Vec<(String, usvg::Rect)>) {
    for n in g.children() {
        match n {
            usvg::Node::Group(g) => collect_text_boxes(g, out),
            usvg::Node::Text(t) => {
                let s: String = t.chunks().iter().map(|c| c.text()).collect();
                out.push((s, t.abs_bounding_box()));
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// QR codes

fn qr_svg(style: Style, module: u32) -> String {
    badge::svg(
        &seed(),
        &Options::default()
            .style(style)
            .status(Some(RecordStatus::Computed))
            .qr(Some(module)),
    )
    .unwrap()
}

#[test]
fn qr_is_one_compact_path_with_a_quiet_zone() {
    let svg = qr_svg(Style::Flat, 2);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let qr_paths: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("fill") == Some("#000000"))
        .collect();
    assert_eq!(qr_paths.len(), 1, "one path for all modules");
    assert_eq!(qr_paths[0].tag_name().name(), "path");
    assert!(svg.matches("<rect").count() <= 4, "no rect per module");
    let Some(opt) = usvg_options("qr_is_one_compact_path_with_a_quiet_zone") else {
        return;
    };
    let (_, pm) = render_png(&svg, &opt, 1.0, [128, 128, 128]);
    // The QR square starts at y=22 (20 + 2 px gap); version and size from the encoder.
    let side = pm.height() - 22;
    let modules = side / 2;
    assert_eq!(
        modules,
        33 + 8,
        "version 4 with error correction M and a 4-module quiet zone"
    );
    for y in 22..pm.height() {
        for x in 0..side {
            let inner = (8..side - 8).contains(&x) && (22 + 8..pm.height() - 8).contains(&y);
            if !inner {
                assert_eq!(rgb(&pm, x, y), [255, 255, 255], "quiet zone at {x},{y}");
            }
        }
    }
    // The finder pattern's corner module is dark, 2 px wide.
    assert_eq!(rgb(&pm, 8, 30), [0, 0, 0]);
    assert_eq!(rgb(&pm, 9, 31), [0, 0, 0]);
}

#[test]
fn qr_decodes_to_the_url_with_rqrr() {
    let Some(opt) = usvg_options("qr_decodes_to_the_url_with_rqrr") else {
        return;
    };
    for style in Style::ALL {
        for module in [2, 3, 5] {
            let svg = qr_svg(style, module);
            let (_, pm) = render_png(&svg, &opt, 1.0, [255, 255, 255]);
            let mut img = rqrr::PreparedImage::prepare_from_greyscale(
                pm.width() as usize,
                pm.height() as usize,
                |x, y| {
                    let c = rgb(&pm, x as u32, y as u32);
                    ((u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2])) / 3) as u8
                },
            );
            let grids = img.detect_grids();
            assert_eq!(grids.len(), 1, "{style} {module}px");
            let (meta, content) = grids[0].decode().unwrap();
            assert_eq!(content, URL);
            assert_eq!(meta.ecc_level, 0, "rqrr numbers EC level M as 0");
        }
    }
}

#[test]
fn qr_decodes_to_the_url_with_zbarimg() {
    if !common::have_tool("zbarimg", "qr_decodes_to_the_url_with_zbarimg") {
        return;
    }
    let Some(opt) = usvg_options("qr_decodes_to_the_url_with_zbarimg") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for style in Style::ALL {
        // As drawn (2 px per module), and the same SVG at 3× as a printer or HiDPI screen would.
        for zoom in [1.0, 3.0] {
            let svg = qr_svg(style, 2);
            let (png, _) = render_png(&svg, &opt, zoom, [255, 255, 255]);
            let path = dir.path().join(format!("{style}-{zoom}.png"));
            std::fs::write(&path, png).unwrap();
            let (ok, out, err) = common::run(
                "zbarimg",
                &[
                    "--raw",
                    "-q",
                    "-Sdisable",
                    "-Sqrcode.enable",
                    path.to_str().unwrap(),
                ],
                None,
            );
            assert!(ok, "zbarimg failed on {style} at {zoom}x: {err}");
            assert_eq!(out.trim_end(), URL, "{style} at {zoom}x");
        }
    }
}

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
        badge: Options::default()
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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any label either makes a well-formed badge that shows it exactly, in a segment wide
    /// enough for the table's width, or is refused with a typed error; nothing panics.
    #[test]
    fn any_label_is_escaped_or_refused(label in "\\PC{0,70}|[<>&\"'\\]\\x00-\\x1f]{0,8}") {
        match badge::svg(&seed(), &Options::default().label(label.clone())) {
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

#[test]
fn snippet_sizes_follow_the_badge_options() {
    let (w, h) = badge::dimensions(
        &seed(),
        &Options::default()
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

/// A second renderer we did not write: librsvg's `rsvg-convert` draws every variant (light and
/// dark scheme) with the system's DejaVu Sans; in each segment the pixels nearer the text colour
/// than the background must exist and keep clear of the segment's edges.
#[test]
fn rsvg_convert_draws_every_text_inside_its_segment() {
    if !common::have_tool(
        "rsvg-convert",
        "rsvg_convert_draws_every_text_inside_its_segment",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let zoom = 2u32;
    for (i, o) in variants()
        .into_iter()
        .filter(|o| o.get_qr().is_none())
        .enumerate()
    {
        let svg = badge::svg(&seed(), &o).unwrap();
        let dark = dark_rules(&svg);
        for (scheme, doc) in [("light", svg.clone()), ("dark", as_dark(&svg))] {
            let path = dir.path().join(format!("{i}-{scheme}.svg"));
            std::fs::write(&path, &doc).unwrap();
            let png = dir.path().join(format!("{i}-{scheme}.png"));
            let (ok, _, err) = common::run(
                "rsvg-convert",
                &[
                    "-z",
                    &zoom.to_string(),
                    "-b",
                    "#ff00ff",
                    path.to_str().unwrap(),
                    "-o",
                    png.to_str().unwrap(),
                ],
                None,
            );
            assert!(ok, "rsvg-convert: {err}");
            let pm = Pixmap::load_png(&png).unwrap();
            for s in segments(&svg) {
                let (bg, fg) = if scheme == "light" {
                    (hex(&s.bg), hex(&s.fg))
                } else {
                    let of = |c: &str| hex(&dark.iter().find(|(k, _)| k == c).unwrap().1);
                    (of(&s.class), of(&format!("{}t", s.class)))
                };
                let dist = |a: [u8; 3], b: [u8; 3]| -> i32 {
                    a.iter()
                        .zip(b)
                        .map(|(x, y)| (i32::from(*x) - i32::from(y)).abs())
                        .sum()
                };
                let (x0, x1) = (s.x0 as u32 * zoom, s.x1 as u32 * zoom);
                let texty: Vec<u32> = (x0..x1)
                    .filter(|&x| {
                        (2 * zoom..18 * zoom).any(|y| {
                            let p = rgb(&pm, x, y);
                            dist(p, fg) < dist(p, bg)
                        })
                    })
                    .collect();
                let (first, last) = (texty.first(), texty.last());
                assert!(first.is_some(), "{scheme} {:?}: no text drawn", s.text);
                assert!(
                    *first.unwrap() >= x0 + 2 * zoom && *last.unwrap() < x1 - 2 * zoom,
                    "{scheme} {:?}: text spans px {:?}..{:?}, segment {x0}..{x1} (zoom {zoom})",
                    s.text,
                    first,
                    last
                );
            }
        }
    }
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
