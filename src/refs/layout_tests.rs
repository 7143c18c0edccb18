//! Tests of the reference list's layout rules (running lines, the list's start and end, own
//! DOIs, links, the stamp).
use super::*;

fn line(text: &str, y: f32) -> Line {
    Line {
        text: text.into(),
        x0: 72.0,
        x1: 300.0,
        y,
        size: 10.0,
        rotated: false,
    }
}

#[test]
fn the_list_ends_at_a_section_printed_after_it() {
    let t = |v: &[&'static str]| -> Vec<(&'static str, Option<u32>)> {
        v.iter().map(|&s| (s, Some(1))).collect()
    };
    let lines = t(&[
        "Intro",
        "References",
        "[1] A",
        "Open Peer Review",
        "doi:10.5256/x",
    ]);
    assert_eq!(end(&lines, 2), 3);
    for h in [
        "Appendix A",
        "Appendix 1:",
        "APPENDICES",
        "Supplementary material",
    ] {
        assert_eq!(end(&t(&["References", "[1] A", h, "B"]), 1), 2, "{h}");
    }
    // An entry's words, and a paper read whole, are not cut.
    for l in [
        "Appendix B of Ref. 3",
        "Tables.",
        "[2] Open Peer Review guide",
    ] {
        assert_eq!(end(&t(&["References", "[1] A", l, "B"]), 1), 4, "{l}");
    }
    assert_eq!(end(&t(&["Appendix A", "[1] A"]), 0), 2);
}

#[test]
fn running_lines_are_the_same_text_at_the_same_height() {
    let pages: Vec<PageText> = (1..=5)
        .map(|n| PageText {
            page: n,
            lines: vec![
                line(
                    &format!("PLOS ONE | https://doi.org/10.1371/journal.pone.0{n}"),
                    780.0,
                ),
                line(&format!("Body line {n} of its own page"), 700.0),
                line("A sentence that happens to repeat", 400.0 + n as f32 * 20.0),
                line(&format!("{n} / 5"), 40.0),
                line(&format!("[{n}] A. Author. Title. arXiv:1706.0376{n}"), 60.0),
            ],
            links: vec![],
        })
        .collect();
    let r = running(&pages);
    for p in 0..5 {
        assert!(r.contains(&(p, 0)), "header on page {p}");
        // A page number alone is not worth the name (it holds no identifier).
        assert!(!r.contains(&(p, 3)), "page number on page {p}");
        assert!(!r.contains(&(p, 2)), "moving line on page {p}");
        assert!(!r.contains(&(p, 4)), "an entry on page {p}");
    }
    // "Body line N": digits aside the same, and at the same height: running too.
    assert!(r.contains(&(0, 1)));

    // Two pages' feet in a list that read alike but for two numbers: no furniture; a
    // footer whose one number (the page's) changes is.
    let pages: Vec<PageText> = [("10", "101", 1), ("31", "311", 2)]
        .iter()
        .map(|&(vol, page, n)| PageText {
            page: n,
            lines: vec![
                line("Body text of the page", 700.0),
                line("More body text of the page", 680.0),
                line(
                    &format!("Rev. Lett. {vol} (2020) {page}, https://doi.org/10."),
                    80.0,
                ),
                line(&format!("Letters, page {n} of 2"), 40.0),
            ],
            links: vec![],
        })
        .collect();
    let r = running(&pages);
    assert!(!r.contains(&(0, 2)) && !r.contains(&(1, 2)), "{r:?}");
    assert!(r.contains(&(0, 3)) && r.contains(&(1, 3)), "{r:?}");
}

#[test]
fn the_list_starts_after_the_heading_that_has_a_list() {
    let l = |t: &'static str, p: u32| (t, Some(p));
    // "References" atop each page of the list and alone on a last page.
    let lines = [
        l("Introduction", 1),
        l("References", 5),
        l("[1] A. Author", 5),
        l("[2] B. Author", 5),
        l("References", 6),
        l("[3] C. Author", 6),
        l("References", 7),
    ];
    assert_eq!(start(&lines), 2);
    // No heading: from the last [1] a [2] follows.
    let lines = [
        l("[1] in the body, alone", 1),
        l("text", 1),
        l("[1] A. Author", 4),
        l("[2] B. Author", 4),
    ];
    assert_eq!(start(&lines), 2);
    assert_eq!(start(&[l("text", 1), l("more", 1)]), 0);
}

#[test]
fn link_targets() {
    let c = |u: &str| cited_by_uri(u).map(|c| c.key());
    assert_eq!(
        c("https://doi.org/10.1103/PhysRevD.95.062003").as_deref(),
        Some("doi:10.1103/physrevd.95.062003")
    );
    assert_eq!(
        c("http://dx.doi.org/10.1002/(SICI)1099-1166%3C15::AID%3E3.0.CO;2-5").as_deref(),
        Some("doi:10.1002/(sici)1099-1166<15::aid>3.0.co;2-5")
    );
    assert_eq!(
        c("https://arxiv.org/pdf/1706.03762v5.pdf").as_deref(),
        Some("arxiv:1706.03762")
    );
    assert_eq!(
        c("https://doi.org/10.48550/arXiv.2402.03791").as_deref(),
        Some("arxiv:2402.03791")
    );
    // Publishers' pages that name their DOI.
    for (u, key) in [
        (
            "https://onlinelibrary.wiley.com/doi/abs/10.1002/asi.23256",
            "doi:10.1002/asi.23256",
        ),
        (
            "http://onlinelibrary.wiley.com/doi/10.1002/asi.23256/full",
            "doi:10.1002/asi.23256",
        ),
        (
            "https://link.springer.com/book/10.1007/978-3-030-70578-7",
            "doi:10.1007/978-3-030-70578-7",
        ),
        (
            "https://link.springer.com/article/10.1007/s11192-018-2920-6",
            "doi:10.1007/s11192-018-2920-6",
        ),
        (
            "https://link.springer.com/content/pdf/10.1007/s11192-018-2920-6.pdf",
            "doi:10.1007/s11192-018-2920-6",
        ),
        (
            "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0197260",
            "doi:10.1371/journal.pone.0197260",
        ),
        (
            "https://www.tandfonline.com/doi/full/10.1080/00031305.2016.1154108#abstract",
            "doi:10.1080/00031305.2016.1154108",
        ),
        (
            "https://iopscience.iop.org/article/10.1088/1475-7516/2014/01/007",
            "doi:10.1088/1475-7516/2014/01/007",
        ),
    ] {
        assert_eq!(c(u).as_deref(), Some(key), "{u}");
    }
    for u in [
        "https://example.org/10.1000/x",
        "https://example.org/files/10.5/report.pdf",
        "https://example.org/doi/",
        "https://example.org/article?page=10.1000/x",
        "https://doi.org/",
        "https://doi.org/10.x/abc",
        "mailto:a@b",
    ] {
        assert_eq!(c(u), None, "{u}");
    }
}

#[test]
fn the_box_that_cites_the_paper_itself() {
    let mut l = vec![
        line("[70] A. Author. doi:10.1000/cited", 300.0),
        line("doi:10.1186/1471-2148-14-70", 228.0),
        line("Cite this article as: Barnett et al.: Revealing", 219.0),
        line("history. BMC Evolutionary Biology 2014 14:70.", 210.0),
    ];
    l.push(Line {
        x0: 322.0,
        ..line("Submit your next manuscript", 178.0)
    });
    let pages = [PageText {
        page: 11,
        lines: l,
        links: vec![],
    }];
    let own = own_citation(&pages);
    let mut got: Vec<usize> = own.iter().map(|&(_, i)| i).collect();
    got.sort_unstable();
    assert_eq!(got, [1, 2, 3]);
}

#[test]
fn stamps() {
    assert_eq!(
        stamp_id("arXiv:2402.03791v3 [cs.DC] 6 Feb 2024").as_deref(),
        Some("2402.03791v3")
    );
    assert_eq!(
        stamp_id("arXiv:hep-th/9901001v1 [hep-th] 4 Jan 1999").as_deref(),
        Some("hep-th/9901001v1")
    );
    assert_eq!(stamp_id("see arXiv:2402.03791 for details"), None);
}

#[test]
fn the_dois_of_the_first_pages_header_and_footer_are_the_papers_own() {
    let mut header = line("doi:10.1088/1742-6596/2188/1/012011", 740.0);
    header.x0 = 400.0;
    let first = PageText {
        page: 1,
        lines: vec![
            line("IOP Publishing", 760.0),
            line("JCRAI-2021", 760.0),
            line("Journal of Physics: Conference Series", 740.0),
            line("2188 (2022) 012011", 740.0),
            header,
            line("Title of the paper", 700.0),
            line("A. Author, B. Author", 680.0),
            line("Abstract", 660.0),
            line("We study what we study.", 640.0),
            line(
                "As shown before (doi:10.1000/body-cited), this works.",
                600.0,
            ),
            line("More of the body.", 580.0),
            line("Still more of the body.", 560.0),
            line("The end of the first page's body.", 540.0),
            line("1", 40.0),
        ],
        links: vec![],
    };
    let last = PageText {
        page: 2,
        lines: vec![
            line("References", 700.0),
            line(
                "[1] A. Author, J. Phys. 1 (2020) 2, doi:10.1000/listed",
                680.0,
            ),
            line("doi:10.1088/1742-6596/2188/1/012011", 60.0),
        ],
        links: vec![],
    };
    let first_again = first.clone();
    let first_lines = first.lines.len();
    let own = own_dois(&[first.clone(), last.clone()], &HashSet::new());
    assert_eq!(
        own.into_iter().collect::<Vec<_>>(),
        ["10.1088/1742-6596/2188/1/012011"]
    );
    let keys: Vec<String> = super::super::from_pages(&[first, last])
        .into_iter()
        .map(|m| format!("{:?}", m.cited))
        .collect();
    assert_eq!(keys, [format!("{:?}", Cited::Doi("10.1000/listed".into()))]);
    // Only the first page says which DOI is the paper's.
    let later = PageText {
        page: 3,
        lines: vec![line("doi:10.1000/listed", 760.0)],
        links: vec![],
    };
    assert!(own_dois(&[later], &HashSet::new()).is_empty());
    // Nor where the list itself is printed on the first page.
    let listed: HashSet<usize> = (0..first_lines).collect();
    assert!(own_dois(&[first_again], &listed).is_empty());
}

#[test]
fn a_link_split_by_a_line_break_as_a_strip_between_its_lines() {
    // PTEP's list: `[42] … Nucl. Phys. B 775, 120 (2007); 836, 127 (2010)⏎[erratum].`, whose
    // second reference is linked by a 1-point strip from the link's start (x 429, first line)
    // to its end (x 154, after `[erratum]`), in the leading between the two lines.
    let at = |text: &str, x0: f32, x1: f32, y: f32| Line {
        text: text.into(),
        x0,
        x1,
        y,
        size: 9.96,
        rotated: false,
    };
    let entry = at(
        "[42] F. Feruglio, … Nucl. Phys. B 775, 120 (2007); 836, 127 (2010)",
        89.5,
        494.4,
        312.1,
    );
    let erratum = at("[erratum].", 113.0, 153.4, 300.1);
    let next = at(
        "[43] Y. Kajiyama, … Phys. Rev. D 75, 033001 (2007).",
        89.5,
        392.6,
        288.2,
    );
    let lines = [(7, &next), (6, &erratum), (5, &entry)];
    assert_eq!(under(&lines, [154.4, 308.0, 429.5, 309.0]), Some(5));
    // A link drawn over a line as usual still finds it.
    assert_eq!(under(&lines, [315.2, 286.0, 393.6, 297.0]), Some(7));
    // A strip farther than half a line from any line's glyphs, or a rectangle as tall as a
    // line's glyphs lying in the leading, belongs to no line.
    assert_eq!(under(&lines, [154.4, 326.0, 429.5, 327.0]), None);
    assert_eq!(under(&[(5, &entry)], [154.4, 296.0, 429.5, 308.0]), None);
}
