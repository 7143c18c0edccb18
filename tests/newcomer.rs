//! What a newcomer meets first: the figures and claims the guides make, measured against what
//! pith does (a guide that says what pith no longer does fails here, not in a newcomer's
//! hands), and the small habits of the commands they try first.

use crate::common::{self, root, SEED};

/// Formats a byte count as the guides write it (`1,116`).
fn grouped(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn badge_sizes_in_the_guide_are_the_sizes_pith_writes() {
    // "935 B against 1,098 B": the unit is left out of the comparison.
    let doc = std::fs::read_to_string(root().join("docs/badges.md"))
        .unwrap()
        .replace(" B ", " ");
    let shields = |name: &str| {
        std::fs::metadata(root().join("tests/golden").join(name))
            .unwrap()
            .len() as usize
    };
    for (args, golden) in [
        (&[][..], "badge-shields-short.svg"),
        (&["--full"][..], "badge-shields-full.svg"),
        // shields.io's badge with a status segment; ours says "computed" (a stated
        // "verified" needs its bundle).
        (
            &["--status", "computed"][..],
            "badge-shields-short-verified.svg",
        ),
    ] {
        let o = common::pith()
            .arg("badge")
            .arg(SEED)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ours = o.stdout.len();
        let theirs = shields(golden);
        assert!(ours <= theirs, "{args:?}: {ours} B, shields.io {theirs} B");
        let said = format!("{} against {}", grouped(ours), grouped(theirs));
        assert!(
            doc.contains(&said),
            "docs/badges.md should say \"{said}\" for {args:?}"
        );
    }
}

#[test]
fn the_guide_says_inject_takes_a_bare_code() {
    // docs/numbers.md once said the writers refuse a bare code; they complete it with its
    // record's year (tests/net_verify.rs, a_bare_code_takes_its_year_from_the_resolver). Offline and
    // without the record, the refusal names the reason the guide gives.
    let doc = std::fs::read_to_string(root().join("docs/numbers.md")).unwrap();
    assert!(!doc.contains("refuses it up front"), "docs/numbers.md");
    assert!(doc.contains("completes"), "docs/numbers.md");
    let dir = common::tmpdir();
    let out = dir.path().join("out.pdf");
    let o = common::pith()
        .arg("inject")
        .arg(common::fixture("minimal.pdf"))
        .args(["--offline", "--number", common::SEED_CODE, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("a bare code has no year"), "{err}");
    assert!(!out.exists());
}

#[test]
fn sty_makes_the_folder_it_is_told_to_write_into() {
    let dir = common::tmpdir();
    let new = dir.path().join("paper").join("tex");
    let o = common::pith()
        .arg("sty")
        .arg("-o")
        .arg(&new)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["pith.sty", "pith.sty.ltxml"] {
        assert!(new.join(f).is_file(), "{f} not written");
    }
    // A file where the folder should be is still refused, and left alone.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let o = common::pith()
        .arg("sty")
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not a directory") && err.trim().lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

#[test]
fn help_says_badge_writes_pdf_too() {
    let o = common::pith().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("badge "))
        .unwrap_or_else(|| panic!("no badge line: {help}"));
    assert!(line.contains("SVG") && line.contains("PDF"), "{line}");
}

#[test]
fn an_offline_hint_typed_as_suggested_works() {
    // Offline, `pith number ID` suggests `--arxiv-atom FILE`; typed after the id, it numbers
    // that entry of the file.
    let atom = root().join("examples/2402.03791v3.atom.xml");
    let o = common::pith()
        .args(["number", "--offline", "2402.03791"])
        .env("PITH_CACHE_DIR", common::tmpdir().path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--arxiv-atom FILE"), "{err}");
    let o = common::pith()
        .args(["number", "2402.03791", "--arxiv-atom"])
        .arg(&atom)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), common::SEED);
    // An id the file does not hold is named.
    let o = common::pith()
        .args(["number", "2401.00001", "--arxiv-atom"])
        .arg(&atom)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("2401.00001"));
    // The next version's number says what it assumes.
    let o = common::pith()
        .args(["number", "--next", "--tex", "--arxiv-atom"])
        .arg(&atom)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("v4 will have if it keeps v3's title, abstract"),
        "{err}"
    );
}

/// The guides a reader opens on a forge: README.md, CONTRIBUTING.md, SECURITY.md, docs/*.md.
fn guides() -> Vec<std::path::PathBuf> {
    let mut all: Vec<_> = ["README.md", "CONTRIBUTING.md", "SECURITY.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    all.extend(crate::common::doc_guides());
    all
}

/// The link and image targets of a Markdown text (`[t](x)`, `![t](x)`, `[t]: x`, `src="x"`,
/// `href="x"`), outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold examples, not links.
        let line: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(rest) = line.trim_start().strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]:") {
                out.extend(target.split_whitespace().next().map(str::to_owned));
            }
        }
        for (i, _) in line.match_indices("](") {
            let rest = &line[i + 2..];
            let end = rest.find([')', ' ']).unwrap_or(rest.len());
            out.push(rest[..end].to_owned());
        }
        for attr in ["src=\"", "href=\""] {
            for (i, _) in line.match_indices(attr) {
                let rest = &line[i + attr.len()..];
                out.push(rest[..rest.find('"').unwrap_or(rest.len())].to_owned());
            }
        }
    }
    out
}

#[test]
fn every_relative_link_and_image_in_the_guides_resolves() {
    let mut broken = Vec::new();
    let mut seen = 0;
    for guide in guides() {
        let text = std::fs::read_to_string(&guide).unwrap();
        for target in link_targets(&text) {
            // Web addresses, mail and anchors within the page are not files.
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('#') {
                continue;
            }
            let path = target.split('#').next().unwrap();
            if path.is_empty() {
                continue;
            }
            seen += 1;
            // Relative to the guide's own folder, as a forge resolves it.
            if !guide.parent().unwrap().join(path).exists() {
                broken.push(format!(
                    "{}: {target}",
                    guide.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        seen > 20,
        "only {seen} relative links found: the scanner is broken"
    );
    assert!(
        broken.is_empty(),
        "links that resolve to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn no_guide_ends_mid_sentence() {
    for guide in guides() {
        let text = std::fs::read_to_string(&guide).unwrap();
        let last = text.trim_end();
        assert!(
            last.ends_with(['.', ')', '|', '`', ':', '>']),
            "{} ends mid-sentence: …{}",
            guide.display(),
            &last[last.len().saturating_sub(80)..]
        );
    }
}

/// The files the guides' transcripts (`console` blocks, run from the clone's root as a reader
/// copies them) and the LaTeX build commands write into the clone.
fn documented_outputs() -> Vec<String> {
    let mut out = Vec::new();
    for guide in guides() {
        let text = std::fs::read_to_string(&guide).unwrap();
        let mut console = false;
        for line in text.lines() {
            if let Some(info) = line.trim_start().strip_prefix("```") {
                console = !console && info.trim() == "console";
                continue;
            }
            let Some(cmd) = line.strip_prefix("$ ").filter(|_| console) else {
                continue;
            };
            let words: Vec<&str> = cmd.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                let written = match *w {
                    "-o" | "--out-dir" | "--out-tar" | "--report" | ">" | ">>" => words.get(i + 1),
                    // qpdf writes its last argument.
                    "qpdf" => words.iter().rev().find(|w| !w.starts_with('-')),
                    _ => None,
                };
                if let Some(p) = written {
                    out.push(p.to_string());
                }
            }
        }
    }
    // `cd latex && latexmk -pdf pith.tex && latexmk -c pith.tex` (docs/latex.md) and
    // `cd latex && l3build ctan` / `l3build check` (README.md, CONTRIBUTING.md).
    out.extend(
        [
            "latex/pith.fls",
            "latex/pith.fdb_latexmk",
            "latex/pith.toc",
            "latex/build/doc/pith.pdf",
            "latex/pith-ctan.zip",
            "latex/pith.tds.zip",
            "latex/pith-ctan.curlopt",
        ]
        .map(str::to_owned),
    );
    out.retain(|p| !p.starts_with('/') && !p.starts_with('~') && p != "-");
    out
}

#[test]
fn the_documented_commands_leave_the_clone_clean() {
    // The outputs go where git does not see them: listed in .gitignore, so `git status` stays
    // clean after a reader tries the guides in the clone.
    let git = std::process::Command::new("git")
        .arg("-C")
        .arg(root())
        .args(["rev-parse", "--is-inside-work-tree"])
        .output();
    if !git.is_ok_and(|o| o.status.success()) {
        common::skips::skip(
            "the_documented_commands_leave_the_clone_clean",
            "not a git checkout, or no git",
        );
        return;
    }
    let outputs = documented_outputs();
    assert!(outputs.len() > 10, "{outputs:?}: the scanner is broken");
    let seen: Vec<String> = outputs
        .iter()
        .filter(|p| {
            // An output that is a tracked file the command rewrites the same is fine; none is.
            !std::process::Command::new("git")
                .arg("-C")
                .arg(root())
                .args(["check-ignore", "-q", "--no-index", p.trim_end_matches('/')])
                .status()
                .unwrap()
                .success()
        })
        .cloned()
        .collect();
    assert!(
        seen.is_empty(),
        "git status would show what the documented commands write: {seen:?} (list them in .gitignore)"
    );
}

#[test]
fn batch_says_where_its_outputs_may_go() {
    let dir = common::tmpdir();
    let papers = dir.path().join("papers");
    std::fs::create_dir(&papers).unwrap();
    for ext in ["pdf", "atom.xml"] {
        std::fs::copy(
            root().join(format!("examples/2402.03791v3.{ext}")),
            papers.join(format!("2402.03791v3.{ext}")),
        )
        .unwrap();
    }
    let batch = |extra: &[&str]| {
        common::pith()
            .current_dir(dir.path())
            .args(["batch", "--dir", "papers"])
            .args(extra)
            .output()
            .unwrap()
    };
    // No output named: both ways out are named.
    let o = batch(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--out-dir") && err.contains("--in-place"),
        "{err}"
    );
    // The outputs inside the folder read: refused before anything is written, not every
    // file refused with exit 0, nor the outputs taken as inputs on the next run.
    let before = std::fs::read(papers.join("2402.03791v3.pdf")).unwrap();
    for out in ["papers", "papers/sub", "./papers/../papers/x"] {
        let o = batch(&["--out-dir", out]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{out}: {err}");
        assert!(err.contains("would be read as inputs"), "{out}: {err}");
        assert!(o.stdout.is_empty(), "{out}");
    }
    assert!(!papers.join("sub").exists() && !papers.join("x").exists());
    assert_eq!(
        std::fs::read(papers.join("2402.03791v3.pdf")).unwrap(),
        before
    );
    // Beside it is fine.
    let o = batch(&["--out-dir", "numbered"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.path().join("numbered/2402.03791v3.pdf").is_file());
}

#[test]
fn number_takes_what_exiftool_shows_and_points_an_arxiv_id_to_arxiv() {
    let dir = common::tmpdir();
    let inject = |number: &str, out: &str| {
        common::pith()
            .arg("inject")
            .arg(root().join("examples/2402.03791v3.pdf"))
            .args(["--number", number, "-o"])
            .arg(dir.path().join(out))
            .output()
            .unwrap()
    };
    // exiftool shows pith's xmp:Identifier as `2024:<26>`: taken as the number it is.
    let code = common::SEED.strip_prefix("pith:").unwrap();
    let o = inject(code, "a.pdf");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common::pith()
        .arg("inspect")
        .arg(dir.path().join("a.pdf"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(common::SEED));
    // An arXiv id where the number goes: the flag that takes it is named.
    let o = inject("2402.03791", "b.pdf");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--arxiv"), "{err}");
    assert!(!dir.path().join("b.pdf").exists());
}

#[test]
fn an_unchanged_inject_says_it_wrote_its_output() {
    let dir = common::tmpdir();
    let atom = root().join("examples/2402.03791v3.atom.xml");
    let inject = |input: &std::path::Path, out: &std::path::Path| {
        common::pith()
            .arg("inject")
            .arg(input)
            .arg("--arxiv-atom")
            .arg(&atom)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let (first, second) = (dir.path().join("out.pdf"), dir.path().join("out2.pdf"));
    assert!(inject(&root().join("examples/2402.03791v3.pdf"), &first)
        .status
        .success());
    let o = inject(&first, &second);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(second.is_file());
    assert!(
        said.contains("out2.pdf: written") && said.contains("already carries"),
        "{said}"
    );
}
