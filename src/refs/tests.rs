//! The reading of reference lists, tested on pages built line by line.

use super::*;
use crate::pdf::text::Line;

fn page(n: u32, texts: &[(&str, f32)]) -> PageText {
    PageText {
        page: n,
        lines: texts
            .iter()
            .enumerate()
            .map(|(i, (t, x1))| Line {
                text: (*t).into(),
                x0: 72.0,
                x1: *x1,
                y: 700.0 - 12.0 * i as f32,
                size: 10.0,
                rotated: false,
            })
            .collect(),
        links: vec![],
    }
}

fn keys(m: &[Mention]) -> Vec<String> {
    m.iter().map(|m| m.cited.key()).collect()
}

#[test]
fn column_edges_are_the_farthest_end_of_lines_starting_near() {
    // Lines at pseudo-random starts and ends, against the definition read naively.
    let mut x = 12345u32;
    let mut next = || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 8) % 400
    };
    let lines: Vec<Line> = (0..300)
        .map(|i| {
            let x0 = next() as f32;
            Line {
                text: "t".into(),
                x0,
                x1: x0 + next() as f32,
                y: i as f32,
                size: 10.0,
                rotated: false,
            }
        })
        .collect();
    let naive: Vec<f32> = lines
        .iter()
        .map(|l| {
            lines
                .iter()
                .filter(|o| (o.x0 - l.x0).abs() < 60.0)
                .map(|o| o.x1)
                .fold(l.x1, f32::max)
        })
        .collect();
    let refs: Vec<&Line> = lines.iter().collect();
    assert_eq!(edges(&refs), naive);
}

#[test]
fn headings() {
    for h in [
        "References",
        "REFERENCES",
        "7 References",
        "VII. REFERENCES",
        "Bibliography:",
    ] {
        assert!(is_heading(h), "{h}");
    }
    for h in [
        "References are given below",
        "See the references",
        "Appendix",
    ] {
        assert!(!is_heading(h), "{h}");
    }
}

#[test]
fn urls_broken_across_lines_are_joined() {
    let p = page(
        3,
        &[
            ("References", 150.0),
            (
                "[1] A. Author, Some title, Journal 5 (2020), https://doi.org/10.1103/",
                300.0,
            ),
            (
                "PhysRevD.95.062003. And more text that fills the line to the right",
                300.0,
            ),
            (
                "[2] B. Author, Another, https://doi.org/10.1000/abc-def-",
                300.0,
            ),
            ("ghi, 2021.", 120.0),
            ("[3] C. Author, A preprint, arXiv:", 200.0),
            ("2402.03791v2, 2024.", 120.0),
        ],
    );
    let m = from_pages(&[p]);
    assert_eq!(
        keys(&m),
        [
            "doi:10.1103/physrevd.95.062003",
            "doi:10.1000/abc-def-ghi",
            "arxiv:2402.03791"
        ]
    );
    assert_eq!((m[0].page, m[0].line), (Some(3), 2));
}

#[test]
fn a_url_broken_before_its_hyphen_is_joined() {
    let p = page(
        3,
        &[
            ("References", 150.0),
            (
                "[5] Richmond, VA, USA. https://doi.org/10.18429/JACoW",
                300.0,
            ),
            ("-HP071-WEPTY035", 120.0),
            ("[6] A. Author. doi:10.1000/abc", 200.0),
            ("[7] B. Author. (doi:10.1016/s1388-1981(01)00", 200.0),
            ("130-5)", 100.0),
            ("- a dash that starts a line", 200.0),
        ],
    );
    assert_eq!(
        keys(&from_pages(&[p])),
        [
            "doi:10.18429/jacow-hp071-wepty035",
            "doi:10.1000/abc",
            "doi:10.1016/s1388-1981(01)00130-5"
        ]
    );
}

#[test]
fn a_running_references_header_starts_the_list_where_it_is_first_printed() {
    // The list's own heading, then "12 References" and "References 13" atop the pages
    // that follow (running lines, with page numbers).
    let mut pages = vec![page(
        1,
        &[
            ("Body arXiv:1512.03385", 300.0),
            ("References", 300.0),
            ("[1] arXiv:1706.03762", 300.0),
        ],
    )];
    for n in 2..=4u32 {
        let head = if n % 2 == 0 {
            format!("{n} References")
        } else {
            format!("References {n}")
        };
        let word = ["", "", "two", "three", "four"][n as usize];
        let entry = format!("[{n}] doi:10.1000/{word}");
        pages.push(page(n, &[(head.as_str(), 300.0), (entry.as_str(), 300.0)]));
    }
    assert_eq!(
        keys(&from_pages(&pages)),
        [
            "arxiv:1706.03762",
            "doi:10.1000/two",
            "doi:10.1000/three",
            "doi:10.1000/four"
        ]
    );
}

#[test]
fn an_entry_that_ends_in_a_doi_does_not_run_into_the_next() {
    // The last line of an entry is short (ragged): its period ends the entry.
    let p = page(
        1,
        &[
            ("Bibliography", 150.0),
            (
                "Author, A. (2020). A title that fills the whole line of the column so",
                300.0,
            ),
            ("it wraps. Journal, 1, 2. doi:10.1000/xyz.", 180.0),
            (
                "Smith, J. (2019). Another title that also fills the line to the edge",
                300.0,
            ),
            ("of the column. Journal. doi:10.1000/uvw", 300.0),
        ],
    );
    assert_eq!(
        keys(&from_pages(&[p])),
        ["doi:10.1000/xyz", "doi:10.1000/uvw"]
    );
}

#[test]
fn soft_hyphens_are_break_opportunities_not_characters() {
    let p = page(
        1,
        &[
            ("References", 100.0),
            (
                "[1] A. Author, Cell 1 (2009) 2, doi:10.1016/j.\u{AD}cell.2009.01.002.",
                300.0,
            ),
            (
                "[2] B. Author, Nature 550 (2017) 1, doi:10.1038/na\u{AD}",
                200.0,
            ),
            ("ture34693.", 100.0),
        ],
    );
    assert_eq!(
        keys(&from_pages(&[p])),
        ["doi:10.1016/j.cell.2009.01.002", "doi:10.1038/nature34693"]
    );
}

#[test]
fn an_open_bracket_runs_on_to_its_close_but_not_into_a_label() {
    let p = page(
        1,
        &[
            ("References", 100.0),
            (
                "[1] A. Author, J. Dairy Sci. 88, 3402. (doi:10.3168/jds.S0022-0302",
                150.0,
            ),
            ("(05)73024-1)", 100.0),
            ("[2] B. Author, Two of them (doi:10.1000/abc;", 150.0),
            ("doi:10.1000/def).", 100.0),
        ],
    );
    assert_eq!(
        keys(&from_pages(&[p])),
        [
            "doi:10.3168/jds.s0022-0302(05)73024-1",
            "doi:10.1000/abc",
            "doi:10.1000/def"
        ]
    );
}

#[test]
fn unfinished_tokens_run_on_wherever_the_line_ends() {
    // Ragged lines (far from the edge) that cannot end an identifier.
    let p = page(
        1,
        &[
            ("References", 100.0),
            ("[1] A. Author, A preprint, https://arxiv.", 150.0),
            ("org/abs/2402.03791.", 100.0),
            ("[2] B. Author, Gastroenterology, doi:10.1053/j.", 150.0),
            ("gastro.2020.01.001.", 100.0),
        ],
    );
    assert_eq!(
        keys(&from_pages(&[p])),
        ["arxiv:2402.03791", "doi:10.1053/j.gastro.2020.01.001"]
    );
}

#[test]
fn only_the_reference_section_is_read() {
    let body = page(1, &[("see arXiv:1706.03762 and 10.1000/body", 300.0)]);
    let refs = page(2, &[("References", 100.0), ("[1] arXiv:1512.03385", 200.0)]);
    assert_eq!(
        keys(&from_pages(&[body.clone(), refs])),
        ["arxiv:1512.03385"]
    );
    // Without a heading, everything.
    assert_eq!(keys(&from_pages(&[body])).len(), 2);
}

#[test]
fn repeated_mentions_are_one_with_the_first_version() {
    let p = page(
        1,
        &[
            ("References", 1.0),
            ("arXiv:1706.03762 and arXiv:1706.03762v5", 1.0),
        ],
    );
    let m = from_pages(&[p]);
    assert_eq!(m.len(), 1);
    assert_eq!(
        m[0].cited,
        Cited::Arxiv {
            id: "1706.03762".into(),
            version: Some(5)
        }
    );
}

#[test]
fn bbl_lines() {
    let bbl = "\\entry{v}{article}{}\n  \\field{eprint}{1706.03762}\n  \\field{eprinttype}{arXiv}\n  \\verb{doi}\n  \\verb 10.1000/a\\_b\n  \\endverb\n";
    let m = from_bbl(bbl);
    assert_eq!(keys(&m), ["arxiv:1706.03762", "doi:10.1000/a_b"]);
    assert_eq!(m[1].line, 5);
    assert_eq!(m[1].page, None);
}
