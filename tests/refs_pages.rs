//! `pith refs` on pdfLaTeX pages shaped as real journals set their reference lists: where the
//! list ends (F1000's referee reports after it), where a DOI ends (PubMed's `Epub` date after
//! its full stop), SICI's square brackets (BioOne), and a list set in two columns, read left
//! column first as `pdftotext -layout` shows the page.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{self, run_pith, tex};

/// Typesets `source` with pdfLaTeX in `dir` as a file named as arXiv names its files (so
/// that `pith refs` names its citing paper), or `None` (skipped, said) without pdfLaTeX.
fn typeset(dir: &Path, source: &str, test: &str) -> Option<PathBuf> {
    if !common::have_tool("pdflatex", test) {
        return None;
    }
    std::fs::write(dir.join("page.tex"), source).unwrap();
    let mut cmd = tex::timed(120);
    cmd.current_dir(dir)
        .args(["pdflatex", "-interaction=nonstopmode", "-halt-on-error"])
        .arg("page.tex");
    let (ok, log) = tex::run_tool(cmd, "pdflatex", 120);
    assert!(ok, "{log}");
    let named = dir.join("0704.0002v1.pdf");
    std::fs::copy(dir.join("page.pdf"), &named).unwrap();
    Some(named)
}

/// The page as `pdftotext -layout` reads it (columns side by side), or `None` (skipped, said).
fn layout(pdf: &Path, test: &str) -> Option<String> {
    if !common::have_tool("pdftotext", test) {
        return None;
    }
    let out = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success());
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The identifiers `pith refs` reads from `pdf`, in the order it reports them.
fn cited(pdf: &Path) -> Vec<String> {
    let r = run_pith(&["refs", pdf.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            match (v["arxiv"].as_str(), v["doi"].as_str()) {
                (Some(a), _) => format!("arxiv:{a}"),
                (_, Some(d)) => format!("doi:{}", d.to_lowercase()),
                _ => panic!("{l}"),
            }
        })
        .collect()
}

/// An F1000Research article's last page: its list, then "Open Peer Review" with each referee
/// report's own DOI (`10.5256/f1000research.…`), which the list does not cite. A PubMed-style
/// entry whose DOI's full stop ends a justified line before `Epub 2012 Aug 7.`, and a BioOne
/// SICI DOI with its `[page:code]`.
const F1000: &str = r"\documentclass{article}
\begin{document}
\section*{References}
\begin{enumerate}
\item Frost H, Smith A. A lifestyle intervention during pregnancy in overweight women, maintained post-partum. Int J Obes 2013;37(5):704-11. doi:10.1038/ijo.2012.129.\linebreak Epub 2012 Aug 7.
\item Frantz T, Kaminski J. Effects of scavenging on the kill rates of wolf packs. Wildl. Biol. 11, 101--108. doi: 10.2981/0909-6396(2005)11[101:EORCCS]2.0.CO;2
\item Loefer JK, Sedberry GR. Life history of the Atlantic sharpnose shark. Fish Bull. 2003; 101(1): 75--88. doi:10.1000/fishbull.101.75
\end{enumerate}
\section*{Open Peer Review}
Referee Report 29 January 2015

doi:10.5256/f1000research.5743.r7492

Alastair Harry, James Cook University. I have read this submission.

Referee Report 02 September 2014

doi:10.5256/f1000research.5090.r5801
\end{document}
";

#[test]
fn referee_reports_after_the_list_and_a_sentence_after_a_doi_are_not_cited() {
    let test = "refs_pages_f1000";
    let dir = common::tmpdir();
    let Some(pdf) = typeset(dir.path(), F1000, test) else {
        return;
    };
    // The PubMed line reaches the column's edge at the DOI's full stop, as the real one did.
    if let Some(text) = layout(&pdf, test) {
        assert!(text.contains("ijo.2012.129.\n"), "{text}");
        assert!(text.contains("Open Peer Review"), "{text}");
    }
    assert_eq!(
        cited(&pdf),
        [
            "doi:10.1038/ijo.2012.129",
            "doi:10.2981/0909-6396(2005)11[101:eorccs]2.0.co;2",
            "doi:10.1000/fishbull.101.75",
        ]
    );
}

/// Two two-column pages whose list fills the left column and goes on in the right, each
/// entry's DOI URL broken across lines by url.sty (titles of different lengths break them at
/// different places), numbered in the order they are printed. Entries 10 and 31 end the left
/// columns of the two pages at the same height with lines alike but for their numbers
/// (`Rev. Lett. 10 (2020) 101, https://doi.org/10.`), as HEP letters' lists do: no running
/// footer.
fn two_columns() -> (String, Vec<String>) {
    let mut src = String::from(
        "\\documentclass[twocolumn]{article}\n\\usepackage{url}\n\\begin{document}\n\
         \\begin{thebibliography}{99}\n",
    );
    let mut want = Vec::new();
    for i in 1..=36 {
        let doi = format!("10.1103/PhysRevLett.{}.{:06}", 100 + i, 62000 + i * 7);
        src.push_str(&format!(
            "\\bibitem{{r{i}}} A.~Writer{i} and B.~Other, A title {}for entry {i}, \
             Phys. Rev. Lett. {i} (2020) {i}1, \\url{{https://doi.org/{doi}}}.\n",
            "of some length ".repeat(i % 4)
        ));
        want.push(format!("doi:{}", doi.to_lowercase()));
    }
    src.push_str("\\end{thebibliography}\n\\end{document}\n");
    (src, want)
}

#[test]
fn a_list_in_two_columns_is_read_left_column_first() {
    let test = "refs_pages_two_columns";
    let dir = common::tmpdir();
    let (src, want) = two_columns();
    let Some(pdf) = typeset(dir.path(), &src, test) else {
        return;
    };
    let Some(layout) = layout(&pdf, test) else {
        return;
    };
    // The pages are set in two columns: pdftotext's layout shows text side by side on many
    // lines, and entries' DOIs are broken across lines.
    assert!(
        layout
            .lines()
            .filter(|l| l
                .trim()
                .split("   ")
                .filter(|p| !p.trim().is_empty())
                .count()
                >= 2)
            .count()
            >= 20,
        "{layout}"
    );
    let lower = layout.to_lowercase();
    let whole = |d: &String| lower.contains(d.trim_start_matches("doi:"));
    assert!(!want.iter().all(whole), "no DOI is broken: {layout}");
    // Read as pdftotext -layout reads it: the left column's entries first, each whole.
    assert_eq!(cited(&pdf), want);
}
