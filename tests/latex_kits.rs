//! `pith.sty` inside the conference kits (their classes and packages as shipped).

use crate::common;

use serde_json::Value;

use crate::common::{SEED as FULL, SEED_SHORT as SHORT, SEED_URL as URL};

use crate::latex::{
    compile, flat_log, have_tools, install_sty, log, page1_words, run_matrix, tex_dir, Engine, Pdf,
    Word,
};
use crate::latex_band::band_problems;

// ------------------------------------------------------------------------------ conference kits

/// What a kit cell must show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KitExpect {
    /// Badge under the title block (placement=title).
    Title,
    /// Badge in the page-1 margin or footer (zero-space placements): on page 1, not below
    /// any particular word.
    Page1,
    /// The kit's anonymous review mode: no badge, no link, no metadata, a log line.
    Anonymous,
}

/// One kit × mode × engine cell. The kit's files and a test document
/// (`doc.tex` with `%%KIT%%`, `%%PKG%%`, `%%OPTS%%`) live in `tests/kits/<kit>/`.
#[derive(Clone, Debug)]
pub(crate) struct KitCell {
    pub(crate) name: &'static str,
    pub(crate) kit: &'static str,
    /// Replaces `%%KIT%%`: how the document loads the kit in this mode.
    pub(crate) kit_line: &'static str,
    /// Replaces `%%OPTS%%` (class options of class-based kits).
    pub(crate) opts: &'static str,
    /// Options of `\usepackage[...]{pith}`.
    pub(crate) pith_opts: &'static str,
    pub(crate) engine: Engine,
    pub(crate) expect: KitExpect,
}

fn kit(
    name: &'static str,
    kit: &'static str,
    kit_line: &'static str,
    engine: Engine,
    expect: KitExpect,
) -> KitCell {
    KitCell {
        name,
        kit,
        kit_line,
        opts: "",
        pith_opts: "",
        engine,
        expect,
    }
}

impl KitCell {
    /// The cell with these options of `\usepackage[...]{pith}`.
    fn with_pith(self, pith_opts: &'static str) -> Self {
        KitCell { pith_opts, ..self }
    }

    /// The cell with these class options (`%%OPTS%%`).
    fn with_class(self, opts: &'static str) -> Self {
        KitCell { opts, ..self }
    }
}

/// What the CVPR kit's main.tex loads after cvpr.sty (the kit needs hyperref).
macro_rules! cvpr_hyperref {
    () => {
        "\\usepackage{xcolor}\\definecolor{cvprblue}{rgb}{0.21,0.49,0.74}\
         \\usepackage[pagebackref,breaklinks,colorlinks,allcolors=cvprblue]{hyperref}"
    };
}

/// The kit matrix: every mode of every kit on pdfLaTeX, and each kit once more on another
/// engine it supports, so that every engine meets several kits.
pub(crate) fn kit_cells() -> Vec<KitCell> {
    use Engine::*;
    use KitExpect::*;
    vec![
        kit(
            "neurips-submission-pdf",
            "neurips",
            "\\usepackage{neurips_2025}",
            Pdf,
            Anonymous,
        ),
        kit(
            "neurips-preprint-pdf",
            "neurips",
            "\\usepackage[preprint]{neurips_2025}",
            Pdf,
            Title,
        ),
        kit(
            "neurips-final-pdf",
            "neurips",
            "\\usepackage[final]{neurips_2025}",
            Pdf,
            Title,
        ),
        kit(
            "neurips-final-xe",
            "neurips",
            "\\usepackage[final]{neurips_2025}",
            Xe,
            Title,
        ),
        kit(
            "neurips-final-margin-pdf",
            "neurips",
            "\\usepackage[final]{neurips_2025}",
            Pdf,
            Page1,
        )
        .with_pith("placement=margin"),
        kit(
            "neurips-submission-forced-pdf",
            "neurips",
            "\\usepackage{neurips_2025}",
            Pdf,
            Title,
        )
        .with_pith("anonymous=false"),
        kit(
            "icml-submission-pdf",
            "icml",
            "\\usepackage{icml2025}",
            Pdf,
            Anonymous,
        ),
        kit(
            "icml-accepted-pdf",
            "icml",
            "\\usepackage[accepted]{icml2025}",
            Pdf,
            Title,
        ),
        kit(
            "icml-accepted-lua",
            "icml",
            "\\usepackage[accepted]{icml2025}",
            Lua,
            Title,
        ),
        kit(
            "icml-accepted-footer-dvips",
            "icml",
            "\\usepackage[accepted]{icml2025}",
            Dvips,
            Page1,
        )
        .with_pith("placement=footer"),
        kit(
            "iclr-review-pdf",
            "iclr",
            "\\usepackage{iclr2026_conference,times}",
            Pdf,
            Anonymous,
        ),
        kit(
            "iclr-final-pdf",
            "iclr",
            "\\usepackage{iclr2026_conference,times}\\iclrfinalcopy",
            Pdf,
            Title,
        ),
        kit(
            "iclr-final-dvips",
            "iclr",
            "\\usepackage{iclr2026_conference,times}\\iclrfinalcopy",
            Dvips,
            Title,
        ),
        kit(
            "cvpr-review-pdf",
            "cvpr",
            concat!("\\usepackage[review]{cvpr}", cvpr_hyperref!()),
            Pdf,
            Anonymous,
        ),
        kit(
            "cvpr-final-pdf",
            "cvpr",
            concat!("\\usepackage{cvpr}", cvpr_hyperref!()),
            Pdf,
            Title,
        ),
        kit(
            "cvpr-final-xe",
            "cvpr",
            concat!("\\usepackage{cvpr}", cvpr_hyperref!()),
            Xe,
            Title,
        ),
        kit(
            "acl-review-pdf",
            "acl",
            "\\usepackage[review]{acl}",
            Pdf,
            Anonymous,
        ),
        kit(
            "acl-preprint-pdf",
            "acl",
            "\\usepackage[preprint]{acl}",
            Pdf,
            Title,
        ),
        kit(
            "acl-final-pdf",
            "acl",
            "\\usepackage[final]{acl}",
            Pdf,
            Title,
        ),
        kit(
            "acl-final-lua",
            "acl",
            "\\usepackage[final]{acl}",
            Lua,
            Title,
        ),
        kit(
            "aaai-submission-pdf",
            "aaai",
            "\\usepackage[submission]{aaai2026}",
            Pdf,
            Anonymous,
        ),
        // [submission] makes \pdfinfo a no-op: Info must still be written when forced.
        kit(
            "aaai-submission-forced-pdf",
            "aaai",
            "\\usepackage[submission]{aaai2026}",
            Pdf,
            Title,
        )
        .with_pith("anonymous=false"),
        kit(
            "aaai-camera-pdf",
            "aaai",
            "\\usepackage{aaai2026}",
            Pdf,
            Title,
        ),
        kit(
            "aaai-camera-dvips",
            "aaai",
            "\\usepackage{aaai2026}",
            Dvips,
            Title,
        ),
        kit(
            "tmlr-submission-pdf",
            "tmlr",
            "\\usepackage{tmlr}",
            Pdf,
            Anonymous,
        ),
        kit(
            "tmlr-preprint-pdf",
            "tmlr",
            "\\usepackage[preprint]{tmlr}",
            Pdf,
            Title,
        ),
        kit(
            "tmlr-accepted-pdf",
            "tmlr",
            "\\usepackage[accepted]{tmlr}",
            Pdf,
            Title,
        ),
        kit(
            "tmlr-accepted-xe",
            "tmlr",
            "\\usepackage[accepted]{tmlr}",
            Xe,
            Title,
        ),
        kit("jmlr-pdf", "jmlr", "\\usepackage{jmlr2e}", Pdf, Title),
        kit(
            "jmlr-preprint-pdf",
            "jmlr",
            "\\usepackage[preprint]{jmlr2e}",
            Pdf,
            Title,
        ),
        kit("jmlr-xe", "jmlr", "\\usepackage{jmlr2e}", Xe, Title),
        kit(
            "usenix-pdf",
            "usenix",
            "\\usepackage{usenix-2020-09}",
            Pdf,
            Title,
        ),
        // The kit is pdfTeX-only (microtype's spacing feature): a second placement instead.
        kit(
            "usenix-footer-pdf",
            "usenix",
            "\\usepackage{usenix-2020-09}",
            Pdf,
            Page1,
        )
        .with_pith("placement=footer"),
        kit("arxiv-pdf", "arxiv", "\\usepackage{arxiv}", Pdf, Title),
        kit("arxiv-lua", "arxiv", "\\usepackage{arxiv}", Lua, Title),
        kit("arxiv-margin-xe", "arxiv", "\\usepackage{arxiv}", Xe, Page1)
            .with_pith("placement=margin"),
        kit("sn-jnl-pdf", "sn-jnl", "", Pdf, Title).with_class("pdflatex,sn-mathphys-num"),
        kit("sn-jnl-iicol-pdf", "sn-jnl", "", Pdf, Title).with_class("pdflatex,iicol,sn-nature"),
        kit("sn-jnl-lua", "sn-jnl", "", Lua, Title).with_class("sn-mathphys-num"),
        kit("pnas-pdf", "pnas", "", Pdf, Title),
        kit("pnas-xe", "pnas", "", Xe, Title),
    ]
}

pub(crate) fn kit_document(c: &KitCell) -> String {
    let src = std::fs::read_to_string(
        common::root()
            .join("tests/kits")
            .join(c.kit)
            .join("doc.tex"),
    )
    .unwrap_or_else(|e| panic!("tests/kits/{}/doc.tex: {e}", c.kit));
    let pkg = format!(
        "\\usepackage[{}]{{pith}}\\pithnumber{{{FULL}}}",
        c.pith_opts
    );
    src.replace("%%KIT%%", c.kit_line)
        .replace("%%PKG%%", &pkg)
        .replace("%%OPTS%%", c.opts)
}

/// Compiles one kit cell and checks it with qpdf, pdfinfo, exiftool and pdftotext.
fn run_kit_cell(c: &KitCell) -> Vec<String> {
    let dir = tex_dir(&format!("pith-kit-{}-", c.name));
    let d = dir.path();
    install_sty(d);
    let kit_dir = common::root().join("tests/kits").join(c.kit);
    for e in std::fs::read_dir(&kit_dir).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, d.join(p.file_name().unwrap())).unwrap();
    }
    std::fs::write(d.join("doc.tex"), kit_document(c)).unwrap();
    if let Err(e) = compile(d, c.engine) {
        return vec![e];
    }
    let pdf = d.join("doc.pdf");
    let mut errs = vec![];
    let (ok, out, err) = common::run("qpdf", &["--check", pdf.to_str().unwrap()], None);
    if !ok || (out.clone() + &err).contains("WARNING") {
        errs.push(format!("qpdf --check: {out}{err}"));
    }
    let (_, info, _) = common::run("pdfinfo", &["-custom", pdf.to_str().unwrap()], None);
    let info_number = info
        .lines()
        .find_map(|l| l.strip_prefix("PithNumber:").map(|v| v.trim().to_string()));
    let (_, ex, _) = common::run(
        "exiftool",
        &["-j", "-XMP-pith:all", pdf.to_str().unwrap()],
        None,
    );
    let ex: Value = serde_json::from_str(&ex).unwrap_or(Value::Null);
    let links = match Pdf::load(&pdf) {
        Ok(p) => p
            .page1_links()
            .into_iter()
            .filter(|(u, _, _)| u == URL)
            .count(),
        Err(e) => {
            errs.push(e);
            0
        }
    };
    let (words, _) = page1_words(&pdf);
    let badges: Vec<&Word> = words.iter().filter(|w| w.text == SHORT).collect();
    let l = flat_log(&log(d));
    if c.expect == KitExpect::Anonymous {
        if info_number.is_some() {
            errs.push(format!("anonymous mode wrote Info: {info}"));
        }
        if ex[0].get("Number").is_some() {
            errs.push(format!("anonymous mode wrote XMP: {ex}"));
        }
        if links != 0 || !badges.is_empty() {
            errs.push(format!(
                "anonymous mode: {links} links, {} badges",
                badges.len()
            ));
        }
        if !l.contains("is in an anonymous review mode: no badge, link or metadata") {
            errs.push("log does not say the anonymous mode was detected".into());
        }
        return errs;
    }
    if info_number.as_deref() != Some(FULL) {
        errs.push(format!("pdfinfo PithNumber: {info}"));
    }
    if ex[0]["Number"] != FULL || ex[0]["Url"] != URL {
        errs.push(format!("exiftool pith XMP: {ex}"));
    }
    if links != 1 {
        errs.push(format!("{links} page-1 links to {URL}, expected 1"));
    }
    if badges.len() != 1 {
        errs.push(format!(
            "badge text {SHORT} found {} times on page 1",
            badges.len()
        ));
    } else if c.expect == KitExpect::Title {
        match words
            .iter()
            // Small capitals (ICLR, arxiv.sty) come out as "Z EBRAFISH".
            .find(|w| w.text.to_lowercase().ends_with("ebrafish"))
        {
            Some(t) if badges[0].y_min >= t.y_max => {}
            Some(t) => errs.push(format!(
                "badge (y {:.1}) is not below the title (y {:.1})",
                badges[0].y_min, t.y_max
            )),
            None => errs.push("title word not found on page 1".into()),
        }
    }
    if l.contains("badge was never placed") {
        errs.push("the badge was never placed".into());
    }
    if c.pith_opts.contains("placement=margin") {
        errs.extend(band_problems(&pdf));
    }
    errs
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn kits() {
    if !have_tools("kits") {
        return;
    }
    run_matrix(
        "kit",
        kit_cells(),
        |c| c.name.to_string(),
        |c| c.engine,
        run_kit_cell,
    );
}
