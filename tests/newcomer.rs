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
    // record's year (tests/net.rs, a_bare_code_takes_its_year_from_the_resolver). Offline and
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
