//! The pages in a real browser: builds an index from the published vectors, starts
//! `pith serve` on 127.0.0.1 (twice: once with a small `--max-upload`), makes PDFs with
//! `pith inject` and `pith strip`, runs `tests/browser/run.mjs` (Debian's Chromium through
//! playwright-core, axe-core from npm) and checks what it saw against `pith snippet` and
//! `pith verify --json`. Skips, saying why, when node, Chromium or the npm packages are
//! missing; fails instead under `PITH_REQUIRE_TOOLS=1`.
//!
//! Screenshots go to `target/screenshots/` (light and dark, 360 and 1280 px, every page).
//!
//! The same pages asked for through the router in process are `pages_in_process`'s.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{self, have_tool, Fixture, Server};

/// The paper the flows use (a published vector), and another in the index.
const ID: &str = "2402.03791";
const NUMBER: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const OTHER: &str = "pith:2016:R2S7E3IL7L3DIOYQTEXEFZQJHH";
/// The small server's upload limit, and the size of the file sent over it.
const SMALL_LIMIT: usize = 100_000;

/// Runs `cmd`, which must exit 0 or 1 (a mismatch), and returns its output.
fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `file` with one more incremental update that replaces its document information with one
/// naming `number`: the XMP still names the number injected before.
fn append_info(file: &[u8], number: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(file);
    let trailer = &text[text.rfind("trailer").expect("a classic trailer")..];
    let grab = |key: &str| -> String {
        let at = trailer
            .find(key)
            .unwrap_or_else(|| panic!("{key} in {trailer}"))
            + key.len();
        trailer[at..]
            .trim_start()
            .split(['/', '>'])
            .next()
            .unwrap()
            .trim()
            .to_owned()
    };
    let size: u32 = grab("/Size").parse().unwrap();
    let root = grab("/Root");
    let prev: usize = text[text.rfind("startxref").unwrap() + 9..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let mut out = file.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let obj_at = out.len();
    out.extend_from_slice(
        format!("{size} 0 obj\n<< /PithNumber ({number}) >>\nendobj\n").as_bytes(),
    );
    let xref_at = out.len();
    out.extend_from_slice(
        format!(
            "xref\n{size} 1\n{obj_at:010} 00000 n \ntrailer\n<< /Size {} /Root {root} /Info {size} 0 R /Prev {prev} >>\nstartxref\n{xref_at}\n%%EOF\n",
            size + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
#[ignore = "full tier (headless Chromium, about three minutes): cargo test -- --include-ignored"]
fn browser_flows() {
    let test = "pages::browser_flows";
    if !have_tool("chromium", test) || !have_tool("node", test) {
        return;
    }
    let Some(harness) = common::browser_harness(test, &["playwright-core", "axe-core"]) else {
        return;
    };
    let chromium =
        String::from_utf8(run(Command::new("sh").args(["-c", "command -v chromium"])).stdout)
            .unwrap()
            .trim()
            .to_owned();
    let root = common::root();
    let fixture = Fixture::new();
    let d = fixture.dir.path();
    let cache = d.join("cache");
    let pith = common::pith();
    let pith_cmd = || {
        let mut c = Command::new(&pith);
        c.current_dir(d)
            .env("PITH_CACHE_DIR", &cache)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            // Nothing may reach the network: a closed loopback port for arXiv and the resolver.
            .env("PITH_ARXIV_URL", "http://127.0.0.1:9")
            .env("PITH_RESOLVER_URL", "http://127.0.0.1:9");
        c
    };
    let server = Server::start(&fixture.index, &[]);
    let small = Server::start(&fixture.index, &["--max-upload", &SMALL_LIMIT.to_string()]);
    // The status the badges show, as the server states it.
    let status = server
        .get(&format!("/pith/{}.json", &NUMBER[10..]), &[])
        .json()["status"]
        .as_str()
        .unwrap()
        .to_owned();
    // `pith snippet` finds "verified" only in the bundle, with the key the index was given.
    let bundle_file = fixture.dir.path().join("bundles/first.json");
    let status_args = |s: &str| -> Vec<String> {
        if s == "verified" {
            vec![
                "--bundle".into(),
                bundle_file.display().to_string(),
                "--key".into(),
                fixture.key.clone(),
            ]
        } else {
            vec!["--status".into(), s.into()]
        }
    };

    // The files: matched, altered later, stripped, a text file, one over the small limit.
    let minimal = root.join("tests/fixtures/minimal.pdf");
    run(pith_cmd()
        .args(["inject", "--number", NUMBER, "-o", "matched.pdf"])
        .arg(&minimal));
    let matched = std::fs::read(d.join("matched.pdf")).unwrap();
    std::fs::write(d.join("altered.pdf"), append_info(&matched, OTHER)).unwrap();
    run(pith_cmd().args(["strip", "matched.pdf", "-o", "stripped.pdf"]));
    std::fs::write(d.join("notes.txt"), "Not a PDF, just notes.\n").unwrap();
    let mut big = matched.clone();
    big.extend(std::iter::repeat_n(b'%', SMALL_LIMIT * 3));
    big.extend_from_slice(b"\n");
    std::fs::write(d.join("big.pdf"), &big).unwrap();

    let screenshots = root.join("target/screenshots");
    let plan = json!({
        "chromium": chromium,
        "base": server.url,
        "small_base": small.url,
        "record_url": format!("{}/pith/{}", server.url, &NUMBER[10..]),
        "missing_query": "2501.99999",
        "drop_file": d.join("matched.pdf"),
        "screenshots": screenshots,
        "search": [
            {"query": ID}, {"query": format!("arXiv:{ID}v3")}, {"query": format!("https://arxiv.org/abs/{ID}")},
            {"query": NUMBER}, {"query": &NUMBER[10..]}, {"query": "pith:7BMK4ZKT"},
            {"query": format!("https://pith.science/pith/{}", &NUMBER[10..])},
        ],
        "uploads": [
            {"name": "matched", "path": d.join("matched.pdf"), "small": false},
            {"name": "altered", "path": d.join("altered.pdf"), "small": false},
            {"name": "stripped", "path": d.join("stripped.pdf"), "small": false},
            {"name": "text", "path": d.join("notes.txt"), "small": false},
            {"name": "too-large", "path": d.join("big.pdf"), "small": true},
        ],
        "json_uploads": [
            {"name": "matched.pdf", "path": d.join("matched.pdf")},
            {"name": "altered.pdf", "path": d.join("altered.pdf")},
            {"name": "stripped.pdf", "path": d.join("stripped.pdf")},
        ],
    });
    let plan_path = d.join("plan.json");
    let out_path = d.join("seen.json");
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let ran = Command::new("node")
        .current_dir(&harness)
        .arg("run.mjs")
        .arg(&plan_path)
        .arg(&out_path)
        .status()
        .unwrap();
    assert!(ran.success(), "the browser run failed: {ran}");
    let seen: Value = serde_json::from_slice(&std::fs::read(&out_path).unwrap()).unwrap();

    // Search: every form lands on the record page.
    for s in seen["search"].as_array().unwrap() {
        assert!(
            s["url"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/pith/{}", &NUMBER[10..])),
            "{s}"
        );
        assert_eq!(s["number"], NUMBER, "{s}");
    }

    // Copy buttons: each snippet is what `pith snippet` prints.
    let code = &NUMBER[10..];
    // Without --base-url the page names no host: the images by their path on this server.
    let badge = format!("/badge/{code}.svg");
    let variants: [(&str, &[&str], String); 4] = [
        ("flat", &[], badge.clone()),
        (
            "flat square",
            &["--style", "flat-square"],
            format!("{badge}?style=flat-square"),
        ),
        (
            "with the whole number",
            &["--full"],
            format!("{badge}?full=true"),
        ),
        (
            "with a qr code of the record page",
            &["--qr"],
            format!("{badge}?qr=true"),
        ),
    ];
    let copied: Vec<(String, String)> = seen["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["label"].as_str().unwrap().to_owned(),
                s["copied"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let find = |label: &str| {
        copied
            .iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no copy button for {label:?}: {copied:?}"))
            .1
            .clone()
    };
    for (variant, args, src) in &variants {
        for (format, name) in [
            ("md", "Markdown"),
            ("html", "HTML"),
            ("rst", "reStructuredText"),
            ("adoc", "AsciiDoc"),
            ("tex", "LaTeX"),
        ] {
            // LaTeX includes a local file: the snippet names it and where to download it.
            let image = if format == "tex" {
                ["--download".to_owned(), src.replace(".svg", ".pdf")]
            } else {
                ["--src".to_owned(), src.clone()]
            };
            let want = run(pith_cmd()
                .args(["snippet", NUMBER, "--format", format])
                .args(status_args(&status))
                .args(&image)
                .args(*args))
            .stdout;
            assert_eq!(
                find(&format!("{name}, {variant}")),
                String::from_utf8(want).unwrap(),
                "{name}, {variant}"
            );
        }
    }
    let dark = run(pith_cmd()
        .args([
            "snippet",
            NUMBER,
            "--format",
            "html",
            "--src",
            &badge,
            "--dark-src",
        ])
        .arg(badge.replace(".svg", "-dark.svg"))
        .args(status_args(&status)))
    .stdout;
    assert_eq!(find("HTML with picture"), String::from_utf8(dark).unwrap());
    assert_eq!(
        find("the LaTeX lines"),
        format!("\\usepackage{{pith}}\n\\pithnumber{{{NUMBER}}}\n")
    );

    // Uploads: each answer says what happened.
    let upload = |name: &str| {
        seen["uploads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"] == name)
            .unwrap_or_else(|| panic!("no upload {name}"))
            .clone()
    };
    let m = upload("matched");
    assert_eq!(m["status"], 200, "{m}");
    // The page's verdict is the library's headline (the receipt verifies with the key the
    // index trusts).
    assert!(
        m["verdict"].as_str().unwrap().starts_with("VERIFIED: "),
        "{m}"
    );
    assert!(
        m["text"].as_str().unwrap().contains("ZeroPP"),
        "the record's title is shown: {m}"
    );
    let a = upload("altered");
    assert!(
        a["verdict"].as_str().unwrap().starts_with("MISMATCH: "),
        "{a}"
    );
    assert!(a["text"].as_str().unwrap().contains("do not agree"), "{a}");
    assert_eq!(upload("stripped")["h1"], "This PDF carries no Pith Number");
    assert_eq!(upload("stripped")["status"], 422);
    assert_eq!(upload("text")["h1"], "This file is not a PDF");
    let big = upload("too-large");
    assert_eq!(big["status"], 413, "{big}");
    assert_eq!(big["h1"], "This file is too large to check here");

    // JSON: the same document as `pith verify --json` against this server.
    for u in seen["json_uploads"].as_array().unwrap() {
        let name = u["name"].as_str().unwrap();
        // With the key the index trusts, as the server checks receipts.
        let cli = run(pith_cmd().env("PITH_RESOLVER_URL", &server.url).args([
            "verify",
            name,
            "--json",
            "--key",
            &fixture.key,
        ]))
        .stdout;
        assert_eq!(u["status"], 200, "{u}");
        // The same document, but that the mirror's checks speak of itself where the CLI's
        // speak of the resolver it asked.
        assert_eq!(
            u["body"]
                .as_str()
                .unwrap()
                .replace("this mirror", "the resolver"),
            String::from_utf8(cli).unwrap(),
            "{name}"
        );
    }

    // Only this origin was asked for anything; no cookies.
    for url in seen["requests"].as_array().unwrap() {
        let url = url.as_str().unwrap();
        assert!(
            url.starts_with(&format!("{}/", server.url))
                || url.starts_with(&format!("{}/", small.url)),
            "a request left the server's origin: {url}"
        );
    }
    assert_eq!(seen["cookies"], json!([]));
    assert_eq!(seen["set_cookie"], json!([]));

    // axe-core: no serious or critical violation on any page.
    assert_eq!(
        seen["axe"],
        json!([]),
        "axe-core found serious or critical violations"
    );

    // Every page: the policy, no horizontal scroll at 360 px, under 60 KB, a screenshot.
    for p in seen["pages"].as_array().unwrap() {
        assert!(
            p["csp"]
                .as_str()
                .is_some_and(|c| c.starts_with("default-src 'self'")),
            "{p}"
        );
        assert!(
            p["scroll_width"].as_u64() <= p["client_width"].as_u64(),
            "horizontal scroll: {p}"
        );
        assert!(p["html_bytes"].as_u64().unwrap() < 60_000, "{p}");
        assert!(
            Path::new(p["screenshot"].as_str().unwrap()).is_file(),
            "{p}"
        );
    }
    let pages: std::collections::BTreeSet<&str> = seen["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(pages.len(), 9, "{pages:?}");

    // The record page's first screen at 1280 x 800: number, title, authors, status, the LaTeX
    // line and a badge, whole, in both schemes; the snippets folded one format each; the page
    // at most about two screens, and every snippet there once the folds are opened.
    for f in seen["first_screen"].as_array().unwrap() {
        let viewport = f["viewport"].as_f64().unwrap();
        for (what, place) in f["places"].as_object().unwrap() {
            assert!(place["visible"] == true, "{what} is not shown: {f}");
            let (top, bottom) = (
                place["top"].as_f64().unwrap(),
                place["bottom"].as_f64().unwrap(),
            );
            assert!(
                top >= 0.0 && bottom <= viewport,
                "{what} is not on the first screen: {f}"
            );
        }
        assert_eq!(
            f["shown"],
            json!(["the LaTeX lines"]),
            "only the LaTeX lines unfolded: {f}"
        );
        assert_eq!(f["snippets"], 20, "{f}");
        assert_eq!(f["snippets_in_own_details"], 20, "{f}");
        assert_eq!(f["open_details"], 0, "{f}");
        let height = f["height"].as_f64().unwrap();
        assert!(
            height <= 2.2 * viewport,
            "the page is {height} px tall: {f}"
        );
        assert!(
            Path::new(f["screenshot"].as_str().unwrap()).is_file(),
            "{f}"
        );
    }
    let folded = &seen["folded"];
    assert_eq!(folded["shown"], folded["all"], "{folded}");
    assert!(folded["height_open"].as_f64() > seen["first_screen"][0]["height"].as_f64());

    // The drop zone: a PDF dropped on it is checked; by keyboard the field is reached, opens
    // the file chooser, and the file is checked.
    let drop = &seen["drop"];
    assert_eq!(drop["over"], true, "{drop}");
    assert_eq!(drop["status"], 200, "{drop}");
    assert_eq!(drop["verdict"], m["verdict"], "{drop}");
    let keys = &seen["drop_keyboard"];
    assert_eq!(keys["on_field"], true, "{keys}");
    assert_ne!(keys["ring"], "none", "the drop zone shows focus: {keys}");
    assert_eq!(keys["chooser"], true, "{keys}");
    assert_eq!(keys["verdict"]["status"], 200, "{keys}");
    assert_eq!(keys["verdict"]["text"], m["verdict"], "{keys}");

    // Keyboard: Tab reaches the skip link first, with a visible outline.
    let f = &seen["focus"];
    assert_eq!(f["text"], "Skip to content", "{f}");
    assert_ne!(f["outline"], "none", "{f}");
    assert_eq!(f["visible"], true, "{f}");
}
