//! `pith inject --stamp` on generated documents (tests/fixtures/stamp, made by its make.sh with
//! pdflatex and pikepdf) and on the shared corpus (`stamp_corpus`), checked with tools we did not
//! write: pdftotext (text found once, its box inside the crop box, in the chosen margin, clear of
//! the page's words), qpdf --check (no worse), pdffonts (embedded), pdftoppm and mutool renders
//! (page 1 differs only inside the stamp, other pages identical), PyMuPDF (the link annotation's
//! box, URI, border and alt text) and pyHanko (signed files).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

pub(crate) const A_SHORT: &str = "pith:7BMK4ZKT";

const A_URL: &str = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";

const B: &str = "pith:2025:ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const B_SHORT: &str = "pith:ABCDEFGH";

const B_URL: &str = "https://pith.science/pith/ABCDEFGHIJKLMNOPQRSTUVWXYZ";

use crate::common::tmpdir;

fn stamp_fixture(name: &str) -> PathBuf {
    common::fixture(&format!("stamp/{name}"))
}

/// Runs `pith inject IN --number N -o OUT --stamp [extra]`: (exit code, stdout, stderr).
pub(crate) fn stamp(
    input: &Path,
    number: &str,
    out: &Path,
    extra: &[&str],
) -> (i32, String, String) {
    let args: Vec<&str> = std::iter::once("--stamp")
        .chain(extra.iter().copied())
        .collect();
    common::inject(input, number, out, &args)
}

/// Runs a tool under `timeout 60`: (success, stdout).
pub(crate) fn tool(program: &str, args: &[&str]) -> (bool, String) {
    let o = Command::new("timeout")
        .arg("60")
        .arg(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// qpdf --check rank: 0 clean, 1 warnings, 2 errors.
pub(crate) fn qpdf_rank(p: &Path) -> u8 {
    match common::tools::qpdf_check(p).0 {
        0 => 0,
        3 => 1,
        _ => 2,
    }
}

/// A box in displayed page coordinates (points, y down).
#[derive(Debug, Clone, Copy)]
struct BBox {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl BBox {
    fn overlaps(&self, o: &BBox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn covers(&self, o: &BBox, tol: f64) -> bool {
        self.x0 <= o.x0 + tol
            && self.y0 <= o.y0 + tol
            && self.x1 >= o.x1 - tol
            && self.y1 >= o.y1 - tol
    }
}

/// `pdftotext -bbox -cropbox` of page 1: (page width, height, words).
fn words(p: &Path) -> (f64, f64, Vec<(BBox, String)>) {
    let (ok, html) = tool(
        "pdftotext",
        &[
            "-f",
            "1",
            "-l",
            "1",
            "-bbox",
            "-cropbox",
            p.to_str().unwrap(),
            "-",
        ],
    );
    assert!(ok, "pdftotext -bbox failed on {}", p.display());
    let attr = |line: &str, k: &str| -> f64 {
        let at = line.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    let mut size = (0.0, 0.0);
    let mut out = Vec::new();
    for line in html.lines().map(str::trim) {
        if line.starts_with("<page ") {
            size = (attr(line, "width"), attr(line, "height"));
        } else if line.starts_with("<word ") {
            let text = line
                .split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string();
            out.push((
                BBox {
                    x0: attr(line, "xMin"),
                    y0: attr(line, "yMin"),
                    x1: attr(line, "xMax"),
                    y1: attr(line, "yMax"),
                },
                text,
            ));
        }
    }
    // The <page> size is the unrotated one; the word boxes are as displayed.
    let (_, info) = tool("pdfinfo", &["-f", "1", "-l", "1", p.to_str().unwrap()]);
    let rot: i64 = info
        .lines()
        .find(|l| l.starts_with("Page") && l.contains(" rot:"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if rot.rem_euclid(180) == 90 {
        size = (size.1, size.0);
    }
    (size.0, size.1, out)
}

/// A rendered page in grey: (width, height, pixels).
struct Gray(usize, usize, Vec<u8>);

fn read_pgm(path: &Path) -> Gray {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // P5 <w> <h> <max>\n<data>.
    let (fields, px) = common::tools::netpbm(&data);
    assert_eq!(fields[0], "P5", "{}", path.display());
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let px = px.to_vec();
    assert_eq!(px.len(), w * h, "{}", path.display());
    Gray(w, h, px)
}

const DPI: f64 = 36.0;

/// Page `page` rendered by pdftoppm (crop box) and mutool draw, both in grey at [`DPI`].
fn renders(pdf: &Path, page: usize, dir: &Path, tag: &str) -> Vec<Gray> {
    let n = page.to_string();
    let base = dir.join(format!("{tag}-pp{page}").replace('.', "_"));
    let (ok, _) = tool(
        "pdftoppm",
        &[
            "-f",
            &n,
            "-l",
            &n,
            "-r",
            "36",
            "-gray",
            "-cropbox",
            "-singlefile",
            pdf.to_str().unwrap(),
            base.to_str().unwrap(),
        ],
    );
    assert!(ok, "pdftoppm failed on {}", pdf.display());
    let mu = dir.join(format!(
        "{}.pgm",
        format!("{tag}-mu{page}").replace('.', "_")
    ));
    let (ok, _) = tool(
        "mutool",
        &[
            "draw",
            "-q",
            "-r",
            "36",
            "-c",
            "gray",
            "-o",
            mu.to_str().unwrap(),
            pdf.to_str().unwrap(),
            &n,
        ],
    );
    assert!(ok, "mutool draw failed on {}", pdf.display());
    vec![read_pgm(&base.with_extension("pgm")), read_pgm(&mu)]
}

/// Pixels that differ outside `inside` (displayed points; `None`: anywhere).
fn differing_outside(a: &Gray, b: &Gray, inside: Option<BBox>) -> usize {
    assert_eq!((a.0, a.1), (b.0, b.1), "render sizes differ");
    let s = DPI / 72.0;
    let pad = 2.0;
    let mut n = 0;
    for y in 0..a.1 {
        for x in 0..a.0 {
            let i = y * a.0 + x;
            if a.2[i] == b.2[i] {
                continue;
            }
            let inside_box = inside.is_some_and(|r| {
                (x as f64) >= r.x0 * s - pad
                    && (x as f64) <= r.x1 * s + pad
                    && (y as f64) >= r.y0 * s - pad
                    && (y as f64) <= r.y1 * s + pad
            });
            if !inside_box {
                n += 1;
            }
        }
    }
    n
}

fn pages(p: &Path) -> usize {
    let (_, out) = tool("pdfinfo", &[p.to_str().unwrap()]);
    out.lines()
        .find(|l| l.starts_with("Pages:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn tools_present(test: &str) -> bool {
    common::have_tool("pdftotext", test)
        & common::have_tool("pdftoppm", test)
        & common::have_tool("pdffonts", test)
        & common::have_tool("qpdf", test)
        & common::have_tool("mutool", test)
        & common::have_python_module("pymupdf", test)
}

/// Every check on one stamped file; returns the stamp's box.
fn check_stamped(input: &Path, out: &Path, text: &str, url: &str, pos: &str, dir: &Path) -> BBox {
    let name = input.file_name().unwrap().to_string_lossy().to_string();
    let a = std::fs::read(input).unwrap();
    let b = std::fs::read(out).unwrap();
    assert!(
        b.len() > a.len() && b[..a.len()] == a[..],
        "{name}: input is not a prefix"
    );
    assert!(
        qpdf_rank(out) <= qpdf_rank(input),
        "{name}: qpdf --check got worse"
    );

    // pdftotext: found once, inside the crop box, in the margin, clear of the page's words.
    let (ok, plain) = tool(
        "pdftotext",
        &["-f", "1", "-l", "1", out.to_str().unwrap(), "-"],
    );
    assert!(ok);
    assert_eq!(
        plain.matches(text).count(),
        1,
        "{name}: stamp text not found once:\n{plain}"
    );
    let (w, h, all) = words(out);
    let stamp: Vec<_> = all.iter().filter(|(_, t)| t == text).collect();
    assert_eq!(stamp.len(), 1, "{name}: {all:?}");
    let sb = stamp[0].0;
    assert!(
        sb.x0 >= -0.5 && sb.y0 >= -0.5 && sb.x1 <= w + 0.5 && sb.y1 <= h + 0.5,
        "{name}: stamp {sb:?} outside the crop box {w}x{h}"
    );
    let in_margin = match pos {
        "left" => sb.x1 < 0.12 * w && sb.y0 > 0.6 * h,
        "right" => sb.x0 > 0.88 * w && sb.y0 > 0.6 * h,
        "top" => sb.y1 < 0.08 * h,
        "bottom" => sb.y0 > 0.92 * h,
        _ => unreachable!(),
    };
    assert!(
        in_margin,
        "{name}: stamp {sb:?} not in the {pos} margin of {w}x{h}"
    );
    for (b, t) in &all {
        if t != text {
            assert!(
                !b.overlaps(&sb),
                "{name}: stamp {sb:?} overlaps {t:?} at {b:?}"
            );
        }
    }

    // pdffonts: the stamp font is embedded (and so is every font it listed before).
    let (_, fonts) = tool("pdffonts", &[out.to_str().unwrap()]);
    let line = fonts
        .lines()
        .find(|l| l.contains("PITHST+DejaVuSans"))
        .unwrap_or_else(|| panic!("{name}: stamp font not listed:\n{fonts}"));
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        cols[cols.len() - 5],
        "yes",
        "{name}: stamp font not embedded: {line}"
    );

    // PyMuPDF: one link, over the text, to the record, without a border, with alt text.
    let script = common::root().join("tests/fixtures/stamp/check_stamp.py");
    let (ok, json) = tool(
        "python3",
        &[script.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert!(ok, "{name}: check_stamp.py failed");
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ours: Vec<_> = j["links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with("https://pith.science/"))
        })
        .collect();
    assert_eq!(ours.len(), 1, "{name}: {json}");
    let l = ours[0];
    assert_eq!(l["uri"], url, "{name}");
    assert_eq!(l["border"], "[0 0 0]", "{name}");
    assert!(
        l["contents"].as_str().unwrap().contains(text),
        "{name}: {l}"
    );
    let r: Vec<f64> = l["rect"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let lr = BBox {
        x0: r[0],
        y0: r[1],
        x1: r[2],
        y1: r[3],
    };
    let mw: Vec<_> = j["words"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w[4] == text)
        .collect();
    assert_eq!(mw.len(), 1, "{name}: MuPDF words {json}");
    let wb = BBox {
        x0: mw[0][0].as_f64().unwrap(),
        y0: mw[0][1].as_f64().unwrap(),
        x1: mw[0][2].as_f64().unwrap(),
        y1: mw[0][3].as_f64().unwrap(),
    };
    assert!(
        lr.covers(&wb, 0.5),
        "{name}: link {lr:?} does not cover the text {wb:?}"
    );
    // MuPDF applies /UserUnit, poppler does not: scale poppler's box to compare.
    let unit = ((wb.x1 - wb.x0) + (wb.y1 - wb.y0)) / ((sb.x1 - sb.x0) + (sb.y1 - sb.y0));
    let sb_mu = BBox {
        x0: sb.x0 * unit,
        y0: sb.y0 * unit,
        x1: sb.x1 * unit,
        y1: sb.y1 * unit,
    };
    assert!(
        lr.covers(&sb_mu, 0.5),
        "{name}: link {lr:?} does not cover pdftotext's box {sb_mu:?}"
    );

    // Renders: page 1 changes only inside the stamp, every other page is identical.
    let tag = out.file_name().unwrap().to_string_lossy().to_string();
    for ((x, y), b) in renders(input, 1, dir, &format!("{tag}-in"))
        .iter()
        .zip(renders(out, 1, dir, &format!("{tag}-out")).iter())
        .zip([sb, sb_mu])
    {
        let outside = differing_outside(x, y, Some(b));
        assert_eq!(
            outside, 0,
            "{name}: page 1 render differs outside the stamp"
        );
        assert!(
            differing_outside(x, y, None) > 0,
            "{name}: the stamp is not visible"
        );
    }
    for p in 2..=pages(input) {
        for (x, y) in renders(input, p, dir, &format!("{tag}-in"))
            .iter()
            .zip(renders(out, p, dir, &format!("{tag}-out")).iter())
        {
            assert_eq!(
                differing_outside(x, y, None),
                0,
                "{name}: page {p} render changed"
            );
        }
    }
    sb
}

#[test]
#[ignore = "full tier (22 fixtures and positions, each rendered by poppler and MuPDF): cargo test -- --include-ignored"]
fn fixtures_are_stamped_where_asked() {
    if !tools_present("fixtures_are_stamped_where_asked") {
        return;
    }
    let cases: &[(&str, &str)] = &[
        ("article.pdf", "left"),
        ("article.pdf", "right"),
        ("article.pdf", "top"),
        ("article.pdf", "bottom"),
        ("twocolumn.pdf", "left"),
        ("landscape.pdf", "left"),
        ("arxiv-like.pdf", "left"),
        ("tagged.pdf", "left"),
        ("pdfa-2b.pdf", "left"),
        ("rotate90.pdf", "left"),
        ("rotate90.pdf", "top"),
        ("rotate180.pdf", "left"),
        ("rotate180.pdf", "bottom"),
        ("rotate270.pdf", "left"),
        ("rotate270.pdf", "right"),
        ("cropped.pdf", "left"),
        ("cropped.pdf", "top"),
        ("inherited.pdf", "left"),
        ("contents-array.pdf", "left"),
        ("unbalanced.pdf", "left"),
        ("no-contents.pdf", "left"),
        ("userunit.pdf", "left"),
    ];
    let dir = tmpdir();
    let next = AtomicUsize::new(0);
    // Two workers: the checks are many short tool runs.
    std::thread::scope(|s| {
        let work = || loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some((name, pos)) = cases.get(i) else {
                break;
            };
            let input = stamp_fixture(name);
            let out = dir.path().join(format!("{i}-{name}"));
            let (code, stdout, stderr) = stamp(&input, A, &out, &["--stamp-position", pos]);
            assert_eq!(code, 0, "{name} {pos}: {stderr}");
            assert!(stdout.contains("stamp on page 1"), "{stdout}");
            check_stamped(&input, &out, A_SHORT, A_URL, pos, dir.path());
        };
        let a = s.spawn(work);
        let b = s.spawn(work);
        for h in [a, b] {
            if let Err(e) = h.join() {
                std::panic::resume_unwind(e);
            }
        }
    });
}

#[test]
fn full_form_and_size_options() {
    if !tools_present("full_form_and_size_options") {
        return;
    }
    let dir = tmpdir();
    let input = stamp_fixture("arxiv-like.pdf");
    let out = dir.path().join("full.pdf");
    let (code, _, stderr) = stamp(&input, A, &out, &["--stamp-full"]);
    assert_eq!(code, 0, "{stderr}");
    let full = check_stamped(&input, &out, A, A_URL, "left", dir.path());
    // Clear of arXiv's own stamp, which lies in the same margin.
    let (_, _, all) = words(&out);
    let arxiv = all
        .iter()
        .find(|(_, t)| t.starts_with("arXiv:"))
        .expect("arXiv stamp")
        .0;
    assert!(
        !arxiv.overlaps(&full) && full.y0 > arxiv.y1,
        "{full:?} vs {arxiv:?}"
    );
    let big = dir.path().join("big.pdf");
    let (code, _, stderr) = stamp(
        &stamp_fixture("article.pdf"),
        A,
        &big,
        &["--stamp-form", "short", "--stamp-size", "14"],
    );
    assert_eq!(code, 0, "{stderr}");
    let sb = check_stamped(
        &stamp_fixture("article.pdf"),
        &big,
        A_SHORT,
        A_URL,
        "left",
        dir.path(),
    );
    assert!(sb.x1 - sb.x0 > 14.0 && sb.x1 - sb.x0 < 20.0, "{sb:?}");
    let (code, _, stderr) = stamp(&input, A, &dir.path().join("x.pdf"), &["--stamp-size", "0"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn stamping_again_is_unchanged_or_replaces_the_stamp() {
    if !tools_present("stamping_again_is_unchanged_or_replaces_the_stamp") {
        return;
    }
    let dir = tmpdir();
    let input = stamp_fixture("twocolumn.pdf");
    let one = dir.path().join("one.pdf");
    let (code, _, e) = stamp(&input, A, &one, &[]);
    assert_eq!(code, 0, "{e}");
    // Same number again: nothing written.
    let again = dir.path().join("again.pdf");
    let (code, stdout, e) = stamp(&one, A, &again, &[]);
    assert_eq!(code, 0, "{e}");
    assert!(stdout.contains("unchanged"), "{stdout}");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&again).unwrap());
    // Another number: refused, the page would show the old one beside it.
    let two = dir.path().join("two.pdf");
    let (code, _, e) = stamp(&one, B, &two, &[]);
    assert_eq!(code, 2, "{e}");
    assert!(
        e.contains(A_SHORT) && e.contains(B) && e.contains("--replace"),
        "{e}"
    );
    assert!(!two.exists());
    // With --replace the stamp is replaced, not added.
    let (code, stdout, e) = stamp(&one, B, &two, &["--replace"]);
    assert_eq!(code, 0, "{e}");
    assert!(stdout.contains("replaced"), "{stdout}");
    let (_, plain) = tool(
        "pdftotext",
        &["-f", "1", "-l", "1", two.to_str().unwrap(), "-"],
    );
    assert_eq!(plain.matches("pith:").count(), 1, "{plain}");
    check_stamped(&input, &two, B_SHORT, B_URL, "left", dir.path());
    // Another position: still one stamp.
    let three = dir.path().join("three.pdf");
    let (code, _, e) = stamp(&two, B, &three, &["--stamp-position", "bottom"]);
    assert_eq!(code, 0, "{e}");
    check_stamped(&input, &three, B_SHORT, B_URL, "bottom", dir.path());
    // A metadata-only injection keeps the stamp (and is unchanged here).
    let o = common::pith()
        .args(["inject", "--number", B, "-o"])
        .arg(dir.path().join("four.pdf"))
        .arg(&three)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("unchanged"));
}

#[test]
fn in_place_and_stdin_and_rewrite() {
    if !tools_present("in_place_and_stdin_and_rewrite") {
        return;
    }
    let dir = tmpdir();
    let input = stamp_fixture("article.pdf");
    let copy = dir.path().join("copy.pdf");
    std::fs::copy(&input, &copy).unwrap();
    let o = common::pith()
        .args(["inject", "--number", A, "--in-place", "--stamp"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    check_stamped(&input, &copy, A_SHORT, A_URL, "left", dir.path());
    // From standard input to standard output.
    let o = common::pith()
        .args(["inject", "-", "--number", A, "-o", "-", "--stamp"])
        .write_stdin(std::fs::read(&input).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success());
    let piped = dir.path().join("piped.pdf");
    std::fs::write(&piped, &o.stdout).unwrap();
    check_stamped(&input, &piped, A_SHORT, A_URL, "left", dir.path());
    // --rewrite: the stamp is an update on top of the rewritten file.
    let rw = dir.path().join("rw.pdf");
    let (code, _, e) = stamp(&input, A, &rw, &["--rewrite"]);
    assert_eq!(code, 0, "{e}");
    assert_eq!(qpdf_rank(&rw), 0);
    let (_, plain) = tool(
        "pdftotext",
        &["-f", "1", "-l", "1", rw.to_str().unwrap(), "-"],
    );
    assert_eq!(plain.matches(A_SHORT).count(), 1);
}

#[test]
fn signed_locked_and_damaged_files_are_refused() {
    let dir = tmpdir();
    let fixtures = common::root().join("tests/fixtures");
    for (name, want) in [
        ("pyhanko-signed-twice.pdf", "signed PDF (2 signatures)"),
        ("pyhanko-certified-p1.pdf", "certified PDF"),
        // Needs a user password that is not given (files that open with the empty one are
        // stamped: encrypted_files_are_stamped_with_encrypted_strings).
        ("encrypted/r4-aes128-user-password.pdf", "needs a password"),
        ("qpdf-bad-xref-entry.pdf", "damaged"),
    ] {
        let input = fixtures.join(name);
        let out = dir.path().join(name);
        let (code, _, stderr) = stamp(&input, A, &out, &[]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.contains(want) && stderr.contains(name),
            "{name}: {stderr}"
        );
        assert!(!out.exists(), "{name}: output written");
    }
    // Metadata-only injection of the signed file stays allowed; --force stamps it.
    let input = fixtures.join("pyhanko-signed-twice.pdf");
    let o = common::pith()
        .args(["inject", "--number", A, "-o"])
        .arg(dir.path().join("meta.pdf"))
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success());
    let forced = dir.path().join("forced.pdf");
    let (code, _, stderr) = stamp(&input, A, &forced, &["--force"]);
    assert_eq!(code, 0, "{stderr}");
    if !common::have_python_module("pyhanko", "signed_locked_and_damaged_files_are_refused") {
        return;
    }
    // pyHanko still finds both signatures intact (an incremental update), and sees the change.
    let script = fixtures.join("check_signatures.py");
    let (ok, out, _) = common::run(
        "python3",
        &[script.to_str().unwrap(), forced.to_str().unwrap()],
        None,
    );
    assert!(ok);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().all(|l| l.contains("intact=True")), "{out}");
    let (ok, out, _) = common::run(
        "python3",
        &[
            script.to_str().unwrap(),
            stamp_fixture("article.pdf").to_str().unwrap(),
        ],
        None,
    );
    assert!(ok && out.is_empty(), "unsigned file: {out}");
}

#[test]
#[ignore = "full tier (renders page 1 of many variants with poppler and MuPDF): cargo test -- --include-ignored"]
fn encrypted_files_are_stamped_with_encrypted_strings() {
    let t = "encrypted_files_are_stamped_with_encrypted_strings";
    if !tools_present(t) || !common::have_python_module("pikepdf", t) {
        return;
    }
    let dir = tmpdir();
    let fixtures = common::root().join("tests/fixtures/encrypted");
    // Every revision and method that opens with the empty user password: the
    // readers open them as they are, so every check of an unencrypted file applies.
    for name in [
        "r2-rc4-40.pdf",
        "r3-rc4-128.pdf",
        "r4-aes128.pdf",
        "r4-aes128-clear-metadata.pdf",
        "r6-aes256.pdf",
        "r6-aes256-clear-metadata.pdf",
        "qpdf-metadata-crypt-filter.pdf",
    ] {
        let input = fixtures.join(name);
        let out = dir.path().join(name);
        let (code, _, stderr) = stamp(&input, A, &out, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        check_stamped(&input, &out, A_SHORT, A_URL, "left", dir.path());
        // The stamp written is recognised through the decryption: stamping again is a no-op.
        let again = dir.path().join(format!("again-{name}"));
        let (code, stdout, stderr) = stamp(&out, A, &again, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(stdout.contains("unchanged"), "{name}: {stdout}");
    }
    // A page that carries a string of its own: it is written back encrypted, and no string
    // of the update (URI, alt text, font registry, Info, XMP) is left readable in the file.
    let plain = dir.path().join("plain.pdf");
    let locked = dir.path().join("locked.pdf");
    let script = format!(
        "import pikepdf\n\
         p = pikepdf.open({src:?})\n\
         p.pages[0].obj.PithPageNote = pikepdf.String('a page string')\n\
         p.save({plain:?})\n\
         p.save({locked:?}, encryption=pikepdf.Encryption(owner='owner', user='', R=6))\n",
        src = stamp_fixture("article.pdf").to_str().unwrap(),
        plain = plain.to_str().unwrap(),
        locked = locked.to_str().unwrap(),
    );
    let (ok, _, e) = common::run("python3", &["-c", &script], None);
    assert!(ok, "{e}");
    let out = dir.path().join("locked-stamped.pdf");
    let (code, _, stderr) = stamp(&locked, A, &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    check_stamped(&locked, &out, A_SHORT, A_URL, "left", dir.path());
    let bytes = std::fs::read(&out).unwrap();
    let update = &bytes[std::fs::metadata(&locked).unwrap().len() as usize..];
    for clear in [
        &b"pith.science"[..],
        b"Adobe",
        b"a page string",
        b"Pith Number",
    ] {
        assert!(
            !update.windows(clear.len()).any(|w| w == clear),
            "{:?} is readable in the update",
            String::from_utf8_lossy(clear)
        );
    }
    let check = format!(
        "import pikepdf\n\
         p = pikepdf.open({out:?})\n\
         pg = p.pages[0].obj\n\
         assert str(pg.PithPageNote) == 'a page string', pg.PithPageNote\n\
         a = [x for x in pg.Annots if x.get('/PithStamp') is not None][0]\n\
         assert str(a.A.URI) == {url:?}, a.A.URI\n\
         assert str(a.Contents).startswith('Pith Number'), a.Contents\n\
         f = [v for k, v in pg.Resources.Font.items() if 'DejaVuSans' in str(v.BaseFont)][0]\n\
         assert str(f.DescendantFonts[0].CIDSystemInfo.Registry) == 'Adobe'\n\
         print(p.docinfo.get('/PithNumber'))\n",
        out = out.to_str().unwrap(),
        url = A_URL,
    );
    let (ok, stdout, e) = common::run("python3", &["-c", &check], None);
    assert!(ok, "pikepdf reads the stamped file back decrypted: {e}");
    assert_eq!(stdout.trim(), A, "Info /PithNumber, decrypted");
}

#[test]
fn batch_stamps_every_file() {
    if !tools_present("batch_stamps_every_file") {
        return;
    }
    let dir = tmpdir();
    let src = dir.path().join("in");
    std::fs::create_dir(&src).unwrap();
    for n in ["article", "rotate90"] {
        std::fs::copy(
            stamp_fixture(&format!("{n}.pdf")),
            src.join(format!("{n}.pdf")),
        )
        .unwrap();
        std::fs::write(src.join(format!("{n}.pith")), format!("{A}\n")).unwrap();
    }
    let out = dir.path().join("out");
    let o = common::batch(&["--dir"], &src, &out)
        .arg("--stamp")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for n in ["article", "rotate90"] {
        check_stamped(
            &stamp_fixture(&format!("{n}.pdf")),
            &out.join(format!("{n}.pdf")),
            A_SHORT,
            A_URL,
            "left",
            dir.path(),
        );
    }
}
