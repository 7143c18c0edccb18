//! The stamp goes in a free margin of page 1, never over the page's content nor
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
//!
//! Pages with a background (a full-page colour, a full-page image behind the text) are
//! stamped in their free margin, on the background, legibly: PyMuPDF renders the stamp's
//! rectangle and its text must stand out from what is behind it. Every stamp keeps 10 pt from
//! the edges of the crop box when the margin has room for that.

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
# The stamp's rectangle rendered in grey at 4x: the darkest and the lightest of its pixels
# (3rd and 97th percentiles), for the contrast between the text and what is behind it.
if out["links"]:
    pix = p.get_pixmap(clip=pymupdf.Rect(out["links"][0]), matrix=pymupdf.Matrix(4, 4),
                       colorspace=pymupdf.csGRAY)
    px = sorted(pix.samples)
    out["ink"] = [px[len(px) * 3 // 100], px[len(px) * 97 // 100]]
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
    // 10 pt from every edge: every page stamped here has a margin that allows it.
    let trim = 10.0 - eps;
    assert!(
        link[0] - crop[0] >= trim
            && link[1] - crop[1] >= trim
            && crop[2] - link[2] >= trim
            && crop[3] - link[3] >= trim,
        "{name}: the stamp {link:?} is within 10 pt of an edge of {crop:?}"
    );
    // Legible: the text stands out from the page (or plate) behind it.
    let ink: Vec<f64> = seen["ink"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(
        ink[1] - ink[0] >= 100.0,
        "{name}: the stamp's text hardly stands out from what is behind it (grey levels {ink:?})"
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
    // A box covering nearly the whole crop box is the page's background, which the stamp may
    // sit on; a drawing just round the stamp is its plate.
    let background = |b: &R| {
        b[2].min(crop[2]) - b[0].max(crop[0]) >= 0.9 * (crop[2] - crop[0])
            && b[3].min(crop[3]) - b[1].max(crop[1]) >= 0.9 * (crop[3] - crop[1])
    };
    let plate = |b: &R| {
        b[0] >= link[0] - 3.0
            && b[1] >= link[1] - 3.0
            && b[2] <= link[2] + 3.0
            && b[3] <= link[3] + 3.0
    };
    for key in ["drawings", "images"] {
        for d in seen[key].as_array().unwrap() {
            let b = rect(d);
            if background(&b) || (key == "drawings" && plate(&b)) {
                continue;
            }
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

/// The stamp's content stream as qpdf decodes it (the last stream of page 1's `/Contents`).
fn stamp_stream(pdf: &Path) -> String {
    let (ok, out, err) = common::run("qpdf", &["--json=2", pdf.to_str().unwrap()], None);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let last = json["pages"][0]["contents"]
        .as_array()
        .and_then(|c| c.last())
        .and_then(|c| c.as_str())
        .expect("page 1 has content streams")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let (ok, data, err) = common::run(
        "qpdf",
        &[
            &format!("--show-object={last}"),
            "--filtered-stream-data",
            pdf.to_str().unwrap(),
        ],
        None,
    );
    assert!(ok, "{err}");
    data
}

#[test]
fn backgrounds_are_not_content() {
    if !tools("backgrounds_are_not_content")
        || !common::have_tool("qpdf", "backgrounds_are_not_content")
    {
        return;
    }
    let dir = common::tmpdir();
    let (w, h) = (612.0, 792.0);
    // (name, what is drawn before the text, whether the stamp needs a plate)
    let mut cases = vec![
        // A cream page colour, as \pagecolor or a word processor draws it: light enough.
        ("cream", "1 0.97 0.88 rg 0 0 612 792 re f 0 g\n", false),
        // A dark page colour: grey text would not stand out without a plate.
        ("dark", "0.1 0.1 0.3 rg 0 0 612 792 re f 0 g\n", true),
        // A framed page: a coloured page, a white panel inside it, the text on the panel.
        (
            "framed",
            "0 0.3 0.6 rg 0 0 612 792 re f 1 g 36 36 540 720 re f 0 g\n",
            true,
        ),
        // A full-page image behind the text (its colours unknown): a plate.
        ("image", "q 612 0 0 792 0 0 cm /Im1 Do Q\n", true),
        // A nearly full-page image and a page-wide shading.
        ("image-95", "q 590 0 0 770 11 11 cm /Im1 Do Q\n", true),
    ];
    // A page colour with nothing on it (a page of luamesh's documentation is two coloured
    // triangles): still background, not content that reaches every edge.
    cases.push(("grey-page-alone", "0.5 g 0 0 612 792 re f\n", true));
    // A page that is one picture (a scan, a screenshot): stamped on it, on a plate.
    cases.push(("image-alone", "q 612 0 0 792 0 0 cm /Im1 Do Q\n", true));
    cases.push((
        "triangles-alone",
        "1 0.894 0.71 rg 0 0 m 612 0 l 0 792 l h f 0.864 0.864 0.864 rg 0 0 m 612 792 l 0 792 l h f\n",
        false,
    ));
    for (name, background, plate) in cases {
        let text = if name.ends_with("-alone") {
            String::new()
        } else {
            body(w, h)
        };
        let pdf = one_page("/MediaBox [0 0 612 792]", &format!("{background}{text}"));
        let link = stamp_ok(&format!("background-{name}"), &pdf, dir.path());
        assert!(link[2] < 72.0, "{name}: in the left margin: {link:?}");
        let stream = stamp_stream(&dir.path().join(format!("background-{name}.out.pdf")));
        assert_eq!(
            stream.contains("1 g\n"),
            plate,
            "{name}: plate expected {plate}:\n{stream}"
        );
    }
}

#[test]
fn full_edge_content_is_still_refused() {
    let dir = common::tmpdir();
    // A full-page fill or image drawn after the text covers it: that is content, not
    // background.
    let cases = [
        (
            "fill-after-text",
            format!("{}0.5 g 0 0 612 792 re f\n", body(612.0, 792.0)),
        ),
        (
            "image-after-text",
            format!("{}q 612 0 0 792 0 0 cm /Im1 Do Q\n", body(612.0, 792.0)),
        ),
    ];
    for (name, content) in cases {
        let input = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&input, one_page("/MediaBox [0 0 612 792]", &content)).unwrap();
        let out = dir.path().join(format!("{name}.out.pdf"));
        let (code, _, err) = common::inject(&input, A, &out, &["--stamp"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("no free margin"), "{name}: {err}");
    }
}

#[test]
fn stamps_keep_clear_of_the_trim_edge() {
    if !tools("stamps_keep_clear_of_the_trim_edge") {
        return;
    }
    let dir = common::tmpdir();
    // A landscape table: rules from x = 22 to 770 and y = 8 to 590. The left margin (22 pt)
    // holds a smaller stamp 10 pt from the edge; the old placement put it 2 to 5 pt from an
    // edge. stamp_ok checks the 10 pt.
    let mut table = String::from("0.5 w\n");
    for i in 0..=20 {
        let y = 8.0 + 29.1 * f64::from(i);
        table.push_str(&format!("22 {y} m 770 {y} l\n"));
    }
    for i in 0..=8 {
        let x = 22.0 + 93.5 * f64::from(i);
        table.push_str(&format!("{x} 8 m {x} 590 l\n"));
    }
    table.push_str("S\n");
    for (name, media, content) in [
        ("landscape-table", "/MediaBox [0 0 792 612]", table.clone()),
        (
            "landscape-body",
            "/MediaBox [0 0 792 612]",
            body(792.0, 612.0),
        ),
        (
            "landscape-rotated-table",
            "/MediaBox [0 0 792 612] /Rotate 90",
            table,
        ),
    ] {
        stamp_ok(name, &one_page(media, &content), dir.path());
    }
}
