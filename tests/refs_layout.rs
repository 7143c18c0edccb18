//! `pith refs` on pages laid out as journals, arXiv and the ACL Anthology print them, written
//! by hand object by object: text inside form XObjects (nested, with their own resources and
//! matrices), running headers and footers that carry the paper's own DOI, a "References"
//! header atop every page of the list, arXiv's stamp set sideways (the citing paper, never a
//! reference), and link annotations on the list's entries. Hostile forms (one that draws
//! itself, ten thousand nested, one drawn a million times, a doubling chain) and a page of a
//! million link annotations must be read within the document budget's operator count, which
//! a reader without the bounds would pass by orders of magnitude. pdftotext, given the same
//! files, shows the text is there to be read.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::{self, pdfgen, run_pith};

/// One object of a test PDF: its dictionary, and a stream's data.
type Obj = (String, Option<Vec<u8>>);

/// One page: its content and any more entries of its dictionary (`/Annots [...]`).
struct Page {
    content: String,
    extra: String,
}

/// A PDF of `pages` (objects 4, 5, 6, 7, … : each page and then its content) and `extra`
/// objects numbered from [`first_extra`]; every page's resources name the font `/F1`
/// (object 3) and the XObjects `xobjects` (`/Fm1 9 0 R`).
fn doc(pages: &[Page], xobjects: &str, extra: &[Obj]) -> Vec<u8> {
    doc_fonts(pages, "", xobjects, extra)
}

/// [`doc`] with more fonts in every page's resources (`/F2 9 0 R`).
fn doc_fonts(pages: &[Page], fonts: &str, xobjects: &str, extra: &[Obj]) -> Vec<u8> {
    let n = pages.len();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    let mut objs: Vec<Obj> = vec![
        ("<< /Type /Catalog /Pages 2 0 R >>".into(), None),
        (
            format!("<< /Type /Pages /Count {n} /Kids [{}] >>", kids.join(" ")),
            None,
        ),
        (
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into(),
            None,
        ),
    ];
    for (i, p) in pages.iter().enumerate() {
        objs.push((
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                 /Resources << /Font << /F1 3 0 R {fonts} >> /XObject << {xobjects} >> >> {} >>",
                5 + 2 * i,
                p.extra
            ),
            None,
        ));
        let data = p.content.clone().into_bytes();
        objs.push((format!("<< /Length {} >>", data.len()), Some(data)));
    }
    objs.extend(extra.iter().cloned());
    pdfgen::classic(&objs)
}

fn first_extra(pages: usize) -> usize {
    4 + 2 * pages
}

/// Content showing each `(x, y, text)` in Helvetica 10.
fn text(lines: &[(f32, f32, &str)]) -> String {
    lines
        .iter()
        .map(|(x, y, t)| format!("BT /F1 10 Tf {x} {y} Td {} Tj ET\n", pdfgen::pdf_literal(t)))
        .collect()
}

/// A form XObject with `content`, drawing the XObjects `xobjects` and the font `/F1`.
fn form(content: &str, matrix: &str, xobjects: &str) -> Obj {
    (
        format!(
            "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [{matrix}] \
             /Resources << /Font << /F1 3 0 R >> /XObject << {xobjects} >> >> /Length {} >>",
            content.len()
        ),
        Some(content.as_bytes().to_vec()),
    )
}

/// `pdf` written as `name` (named as arXiv names its PDFs, so that the name gives the citing
/// paper) in a folder of its own.
fn write(name: &str, pdf: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = common::tmpdir();
    let path = dir.path().join(name);
    std::fs::write(&path, pdf).unwrap();
    (dir, path)
}

fn refs(path: &std::path::Path) -> Vec<Value> {
    let r = run_pith(&["refs", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn keys(lines: &[Value]) -> BTreeSet<String> {
    lines
        .iter()
        .map(|v| match (v["arxiv"].as_str(), v["doi"].as_str()) {
            (Some(a), _) => format!("arxiv:{a}"),
            (_, Some(d)) => format!("doi:{}", d.to_ascii_lowercase()),
            _ => panic!("neither: {v}"),
        })
        .collect()
}

fn set(k: &[&str]) -> BTreeSet<String> {
    k.iter().map(|s| (*s).to_owned()).collect()
}

/// What pdftotext reads of `path`, when it is here.
fn pdftotext(path: &std::path::Path, test: &str) -> Option<String> {
    if !common::have_tool("pdftotext", test) {
        return None;
    }
    let out = std::process::Command::new("pdftotext")
        .arg(path)
        .arg("-")
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn text_inside_forms_is_read_where_it_is_drawn() {
    // The page draws a stamp form and the list's form; the list's form draws a nested one
    // shifted down by its matrix, as the ACL Anthology's pages are assembled.
    let x = first_extra(1);
    let page = Page {
        content: format!(
            "{}q /Stamp Do Q q 1 0 0 1 0 -20 cm /List Do Q\n",
            text(&[(72.0, 700.0, "We build on arXiv:1512.03385 in the body.")])
        ),
        extra: String::new(),
    };
    let stamp = form(
        &text(&[(
            72.0,
            30.0,
            "Proceedings, pages 1-9. https://doi.org/10.18653/v1/own",
        )]),
        "1 0 0 1 0 0",
        "",
    );
    // The nested form is drawn after the first entry.
    let list = form(
        &format!(
            "{}q /Deeper Do Q\n",
            text(&[
                (72.0, 600.0, "References"),
                (
                    72.0,
                    585.0,
                    "[1] A. Vaswani. Attention. arXiv:1706.03762v5, 2017."
                ),
            ])
        ),
        "1 0 0 1 0 0",
        &format!("/Deeper {} 0 R", x + 2),
    );
    let deeper = form(
        &text(&[(
            72.0,
            570.0,
            "[2] B. Author. Title. doi:10.1103/PhysRevD.95.062003",
        )]),
        "1 0 0 1 0 -10",
        "",
    );
    let pdf = doc(
        &[page],
        &format!("/Stamp {x} 0 R /List {} 0 R", x + 1),
        &[stamp, list, deeper],
    );
    let (_d, path) = write("0704.0001v1.pdf", &pdf);
    let got = refs(&path);
    assert_eq!(
        keys(&got),
        set(&["arxiv:1706.03762", "doi:10.1103/physrevd.95.062003"])
    );
    // In the order drawn: the nested form's entry after the first.
    assert_eq!(got[0]["arxiv"], "1706.03762");
    assert!(got[0]["line"].as_u64() < got[1]["line"].as_u64(), "{got:?}");
    if let Some(t) = pdftotext(&path, "text_inside_forms_is_read_where_it_is_drawn") {
        assert!(
            t.contains("1706.03762") && t.contains("PhysRevD.95.062003"),
            "{t}"
        );
    }
}

#[test]
fn hostile_forms_cost_a_bounded_count_of_operators() {
    let x = first_extra(1);
    // One content of about 1 KiB: some 200 operators each time it is read.
    let kib: String = "0 0 m 1 1 l S ".repeat(73);
    let entry = text(&[
        (72.0, 700.0, "References"),
        (72.0, 680.0, "[1] arXiv:1706.03762"),
    ]);
    let cases: Vec<(&str, Page, String, Vec<Obj>)> = vec![
        // A form that draws itself, and another that draws the first.
        (
            "cycle",
            Page {
                content: format!("{entry}/A Do\n"),
                extra: String::new(),
            },
            format!("/A {x} 0 R"),
            vec![
                form(
                    &format!("{kib}/A Do /B Do"),
                    "1 0 0 1 0 0",
                    &format!("/A {x} 0 R /B {} 0 R", x + 1),
                ),
                form(
                    &format!("{kib}/A Do"),
                    "1 0 0 1 0 0",
                    &format!("/A {x} 0 R"),
                ),
            ],
        ),
        // Ten thousand forms, each drawing the next.
        (
            "nested",
            Page {
                content: format!("{entry}/N Do\n"),
                extra: String::new(),
            },
            format!("/N {x} 0 R"),
            (0..10_000)
                .map(|i| {
                    form(
                        &format!("{kib}/N Do"),
                        "1 0 0 1 0 0",
                        &format!("/N {} 0 R", x + i + 1),
                    )
                })
                .collect(),
        ),
        // One form drawn a million times.
        (
            "million",
            Page {
                content: format!("{entry}{}", "/M Do\n".repeat(1_000_000)),
                extra: String::new(),
            },
            format!("/M {x} 0 R"),
            vec![form(&kib, "1 0 0 1 0 0", "")],
        ),
        // Sixteen forms, each drawing the next twice: 65,536 drawings of the last.
        (
            "doubling",
            Page {
                content: format!("{entry}/D Do\n"),
                extra: String::new(),
            },
            format!("/D {x} 0 R"),
            (0..16)
                .map(|i| {
                    form(
                        &format!("{kib}/D Do /D Do"),
                        "1 0 0 1 0 0",
                        &format!("/D {} 0 R", x + i + 1),
                    )
                })
                .collect(),
        ),
    ];
    for (name, page, xobjects, extra) in cases {
        let pdf = doc(&[page], &xobjects, &extra);
        let (_d, path) = write("0704.0001v1.pdf", &pdf);
        // Read within the default budget (20 million operators): unbounded, the million
        // drawings alone would be 200 million, the doubling chain 13 million per page.
        let got = refs(&path);
        assert_eq!(keys(&got), set(&["arxiv:1706.03762"]), "{name}");
    }
}

#[test]
fn running_headers_footers_and_the_stamp_are_no_references() {
    // Five pages of a PLOS-like paper: its own DOI atop every page, page numbers below, the
    // list on pages 4 and 5 under a "References" header that also tops page 6, which holds
    // nothing else; arXiv's stamp up the first page's margin.
    let head = |n: usize| {
        text(&[
            (
                72.0,
                770.0,
                "PLOS ONE | https://doi.org/10.1371/journal.pone.0123456",
            ),
            (300.0, 30.0, &format!("{n} / 6")),
        ])
    };
    let stamp = "BT /F1 20 Tf 0 1 -1 0 30 250 Tm (arXiv:2301.01234v2 [hep-th] 3 Jan 2023) Tj ET\n";
    let mut pages = vec![Page {
        content: format!(
            "{}{stamp}{}",
            head(1),
            text(&[(
                72.0,
                700.0,
                "As shown in arXiv:1512.03385, the body cites too."
            )])
        ),
        extra: String::new(),
    }];
    for n in 2..=3 {
        pages.push(Page {
            content: format!("{}{}", head(n), text(&[(72.0, 700.0, "Body text.")])),
            extra: String::new(),
        });
    }
    pages.push(Page {
        content: format!(
            "{}{}",
            head(4),
            text(&[
                (72.0, 750.0, "References"),
                (72.0, 700.0, "[1] A. Author. arXiv:1706.03762."),
                (72.0, 688.0, "[2] B. Author. doi:10.1000/first-page"),
            ])
        ),
        extra: String::new(),
    });
    pages.push(Page {
        content: format!(
            "{}{}",
            head(5),
            text(&[
                (72.0, 750.0, "References"),
                (72.0, 700.0, "[3] C. Author. doi:10.1000/second-page"),
            ])
        ),
        extra: String::new(),
    });
    pages.push(Page {
        content: format!("{}{}", head(6), text(&[(72.0, 750.0, "References")])),
        extra: String::new(),
    });
    let pdf = doc(&pages, "", &[]);
    let (_d, path) = write("paper.pdf", &pdf);
    let got = refs(&path);
    assert_eq!(
        keys(&got),
        set(&[
            "arxiv:1706.03762",
            "doi:10.1000/first-page",
            "doi:10.1000/second-page"
        ])
    );
    // The stamp names the citing paper, and says so.
    for v in &got {
        assert_eq!(v["citing"], "2301.01234v2", "{v}");
        assert_eq!(v["citing_from"], "stamp", "{v}");
    }
    // Named as arXiv names it, the name gives it.
    let named = path.with_file_name("2301.01234v2.pdf");
    std::fs::copy(&path, &named).unwrap();
    assert!(refs(&named).iter().all(|v| v["citing_from"] == "name"));
    if let Some(t) = pdftotext(
        &path,
        "running_headers_footers_and_the_stamp_are_no_references",
    ) {
        assert!(
            t.contains("journal.pone.0123456") && t.contains("second-page"),
            "{t}"
        );
    }
}

#[test]
fn a_list_without_heading_starts_at_its_first_entry() {
    let page = Page {
        content: text(&[
            (72.0, 700.0, "The body cites doi:10.1000/body-only here."),
            (72.0, 600.0, "[1] A. Author. arXiv:1706.03762."),
            (72.0, 588.0, "[2] B. Author. doi:10.1000/listed"),
        ]),
        extra: String::new(),
    };
    let (_d, path) = write("0704.0002v1.pdf", &doc(&[page], "", &[]));
    assert_eq!(
        keys(&refs(&path)),
        set(&["arxiv:1706.03762", "doi:10.1000/listed"])
    );
}

#[test]
fn links_on_the_list_count_as_what_the_entry_cites() {
    let x = first_extra(1);
    let link = |uri: &str, rect: &str| {
        (
            format!(
                "<< /Type /Annot /Subtype /Link /Rect [{rect}] /A << /S /URI /URI {} >> >>",
                pdfgen::pdf_literal(uri)
            ),
            None,
        )
    };
    let annots: Vec<String> = (0..5).map(|i| format!("{} 0 R", x + i)).collect();
    let page = Page {
        content: text(&[
            (72.0, 700.0, "The body links a DOI here."),
            (72.0, 650.0, "References"),
            (
                72.0,
                630.0,
                "[1] A. Author. Phys. Rev. D 95, 062003 (2017).",
            ),
            (
                72.0,
                618.0,
                "[2] B. Author. Attention is all you need (2017).",
            ),
            (72.0, 606.0, "[3] C. Author. arXiv:1512.03385."),
        ]),
        extra: format!("/Annots [{}]", annots.join(" ")),
    };
    let extra = vec![
        link("https://doi.org/10.1000/in-the-body", "72 695 300 710"),
        link(
            "https://doi.org/10.1103/PhysRevD.95.062003",
            "150 627 250 639",
        ),
        link("http://arxiv.org/pdf/1706.03762v5.pdf", "100 615 280 627"),
        // The same id as the entry's text: reported once, as read in the text.
        link("https://arxiv.org/abs/1512.03385", "72 603 250 615"),
        // Not a DOI's or arXiv's URL.
        link("https://example.org/10.1000/elsewhere", "72 627 300 639"),
    ];
    let (_d, path) = write("0704.0003v1.pdf", &doc(&[page], "", &extra));
    let got = refs(&path);
    assert_eq!(
        keys(&got),
        set(&[
            "arxiv:1512.03385",
            "arxiv:1706.03762",
            "doi:10.1103/physrevd.95.062003"
        ])
    );
    for v in &got {
        let linked = v["arxiv"] != "1512.03385";
        assert_eq!(v["via"] == "link", linked, "{v}");
    }
    let doi = got.iter().find(|v| v["doi"].is_string()).unwrap();
    assert_eq!(
        (doi["page"].as_u64(), doi["line"].as_u64()),
        (Some(1), Some(3))
    );
    let arxiv = got.iter().find(|v| v["arxiv"] == "1706.03762").unwrap();
    assert_eq!(arxiv["version"], 5);
}

#[test]
fn a_million_link_annotations_are_read_within_bounds() {
    let x = first_extra(1);
    let annot = (
        "<< /Type /Annot /Subtype /Link /Rect [72 627 300 639] /A << /S /URI /URI (https://doi.org/10.1000/linked) >> >>".to_owned(),
        None,
    );
    let page = Page {
        content: text(&[
            (72.0, 650.0, "References"),
            (72.0, 630.0, "[1] A. Author. A title (2017)."),
        ]),
        extra: format!("/Annots [{}]", format!("{x} 0 R ").repeat(1_000_000)),
    };
    let (_d, path) = write("0704.0004v1.pdf", &doc(&[page], "", &[annot]));
    let got = refs(&path);
    assert_eq!(keys(&got), set(&["doi:10.1000/linked"]));
}

#[test]
fn line_numbers_in_the_margin_are_no_part_of_an_identifier() {
    // A draft's lines as `lineno` numbers them: each line's text, then its number drawn in the
    // left margin on the same baseline. The ids run to the lines' ends and on into the next
    // line (a DOI broken after `10.`), where the margin's number would otherwise stick to
    // them (`10.1086/174719172`, `2209.0493473`).
    let lines = [
        "References",
        "Biro, S. (1994). A variable velocity jet. 434, 221. https://doi.org/10.1086/174719",
        "Ostriker, E. C. (2001). A ballistic bow shock model. https://doi.org/10.",
        "1086/321649",
        "Brandstetter, J. (2023). Clifford layers. https://arxiv.org/abs/2209.04934",
    ];
    let content: String = lines
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                "BT /F1 10 Tf 100 {} Td {} Tj -60 0 Td ({}) Tj ET\n",
                700 - 12 * i,
                pdfgen::pdf_literal(t),
                170 + i
            )
        })
        .collect();
    let page = Page {
        content,
        extra: String::new(),
    };
    let (_d, path) = write("0704.0003v1.pdf", &doc(&[page], "", &[]));
    assert_eq!(
        keys(&refs(&path)),
        set(&[
            "doi:10.1086/174719",
            "doi:10.1086/321649",
            "arxiv:2209.04934"
        ])
    );
    if let Some(t) = pdftotext(
        &path,
        "line_numbers_in_the_margin_are_no_part_of_an_identifier",
    ) {
        assert!(t.contains("174719") && t.contains("171"), "{t}");
    }
}

#[test]
fn a_type0_fonts_widths_place_its_words() {
    // XeTeX and LuaTeX write Identity-H fonts whose widths are in the CIDFont's /W, and place
    // each word where the last one ended plus a space. Read at a full em a glyph, the pen
    // would run past the next word, which would then read as a line of its own, and the DOI
    // broken at the column's edge (`joss.` ⏎ `04503`) as two pieces.
    let x = first_extra(1);
    let hex = |t: &str| -> String {
        let codes: String = t.bytes().map(|b| format!("00{b:02X}")).collect();
        format!("<{codes}>")
    };
    // Each word drawn alone where it stands at 500 thousandths a glyph, size 10.
    let line = |y: u32, words: &[&str]| -> String {
        let mut out = format!("BT /F2 10 Tf 100 {y} Td ");
        let mut at = 0;
        for w in words {
            out.push_str(&format!("{at} 0 Td {} Tj ", hex(w)));
            at = 5 * (w.len() + 1);
        }
        out.push_str("ET\n");
        out
    };
    let content = [
        line(700, &["References"]),
        line(
            688,
            &[
                "Bell,",
                "T.",
                "(2022).",
                "Eureka!",
                "https://doi.org/10.21105/joss.",
            ],
        ),
        line(676, &["04503"]),
    ]
    .concat();
    let tounicode = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap \
        1 begincodespacerange <0000> <FFFF> endcodespacerange \
        1 beginbfrange <0020> <007E> <0020> endbfrange endcmap end end";
    let type0 = (
        format!(
            "<< /Type /Font /Subtype /Type0 /BaseFont /LMSans10 /Encoding /Identity-H \
             /DescendantFonts [{} 0 R] /ToUnicode {} 0 R >>",
            x + 1,
            x + 2
        ),
        None,
    );
    let cid = (
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /LMSans10 \
         /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> \
         /DW 1000 /W [32 [500 500] 34 126 500] >>"
            .to_owned(),
        None,
    );
    let cmap = (
        format!("<< /Length {} >>", tounicode.len()),
        Some(tounicode.as_bytes().to_vec()),
    );
    let page = Page {
        content,
        extra: String::new(),
    };
    let pdf = doc_fonts(&[page], &format!("/F2 {x} 0 R"), "", &[type0, cid, cmap]);
    let (_d, path) = write("0704.0004v1.pdf", &pdf);
    assert_eq!(keys(&refs(&path)), set(&["doi:10.21105/joss.04503"]));
}
