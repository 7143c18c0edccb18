//! Memory bounded by a file's structure, not by what its streams inflate to.
//!
//! Four shapes, each a Flate stream of zeros after a real beginning, inflating to 2 GiB and to
//! 20 GiB (2 MB and 20 MB on disk, generated here, never committed): the XMP packet, page 1's
//! contents, an object stream holding the catalog, and the xref stream. `pith inject` (with
//! and without `--stamp`) and `pith inspect` run on each without any ulimit; their peak RSS,
//! read by GNU time, must stay under 150 MB, and the outcome must be the right
//! one: a refusal naming the stream, the object and the bound where the whole stream would be
//! needed (the XMP packet; page contents past the stamp's bound), success where a prefix is
//! enough (an object stream up to the object wanted, an xref stream up to its rows). The
//! outputs that succeed keep the input as a prefix and carry the number (pdfinfo on the small
//! shapes, `pith inspect` on the bombs, which poppler inflates without end).

use crate::common;
use crate::common::pdfgen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pith_testkit::shapes::{objstm_bomb, xref_bomb};
use pith_testkit::zlib::zeros_after as bomb;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const GIB: u64 = 1 << 30;
/// The peak resident memory allowed, in bytes.
const MAX_RSS: u64 = 150 << 20;

#[test]
fn the_bomb_generator_makes_valid_zlib() {
    let z = bomb(b"prefix ", 3 << 20);
    let mut d = flate2::read::ZlibDecoder::new(&z[..]);
    let mut all = Vec::new();
    std::io::Read::read_to_end(&mut d, &mut all).expect("a valid zlib stream, checksum included");
    // 3 MiB in all: the prefix and two whole MiB of zeros.
    assert_eq!(all.len(), 7 + (2 << 20));
    assert!(all.starts_with(b"prefix ") && all[7..].iter().all(|&b| b == 0));
}

const PAGE_TEXT: &str = "BT /F1 24 Tf 72 700 Td (A bomb page) Tj ET\n";
const FONT: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

fn page(contents: u32) -> String {
    format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R \
         /Resources << /Font << /F1 3 0 R >> >> >>"
    )
}

fn flate(z: Vec<u8>) -> (String, Option<Vec<u8>>) {
    (
        format!("<< /Filter /FlateDecode /Length {} >>", z.len()),
        Some(z),
    )
}

fn plain(text: &str) -> (String, Option<Vec<u8>>) {
    (
        format!("<< /Length {} >>", text.len()),
        Some(text.as_bytes().to_vec()),
    )
}

/// The XMP packet inflates to `total`.
fn xmp_bomb(total: u64) -> Vec<u8> {
    let head = "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\"/></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>";
    let (d, data) = flate(bomb(head.as_bytes(), total));
    pdfgen::classic(&[
        (
            "<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R >>".into(),
            None,
        ),
        ("<< /Type /Pages /Kids [4 0 R] /Count 1 >>".into(), None),
        (FONT.into(), None),
        (page(5), None),
        plain(PAGE_TEXT),
        (d.replace("<<", "<< /Type /Metadata /Subtype /XML"), data),
    ])
}

/// Page 1's content stream inflates to `total` (text, then zeros: white space).
fn contents_bomb(total: u64) -> Vec<u8> {
    pdfgen::classic(&[
        ("<< /Type /Catalog /Pages 2 0 R >>".into(), None),
        ("<< /Type /Pages /Kids [4 0 R] /Count 1 >>".into(), None),
        (FONT.into(), None),
        (page(5), None),
        flate(bomb(PAGE_TEXT.as_bytes(), total)),
    ])
}

/// One run: exit code, stderr, peak RSS in bytes, wall time.
struct Measured {
    code: i32,
    stderr: String,
    rss: u64,
    time: Duration,
}

/// [`measure`] of `pith ARGS…`, its exit, peak memory and time printed under `label`.
fn measured(label: &str, args: &[std::ffi::OsString], dir: &Path) -> Measured {
    let a: Vec<&std::ffi::OsStr> = args.iter().map(|s| s.as_os_str()).collect();
    let m = measure(&a, dir);
    eprintln!(
        "{label}: exit {}, peak RSS {:.1} MB, {:.2} s",
        m.code,
        m.rss as f64 / 1e6,
        m.time.as_secs_f64()
    );
    m
}

/// Runs pith with `args` under GNU time (`/usr/bin/time -f %M`), which forks it, waits for it
/// and reports its peak resident set size (the kernel's `ru_maxrss`, KiB). Reading `wait4`
/// here instead would count this test process: a child spawned with vfork inherits the
/// parent's peak at exec. No ulimit is set. Killed after 300 s.
fn measure(args: &[&std::ffi::OsStr], dir: &Path) -> Measured {
    let err_path = dir.join("stderr.txt");
    let rss_path = dir.join("rss.txt");
    let err = std::fs::File::create(&err_path).unwrap();
    let mut c = Command::new("/usr/bin/time");
    for (k, _) in std::env::vars() {
        if k.starts_with("PITH_") {
            c.env_remove(k);
        }
    }
    let start = Instant::now();
    let mut child = c
        .arg("-o")
        .arg(&rss_path)
        .args(["-f", "%M"])
        .arg(assert_cmd::cargo::cargo_bin!("pith"))
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .expect("run /usr/bin/time");
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pith {args:?} still running after 300 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let time = start.elapsed();
    let rss_text = std::fs::read_to_string(&rss_path).unwrap_or_default();
    // GNU time writes "Command exited with non-zero status N" before the value.
    let kib: u64 = rss_text
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no RSS from /usr/bin/time: {rss_text:?}"));
    Measured {
        code: status.code().unwrap_or(-1),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        rss: kib * 1024,
        time,
    }
}

/// What a run must do.
#[derive(Clone, Copy, Debug)]
enum Expect {
    Ok,
    /// Refused (exit 2) with a one-line message holding these words.
    Refused(&'static [&'static str]),
}

/// Runs inject (with and without --stamp) and inspect on `pdf` and checks memory and outcome.
///
/// A success is checked with pdfinfo (poppler) on the small shapes; on the bombs poppler itself
/// inflates the object stream without end, so there the output must keep the input as its
/// prefix and `pith inspect` (bounded) must read the number back.
fn check_shape(name: &str, pdf: &[u8], inject: Expect, stamp: Expect, inspect: Expect) {
    if !common::have_tool("/usr/bin/time", name) {
        return;
    }
    let dir = common::tmpdir();
    let input = dir.path().join(format!("{name}.pdf"));
    std::fs::write(&input, pdf).unwrap();
    let out = dir.path().join("out.pdf");
    let stamped = dir.path().join("stamped.pdf");
    let os = |s: &str| std::ffi::OsString::from(s);
    let runs: [(&str, Vec<std::ffi::OsString>, Expect, Option<&PathBuf>); 3] = [
        (
            "inject",
            vec![
                os("inject"),
                input.clone().into(),
                os("--number"),
                os(A),
                os("-o"),
                out.clone().into(),
            ],
            inject,
            Some(&out),
        ),
        (
            "inject --stamp",
            vec![
                os("inject"),
                input.clone().into(),
                os("--number"),
                os(A),
                os("--stamp"),
                os("-o"),
                stamped.clone().into(),
            ],
            stamp,
            Some(&stamped),
        ),
        (
            "inspect",
            vec![os("inspect"), input.clone().into()],
            inspect,
            None,
        ),
    ];
    for (what, args, expect, output) in runs {
        let m = measured(&format!("{name}: {what}"), &args, dir.path());
        assert!(
            m.rss < MAX_RSS,
            "{name}: {what} peaked at {} MB (limit {} MB)",
            m.rss >> 20,
            MAX_RSS >> 20
        );
        match expect {
            Expect::Ok => {
                // inspect exits 1 on a file without a number, as it should.
                let ok = if output.is_some() { 0 } else { 1 };
                assert_eq!(m.code, ok, "{name}: {what}: {}", m.stderr);
                if let Some(o) = output {
                    let bytes = std::fs::read(o).unwrap();
                    assert!(bytes.starts_with(pdf), "{name}: {what}: append-only");
                    if pdf.len() < 1 << 20 {
                        if common::have_tool("pdfinfo", "bombs") {
                            assert_eq!(
                                common::tools::pdfinfo_custom(o, "PithNumber").as_deref(),
                                Some(A),
                                "{name}: {what}: pdfinfo reads the number"
                            );
                        }
                    } else {
                        let r = common::run_pith(&["inspect", o.to_str().unwrap()]);
                        assert_eq!(r.code, 0, "{name}: {what}: {}", r.stderr);
                        assert!(r.stdout.contains(A), "{name}: {what}: {}", r.stdout);
                    }
                }
            }
            Expect::Refused(words) => {
                assert_eq!(m.code, 2, "{name}: {what}: {}", m.stderr);
                assert_eq!(m.stderr.trim_end().lines().count(), 1, "{}", m.stderr);
                for w in words {
                    assert!(
                        m.stderr.contains(w),
                        "{name}: {what}: {w:?} in {}",
                        m.stderr
                    );
                }
                assert!(
                    !m.stderr.contains("reconstructed"),
                    "{name}: {what}: not called damage: {}",
                    m.stderr
                );
                if let Some(o) = output {
                    assert!(!o.exists(), "{name}: {what}: nothing written");
                }
            }
        }
    }
}

const XMP_REFUSED: &[&str] = &["XMP metadata stream", "object 6", "64 MiB"];
const CONTENT_REFUSED: &[&str] = &["page 1's content", "object 4", "256 MiB"];

fn shapes(total: u64) {
    check_shape(
        "xmp",
        &xmp_bomb(total),
        Expect::Refused(XMP_REFUSED),
        Expect::Refused(XMP_REFUSED),
        Expect::Refused(XMP_REFUSED),
    );
    check_shape(
        "contents",
        &contents_bomb(total),
        Expect::Ok,
        Expect::Refused(CONTENT_REFUSED),
        Expect::Ok,
    );
    check_shape(
        "objstm",
        &objstm_bomb(total),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
    check_shape(
        "xref",
        &xref_bomb(total),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
}

#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn bombs_of_2_gib_stay_in_bounded_memory() {
    shapes(2 * GIB);
}

#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn bombs_of_20_gib_stay_in_bounded_memory() {
    shapes(20 * GIB);
}

#[test]
fn shapes_without_the_zeros_are_ordinary_files() {
    // The same shapes without the zeros (less than a MiB in all): every run succeeds, so the
    // refusals above come from the size, not from the shapes.
    let small = 1 << 19;
    check_shape(
        "xmp-small",
        &xmp_bomb(small),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
    check_shape(
        "contents-small",
        &contents_bomb(small),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
    check_shape(
        "objstm-small",
        &objstm_bomb(small),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
    check_shape(
        "xref-small",
        &xref_bomb(small),
        Expect::Ok,
        Expect::Ok,
        Expect::Ok,
    );
}

/// `--rewrite` loads the whole document with lopdf, which decodes object streams, xref streams
/// and the XMP packet whole: each is first decoded as a stream and the file refused past
/// 64 MiB, in bounded memory.
#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn rewrite_refuses_bombs_in_bounded_memory() {
    if !common::have_tool("/usr/bin/time", "rewrite_refuses_bombs_in_bounded_memory") {
        return;
    }
    let dir = common::tmpdir();
    for (name, pdf, words) in [
        (
            "xmp",
            xmp_bomb(2 * GIB),
            ["the XMP metadata stream", "object 6", "64 MiB"],
        ),
        (
            "objstm",
            objstm_bomb(2 * GIB),
            ["an object stream", "object 6", "64 MiB"],
        ),
        (
            "xref",
            xref_bomb(2 * GIB),
            ["the cross-reference stream", "object 6", "64 MiB"],
        ),
    ] {
        let input = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&input, &pdf).unwrap();
        let out = dir.path().join(format!("{name}.out.pdf"));
        let args: Vec<std::ffi::OsString> = vec![
            "inject".into(),
            input.clone().into(),
            "--number".into(),
            A.into(),
            "--rewrite".into(),
            "-o".into(),
            out.clone().into(),
        ];
        let m = measured(&format!("{name}: inject --rewrite"), &args, dir.path());
        assert!(m.rss < MAX_RSS, "{name}: {} MB", m.rss >> 20);
        assert_eq!(m.code, 2, "{name}: {}", m.stderr);
        for w in words {
            assert!(m.stderr.contains(w), "{name}: {w:?} in {}", m.stderr);
        }
        assert!(!out.exists());
    }
}
