//! Badge colours and rendering: WCAG contrast in both schemes, rendered pixels, and every text
//! inside its segment (resvg and `rsvg-convert`).

use crate::common;

use pith::badge::{self, Style};
use resvg::tiny_skia::Pixmap;
use resvg::usvg;

use crate::badge::{
    as_dark, close, dark_rules, hex, render_png, rgb, seed, segments, tree, usvg_options, variants,
    Seg,
};

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
                let (bg, fg) = colours(&s, scheme, &dark);
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
                let (bg, fg) = colours(&s, scheme, &dark);
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

/// A segment's background and text colours in `scheme` ("light": its own; "dark": the dark
/// rules' for its class).
fn colours(s: &Seg, scheme: &str, dark: &[(String, String)]) -> ([u8; 3], [u8; 3]) {
    if scheme == "light" {
        return (hex(&s.bg), hex(&s.fg));
    }
    let of = |c: &str| hex(&dark.iter().find(|(k, _)| k == c).unwrap().1);
    (of(&s.class), of(&format!("{}t", s.class)))
}
