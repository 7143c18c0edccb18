//! The CTAN upload `l3build ctan` makes of `latex/`: its files, the rules of CTAN's upload
//! checker, the manual typeset from its source, and the TDS zip, unpacked into a TEXMF tree
//! where `kpsewhich` finds pith.sty.

use std::path::Path;

use crate::common;
use crate::latex::{have_tex, install_sty, sh, tex_dir, unligature};

/// What a file of the upload may not be named: CTAN's checker refuses hidden files, editor and
/// TeX run leftovers, and names outside the portable set.
fn bad_name(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.starts_with('.') {
        return Some("hidden file");
    }
    const LEFTOVERS: [&str; 14] = [
        ".aux",
        ".log",
        ".out",
        ".toc",
        ".fls",
        ".fdb_latexmk",
        ".synctex.gz",
        ".bak",
        "~",
        ".glo",
        ".idx",
        ".ilg",
        ".ind",
        ".curlopt",
    ];
    if LEFTOVERS.iter().any(|e| name.ends_with(e)) {
        return Some("temporary file");
    }
    let portable = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/');
    if !path.chars().all(portable) {
        return Some("name outside the portable characters");
    }
    None
}

/// The entries of `zip` (`unzip -Z`): (permissions, size, path), directories left out.
fn entries(zip: &Path) -> Vec<(String, u64, String)> {
    let (ok, out, err) = common::run("unzip", &["-Z", "-l", zip.to_str().unwrap()], None);
    assert!(ok, "unzip -Z {}: {err}", zip.display());
    let mut files = vec![];
    for line in out.lines() {
        // -rw-r--r--  3.0 unx     2055 tx     1024 defN 26-Dec-06 08:19 pith/README.md
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 10 || !f[0].starts_with('-') {
            continue;
        }
        files.push((f[0].to_owned(), f[3].parse().unwrap(), f[9..].join(" ")));
    }
    files.sort_by(|a, b| a.2.cmp(&b.2));
    files
}

/// Unpacks `zip` into `dir`.
fn unpack(zip: &Path, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let (ok, _, err) = common::run(
        "unzip",
        &["-q", zip.to_str().unwrap(), "-d", dir.to_str().unwrap()],
        None,
    );
    assert!(ok, "unzip {}: {err}", zip.display());
}

/// Every file of a zip against CTAN's upload rules: no hidden, temporary or empty file, no
/// executable bit, portable names, and text files with Unix line ends.
fn check_ctan_rules(zip: &Path, unpacked: &Path) -> Vec<String> {
    let mut errs = vec![];
    for (mode, size, path) in entries(zip) {
        if let Some(why) = bad_name(&path) {
            errs.push(format!("{}: {path}: {why}", zip.display()));
        }
        if size == 0 {
            errs.push(format!("{}: {path}: empty file", zip.display()));
        }
        if mode.contains('x') {
            errs.push(format!("{}: {path}: executable ({mode})", zip.display()));
        }
        let is_text = [".sty", ".ltxml", ".tex", ".md"]
            .iter()
            .any(|e| path.ends_with(e));
        if is_text
            && std::fs::read(unpacked.join(&path))
                .unwrap()
                .contains(&b'\r')
        {
            errs.push(format!("{}: {path}: carriage returns", zip.display()));
        }
    }
    errs
}

/// `l3build ctan` in a copy of `latex/` holding only what the repository tracks
/// there (not the committed pith.pdf, so the zip's manual can only be the one typeset from
/// pith.tex in this run), checked against CTAN's upload rules: one top directory named after
/// the package and the TDS zip beside it, exactly the package's files, no generated clutter or
/// hidden files, a README with the licence statement, a manual PDF typeset from the source
/// shipped next to it; the TDS zip puts pith.sty under tex/latex/pith/, where kpsewhich finds
/// it once the zip is unpacked into TEXMFHOME, and holds the same bytes as the package folder.
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn ctan_bundle() {
    if !have_tex("l3build", "ctan_bundle")
        || !have_tex("pdflatex", "ctan_bundle")
        || !have_tex("zip", "ctan_bundle")
        || !have_tex("kpsewhich", "ctan_bundle")
        || !common::have_tool("unzip", "ctan_bundle")
        || !common::have_tool("pdftotext", "ctan_bundle")
    {
        return;
    }
    let dir = tex_dir("pith-ctan-");
    let d = dir.path();
    let latex = common::root().join("latex");
    for f in ["build.lua", "pith.tex", "README.md"] {
        std::fs::copy(latex.join(f), d.join(f)).unwrap();
    }
    install_sty(d);
    let ltxml = pith::sty::render_ltxml(&pith::sty::Release::default()).unwrap();
    std::fs::write(d.join("pith.sty.ltxml"), ltxml).unwrap();
    std::fs::create_dir(d.join("testfiles")).unwrap();
    for e in std::fs::read_dir(latex.join("testfiles")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, d.join("testfiles").join(p.file_name().unwrap())).unwrap();
    }
    let (ok, out) = sh(d, "l3build", &["ctan", "-q"]);
    assert!(ok, "l3build ctan failed:\n{out}");
    let zip = d.join("pith-ctan.zip");
    let files: Vec<String> = entries(&zip).into_iter().map(|e| e.2).collect();
    assert_eq!(
        files,
        [
            "pith.tds.zip",
            "pith/README.md",
            "pith/pith.pdf",
            "pith/pith.sty",
            "pith/pith.sty.ltxml",
            "pith/pith.tex"
        ],
        "CTAN zip file list"
    );
    // Unpack and compare: the files are the ones given, the manual is from this pith.tex.
    let un = d.join("unpacked");
    unpack(&zip, &un);
    let mut errs = check_ctan_rules(&zip, &un);
    for f in ["pith.sty", "pith.sty.ltxml", "pith.tex", "README.md"] {
        assert_eq!(
            std::fs::read(un.join("pith").join(f)).unwrap(),
            std::fs::read(d.join(f)).unwrap(),
            "{f} in the zip differs from the source"
        );
    }
    let readme = std::fs::read_to_string(un.join("pith/README.md")).unwrap();
    assert!(
        readme.contains("LaTeX Project Public"),
        "README lacks the LPPL statement"
    );
    let sty = std::fs::read_to_string(un.join("pith/pith.sty")).unwrap();
    assert!(
        sty.contains("Public License, either version 1.3c"),
        "pith.sty lacks the LPPL"
    );
    let pdf = un.join("pith/pith.pdf");
    let (ok, text, err) = common::run("pdftotext", &[pdf.to_str().unwrap(), "-"], None);
    assert!(ok, "pdftotext: {err}");
    // Typographic apostrophes (arXiv’s) compared as typed in the source.
    let text = unligature(&text).replace('\u{2019}', "'");
    let tex = std::fs::read_to_string(d.join("pith.tex")).unwrap();
    // Every section title of the source is in the PDF, and the package version it shows.
    for line in tex.lines() {
        if let Some(rest) = line.strip_prefix("\\section{") {
            let title = rest.split('}').next().unwrap();
            if !title.contains('\\') {
                assert!(text.contains(title), "manual PDF lacks section {title:?}");
            }
        }
    }
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    assert!(
        text.contains(&version),
        "manual PDF does not show {version}"
    );

    // The TDS zip: TeX's tree layout, the same files as the package folder.
    let tds = un.join("pith.tds.zip");
    let tree = d.join("texmf");
    unpack(&tds, &tree);
    errs.extend(check_ctan_rules(&tds, &tree));
    let tds_files: Vec<String> = entries(&tds).into_iter().map(|e| e.2).collect();
    assert_eq!(
        tds_files,
        [
            "doc/latex/pith/README.md",
            "doc/latex/pith/pith.pdf",
            "doc/latex/pith/pith.tex",
            "tex/latex/pith/pith.sty",
            "tex/latex/pith/pith.sty.ltxml"
        ],
        "TDS zip file list"
    );
    for f in &tds_files {
        let name = f.rsplit('/').next().unwrap();
        if std::fs::read(tree.join(f)).unwrap()
            != std::fs::read(un.join("pith").join(name)).unwrap()
        {
            errs.push(format!("pith.tds.zip: {f} differs from pith/{name}"));
        }
    }
    assert!(errs.is_empty(), "CTAN upload rules:\n{}", errs.join("\n"));
    // Unpacked into TEXMFHOME, kpsewhich finds pith.sty there (TEXMFHOME needs no ls-R); run
    // from the tree's root, which holds no pith.sty of its own, as the build folder does.
    let (ok, out) = sh(
        &tree,
        "sh",
        &["-c", "TEXMFHOME=\"$PWD\" kpsewhich pith.sty"],
    );
    assert!(
        ok,
        "kpsewhich does not find pith.sty in the TDS tree:\n{out}"
    );
    assert!(
        out.trim().ends_with("/texmf/tex/latex/pith/pith.sty"),
        "kpsewhich found another pith.sty: {out}"
    );
}
