//! The printed badge as one of the places a number lives: a paper compiled with `pith.sty` on
//! each engine (pdfLaTeX, XeLaTeX, LuaLaTeX, latex + dvips + ps2pdf) is injected with another
//! number (refused without `--replace`, redrawn with it), stripped, and stamped with the
//! number it already prints; each result is checked with tools pith did not write:
//! `pdftotext -f 1 -l 1` (what page 1 shows), `qpdf --json` (the link annotations),
//! `qpdf --check`, `exiftool` (Info and XMP), `pdftoppm` (the badge's blue in the render),
//! and pith's own `inspect --json` (the places) and `verify`.

use std::path::Path;

use serde_json::Value;

use crate::common::{self, SEED as A, SEED_SHORT as A_SHORT, SEED_URL as A_URL};
use crate::latex::{compile, have_tools, install_sty, tex_dir, Engine, Pdf};

const B: &str = "pith:2025:AAAABBBBCCCCDDDDEEEEFFFFGG";
const B_SHORT: &str = "pith:AAAABBBB";
const B_URL: &str = "https://pith.science/pith/AAAABBBBCCCCDDDDEEEEFFFFGG";

/// Compiles a one-page article with `pith.sty` and number `A` (and `body`) on `engine`.
fn paper(engine: Engine, body: &str) -> Result<tempfile::TempDir, String> {
    let dir = tex_dir("pith-places-");
    install_sty(dir.path());
    std::fs::write(
        dir.path().join("doc.tex"),
        format!(
            "\\documentclass{{article}}\n\\usepackage{{pith}}\\pithnumber{{{A}}}\n\
             \\title{{Zebrafish}}\\author{{Ada}}\n\\begin{{document}}\n\\maketitle\n{body}\n\
             \\end{{document}}\n"
        ),
    )
    .unwrap();
    compile(dir.path(), engine)?;
    Ok(dir)
}

/// `pith ARGS`: (exit code, stdout, stderr).
fn pith(args: &[&str]) -> (i32, String, String) {
    let out = common::pith()
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn page1_text(pdf: &Path) -> String {
    let (ok, out, err) = common::run(
        "pdftotext",
        &["-f", "1", "-l", "1", &pdf.to_string_lossy(), "-"],
        None,
    );
    assert!(ok, "pdftotext {}: {err}", pdf.display());
    out
}

/// The URIs of page 1's link annotations, read with `qpdf --json`.
fn page1_uris(pdf: &Path) -> Vec<String> {
    let p = Pdf::load(pdf).unwrap_or_else(|e| panic!("qpdf --json {}: {e}", pdf.display()));
    p.page1_links().into_iter().map(|(uri, _, _)| uri).collect()
}

/// The Info and XMP values exiftool reads.
fn exif(pdf: &Path) -> Value {
    common::tools::exif_json(pdf, &["-PDF:all", "-XMP:all"])
}

/// How many pixels of page 1's render (`pdftoppm`, 72 dpi) are the badge's blue (#0b66c3,
/// within a tolerance for anti-aliasing).
fn blue_pixels(pdf: &Path, dir: &Path) -> usize {
    let base = dir.join("render");
    let (ok, _, err) = common::run(
        "pdftoppm",
        &[
            "-f",
            "1",
            "-l",
            "1",
            "-r",
            "72",
            &pdf.to_string_lossy(),
            &base.to_string_lossy(),
        ],
        None,
    );
    assert!(ok, "pdftoppm: {err}");
    let ppm = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name().is_some_and(|n| {
                n.to_string_lossy().starts_with("render") && n.to_string_lossy().ends_with(".ppm")
            })
        })
        .expect("pdftoppm wrote a page");
    let data = std::fs::read(&ppm).unwrap();
    std::fs::remove_file(&ppm).unwrap();
    // P6 header: magic, width, height, maxval, then RGB bytes.
    let (fields, rgb) = common::tools::netpbm(&data);
    assert_eq!(fields[0], "P6");
    rgb.chunks(3)
        .filter(|p| {
            p.len() == 3
                && (i32::from(p[0]) - 11).abs() < 30
                && (i32::from(p[1]) - 102).abs() < 30
                && (i32::from(p[2]) - 195).abs() < 30
        })
        .count()
}

fn inspect(pdf: &Path) -> Value {
    let (_, out, err) = pith(&["inspect", "--json", &pdf.to_string_lossy()]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("inspect --json: {e}: {out}{err}"))
}

/// The places of an inspect report, as (place, holds, agrees).
fn places(r: &Value) -> Vec<(String, String, bool)> {
    r["places"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            (
                p["place"].as_str().unwrap_or("").to_string(),
                p["holds"].as_str().unwrap_or("").to_string(),
                p["agrees"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// The checks of one engine; the problems found.
fn check_engine(engine: Engine) -> Vec<String> {
    let mut errs = Vec::new();
    let mut err = |m: String| errs.push(format!("{engine:?}: {m}"));
    let dir = match paper(engine, "Some text.") {
        Ok(d) => d,
        Err(e) => return vec![format!("{engine:?}: {e}")],
    };
    let d = dir.path();
    let doc = d.join("doc.pdf");
    let s = |p: &Path| p.to_string_lossy().into_owned();

    // Every place names A: Info, XMP, the badge, its link.
    let r = inspect(&doc);
    let ps = places(&r);
    for (kind, holds) in [("info", A), ("xmp", A), ("badge", A_SHORT), ("link", A_URL)] {
        if !ps.iter().any(|(k, h, ok)| k == kind && h == holds && *ok) {
            err(format!(
                "inspect lists no {kind} place holding {holds}: {ps:?}"
            ));
        }
    }
    if r["consistent"] != true {
        err(format!("the compiled paper is not consistent: {r}"));
    }

    // Another number without --replace: refused in one line naming both, nothing written.
    let refused = d.join("refused.pdf");
    let (code, _, stderr) = pith(&["inject", &s(&doc), "--number", B, "-o", &s(&refused)]);
    if code != 2
        || stderr.lines().count() != 1
        || !stderr.contains(A_SHORT)
        || !stderr.contains(B)
        || !stderr.contains("--replace")
        || refused.exists()
    {
        err(format!(
            "inject of another number was not refused as asked: {code} {stderr}"
        ));
    }

    // With --replace: page 1 shows and links B only, every place agrees.
    let replaced = d.join("replaced.pdf");
    let (code, stdout, stderr) = pith(&[
        "inject",
        &s(&doc),
        "--number",
        B,
        "--replace",
        "-o",
        &s(&replaced),
    ]);
    if code != 0 {
        err(format!("inject --replace failed: {stderr}"));
        return errs;
    }
    let text = page1_text(&replaced);
    if !text.contains(B_SHORT) || text.contains(A_SHORT) {
        err(format!("page 1 after --replace shows: {text:?}"));
    }
    let uris: Vec<String> = page1_uris(&replaced)
        .into_iter()
        .filter(|u| u.starts_with("https://pith.science/"))
        .collect();
    if uris.is_empty() || uris.iter().any(|u| u != B_URL) {
        err(format!("page 1's record links after --replace: {uris:?}"));
    }
    let r = inspect(&replaced);
    if r["consistent"] != true || r["number"] != B || places(&r).iter().any(|p| !p.2) {
        err(format!("inspect after --replace: {r}"));
    }
    if !stdout.contains("redrawn") {
        err(format!(
            "the report does not say the badge was redrawn: {stdout}"
        ));
    }
    if !common::tools::qpdf_clean(&replaced) {
        err("qpdf --check is not clean after --replace".into());
    }
    let ex = exif(&replaced);
    if !ex.to_string().contains(B) || ex.to_string().contains(A) {
        err(format!("exiftool after --replace: {ex}"));
    }
    if blue_pixels(&replaced, d) < 20 {
        err("the redrawn badge is not in the render".into());
    }

    // strip: no number anywhere, nothing of the badge in the render.
    let stripped = d.join("stripped.pdf");
    let (code, _, stderr) = pith(&["strip", &s(&replaced), "-o", &s(&stripped)]);
    if code != 0 {
        err(format!("strip failed: {stderr}"));
        return errs;
    }
    let text = page1_text(&stripped);
    if text.contains("pith:") {
        err(format!("page 1 after strip shows: {text:?}"));
    }
    let uris = page1_uris(&stripped);
    if uris.iter().any(|u| u.contains("pith.science")) {
        err(format!("record links after strip: {uris:?}"));
    }
    let ex = exif(&stripped).to_string();
    if ex.contains("AAAABBBB") || ex.contains("7BMK4ZKT") {
        err(format!("exiftool after strip: {ex}"));
    }
    let r = inspect(&stripped);
    if r["has_number"] != false || !places(&r).is_empty() {
        err(format!("inspect after strip: {r}"));
    }
    let (code, out, _) = pith(&["verify", "--json", &s(&stripped)]);
    let v: Value = serde_json::from_str(&out).unwrap_or_default();
    if v["verdict"] != "no_number" {
        err(format!("verify after strip: {code} {out}"));
    }
    let blue = blue_pixels(&stripped, d);
    if blue > 0 {
        err(format!("{blue} pixels of the badge's blue after strip"));
    }
    if blue_pixels(&doc, d) < 20 {
        err("the compiled badge is not in the render (the check would not see it)".into());
    }

    // --stamp on a page that prints the number already adds nothing, and says so.
    let stamped = d.join("stamped.pdf");
    let (code, stdout, stderr) = pith(&[
        "inject",
        &s(&doc),
        "--number",
        A,
        "--stamp",
        "-o",
        &s(&stamped),
    ]);
    if code != 0 || !stdout.contains("no stamp added") {
        err(format!("--stamp on a badged page: {code} {stdout}{stderr}"));
    }
    let shown = page1_text(if stamped.exists() { &stamped } else { &doc })
        .matches(A_SHORT)
        .count();
    if shown != 1 {
        err(format!(
            "page 1 shows {A_SHORT} {shown} times after --stamp"
        ));
    }
    // --stamp --replace with another number: the badge is redrawn and is the one place
    // page 1 prints the new number; no margin stamp prints it a second time.
    let restamped = d.join("restamped.pdf");
    let (code, stdout, stderr) = pith(&[
        "inject",
        &s(&doc),
        "--number",
        B,
        "--stamp",
        "--replace",
        "-o",
        &s(&restamped),
    ]);
    if code != 0 || !stdout.contains("no stamp added") {
        err(format!(
            "--stamp --replace on a badged page: {code} {stdout}{stderr}"
        ));
    } else {
        let text = page1_text(&restamped);
        if text.matches(B_SHORT).count() != 1 || text.contains(A_SHORT) {
            err(format!("page 1 after --stamp --replace shows: {text:?}"));
        }
        let r = inspect(&restamped);
        if places(&r).iter().any(|(k, _, _)| k == "stamp") {
            err(format!("a stamp after --stamp --replace: {r}"));
        }
    }
    // Stamping the stripped paper twice: the second run is unchanged.
    let once = d.join("once.pdf");
    let twice = d.join("twice.pdf");
    let (c1, _, e1) = pith(&[
        "inject",
        &s(&stripped),
        "--number",
        A,
        "--stamp",
        "-o",
        &s(&once),
    ]);
    let (c2, o2, e2) = pith(&[
        "inject",
        &s(&once),
        "--number",
        A,
        "--stamp",
        "-o",
        &s(&twice),
    ]);
    if c1 != 0 || c2 != 0 || !o2.contains("unchanged") {
        err(format!("stamping twice: {c1} {e1} / {c2} {o2}{e2}"));
    } else if page1_text(&once).matches(A_SHORT).count() != 1 {
        err("the stamped paper does not show the number once".into());
    } else if inspect(&once)["consistent"] != true {
        err("the stamped paper is not consistent".into());
    }
    errs
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn replace_refuse_strip_and_stamp_on_every_engine() {
    if !have_tools("replace_refuse_strip_and_stamp_on_every_engine")
        || !common::have_tool("exiftool", "replace_refuse_strip_and_stamp_on_every_engine")
    {
        return;
    }
    let mut errs = Vec::new();
    for e in [Engine::Pdf, Engine::Xe, Engine::Lua, Engine::Dvips] {
        errs.extend(check_engine(e));
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

/// A number typed into the text by hand is a place inspect reports; pith never rewrites it,
/// and refuses to write another number beside it.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn number_text_pith_did_not_draw_is_reported() {
    if !have_tools("number_text_pith_did_not_draw_is_reported") {
        return;
    }
    let dir = paper(Engine::Pdf, "See pith:ZZZZZZZZ for the data.").unwrap();
    let doc = dir.path().join("doc.pdf");
    let s = doc.to_string_lossy().into_owned();
    assert!(
        page1_text(&doc).contains("pith:ZZZZZZZZ"),
        "pdftotext sees the typed number"
    );
    let r = inspect(&doc);
    let ps = places(&r);
    assert!(
        ps.iter()
            .any(|(k, h, ok)| k == "text" && h == "pith:ZZZZZZZZ" && !ok),
        "{ps:?}"
    );
    assert_eq!(r["consistent"], false, "{r}");
    let (code, text, _) = pith(&["inspect", &s]);
    assert_eq!(code, 1);
    assert!(
        text.contains("place: text pith:ZZZZZZZZ (differs) (not drawn by pith)"),
        "{text}"
    );
    // Another number, even with --replace, is refused: the typed text would contradict it.
    let out = dir.path().join("out.pdf");
    let (code, _, stderr) = pith(&[
        "inject",
        &s,
        "--number",
        B,
        "--replace",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("pith:ZZZZZZZZ") && stderr.contains("did not draw"),
        "{stderr}"
    );
    assert!(!out.exists());
}
