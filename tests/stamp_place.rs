//! Issue 24.3: the stamp goes in a free margin of page 1, never over the page's content nor
//! outside its crop box, and is refused when no edge has room for a legible one.
//!
//! Pages are built here: a left margin full of text (x = 5..50), a left margin full of a
//! drawing, an image covering the left margin, full-bleed pages (a grey fill, an image), a page
//! a few points wide, rotated pages (/Rotate 90, 180, 270) and landscape media boxes, a crop box
//! smaller than the media box. Each output is read back by PyMuPDF (MuPDF, a tool we did not
//! write): the stamp's link rectangle must meet no word (but the stamp's own), no drawing and
//! no image of the page, and lie inside the crop box. PyMuPDF reads the page with its rotation
//! removed, so every box is in one space whatever `/Rotate` says: the crop box's, from its
//! top-left corner (`page.rect` is the crop box there).

use crate::common;

use std::path::Path;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// A one-page PDF: `page` holds the page dictionary's own keys (MediaBox, Rotate, …), `content`
/// the content stream; fonts F1 (Helvetica), image Im1 (one grey pixel) and form Fm1 (a
/// 100 × 100 box drawn in black) are in its resources.
fn one_page(page: &str, content: &str) -> Vec<u8> {
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R {page} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R /Fm1 7 0 R >> >> >>"
        ),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\nA\nendstream".to_string(),
        "<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Length 18 >>\nstream\n0 0 100 100 re f\n\nendstream".to_string(),
    ];
    crate::common::pdfgen::classic_text(&objs)
}

/// Body text in the usual place of a Letter page: lines of 10 pt text from x = 72.
fn body(w: f64, h: f64) -> String {
    let mut s = String::from("BT /F1 10 Tf\n");
    let mut y = h - 72.0;
    s.push_str(&format!("72 {y} Td\n"));
    while y > 72.0 {
        s.push_str(&format!(
            "({}) Tj 0 -14 Td\n",
            "Body text of the page ".repeat(((w - 144.0) / 110.0).max(1.0) as usize)
        ));
        y -= 14.0;
    }
    s.push_str("ET\n");
    s
}

/// Text from x = 5 to about 50, down the whole left margin.
fn left_margin_text(h: f64) -> String {
    let mut s = String::from("BT /F1 9 Tf\n");
    let mut y = h - 10.0;
    s.push_str(&format!("5 {y} Td\n"));
    while y > 5.0 {
        s.push_str("(LINE 0123) Tj 0 -11 Td\n");
        y -= 11.0;
    }
    s.push_str("ET\n");
    s
}

/// What PyMuPDF sees on page 1 with its rotation removed: JSON with the link rectangles,
/// word boxes and texts, drawing and image boxes, and the crop box.
const READ: &str = r#"
import json, sys, pymupdf
doc = pymupdf.open(sys.stdin.read().strip())
doc[0].set_rotation(0)
# Reopened: a loaded page keeps the link rectangles of its old rotation.
doc = pymupdf.open("pdf", doc.tobytes())
p = doc[0]
out = {
    "links": [list(l["from"]) for l in p.get_links()],
    "words": [[list(w[:4]), w[4]] for w in p.get_text("words")],
    "drawings": [list(d["rect"]) for d in p.get_drawings()],
    "images": [list(i["bbox"]) for i in p.get_image_info()],
    "crop": list(p.rect),
}
print(json.dumps(out))
"#;

type R = [f64; 4];

fn meets(a: &R, b: &R) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Stamps `pdf` and checks the output with PyMuPDF; returns the link rectangle in unrotated
/// page space (top-left origin, as MuPDF gives it).
fn stamp_ok(name: &str, pdf: &[u8], dir: &Path) -> R {
    let input = dir.join(format!("{name}.pdf"));
    std::fs::write(&input, pdf).unwrap();
    let out = dir.join(format!("{name}.out.pdf"));
    let (code, _, err) = common::inject(&input, A, &out, &["--stamp"]);
    assert_eq!(code, 0, "{name}: {err}");
    let seen: serde_json::Value = serde_json::from_str(
        &common::tools::python(READ, out.to_str().unwrap()).expect("PyMuPDF reads the output"),
    )
    .unwrap();
    let rect = |v: &serde_json::Value| -> R {
        let a: Vec<f64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        [a[0], a[1], a[2], a[3]]
    };
    let links = seen["links"].as_array().unwrap();
    assert_eq!(links.len(), 1, "{name}: one link, the stamp's");
    let link = rect(&links[0]);
    let crop = rect(&seen["crop"]);
    let eps = 0.01;
    assert!(
        link[0] >= crop[0] - eps
            && link[1] >= crop[1] - eps
            && link[2] <= crop[2] + eps
            && link[3] <= crop[3] + eps,
        "{name}: the stamp {link:?} lies inside the crop box {crop:?}"
    );
    let mut stamp_words = 0;
    for w in seen["words"].as_array().unwrap() {
        let b = rect(&w[0]);
        let text = w[1].as_str().unwrap();
        if text.starts_with("pith:") {
            stamp_words += 1;
            continue;
        }
        assert!(
            !meets(&b, &link),
            "{name}: the stamp {link:?} covers the word {text:?} at {b:?}"
        );
    }
    assert_eq!(stamp_words, 1, "{name}: the stamp's text is on the page");
    for key in ["drawings", "images"] {
        for d in seen[key].as_array().unwrap() {
            let b = rect(d);
            assert!(
                !meets(&b, &link),
                "{name}: the stamp {link:?} covers a {key} box {b:?}"
            );
        }
    }
    link
}

fn tools(test: &str) -> bool {
    common::have_python_module("pymupdf", test)
}

#[test]
fn a_full_left_margin_sends_the_stamp_to_another_edge() {
    if !tools("a_full_left_margin_sends_the_stamp_to_another_edge") {
        return;
    }
    let dir = common::tmpdir();
    let (w, h) = (612.0, 792.0);
    // Free margins: the stamp takes the left one (x below 72, in the lower part of the page).
    let free = stamp_ok(
        "free",
        &one_page("/MediaBox [0 0 612 792]", &body(w, h)),
        dir.path(),
    );
    assert!(free[2] < 72.0, "left margin: {free:?}");
    let cases = [
        ("text", left_margin_text(h)),
        // Drawings: a grey fill, and vertical rules every 5 pt, from x = 5 to 50.
        ("fill", "0.5 g 5 5 45 782 re f 0 g\n".to_string()),
        (
            "rules",
            (0..10)
                .map(|i| format!("{x} 5 m {x} 787 l ", x = 5 + 5 * i))
                .collect::<String>()
                + "S\n",
        ),
        // An image scaled over the left margin.
        ("image", "q 50 0 0 792 0 0 cm /Im1 Do Q\n".to_string()),
        // A form XObject (its box) over the left margin, scaled.
        ("form", "q 0.5 0 0 7.92 0 0 cm /Fm1 Do Q\n".to_string()),
    ];
    for (name, margin) in cases {
        let pdf = one_page(
            "/MediaBox [0 0 612 792]",
            &format!("{margin}{}", body(w, h)),
        );
        let link = stamp_ok(&format!("left-{name}"), &pdf, dir.path());
        assert!(
            link[0] > 50.0,
            "{name}: not in the full left margin: {link:?}"
        );
    }
}

#[test]
#[ignore = "full tier (renders page 1 of many variants with poppler and MuPDF): cargo test -- --include-ignored"]
fn rotated_and_landscape_pages() {
    if !tools("rotated_and_landscape_pages") {
        return;
    }
    let dir = common::tmpdir();
    for rotate in [0, 90, 180, 270] {
        // A portrait media box shown rotated, with text in the left margin of the media box.
        let pdf = one_page(
            &format!("/MediaBox [0 0 612 792] /Rotate {rotate}"),
            &format!("{}{}", left_margin_text(792.0), body(612.0, 792.0)),
        );
        stamp_ok(&format!("portrait-rotate-{rotate}"), &pdf, dir.path());
        // A landscape media box, its own left margin full.
        let pdf = one_page(
            &format!("/MediaBox [0 0 792 612] /Rotate {rotate}"),
            &format!("{}{}", left_margin_text(612.0), body(792.0, 612.0)),
        );
        stamp_ok(&format!("landscape-rotate-{rotate}"), &pdf, dir.path());
        // A crop box inside the media box, the media box's margins outside it.
        let pdf = one_page(
            &format!("/MediaBox [0 0 612 792] /CropBox [40 40 572 752] /Rotate {rotate}"),
            &body(612.0, 792.0),
        );
        stamp_ok(&format!("cropped-rotate-{rotate}"), &pdf, dir.path());
    }
}

#[test]
fn pages_without_room_are_refused() {
    let dir = common::tmpdir();
    let cases = [
        (
            "grey-fill",
            "/MediaBox [0 0 612 792]",
            "0.5 g 0 0 612 792 re f\n".to_string(),
        ),
        (
            "full-image",
            "/MediaBox [0 0 612 792]",
            "q 612 0 0 792 0 0 cm /Im1 Do Q\n".to_string(),
        ),
        (
            "shading",
            "/MediaBox [0 0 612 792]",
            "/Sh1 sh\n".to_string(),
        ),
        ("narrow", "/MediaBox [0 0 4 300]", String::new()),
        (
            "text-to-every-edge",
            "/MediaBox [0 0 200 200]",
            (0..20)
                .map(|i| {
                    format!(
                        "BT /F1 10 Tf 0 {} Td (WWWWWWWWWWWWWWWWWWWWWWWW) Tj ET\n",
                        i * 10
                    )
                })
                .collect(),
        ),
    ];
    for (name, page, content) in cases {
        let input = dir.path().join(format!("{name}.pdf"));
        let bytes = one_page(page, &content);
        std::fs::write(&input, &bytes).unwrap();
        let out = dir.path().join(format!("{name}.out.pdf"));
        let (code, _, err) = common::inject(&input, A, &out, &["--stamp"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(err.contains("no free margin"), "{name}: {err}");
        assert!(err.contains("without --stamp"), "{name}: {err}");
        assert!(!out.exists(), "{name}: nothing written");
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
        // Metadata only works on the same file.
        let (code, _, err) = common::inject(&input, A, &out, &[]);
        assert_eq!(code, 0, "{name}: {err}");
    }
}
