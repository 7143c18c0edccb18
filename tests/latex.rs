//! `pith.sty`: the committed file matches the generator, and a matrix of real
//! documents compiles on every engine and class we support. Every compiled PDF is checked
//! with tools we did not write: `qpdf --check` and `qpdf --json` (structure, link
//! annotation, metadata streams), `pdfinfo` (Info keys), `exiftool` (XMP properties) and
//! `pdftotext -bbox` (badge text on page 1 below the title).
//!
//! The matrix runs in two worker threads (CI has two cores); set `PITH_LATEX_ONLY=name,...`
//! to run only some cells while working on the package.
//!
//! Two TeX Live legs: the host's (Debian 12, TeX Live 2022) by default, or with
//! `PITH_TEX_CHROOT=ROOT` the TeX Live inside a Debian root built by `.ci/texlive-sid.sh`
//! (unstable: the newest TeX Live Debian ships). There every TeX program (and dvips, ps2pdf,
//! l3build) runs as `chroot ROOT sh -c 'cd /tmp/pith-… && prog …'` on documents written to
//! `ROOT/tmp/pith-…`, with the `pith.sty` rendered by this crate, while every checking tool
//! (qpdf, pdfinfo, exiftool, pdftotext, python3) runs on the host on the files produced.
//! `tex_versions` prints the TeX Live, kernel, hyperref, hyperxmp and pdfmanagement
//! versions of the leg.

use crate::common;
use crate::common::tex;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

use crate::latex_matrix::ROLLBACK;

pub(crate) fn sty_path() -> std::path::PathBuf {
    common::root().join("latex/pith.sty")
}

// ------------------------------------------------------------------------------ TeX Live legs

/// The root of the chroot TeX Live leg (`PITH_TEX_CHROOT`), if that leg is selected.
fn tex_chroot() -> Option<PathBuf> {
    std::env::var_os("PITH_TEX_CHROOT")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// A fresh directory for a TeX run: under the chroot's `/tmp` on the chroot leg (so that TeX
/// inside and the checking tools outside see the same files), else the host's temp dir.
pub(crate) fn tex_dir(prefix: &str) -> tempfile::TempDir {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix);
    match tex_chroot() {
        Some(root) => b.tempdir_in(root.join("tmp")),
        None => b.tempdir(),
    }
    .expect("temp dir for TeX")
}

/// Writes the `pith.sty` that `pith sty` renders (the same bytes as `latex/pith.sty`, see
/// `committed_sty_matches_generator`) into `dir`.
pub(crate) fn install_sty(dir: &Path) {
    let sty = pith::sty::render(&pith::sty::Release::default()).expect("render pith.sty");
    std::fs::write(dir.join("pith.sty"), sty).unwrap();
}

/// Whether the TeX program `name` can be run on this leg (same SKIP/require rules as
/// `common::have_tool`); on the chroot leg it is looked up inside the root.
pub(crate) fn have_tex(name: &str, test: &str) -> bool {
    let Some(root) = tex_chroot() else {
        return common::have_tool(name, test);
    };
    // Asking for a leg that is not there is a mistake, never a SKIP.
    assert!(
        root.join("tmp").is_dir() && root.join("usr/bin").is_dir(),
        "PITH_TEX_CHROOT={} is not a root built by .ci/texlive-sid.sh",
        root.display()
    );
    let found = Command::new("chroot")
        .arg(&root)
        .args(["sh", "-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if common::tools_required() {
            panic!(
                "{test}: required tool {name} is missing in {} (PITH_REQUIRE_TOOLS=1)",
                root.display()
            );
        }
        common::skips::skip(test, &format!("{name} not installed in {}", root.display()));
    }
    found
}

// ------------------------------------------------------------------------------ the matrix

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    Pdf,
    Xe,
    Lua,
    /// latex + dvips + ps2pdf.
    Dvips,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Meta {
    /// pith writes its own packet: uncompressed (except after ps2pdf), xpacket with BOM.
    Own,
    /// Someone else's packet (hyperxmp, pdfmanagement) holding the pith properties.
    Shared,
    /// pdfx: Info only, no pith XMP, a warning in the log.
    InfoOnly,
}

#[derive(Clone, Debug)]
pub(crate) struct Cell {
    pub(crate) name: &'static str,
    pub(crate) doc: &'static str,
    pub(crate) opts: &'static str,
    pub(crate) engine: Engine,
    /// Before \documentclass (\DocumentMetadata).
    pub(crate) pre: &'static str,
    /// Preamble lines; `PITH` stands for `\usepackage{pith}\pithnumber{...}`.
    pub(crate) pkgs: &'static str,
    pub(crate) number: &'static str,
    pub(crate) meta: Meta,
    /// Expected in the log (a warning), if any.
    pub(crate) log_has: Option<&'static str>,
    /// Whether the document is expected to have more than one page (titlepage).
    pub(crate) pages_gt_one: bool,
}

fn preamble(c: &Cell) -> String {
    let number = format!("\\pithnumber{{{}}}", c.number);
    let pith = format!("\\usepackage{{pith}}{number}");
    let mut p = c.pkgs.replace("PITH", &pith).replace("NUMBER", &number);
    p.push_str(
        "\n\\newcommand\\lipsumtext{Filler words fill the column and the page. \
         Filler words fill the column and the page. Filler words fill the column.}\n",
    );
    p
}

pub(crate) fn document(c: &Cell) -> String {
    let src = std::fs::read_to_string(
        common::root()
            .join("tests/latex")
            .join(format!("{}.tex", c.doc)),
    )
    .unwrap_or_else(|e| panic!("tests/latex/{}.tex: {e}", c.doc));
    src.replace("%%PRE%%", c.pre)
        .replace("%%OPTS%%", c.opts)
        .replace("%%PKG%%", &preamble(c))
}

/// Runs a TeX-side command (TeX engines, dvips, ps2pdf, l3build) in `dir` with the
/// reproducibility environment, inside the chroot on that leg; returns (ok, stdout+stderr).
/// At most two tool runs at a time ([`tex::run_tool`]); stopped after five minutes (the
/// first LuaLaTeX run on a fresh machine builds the luaotfload font database).
pub(crate) fn sh(dir: &Path, program: &str, args: &[&str]) -> (bool, String) {
    const LIMIT: u32 = 300;
    let mut cmd = tex::timed(LIMIT);
    match tex_chroot() {
        Some(root) => {
            let inside =
                Path::new("/").join(dir.strip_prefix(&root).unwrap_or_else(|_| {
                    panic!("{} is not under {}", dir.display(), root.display())
                }));
            cmd.arg("chroot")
                .arg(&root)
                .args(["sh", "-c", "cd \"$0\" && exec \"$@\""])
                .arg(inside)
                .arg(program)
                .env(
                    "PATH",
                    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                )
                .env("HOME", "/root")
                .env_remove("TMPDIR");
        }
        None => {
            cmd.arg(program);
        }
    }
    cmd.args(args).current_dir(dir);
    tex::run_tool(cmd, program, LIMIT)
}

pub(crate) const TEX_FLAGS: [&str; 3] = [
    "-interaction=nonstopmode",
    "-halt-on-error",
    "-no-shell-escape",
];

/// Compiles `doc.tex` in `dir` to `doc.pdf`; returns the log on failure.
pub(crate) fn compile(dir: &Path, engine: Engine) -> Result<(), String> {
    let tex = |prog: &str| {
        let mut args: Vec<&str> = TEX_FLAGS.to_vec();
        args.push("doc.tex");
        let (ok, _) = sh(dir, prog, &args);
        if ok {
            Ok(())
        } else {
            Err(format!("{prog} failed:\n{}", log_tail(dir)))
        }
    };
    match engine {
        Engine::Pdf => tex("pdflatex"),
        Engine::Xe => tex("xelatex"),
        Engine::Lua => tex("lualatex"),
        Engine::Dvips => {
            tex("latex")?;
            let (ok, out) = sh(dir, "dvips", &["-q", "-o", "doc.ps", "doc.dvi"]);
            if !ok {
                return Err(format!("dvips failed: {out}"));
            }
            let (ok, out) = sh(dir, "ps2pdf", &["doc.ps", "doc.pdf"]);
            if !ok {
                return Err(format!("ps2pdf failed: {out}"));
            }
            Ok(())
        }
    }
}

pub(crate) fn log(dir: &Path) -> String {
    std::fs::read(dir.join("doc.log"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The log as one line: `\MessageBreak` continuations ("(pith)  ...") joined with a space,
/// TeX's hard wraps at 79 columns undone, runs of white space collapsed.
pub(crate) fn flat_log(l: &str) -> String {
    let joined = l
        .replace('\r', "")
        .split("\n(pith)")
        .collect::<Vec<_>>()
        .join(" ");
    let unwrapped: String = joined
        .split('\n')
        .map(|line| {
            if line.chars().count() == 79 {
                line.to_string()
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    unwrapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn log_tail(dir: &Path) -> String {
    let l = log(dir);
    let lines: Vec<&str> = l.lines().collect();
    lines[lines.len().saturating_sub(25)..].join("\n")
}

/// A qpdf JSON v2 string ("u:text" or "b:hex") as text.
fn pdf_str(v: &Value) -> Option<String> {
    let s = v.as_str()?;
    if let Some(t) = s.strip_prefix("u:") {
        return Some(t.to_string());
    }
    if let Some(h) = s.strip_prefix("b:") {
        let bytes: Option<Vec<u8>> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
            .collect();
        return bytes.map(|b| String::from_utf8_lossy(&b).into_owned());
    }
    Some(s.to_string())
}

pub(crate) struct Pdf {
    pub(crate) objects: serde_json::Map<String, Value>,
    pub(crate) json: Value,
}

impl Pdf {
    pub(crate) fn load(path: &Path) -> Result<Pdf, String> {
        let out = Command::new("qpdf")
            .args(["--json=2", "--decode-level=none"])
            .arg(path)
            .output()
            .map_err(|e| e.to_string())?;
        let json: Value =
            serde_json::from_slice(&out.stdout).map_err(|e| format!("qpdf --json: {e}"))?;
        let objects = json["qpdf"][1]
            .as_object()
            .cloned()
            .ok_or("qpdf --json: no objects")?;
        Ok(Pdf { objects, json })
    }

    /// The value of an object (`"4 0 R"`), its stream dictionary for streams.
    pub(crate) fn obj(&self, r: &str) -> Option<&Value> {
        let o = self.objects.get(&format!("obj:{r}"))?;
        o.get("value")
            .or_else(|| o.get("stream").map(|s| &s["dict"]))
    }

    /// Follows a reference if `v` is one.
    pub(crate) fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v.as_str() {
            Some(s) if s.ends_with(" R") => self.obj(s).unwrap_or(v),
            _ => v,
        }
    }

    pub(crate) fn catalog(&self) -> Option<(&String, &Value)> {
        self.objects.iter().find(|(_, o)| {
            o.get("value")
                .and_then(|v| v.get("/Type"))
                .and_then(Value::as_str)
                == Some("/Catalog")
        })
    }

    pub(crate) fn page_count(&self) -> usize {
        self.json["pages"].as_array().map_or(0, Vec::len)
    }

    /// Link annotations of page 1: (URI, Border, Rect).
    pub(crate) fn page1_links(&self) -> Vec<(String, Value, Vec<f64>)> {
        let Some(page_ref) = self.json["pages"][0]["object"].as_str() else {
            return vec![];
        };
        let Some(page) = self.obj(page_ref) else {
            return vec![];
        };
        let Some(annots) = page
            .get("/Annots")
            .map(|a| self.resolve(a))
            .and_then(Value::as_array)
        else {
            return vec![];
        };
        let mut links = vec![];
        for a in annots {
            let a = self.resolve(a);
            if a.get("/Subtype").and_then(Value::as_str) != Some("/Link") {
                continue;
            }
            let Some(action) = a.get("/A").map(|x| self.resolve(x)) else {
                continue;
            };
            let Some(uri) = action.get("/URI").and_then(pdf_str) else {
                continue;
            };
            let rect = a
                .get("/Rect")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            links.push((uri, a.get("/Border").cloned().unwrap_or(Value::Null), rect));
        }
        links
    }

    /// Objects whose dictionary says /Type /Metadata, as (ref, dict).
    pub(crate) fn metadata_streams(&self) -> Vec<(String, &Value)> {
        self.objects
            .iter()
            .filter_map(|(k, o)| {
                let d = &o.get("stream")?["dict"];
                (d.get("/Type").and_then(Value::as_str) == Some("/Metadata"))
                    .then(|| (k.trim_start_matches("obj:").to_string(), d))
            })
            .collect()
    }
}

/// The decoded bytes of the stream object `r` ("12 0 R").
pub(crate) fn stream_data(pdf: &Path, r: &str) -> Vec<u8> {
    let num = r.split_whitespace().next().unwrap();
    let out = Command::new("qpdf")
        .arg(format!("--show-object={num}"))
        .arg("--filtered-stream-data")
        .arg(pdf)
        .output()
        .expect("qpdf");
    out.stdout
}

/// A word of `pdftotext -bbox` output on page 1.
#[derive(Debug)]
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) x_min: f64,
    pub(crate) y_min: f64,
    pub(crate) x_max: f64,
    pub(crate) y_max: f64,
}

fn attr(s: &str, name: &str) -> Option<f64> {
    let i = s.find(&format!("{name}=\""))? + name.len() + 2;
    s[i..].split('"').next()?.parse().ok()
}

/// The text with ligatures spelled out. TeX Live 2026 maps the "fi" glyph to
/// U+FB01 after dvips, and with `\DocumentMetadata` or elsarticle leaves T1's ligature slots
/// (0x1B-0x1F) without a Unicode mapping, which pdftotext passes through as control
/// characters; 2022 gives "f" "i".
pub(crate) fn unligature(text: &str) -> String {
    text.replace('\u{1B}', "ff")
        .replace('\u{1C}', "fi")
        .replace('\u{1D}', "fl")
        .replace('\u{1E}', "ffi")
        .replace('\u{1F}', "ffl")
        .replace('\u{FB00}', "ff")
        .replace('\u{FB01}', "fi")
        .replace('\u{FB02}', "fl")
        .replace('\u{FB03}', "ffi")
        .replace('\u{FB04}', "ffl")
}

/// Words and page (width, height) of page 1, from `pdftotext -bbox` (origin top left).
pub(crate) fn page1_words(pdf: &Path) -> (Vec<Word>, (f64, f64)) {
    let (ok, out, err) = common::run(
        "pdftotext",
        &["-f", "1", "-l", "1", "-bbox", pdf.to_str().unwrap(), "-"],
        None,
    );
    assert!(ok, "pdftotext: {err}");
    let mut size = (0.0, 0.0);
    let mut words = vec![];
    for line in out.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            size = (
                attr(line, "width").unwrap_or(0.0),
                attr(line, "height").unwrap_or(0.0),
            );
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let text = rest
                .split('>')
                .nth(1)
                .unwrap_or("")
                .split('<')
                .next()
                .unwrap_or("");
            let text = unligature(text);
            if let (Some(x_min), Some(y_min), Some(x_max), Some(y_max)) = (
                attr(rest, "xMin"),
                attr(rest, "yMin"),
                attr(rest, "xMax"),
                attr(rest, "yMax"),
            ) {
                words.push(Word {
                    text,
                    x_min,
                    y_min,
                    x_max,
                    y_max,
                });
            }
        }
    }
    (words, size)
}

pub(crate) fn have_tools(test: &str) -> bool {
    [
        "pdflatex", "xelatex", "lualatex", "latex", "dvips", "ps2pdf",
    ]
    .iter()
    .all(|t| have_tex(t, test))
        && ["qpdf", "pdfinfo", "pdftotext", "pdftoppm", "exiftool"]
            .iter()
            .all(|t| common::have_tool(t, test))
}

pub(crate) fn selected(name: &str) -> bool {
    match std::env::var("PITH_LATEX_ONLY") {
        Ok(only) => only.split(',').any(|n| n == name),
        Err(_) => true,
    }
}

/// What a leg's TeX Live allows of the documents themselves (not of pith.sty), probed by
/// compiling two tiny documents without pith: features, not versions.
pub(crate) struct LegFeatures {
    /// hyperxmp may be loaded before hyperref (an error from hyperxmp 5.12 on).
    pub(crate) hyperxmp_before_hyperref: bool,
    /// hyperref loads on a kernel rolled back to 2020-10 (newer hyperrefs need newer kernels,
    /// e.g. `\NewSocket`).
    pub(crate) hyperref_on_kernel2020: bool,
    /// pdfmanagement has the public `\pdfmeta_xmp_schema_new:nnn` (2024-09 on), which pith.sty
    /// must then use.
    pub(crate) pdfmeta_public_schema: bool,
}

fn probe_compiles(name: &str, preamble: &str) -> bool {
    let dir = tex_dir(&format!("pith-probe-{name}-"));
    let d = dir.path();
    std::fs::write(
        d.join("doc.tex"),
        format!("{preamble}\n\\begin{{document}}\nx\n\\end{{document}}\n"),
    )
    .unwrap();
    let mut args: Vec<&str> = TEX_FLAGS.to_vec();
    args.push("doc.tex");
    sh(d, "pdflatex", &args).0
}

pub(crate) fn leg_features() -> LegFeatures {
    let f = LegFeatures {
        hyperxmp_before_hyperref: probe_compiles(
            "hyperxmp",
            "\\documentclass{article}\\usepackage{hyperxmp}\\usepackage{hyperref}",
        ),
        hyperref_on_kernel2020: probe_compiles(
            "kernel2020",
            &format!("{ROLLBACK}\\documentclass{{article}}\\usepackage{{hyperref}}"),
        ),
        pdfmeta_public_schema: probe_compiles(
            "pdfmeta",
            "\\DocumentMetadata{}\\documentclass{article}\\ExplSyntaxOn\n\\cs_if_exist:NF \\pdfmeta_xmp_schema_new:nnn { \\undefined }\n\\ExplSyntaxOff",
        ),
    };
    eprintln!(
        "latex: leg {}: hyperxmp before hyperref {}, hyperref on the 2020-10 kernel {}",
        leg_name(),
        if f.hyperxmp_before_hyperref {
            "allowed"
        } else {
            "is an error (cells load hyperref first)"
        },
        if f.hyperref_on_kernel2020 {
            "loads"
        } else {
            "fails (kernel2020 cells run without hyperref)"
        },
    );
    eprintln!(
        "latex: leg {}: pdfmanagement's XMP schema commands are {}",
        leg_name(),
        if f.pdfmeta_public_schema {
            "public"
        } else {
            "internal only"
        },
    );
    f
}

/// Rewrites a cell for what the leg's TeX Live allows (see [`LegFeatures`]).
pub(crate) fn adapt(mut c: Cell, f: &LegFeatures) -> Cell {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    if !f.hyperxmp_before_hyperref
        && c.pkgs
            .contains("\\usepackage{hyperxmp}\\usepackage{hyperref}")
    {
        c.pkgs = leak(c.pkgs.replace(
            "\\usepackage{hyperxmp}\\usepackage{hyperref}",
            "\\usepackage{hyperref}\\usepackage{hyperxmp}",
        ));
    }
    if !f.hyperref_on_kernel2020 && c.pre == ROLLBACK && c.pkgs.contains("{hyperref}") {
        c.pkgs = leak(c.pkgs.replace("\\usepackage{hyperref}", ""));
    }
    c
}

fn leg_name() -> String {
    match tex_chroot() {
        Some(r) => format!("chroot {}", r.display()),
        None => "host".to_string(),
    }
}

/// The log of a probe document compiled with pdflatex on this leg.
fn probe_log(name: &str, tex: &str) -> String {
    let dir = tex_dir(&format!("pith-probe-{name}-"));
    let d = dir.path();
    std::fs::write(d.join("doc.tex"), tex).unwrap();
    let mut args: Vec<&str> = TEX_FLAGS.to_vec();
    args.push("doc.tex");
    let (ok, out) = sh(d, "pdflatex", &args);
    assert!(ok, "probe {name} failed:\n{out}\n{}", log_tail(d));
    log(d)
}

/// A file's `\listfiles` entry ("2022-11-13 v7.00v Hypertext links for LaTeX").
fn listed(log: &str, name: &str) -> String {
    log.lines()
        .find(|x| x.trim_start().starts_with(name))
        .map(|x| x.trim()[name.len()..].trim().to_string())
        .unwrap_or_else(|| "not loaded".into())
}

/// Reports the versions this leg runs: TeX Live (pdfTeX banner), LaTeX kernel, hyperref,
/// hyperxmp and pdfmanagement, from the `\listfiles` of two probe documents (with
/// `\DocumentMetadata` newer pdfmanagements disable hyperxmp, hence two).
#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn tex_versions() {
    if !have_tex("pdflatex", "tex_versions") {
        return;
    }
    let l = probe_log(
        "versions",
        "\\listfiles\n\\documentclass{article}\n\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n\\begin{document}\nx\n\\end{document}\n",
    );
    let m = probe_log(
        "versions-docmeta",
        "\\listfiles\\DocumentMetadata{}\n\\documentclass{article}\n\\usepackage{hyperxmp}\n\\begin{document}\nx\n\\end{document}\n",
    );
    let banner = l.lines().next().unwrap_or("").to_string();
    let tex_live = banner
        .split('(')
        .nth(1)
        .and_then(|s| s.split(')').next())
        .unwrap_or("?")
        .to_string();
    let kernel = l
        .lines()
        .find(|x| x.starts_with("LaTeX2e <"))
        .unwrap_or("LaTeX2e ?")
        .to_string();
    let pdfmanagement = match listed(&m, "pdfmanagement-testphase.sty") {
        v if v == "not loaded" => listed(&m, "pdfmanagement.ltx"),
        v => v,
    };
    let hyperxmp_docmeta = if m.contains("Package 'hyperxmp.sty' has been disabled") {
        "disabled by pdfmanagement"
    } else {
        "loads"
    };
    eprintln!(
        "latex: leg {}: {tex_live}; {kernel}; hyperref {}; hyperxmp {}; pdfmanagement {}; \
         hyperxmp with \\DocumentMetadata: {hyperxmp_docmeta}",
        leg_name(),
        listed(&l, "hyperref.sty"),
        listed(&l, "hyperxmp.sty"),
        pdfmanagement,
    );
    assert!(tex_live.contains("TeX Live"), "{banner}");
}

/// Runs the cells of a matrix that `PITH_LATEX_ONLY` selects in two threads (building
/// luaotfload's font database once first if a cell needs LuaLaTeX), prints the time taken,
/// and fails listing every failed cell.
pub(crate) fn run_matrix<T: Send>(
    what: &str,
    cells: Vec<T>,
    name: impl Fn(&T) -> String + Sync,
    engine: impl Fn(&T) -> Engine,
    run: impl Fn(&T) -> Vec<String> + Sync,
) {
    let start = Instant::now();
    let cells: Vec<T> = cells.into_iter().filter(|c| selected(&name(c))).collect();
    // On a fresh machine the first LuaLaTeX run builds luaotfload's font database; build it
    // once here rather than in two cells at the same time.
    if cells.iter().any(|c| engine(c) == Engine::Lua) {
        let tmp = tex_dir("pith-");
        let _ = sh(tmp.path(), "luaotfload-tool", &["--update"]);
    }
    let n = cells.len();
    let failures = tex::parallel("latex", cells, |c| (name(c), run(c)));
    eprintln!(
        "latex: {what} matrix ({n} documents, leg {}) took {:.0}s",
        leg_name(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} {what} cell(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
