//! Hardening, XMP: entity expansion, external entities, DTDs, huge attributes,
//! deep nesting, invalid UTF-8, a missing wrapper, reused namespace prefixes, decompression
//! bombs and hostile text in existing metadata. Packets are read back with roxmltree, files
//! with qpdf and exiftool; errors are one line starting `pith: ` naming the file.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::pdfgen::*;
use crate::common::run::{assert_scales, least_of_three};
use crate::common::tools::*;
use crate::common::{
    assert_one_line_error, fixture, inject_seed, inject_seed_in_place, inject_seed_with, leftovers,
    run_pith as pith, tmpdir, Run, ATTACKS, DC_NS, OTHER, RDF_NS, SEED, SEED_URL,
};
use pith::pdf::xmp;

#[test]
fn xmp_entities_and_dtds_are_refused_not_expanded() {
    let ext = external_entity();
    let plain_dtd = format!(
        "<!DOCTYPE x:xmpmeta>{}",
        packet("<dc:format>a</dc:format>").replace(
            "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n",
            ""
        )
    );
    for (name, evil) in [
        ("billion laughs", LAUGHS.to_string()),
        ("external entity", ext),
        ("DTD", plain_dtd),
    ] {
        let (cost, e) = least_of_three(|| xmp::read(evil.as_bytes()).expect_err(name));
        assert!(
            matches!(e.kind(), pith::pdf::ErrorKind::Xmp(_)),
            "{name}: {e}"
        );
        let e = xmp::merge(Some(evil.as_bytes()), &props(), "2024-01-01T00:00:00Z")
            .expect_err(name)
            .to_string();
        // Nothing of /etc/passwd leaks into a message, nothing is expanded.
        assert!(!e.contains("root:") && !e.contains("lollol"), "{name}: {e}");
        // Refused as it is read: no dearer than reading a plain packet of the same length.
        let plain = packet(&format!(
            "<dc:format>{}</dc:format>",
            "a".repeat(evil.len())
        ));
        let (baseline, _) = least_of_three(|| xmp::read(plain.as_bytes()));
        assert_scales(name, baseline, cost, 4);
    }
}

#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn xmp_huge_attributes_stay_bounded() {
    // A 2 MB attribute value and a 2 MB text node: parsed in linear time, values kept.
    let big = "A".repeat(2 << 20);
    let p = packet(&format!("<dc:format x=\"{big}\">{big}</dc:format>"));
    let t = Instant::now();
    let out = xmp::merge(Some(p.as_bytes()), &props(), "2024-01-01T00:00:00Z").unwrap();
    assert!(xmp::read(&out).unwrap().carries(&props()));
    assert!(out.len() > 2 * big.len());
    let one = t.elapsed();
    eprintln!("xmp merge of a 2 MB attribute and text: {one:?}");
    // Four times the size takes about four times as long, not sixteen (no quadratic step).
    let big4 = "A".repeat(8 << 20);
    let p4 = packet(&format!("<dc:format x=\"{big4}\">{big4}</dc:format>"));
    let t = Instant::now();
    xmp::merge(Some(p4.as_bytes()), &props(), "2024-01-01T00:00:00Z").unwrap();
    let four = t.elapsed();
    assert!(
        four < one * 10 + Duration::from_secs(1),
        "2 MB: {one:?}, 8 MB: {four:?}"
    );
    // 50,000 sibling attributes: refused by their count (the engine keeps at most 1,024 on
    // an element), at once, by both the reader and the merge; 1,000 are read and kept.
    let attrs = |n: usize| -> String {
        let many: String = (0..n).map(|i| format!(" dc:a{i}=\"v\"")).collect();
        packet(&format!("<rdf:Description{many}/>"))
    };
    let p = attrs(50_000);
    let plain = packet(&format!("<dc:format>{}</dc:format>", "a".repeat(p.len())));
    let (baseline, _) = least_of_three(|| xmp::read(plain.as_bytes()));
    let t = Instant::now();
    let refused = |r: Result<_, pith::pdf::Error>, what: &str| {
        let e = r
            .err()
            .unwrap_or_else(|| panic!("{what}: 50,000 attributes accepted"));
        assert!(
            matches!(e.kind(), pith::pdf::ErrorKind::Xmp(_))
                && e.to_string().contains("attributes"),
            "{what}: {e}"
        );
    };
    refused(xmp::read(p.as_bytes()).map(|_| ()), "read");
    refused(
        xmp::merge(Some(p.as_bytes()), &props(), "2024-01-01T00:00:00Z").map(|_| ()),
        "merge",
    );
    // Both refusals together cost about two reads of a plain packet as long: counted, not
    // parsed.
    assert_scales("50,000 attributes", baseline, t.elapsed(), 8);
    let p = attrs(1_000);
    let out = xmp::merge(Some(p.as_bytes()), &props(), "2024-01-01T00:00:00Z").unwrap();
    assert!(xmp::read(&out).unwrap().carries(&props()));
    assert!(String::from_utf8_lossy(&out).contains(" dc:a999=\"v\""));
}

/// 200,000 nested elements in an XMP packet: roxmltree's tokenizer recurses once per level,
/// so without a depth check `xmp::read` and `xmp::merge` overflow the stack and abort the
/// whole process (also `pith inject`, `pith inspect` and `pith batch`, where one file stops
/// the run). The engine's XMP reader refuses such a packet by its nesting depth
/// (`pith_pdf::xml::shape`) before roxmltree sees it.
#[test]
fn xmp_deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 200_000;
    let deep = format!("{}{}", "<dc:a>".repeat(depth), "</dc:a>".repeat(depth));
    let p = packet(&deep);
    assert!(xmp::read(p.as_bytes()).is_err());
    assert!(xmp::merge(Some(p.as_bytes()), &props(), "2024-01-01T00:00:00Z").is_err());
    let dir = tmpdir();
    let input = dir.path().join("deep.pdf");
    std::fs::write(&input, build_pdf(None, Some(p.as_bytes()))).unwrap();
    let out = dir.path().join("out.pdf");
    let r = inject_seed(&input, &out);
    assert_one_line_error(&r, "deep.pdf");
    let r = pith(&["inspect", input.to_str().unwrap()]);
    assert!(
        !r.stderr.contains("overflow") && !r.stderr.contains("panicked"),
        "{}",
        r.stderr
    );
}

/// Nesting hidden from a naive depth check (regression test): `</` inside comments is not an
/// end tag, and `/>` inside a quoted attribute value does not close the start tag. A guard that
/// missed either would measure these packets at a depth of at most 1 while roxmltree recursed
/// 200,000 levels and the process aborted; `pith_pdf::xml::shape` counts them as roxmltree
/// will.
#[test]
fn xmp_nesting_check_cannot_be_bypassed() {
    let n = 200_000;
    for (name, open) in [
        ("comment", "<dc:a><!--</x>-->"),
        ("quoted />", "<dc:a x=\"/>\">"),
    ] {
        let p = packet(&format!("{}{}", open.repeat(n), "</dc:a>".repeat(n)));
        assert!(pith::record::atom::element_depth(&p) > n, "{name}");
        assert!(xmp::read(p.as_bytes()).is_err(), "{name}");
    }
}

#[test]
fn xmp_invalid_utf8_and_encodings_are_errors() {
    let mut p = packet("<dc:format>caf\u{e9}</dc:format>").into_bytes();
    let at = p.windows(3).position(|w| w == b"caf").unwrap() + 3;
    p[at] = 0xFF; // inside the body, not the xpacket BOM
    let e = xmp::read(&p).unwrap_err().to_string();
    assert!(e.contains("not UTF-8"), "{e}");
    assert!(xmp::merge(Some(&p), &props(), "now").is_err());
    // Truncated UTF-16 and a lone surrogate; a UTF-32 code point out of range.
    for bad in [
        &[0xFE, 0xFF, 0x00][..],
        &[0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x3C][..],
        &[0x00, 0x00, 0xFE, 0xFF, 0x00, 0x11, 0x00, 0x00][..],
        &[][..],
        &[0u8; 64][..],
    ] {
        assert!(xmp::read(bad).is_err() || xmp::read(bad).is_ok_and(|v| v == Default::default()));
        assert!(xmp::merge(Some(bad), &props(), "now").is_err(), "{bad:?}");
    }
}

#[test]
fn xmp_without_xpacket_wrapper_gets_one() {
    let bare = format!(
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"{RDF_NS}\"/></x:xmpmeta>"
    );
    let bare_rdf = format!("<rdf:RDF xmlns:rdf=\"{RDF_NS}\"></rdf:RDF>");
    for p in [bare, bare_rdf] {
        let out =
            String::from_utf8(xmp::merge(Some(p.as_bytes()), &props(), "now").unwrap()).unwrap();
        assert!(out.starts_with("<?xpacket begin="), "{out}");
        assert!(out.ends_with("<?xpacket end=\"w\"?>"), "{out}");
        let doc = roxmltree::Document::parse(&out).expect("well-formed");
        let n = doc
            .descendants()
            .filter(|n| n.has_tag_name((xmp::PITH_NS, "number")))
            .count();
        assert_eq!(n, 1, "{out}");
    }
}

#[test]
fn xmp_namespace_prefixes_reused_for_other_namespaces() {
    // `pith:` and `rdf:`-like prefixes bound to foreign namespaces, the real ones under other
    // prefixes, and an old Pith number under prefix `p`.
    let p = format!(
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><r:RDF xmlns:r=\"{RDF_NS}\">\
         <r:Description r:about=\"\" xmlns:pith=\"urn:not-pith\" xmlns:rdf=\"urn:not-rdf\" xmlns:p=\"{}\" xmlns:d=\"{DC_NS}\" p:number=\"{OTHER}\">\
         <pith:number>foreign</pith:number><rdf:li>foreign li</rdf:li>\
         <d:relation><r:Bag><r:li>https://pith.science/pith/ZWRUDBOANTQFBE2ITHQCKK5EHL</r:li><r:li>https://example.org/x</r:li></r:Bag></d:relation>\
         </r:Description></r:RDF></x:xmpmeta>",
        xmp::PITH_NS
    );
    let out = String::from_utf8(xmp::merge(Some(p.as_bytes()), &props(), "now").unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&out).expect("well-formed");
    let pith_numbers: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name((xmp::PITH_NS, "number")))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    assert_eq!(pith_numbers, [SEED], "{out}");
    assert!(
        !doc.descendants()
            .any(|n| n.attributes().any(|a| a.namespace() == Some(xmp::PITH_NS))),
        "old p:number attribute removed: {out}"
    );
    // Foreign elements that only share a prefix are untouched.
    let foreign: Vec<&str> = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name(("urn:not-pith", "number")) || n.has_tag_name(("urn:not-rdf", "li"))
        })
        .map(|n| n.text().unwrap_or(""))
        .collect();
    assert_eq!(foreign, ["foreign", "foreign li"], "{out}");
    let relations: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((RDF_NS, "li")))
        .filter(|n| n.ancestors().any(|a| a.has_tag_name((DC_NS, "relation"))))
        .map(|n| n.text().unwrap_or(""))
        .collect();
    assert_eq!(relations, ["https://example.org/x", SEED_URL], "{out}");
    assert!(xmp::read(out.as_bytes()).unwrap().carries(&props()));
}

#[test]
fn inject_refuses_hostile_xmp_and_force_replaces_it() {
    if !common::have_tool("qpdf", "inject_refuses_hostile_xmp") {
        return;
    }
    let dir = tmpdir();
    for (name, evil) in [
        ("laughs", LAUGHS.to_string()),
        ("external", external_entity()),
        ("notutf8", "<x:xmpmeta>\u{0}\u{1}".to_string() + "\u{FFFF}"),
    ] {
        let mut bytes = evil.into_bytes();
        if name == "notutf8" {
            bytes.push(0xC3); // truncated sequence
        }
        let input = dir.path().join(format!("{name}.pdf"));
        let pdf = build_pdf(None, Some(&bytes));
        std::fs::write(&input, &pdf).unwrap();
        let out = dir.path().join(format!("{name}-out.pdf"));
        let r = inject_seed(&input, &out);
        assert_one_line_error(&r, &format!("{name}.pdf"));
        assert!(r.stderr.contains("XMP"), "{}", r.stderr);
        assert!(!out.exists(), "no output after a refusal");
        assert!(leftovers(dir.path()).is_empty());
        // In place: refused the same way, the file is not modified.
        let r = inject_seed_in_place(&input);
        assert_one_line_error(&r, &format!("{name}.pdf"));
        assert_eq!(std::fs::read(&input).unwrap(), pdf);
        // --force replaces the packet: the new one has no DTD and qpdf accepts the file.
        let r = inject_seed_with(&input, &out, &["--force"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(qpdf_clean(&out), "{name}: qpdf --check");
        let x = String::from_utf8(qpdf_stream(&out, 4)).unwrap();
        assert!(!x.contains("<!DOCTYPE") && !x.contains("ENTITY"), "{x}");
        roxmltree::Document::parse(&x).expect("new packet is well-formed");
    }
}

/// A metadata stream that inflates to 1 GiB (1 MB compressed): pith stops decoding at its
/// bound and refuses the file, in bounded memory (the process runs under a 1 GB address-space
/// limit) and time.
#[test]
#[ignore = "full tier (bombs of hundreds of MB): cargo test -- --include-ignored"]
fn decompression_bomb_in_the_metadata_stream_is_bounded() {
    if !common::have_tool("python3", "decompression_bomb") {
        return;
    }
    // A metadata stream of `mib` MiB of zeros, Flate-compressed.
    let bomb = |mib: u32| {
        let script = format!("import sys, zlib\nc = zlib.compressobj(9)\nz = bytes(1 << 20)\nout = [c.compress(z) for _ in range({mib})]\nout.append(c.flush())\nsys.stdout.buffer.write(b''.join(out))");
        let o = Command::new("python3")
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(o.status.success());
        build_pdf_filtered(None, Some(&o.stdout), "/Filter /FlateDecode")
    };
    let dir = tmpdir();
    let input = dir.path().join("bomb.pdf");
    std::fs::write(&input, bomb(1024)).unwrap();
    // The same shape inflating to 128 MiB, past the bound too: the measure of what a bomb
    // costs when decoding stops at the bound.
    let small = dir.path().join("small-bomb.pdf");
    std::fs::write(&small, bomb(128)).unwrap();
    let limited = |args: &[&std::ffi::OsStr]| {
        let o = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 1000000; exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin!("pith"))
            .args(args)
            .output()
            .unwrap();
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    };
    let out = dir.path().join("out.pdf");
    let inject = |pdf: &std::path::Path| {
        limited(&[
            "inject".as_ref(),
            "--number".as_ref(),
            SEED.as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
            pdf.as_os_str(),
        ])
    };
    let (baseline, _) = least_of_three(|| inject(&small));
    let (cost, r) = least_of_three(|| inject(&input));
    assert_one_line_error(&r, "bomb.pdf");
    assert!(!out.exists());
    // Eight times the bomb costs what the small one does: decoding stops at the bound.
    assert_scales("a 1 GiB metadata stream", baseline, cost, 2);
    let r = limited(&["inspect".as_ref(), input.as_os_str()]);
    assert!(
        !r.stderr.contains("panicked") && !r.stderr.contains("memory allocation"),
        "{}",
        r.stderr
    );
    // 1: no number found, 2: refused; never a crash.
    assert!((0..=2).contains(&r.code), "{}", r.stderr);
}

#[test]
fn hostile_text_in_existing_metadata_survives_an_update_exactly() {
    if !common::have_tool("qpdf", "hostile_text_survives")
        || !common::have_tool("exiftool", "hostile_text_survives")
    {
        return;
    }
    let title = ATTACKS.join(" ");
    let info = format!(
        "<< /Title {} /Producer (x\\) /PithNumber \\(fake) >>",
        pdf_literal(&title)
    );
    let lis: String = ATTACKS
        .iter()
        .map(|a| format!("<rdf:li>{}</rdf:li>", xml_escape(a)))
        .collect();
    let xmp_text = packet(&format!(
        "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\"><![CDATA[{}]]></rdf:li></rdf:Alt></dc:title><dc:subject><rdf:Bag>{lis}</rdf:Bag></dc:subject>",
        title.replace("]]>", "]]]]><![CDATA[>")
    ));
    let dir = tmpdir();
    let input = dir.path().join("hostile.pdf");
    std::fs::write(
        &input,
        build_pdf(Some(info.as_bytes()), Some(xmp_text.as_bytes())),
    )
    .unwrap();
    assert!(qpdf_clean(&input), "the test file itself is valid");
    let out = dir.path().join("out.pdf");
    let r = inject_seed(&input, &out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(qpdf_clean(&out));
    // Info, read by exiftool: the title is unchanged, the fake key in the producer string did
    // not become a key, our entries are there.
    let i = exif_info(&out);
    assert_eq!(i["Title"], title.as_str(), "{i}");
    assert_eq!(i["Producer"], "x) /PithNumber (fake", "{i}");
    assert_eq!(i["PithNumber"], SEED, "{i}");
    assert_eq!(i["PithURL"], SEED_URL, "{i}");
    // XMP, read by roxmltree from the stream qpdf extracts: same title and subjects, one number.
    let x = String::from_utf8(qpdf_stream(&out, 4)).unwrap();
    let doc = roxmltree::Document::parse(&x).expect("well-formed XMP");
    let text_of = |name: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name((RDF_NS, "li")))
            .filter(|n| n.ancestors().any(|a| a.has_tag_name((DC_NS, name))))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(text_of("title"), std::slice::from_ref(&title));
    assert_eq!(text_of("subject"), ATTACKS);
    assert!(!doc.descendants().any(|n| n.has_tag_name("script")));
    let nums: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((xmp::PITH_NS, "number")))
        .map(|n| n.text().unwrap_or(""))
        .collect();
    assert_eq!(nums, [SEED]);
}

#[test]
fn hostile_numbers_never_reach_a_file() {
    let dir = tmpdir();
    let input = dir.path().join("p.pdf");
    std::fs::copy(fixture("minimal.pdf"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    for a in ATTACKS.iter().copied().chain([
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5) /JS (app.alert(1)",
        "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5\n%%EOF",
    ]) {
        let out = dir.path().join("o.pdf");
        let r = pith(&[
            "inject",
            input.to_str().unwrap(),
            "--number",
            a,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "{a}: {}", r.stderr);
        assert!(r.stderr.starts_with("pith: ") && !r.stderr.contains("panicked"));
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(!out.exists());
        for cmd in [&["badge", a][..], &["snippet", a, "--format", "html"][..]] {
            let r = pith(cmd);
            assert_eq!(r.code, 2, "{cmd:?}");
            assert!(r.stdout.is_empty(), "{cmd:?}: {}", r.stdout);
        }
    }
    assert_eq!(std::fs::read(&input).unwrap(), before);
}
