//! `pith.sty` leaves arXiv's stamp band free.

use crate::common;

use std::path::Path;
use std::process::Command;

use crate::common::{SEED_SHORT as SHORT, SEED_URL as URL};

use crate::latex::{
    compile, document, flat_log, have_tools, install_sty, log, page1_words, run_matrix, tex_dir,
    Cell, Engine, Pdf, Word,
};
use crate::latex_kits::{kit_cells, kit_document, KitCell, KitExpect};
use crate::latex_matrix::{cell, cells, ROLLBACK};
use crate::latex_options::leak;

// ------------------------------------------------------------------------------ arXiv's stamp band

/// arXiv's identifier band on a page `height` pt tall, as (x0, y0, x1, y1) in PDF user space
/// (origin bottom left). arXiv stamps every paper it compiles with `arXiv:ID vN [cat] date`
/// rotated 90 degrees in 20 pt grey type, its right edge 32 pt from the left paper edge,
/// centred on the page height, about 340 pt long for a new-style identifier and longer for
/// old ones and long categories, with a link over it: modelled as x from 0 to 34 pt over the
/// middle 420 pt of the page height.
fn arxiv_band(height: f64) -> [f64; 4] {
    [0.0, height / 2.0 - 210.0, 34.0, height / 2.0 + 210.0]
}

/// Whether two rectangles (x0, y0, x1, y1 in any corner order) share an area.
fn overlaps(a: &[f64], b: &[f64]) -> bool {
    a.len() == 4
        && b.len() == 4
        && a[0].min(a[2]) < b[0].max(b[2])
        && b[0].min(b[2]) < a[0].max(a[2])
        && a[1].min(a[3]) < b[1].max(b[3])
        && b[1].min(b[3]) < a[1].max(a[3])
}

/// Where pith's badge meets arXiv's band on page 1 of `pdf`: a link rectangle to the record
/// URL inside it (`qpdf --json`), or ink in it (`pdftoppm`, the band alone rendered in grey
/// at 144 dpi: any pixel darker than near-white). Ink within 1.5 pt of a word other than the
/// badge's (`pdftotext -bbox`: the line numbers some kits print in the margin) is the
/// document's own; the rest of that strip is empty in the test documents, so other ink
/// there is the badge's. Also checks that the link lies on the page.
pub(crate) fn band_problems(pdf: &Path) -> Vec<String> {
    let mut errs = vec![];
    let (words, (width, height)) = page1_words(pdf);
    let others: Vec<&Word> = words.iter().filter(|w| w.text != SHORT).collect();
    if height <= 0.0 {
        return vec!["pdftotext gave no page size".into()];
    }
    let band = arxiv_band(height);
    match Pdf::load(pdf) {
        Err(e) => errs.push(e),
        Ok(p) => {
            for (uri, _, rect) in p.page1_links() {
                if uri != URL {
                    continue;
                }
                if overlaps(&rect, &band) {
                    errs.push(format!(
                        "link rectangle {rect:?} overlaps arXiv's band {band:?}"
                    ));
                }
                if !overlaps(&rect, &[0.0, 0.0, width, height]) {
                    errs.push(format!("link rectangle {rect:?} is off the page"));
                }
            }
        }
    }
    const DPI: f64 = 144.0;
    let px = |pt: f64| ((pt * DPI / 72.0).round() as i64).to_string();
    let out = Command::new("pdftoppm")
        .args(["-f", "1", "-l", "1", "-gray", "-r"])
        .arg(px(72.0))
        .args(["-x", "0", "-y"])
        .arg(px(height - band[3]))
        .arg("-W")
        .arg(px(band[2]))
        .arg("-H")
        .arg(px(band[3] - band[1]))
        .arg(pdf)
        .output();
    match out {
        Err(e) => errs.push(format!("pdftoppm: {e}")),
        Ok(o) => {
            // A binary PGM: "P5", width, height, maxval, one whitespace byte, the pixels.
            let mut fields = 0;
            let mut i = 0;
            while fields < 4 && i < o.stdout.len() {
                let start = i;
                while i < o.stdout.len() && !o.stdout[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i > start {
                    fields += 1;
                }
                i += 1;
            }
            let pixels = o.stdout.get(i..).unwrap_or_default();
            let row = px(band[2]).parse::<usize>().unwrap_or(1).max(1);
            let top = height - band[3];
            let theirs = |n: usize| {
                let x = (n % row) as f64 * 72.0 / DPI;
                let y = top + (n / row) as f64 * 72.0 / DPI;
                others.iter().any(|w| {
                    x >= w.x_min - 1.5
                        && x <= w.x_max + 1.5
                        && y >= w.y_min - 1.5
                        && y <= w.y_max + 1.5
                })
            };
            let dark = (0..pixels.len())
                .filter(|&n| pixels[n] < 250 && !theirs(n))
                .count();
            if pixels.is_empty() {
                errs.push(format!(
                    "pdftoppm rendered nothing: {}",
                    String::from_utf8_lossy(&o.stderr)
                ));
            } else if dark > 0 {
                errs.push(format!(
                    "{dark} dark pixels (at {DPI} dpi) in arXiv's band {band:?}"
                ));
            }
        }
    }
    errs
}

/// One document of the band matrix: a class or kit document with a zero-space placement
/// (`placement=margin`) or with the title placement's fallback (no title block), whose
/// badge must stay out of arXiv's band.
struct BandCell {
    name: String,
    /// The kit whose files the document needs (`tests/kits/<kit>/`), if any.
    kit: Option<&'static str>,
    tex: String,
    engine: Engine,
}

/// `placement=margin` in a matrix cell's preamble.
fn margin_pkgs(pkgs: &str) -> String {
    pkgs.replace("PITH", "\\usepackage[placement=margin]{pith}NUMBER")
        .replace(
            "\\usepackage[nocmdhooks]{pith}",
            "\\usepackage[nocmdhooks,placement=margin]{pith}",
        )
}

/// The band matrix: every class and layout of the LaTeX matrix (on the engine the matrix
/// gives it first) and every kit (on one of the engines its cells use) with
/// `placement=margin`; an IEEEtran conference paper and an article with `geometry`'s 0.75 in
/// margins on every engine; both without `\maketitle` (the title placement's fallback).
fn band_cells() -> Vec<BandCell> {
    use Engine::*;
    let mut out = vec![];
    let mut seen = std::collections::BTreeSet::new();
    for c in cells() {
        let docmeta = c.pre.contains("DocumentMetadata");
        if c.pre == ROLLBACK || !seen.insert((c.doc, c.opts, docmeta)) {
            continue;
        }
        let pkgs = leak(margin_pkgs(c.pkgs));
        out.push(BandCell {
            name: format!("band-{}", c.name),
            kit: None,
            tex: document(&Cell { pkgs, ..c.clone() }),
            engine: c.engine,
        });
    }
    let geometry = || Cell {
        pkgs: "\\usepackage[margin=0.75in]{geometry}PITH",
        ..cell("", "article", "", Pdf, "")
    };
    let ieee = || cell("", "ieeetran", "conference", Pdf, "PITH");
    for engine in [Pdf, Xe, Lua, Dvips] {
        let e = format!("{engine:?}").to_lowercase();
        for (what, c) in [("geometry075", geometry()), ("ieeetran-conference", ieee())] {
            if !(engine == Pdf && what == "ieeetran-conference") {
                let pkgs = leak(margin_pkgs(c.pkgs));
                out.push(BandCell {
                    name: format!("band-{what}-{e}"),
                    kit: None,
                    tex: document(&Cell { pkgs, ..c.clone() }),
                    engine,
                });
            }
            if engine == Pdf || engine == Dvips {
                out.push(BandCell {
                    name: format!("band-{what}-fallback-{e}"),
                    kit: None,
                    tex: document(&c).replace("\\maketitle", ""),
                    engine,
                });
            }
        }
    }
    let mut kits: Vec<KitCell> = vec![];
    for k in kit_cells() {
        if k.expect == KitExpect::Title && k.pith_opts.is_empty() {
            match kits.iter_mut().find(|x| x.kit == k.kit) {
                // The kit's second engine where it has one, so that kits meet every engine.
                Some(x) if x.engine == Pdf && k.engine != Pdf => *x = k,
                Some(_) => {}
                None => kits.push(k),
            }
        }
    }
    for k in kits {
        out.push(BandCell {
            name: format!("band-{}", k.name),
            kit: Some(k.kit),
            tex: kit_document(&KitCell {
                pith_opts: "placement=margin",
                ..k.clone()
            }),
            engine: k.engine,
        });
    }
    out
}

/// Compiles one band cell and checks that its badge is on page 1, linked once, out of
/// arXiv's band, and that the log says where it went.
fn run_band_cell(c: &BandCell) -> Vec<String> {
    let dir = tex_dir(&format!("pith-{}-", c.name));
    let d = dir.path();
    install_sty(d);
    if let Some(kit) = c.kit {
        for e in std::fs::read_dir(common::root().join("tests/kits").join(kit)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, d.join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(d.join("doc.tex"), &c.tex).unwrap();
    if let Err(e) = compile(d, c.engine) {
        return vec![e];
    }
    let pdf = d.join("doc.pdf");
    let mut errs = band_problems(&pdf);
    let links = Pdf::load(&pdf)
        .map(|p| p.page1_links().iter().filter(|(u, _, _)| u == URL).count())
        .unwrap_or(0);
    if links != 1 {
        errs.push(format!("{links} page-1 links to {URL}, expected 1"));
    }
    let (words, _) = page1_words(&pdf);
    let badges = words.iter().filter(|w| w.text == SHORT).count();
    if badges != 1 {
        errs.push(format!("badge text {SHORT} found {badges} times on page 1"));
    }
    if !flat_log(&log(d)).contains("The margin badge is in the page-1") {
        errs.push("the log does not say where the margin badge went".into());
    }
    errs
}

#[test]
fn arxiv_band_is_left_free() {
    if !have_tools("arxiv_band_is_left_free") {
        return;
    }
    run_matrix(
        "band",
        band_cells(),
        |c| c.name.clone(),
        |c| c.engine,
        run_band_cell,
    );
}
