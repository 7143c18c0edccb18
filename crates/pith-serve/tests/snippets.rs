//! The LaTeX snippets of a record page compile as printed: each one, with the PDF badge the
//! mirror serves at the address its comment names saved under the name it includes, goes
//! through pdfLaTeX; the result links to the record without a border (qpdf) and shows the
//! number as text (pdftotext). The dark `<picture>` names the mirror's dark badge.

use crate::common::{code, have_tool, vectors, Fixture, Server};

/// The text of every `<pre data-copy="LaTeX, …">` of `page`, unescaped.
fn latex_snippets(page: &str) -> Vec<String> {
    page.split("<pre data-copy=\"LaTeX, ")
        .skip(1)
        .map(|rest| {
            let body = &rest[rest.find('>').unwrap() + 1..rest.find("</pre>").unwrap()];
            body.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

#[test]
fn the_record_pages_latex_snippets_compile_with_the_mirrors_pdf_badge() {
    let t = "the_record_pages_latex_snippets_compile_with_the_mirrors_pdf_badge";
    for tool in ["pdflatex", "qpdf", "pdftotext"] {
        if !have_tool(tool, t) {
            return;
        }
    }
    let f = Fixture::new();
    // The snippets name the mirror's public address, which only --base-url gives.
    let base = "https://mirror.example.org";
    let s = Server::start(&f.index, &["--base-url", base]);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    let page = s
        .get(&format!("/pith/{c}"), &[("Accept", "text/html")])
        .text();
    assert!(
        page.contains(&format!("{base}/badge/{c}-dark.svg")),
        "the <picture> names the dark badge: {page}"
    );
    let snippets = latex_snippets(&page);
    assert_eq!(snippets.len(), 4, "{page}");
    let dir = tempfile::tempdir().unwrap();
    for (i, snippet) in snippets.iter().enumerate() {
        let url = snippet
            .lines()
            .find_map(|l| l.strip_prefix("% or downloaded from "))
            .unwrap_or_else(|| panic!("no download address in\n{snippet}"));
        let file = snippet
            .split("\\includegraphics[height=1.6em]{")
            .nth(1)
            .and_then(|r| r.split('}').next())
            .unwrap();
        let path = url.strip_prefix(base).unwrap();
        let pdf = s.get(path, &[]);
        assert_eq!(pdf.status, 200, "{url}");
        assert_eq!(pdf.header("content-type"), Some("application/pdf"));
        std::fs::write(dir.path().join(file), &pdf.body).unwrap();
        let tex = format!(
            "\\documentclass{{article}}\n\\usepackage{{graphicx,hyperref}}\n\\begin{{document}}\n{snippet}\n\\end{{document}}\n"
        );
        let name = format!("s{i}");
        std::fs::write(dir.path().join(format!("{name}.tex")), tex).unwrap();
        let o = std::process::Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error"])
            .arg(format!("{name}.tex"))
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{snippet}\n{}",
            String::from_utf8_lossy(&o.stdout)
        );
        let out = dir.path().join(format!("{name}.pdf"));
        let text = std::process::Command::new("pdftotext")
            .arg(&out)
            .arg("-")
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&text.stdout).contains(&c[..8]),
            "{i}: the badge's number is text"
        );
        let json = std::process::Command::new("qpdf")
            .arg("--json")
            .arg(&out)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let links: Vec<serde_json::Value> = v["qpdf"][1]
            .as_object()
            .unwrap()
            .values()
            .filter_map(|o| o.get("value"))
            .filter(|o| o["/Subtype"] == "/Link")
            .cloned()
            .collect();
        assert_eq!(links.len(), 1, "{links:?}");
        assert_eq!(links[0]["/Border"], serde_json::json!([0, 0, 0]));
        assert_eq!(
            links[0]["/A"]["/URI"],
            format!("u:https://pith.science/pith/{c}")
        );
    }
}
