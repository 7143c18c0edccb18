//! `pith.sty` errors and warnings: invalid numbers, preamble-only commands, badge fallbacks, the
//! manual, l3build.

use crate::common;
use crate::common::tex;

use crate::common::{SEED as FULL, SEED_CODE as CODE, SEED_SHORT as SHORT, SEED_URL as URL};

use crate::latex::{
    flat_log, have_tex, have_tools, install_sty, log, log_tail, page1_words, sh, tex_dir, TEX_FLAGS,
};
use crate::latex_band::band_problems;

// ------------------------------------------------------------------------------ errors and warnings

/// Documents that must fail with a `\PackageError{pith}` naming the expected form.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn invalid_numbers_are_errors() {
    if !have_tex("pdflatex", "invalid_numbers_are_errors") {
        return;
    }
    let cases: Vec<(&'static str, &'static str)> = vec![
        ("input", "\\pithnumber{\\input{/etc/passwd}}"),
        ("short", "\\pithnumber{7BMK4ZKT}"),
        ("digit1", "\\pithnumber{7BMK4ZKTPUTUY3JKWBANNPOFR1}"),
        ("year3", "\\pithnumber{pith:202:7BMK4ZKTPUTUY3JKWBANNPOFR5}"),
        (
            "yearletters",
            "\\pithnumber{pith:20X4:7BMK4ZKTPUTUY3JKWBANNPOFR5}",
        ),
        (
            "prefix",
            "\\pithnumber{doi:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5}",
        ),
        ("space", "\\pithnumber{7BMK4ZKTPUTUY3 JKWBANNPOFR5}"),
        ("empty", "\\pithnumber{}"),
        ("long", "\\pithnumber{7BMK4ZKTPUTUY3JKWBANNPOFR5A}"),
        ("hash", "\\pithnumber{7BMK4ZKTPUTUY3JKWBANNPOF#5}"),
        ("braces", "\\pithnumber{{7BMK4ZKTPUTUY3JKWBANNPOFR5}}"),
        ("nonascii", "\\pithnumber{7BMK4ZKTPUTUY3JKWBANNPOFRé}"),
    ];
    let failures = tex::parallel("latex", cases, |(name, line)| {
        let dir = tex_dir("pith-");
        let d = dir.path();
        install_sty(d);
        std::fs::write(
            d.join("doc.tex"),
            format!("\\documentclass{{article}}\n\\usepackage{{pith}}\n{line}\n\\begin{{document}}\nx\n\\end{{document}}\n"),
        )
        .unwrap();
        let mut args: Vec<&str> = TEX_FLAGS.to_vec();
        args.push("doc.tex");
        let (ok, _) = sh(d, "pdflatex", &args);
        let l = log(d);
        let mut errs = vec![];
        if ok {
            errs.push("compiled without error".into());
        }
        if !l.contains("! Package pith Error: Invalid Pith Number") {
            errs.push(format!("no pith error in the log:\n{}", log_tail(d)));
        }
        let flat = flat_log(&l);
        if !flat.contains("pith:YYYY:<26 characters>") || !flat.contains("26 base32 characters") {
            errs.push("the error does not name the expected form".into());
        }
        if l.contains("(/etc/passwd") {
            errs.push("the argument was executed: /etc/passwd was read".into());
        }
        (format!("invalid-{name}"), errs)
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compiles a small article with `pdflatex`; returns (ok, log, pdf path, dir guard).
fn small_article(preamble: &str, body: &str) -> (bool, String, tempfile::TempDir) {
    let dir = tex_dir("pith-");
    let d = dir.path();
    install_sty(d);
    std::fs::write(
        d.join("doc.tex"),
        format!(
            "\\documentclass{{article}}\n{preamble}\n\\title{{Zebrafish}}\\author{{Ada}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
        ),
    )
    .unwrap();
    let mut args: Vec<&str> = TEX_FLAGS.to_vec();
    args.push("doc.tex");
    let (ok, _) = sh(d, "pdflatex", &args);
    (ok, log(d), dir)
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn pithnumber_is_preamble_only() {
    if !have_tex("pdflatex", "pithnumber_is_preamble_only") {
        return;
    }
    let (ok, l, _d) = small_article("\\usepackage{pith}", &format!("\\pithnumber{{{CODE}}}"));
    assert!(!ok, "\\pithnumber in the document body compiled");
    assert!(l.contains("Can be used only in preamble"), "{l}");
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn fallback_places_badge_without_maketitle() {
    if !have_tools("fallback_places_badge_without_maketitle") {
        return;
    }
    // No \maketitle: the metadata is written, and the badge goes into the page-1 margin
    // ("never placed" only with nobadge), said in the log.
    let (ok, l, d) = small_article(
        &format!("\\usepackage{{pith}}\\pithnumber{{{FULL}}}"),
        "Text only.",
    );
    assert!(ok, "{l}");
    assert!(!l.contains("badge was never placed"), "{l}");
    assert!(
        flat_log(&l).contains("the badge is in the page-1 margin"),
        "{l}"
    );
    let pdf = d.path().join("doc.pdf");
    let (_, info, _) = common::run("pdfinfo", &["-custom", pdf.to_str().unwrap()], None);
    assert!(info.contains(FULL), "{info}");
    let (words, _) = page1_words(&pdf);
    let text = words.iter().find(|w| w.text == "Text").expect("body text");
    let badge: Vec<_> = words.iter().filter(|w| w.text == SHORT).collect();
    assert_eq!(badge.len(), 1, "{words:?}");
    // In the left margin, left of the text block.
    assert!(badge[0].x_max < text.x_min, "{:?} {:?}", badge[0], text);
    let band = band_problems(&pdf);
    assert!(band.is_empty(), "{band:?}");
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn manual_badge_is_printed_once() {
    if !have_tools("manual_badge_is_printed_once") {
        return;
    }
    // \pithbadge before \maketitle: the automatic placement then does nothing; a second
    // \pithbadge does nothing either.
    let (ok, l, d) = small_article(
        &format!("\\usepackage{{pith}}\\pithnumber{{{FULL}}}"),
        "Zebrafish first. \\pithbadge\\par\\maketitle\\pithbadge Text.",
    );
    assert!(ok, "{l}");
    let (words, _) = page1_words(&d.path().join("doc.pdf"));
    assert_eq!(words.iter().filter(|w| w.text == SHORT).count(), 1);
    assert!(!l.contains("badge was never placed"));
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn nobadge_option_keeps_metadata() {
    if !have_tools("nobadge_option_keeps_metadata") {
        return;
    }
    let (ok, l, d) = small_article(
        &format!("\\usepackage[nobadge]{{pith}}\\pithnumber{{{CODE}}}"),
        "\\maketitle Text.",
    );
    assert!(ok, "{l}");
    let pdf = d.path().join("doc.pdf");
    let (words, _) = page1_words(&pdf);
    assert!(!words.iter().any(|w| w.text == SHORT));
    let (_, ex, _) = common::run(
        "exiftool",
        &["-j", "-XMP-pith:all", pdf.to_str().unwrap()],
        None,
    );
    assert!(ex.contains(URL), "{ex}");
}

/// The manual `latex/pith.tex` compiles (with the committed package) to a PDF that carries its
/// own badge and metadata.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn manual_compiles() {
    if !have_tools("manual_compiles") {
        return;
    }
    let dir = tex_dir("pith-");
    let d = dir.path();
    install_sty(d);
    std::fs::copy(common::root().join("latex/pith.tex"), d.join("doc.tex")).unwrap();
    let mut args: Vec<&str> = TEX_FLAGS.to_vec();
    args.push("doc.tex");
    let (ok, _) = sh(d, "pdflatex", &args);
    assert!(ok, "latex/pith.tex does not compile:\n{}", log_tail(d));
    let pdf = d.join("doc.pdf");
    let (words, _) = page1_words(&pdf);
    assert_eq!(words.iter().filter(|w| w.text == SHORT).count(), 1);
    let (_, info, _) = common::run("pdfinfo", &["-custom", pdf.to_str().unwrap()], None);
    assert!(info.contains(FULL), "{info}");
    assert!(
        common::root().join("latex/pith.pdf").is_file(),
        "latex/pith.pdf (linked from the README) is missing"
    );
}

/// Without `-halt-on-error` TeX carries on after the error; the argument must still never be
/// executed (here: a file that would announce itself in the log).
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn argument_is_never_executed() {
    if !have_tex("pdflatex", "argument_is_never_executed") {
        return;
    }
    let dir = tex_dir("pith-");
    let d = dir.path();
    install_sty(d);
    // The markers only appear in the log when executed: the error message quotes the
    // argument's source text, which spells them differently.
    std::fs::write(d.join("evil.tex"), "\\typeout{FILE-WAS-READ}\n").unwrap();
    std::fs::write(
        d.join("doc.tex"),
        "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{\\input{evil}\\typeout{X\\romannumeral4 Y}}\n\\begin{document}\nx\n\\end{document}\n",
    )
    .unwrap();
    let (_, _) = sh(
        d,
        "pdflatex",
        &["-interaction=nonstopmode", "-no-shell-escape", "doc.tex"],
    );
    let l = log(d);
    assert!(
        l.contains("! Package pith Error: Invalid Pith Number"),
        "{l}"
    );
    assert!(
        !l.contains("EVIL-WAS-EXECUTED"),
        "the argument was executed:\n{l}"
    );
    assert!(!l.contains("evil.tex"), "evil.tex was read:\n{l}");
    // And with the error the number stays unset: a warning, no metadata.
    assert!(l.contains("No valid \\pithnumber"), "{l}");
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn missing_number_warns() {
    if !have_tex("pdflatex", "missing_number_warns") {
        return;
    }
    let (ok, l, d) = small_article("\\usepackage{pith}", "\\maketitle Text.");
    assert!(ok, "{l}");
    assert!(
        l.contains("Package pith Warning: No valid \\pithnumber"),
        "{l}"
    );
    assert!(!l.contains("badge was never placed"));
    let (_, info, _) = common::run(
        "pdfinfo",
        &["-custom", d.path().join("doc.pdf").to_str().unwrap()],
        None,
    );
    assert!(!info.contains("PithNumber"), "{info}");
}

/// The l3build log-level tests (`latex/testfiles/*.lvt` against their `.tlg`), run in a copy
/// of `latex/` so that l3build's `build/` directory stays out of the tree.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn l3build_check() {
    if !have_tex("l3build", "l3build_check") || !have_tex("pdftex", "l3build_check") {
        return;
    }
    let dir = tex_dir("pith-");
    let d = dir.path();
    let latex = common::root().join("latex");
    std::fs::copy(latex.join("build.lua"), d.join("build.lua")).unwrap();
    install_sty(d);
    std::fs::create_dir(d.join("testfiles")).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(latex.join("testfiles")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, d.join("testfiles").join(p.file_name().unwrap())).unwrap();
        n += 1;
    }
    assert!(n >= 2, "no l3build test files");
    let (ok, out) = sh(d, "l3build", &["check", "-q"]);
    let diffs: String = std::fs::read_dir(d.join("build/test"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "diff"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    assert!(ok, "l3build check failed:\n{out}\n{diffs}");
}
