//! `pith.sty` under the class options of every class we support.

use crate::common;

use crate::common::{SEED as FULL, SEED_CODE as CODE, SEED_SHORT as SHORT, SEED_URL as URL};

use crate::latex::{
    compile, document, flat_log, have_tools, install_sty, log, page1_words, run_matrix, sh,
    tex_dir, Engine, Pdf,
};
use crate::latex_matrix::cell;

// ------------------------------------------------------------------------------ class options

/// One document of the class-options matrix: a class's submission line with
/// `\usepackage{pith}`, which must compile, and whose copy is anonymous (no badge, link or
/// metadata) exactly when the class or pith was told so.
#[derive(Clone, Debug)]
struct OptCell {
    name: String,
    tex: String,
    engine: Engine,
    anonymous: bool,
    /// Expected in the (flattened) log.
    log_has: Vec<&'static str>,
    /// pith's unknown-option warning is expected (an unknown option given to pith itself).
    warns_unknown: bool,
}

/// `s` as a `&'static str` (the matrix's `Cell` holds static strings).
pub(crate) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// AASTeX, a class pith has no detection for whose submission line has `anonymous`: the one
/// this leg's TeX Live ships (aastex631 in 2022, aastex701 in 2026, which requires an
/// \email for every author).
fn aastex_class() -> Option<&'static str> {
    ["aastex701", "aastex631"].into_iter().find(|c| {
        let dir = tex_dir("pith-probe-aastex-");
        sh(dir.path(), "kpsewhich", &[&format!("{c}.cls")]).0
    })
}

fn opt_cells() -> Vec<OptCell> {
    use Engine::*;
    let engines = [(Pdf, "pdf"), (Dvips, "dvips"), (Xe, "xe"), (Lua, "lua")];
    let pith = format!("\\usepackage{{pith}}\\pithnumber{{{FULL}}}");
    let mut cells = vec![];
    // acmart: every format an author submits in, with review, anonymous and both, on every
    // engine. acmart's own switch (\if@ACM@anonymous) and the global option agree.
    for format in ["sigconf", "acmsmall", "manuscript"] {
        for (mode, anonymous) in [
            ("review", false),
            ("anonymous", true),
            ("review,anonymous", true),
        ] {
            for (engine, e) in engines {
                let opts = leak(format!("{format},{mode}"));
                let name = leak(format!("acmart-{format}-{}-{e}", mode.replace(',', "+")));
                let tex = document(&cell(name, "acmart", opts, engine, "PITH"));
                cells.push(OptCell {
                    name: name.to_string(),
                    tex,
                    engine,
                    anonymous,
                    log_has: vec![if anonymous {
                        "Kit acmart detected; anonymous review mode"
                    } else {
                        "Kit acmart detected; not anonymous"
                    }],
                    warns_unknown: false,
                });
            }
        }
    }
    let article = |name: &str, opts: &str, pkgs: &str, engine: Engine| {
        document(&cell(
            leak(name.into()),
            "article",
            leak(opts.into()),
            engine,
            leak(pkgs.into()),
        ))
    };
    // \documentclass[anonymous]{article}: the class does not know the option; pith does.
    for (engine, e) in engines {
        let name = format!("article-anonymous-{e}");
        cells.push(OptCell {
            tex: article(&name, "anonymous", "PITH", engine),
            name,
            engine,
            anonymous: true,
            log_has: vec!["The paper (option anonymous) is in an anonymous review mode"],
            warns_unknown: false,
        });
    }
    // The class's business: global options pith has no key for change nothing, silently.
    cells.push(OptCell {
        name: "article-classoptions-pdf".into(),
        tex: article(
            "article-classoptions-pdf",
            "draft,final,review,sigconf,twocolumn,style=x,placement=x",
            "PITH",
            Pdf,
        ),
        engine: Pdf,
        anonymous: false,
        log_has: vec![],
        warns_unknown: false,
    });
    // A bare anonymous given to pith itself; an unknown option given to pith still warns.
    cells.push(OptCell {
        name: "article-pith-anonymous-pdf".into(),
        tex: article(
            "article-pith-anonymous-pdf",
            "",
            &format!("\\usepackage[anonymous]{{pith}}\\pithnumber{{{FULL}}}"),
            Pdf,
        ),
        engine: Pdf,
        anonymous: true,
        log_has: vec!["is in an anonymous review mode"],
        warns_unknown: false,
    });
    cells.push(OptCell {
        name: "article-pith-review-pdf".into(),
        tex: article(
            "article-pith-review-pdf",
            "",
            &format!("\\usepackage[review]{{pith}}\\pithnumber{{{FULL}}}"),
            Pdf,
        ),
        engine: Pdf,
        anonymous: false,
        log_has: vec!["Unknown option `review' ignored"],
        warns_unknown: true,
    });
    // A class pith does not know, with its own anonymous option.
    if let Some(class) = aastex_class() {
        for (opts, anonymous, engine, e) in [
            ("twocolumn,anonymous", true, Pdf, "pdf"),
            ("twocolumn,anonymous", true, Xe, "xe"),
            ("twocolumn", false, Pdf, "pdf"),
        ] {
            cells.push(OptCell {
                name: format!("{class}-{}-{e}", opts.replace(',', "+")),
                tex: format!(
                    "\\documentclass[{opts}]{{{class}}}\n{pith}\n\\begin{{document}}\n\
                     \\title{{Zebrafish Migration Patterns}}\n\\author{{Ada Author}}\n\
                     \\affiliation{{Somewhere University}}\n\\email{{ada@example.org}}\n\\begin{{abstract}}\nAbstracttext.\n\
                     \\end{{abstract}}\n\\section{{Intro}}\nBodytext starts here.\n\\end{{document}}\n"
                ),
                engine,
                anonymous,
                log_has: vec![],
                warns_unknown: false,
            });
        }
    } else {
        panic!("no AASTeX class on this leg (aastex701 or aastex631, texlive-publishers)");
    }
    cells
}

/// Compiles one class-options cell and checks it with pdfinfo, exiftool, qpdf and pdftotext.
fn run_opt_cell(c: &OptCell) -> Vec<String> {
    let dir = tex_dir(&format!("pith-opt-{}-", c.name));
    let d = dir.path();
    install_sty(d);
    std::fs::write(d.join("doc.tex"), &c.tex).unwrap();
    if let Err(e) = compile(d, c.engine) {
        return vec![e];
    }
    let pdf = d.join("doc.pdf");
    let mut errs = vec![];
    let info_number = common::tools::pdfinfo_custom(&pdf, "PithNumber");
    let info_url = common::tools::pdfinfo_custom(&pdf, "PithURL");
    let ex = common::tools::exif_json(&pdf, &["-XMP-pith:all"]);
    let links = match Pdf::load(&pdf) {
        Ok(p) => p.page1_links().iter().filter(|(u, _, _)| u == URL).count(),
        Err(e) => {
            errs.push(e);
            0
        }
    };
    let (words, _) = page1_words(&pdf);
    let badges = words.iter().filter(|w| w.text == SHORT).count();
    let (_, text, _) = common::run("pdftotext", &[pdf.to_str().unwrap(), "-"], None);
    let l = flat_log(&log(d));
    if c.anonymous {
        if info_number.is_some() || info_url.is_some() {
            errs.push(format!(
                "anonymous copy has Info {info_number:?} {info_url:?}"
            ));
        }
        if ex.get("Number").is_some() || ex.get("Url").is_some() {
            errs.push(format!("anonymous copy has pith XMP: {ex}"));
        }
        if links != 0 || badges != 0 || text.contains(&CODE[..8]) {
            errs.push(format!("anonymous copy: {links} links, {badges} badges"));
        }
        if !l.contains("is in an anonymous review mode: no badge, link or metadata") {
            errs.push("log does not say the copy is anonymous".into());
        }
    } else {
        if info_number.as_deref() != Some(FULL) || info_url.as_deref() != Some(URL) {
            errs.push(format!(
                "pdfinfo: PithNumber {info_number:?} PithURL {info_url:?}"
            ));
        }
        if ex["Number"] != FULL || ex["Url"] != URL {
            errs.push(format!("exiftool pith XMP: {ex}"));
        }
        if links != 1 || badges != 1 {
            errs.push(format!(
                "{links} page-1 links to {URL}, {badges} badges; expected 1 and 1"
            ));
        }
        if l.contains("anonymous review mode:") {
            errs.push("log says the copy is anonymous".into());
        }
    }
    for want in &c.log_has {
        if !l.contains(want) {
            errs.push(format!("log lacks {want:?}"));
        }
    }
    if l.contains("Package pith Warning: Unknown option") != c.warns_unknown {
        errs.push(format!(
            "pith's unknown-option warning {}",
            if c.warns_unknown {
                "missing"
            } else {
                "for a class option"
            }
        ));
    }
    if l.contains("xkeyval Error") || l.contains("keyval Error") {
        errs.push("a keyval error in the log".into());
    }
    errs
}

/// Class options reach pith.sty as global options. acmart's submission line
/// (`\documentclass[sigconf,review,anonymous]{acmart}`) stopped with "no value specified for
/// key 'anonymous'"; a bare `anonymous` now means an anonymous copy, and the class's other
/// options (review, draft, final, sigconf, ...) are left to the class.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn class_options() {
    if !have_tools("class_options") {
        return;
    }
    run_matrix(
        "class-option",
        opt_cells(),
        |c| c.name.clone(),
        |c| c.engine,
        run_opt_cell,
    );
}
