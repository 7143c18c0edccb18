//! The LaTeX matrix: real documents on every engine and class we support, each PDF checked with
//! tools we did not write.

use crate::common;

use serde_json::Value;

use crate::common::{
    PITH_NS, SEED as FULL, SEED_CODE as CODE, SEED_SHORT as SHORT, SEED_URL as URL,
};

use crate::latex::{
    adapt, compile, document, flat_log, have_tools, install_sty, leg_features, log, page1_words,
    run_matrix, stream_data, tex_dir, Cell, Engine, LegFeatures, Meta, Pdf, Word,
};

pub(crate) fn cell(
    name: &'static str,
    doc: &'static str,
    opts: &'static str,
    engine: Engine,
    pkgs: &'static str,
) -> Cell {
    Cell {
        name,
        doc,
        opts,
        engine,
        pre: "",
        pkgs,
        number: FULL,
        meta: Meta::Own,
        log_has: None,
        pages_gt_one: false,
    }
}

/// Rolls the kernel back to 2020-10, the oldest we support.
pub(crate) const ROLLBACK: &str = "\\RequirePackage[2020/10/01]{latexrelease}";

const HR_BEFORE: &str = "\\usepackage{hyperref}PITH";

const HR_AFTER: &str = "PITH\\usepackage{hyperref}";

/// The matrix. Each class appears once per layout option; engines and hyperref load orders
/// are spread across the classes so that every engine meets hyperref before, after and
/// absent, and every metadata route (own packet, hyperxmp, pdfx, pdfmanagement) is covered.
pub(crate) fn cells() -> Vec<Cell> {
    use Engine::*;
    vec![
        // article: one column on every engine, every hyperref order somewhere.
        Cell {
            number: "pith:2024:7bmk4zktputuy3jkwbannpofr5",
            log_has: Some("Placement through command hooks"),
            ..cell("article-pdf", "article", "", Pdf, "PITH")
        },
        // The bare code as a record page shows it: URL and short form, no number.
        Cell {
            number: CODE,
            log_has: Some("gives the code without its year"),
            ..cell("article-xe-hrbefore", "article", "", Xe, HR_BEFORE)
        },
        cell("article-lua-hrafter", "article", "", Lua, HR_AFTER),
        cell("article-dvips", "article", "", Dvips, "PITH"),
        cell("article-twocolumn-dvips-hrafter", "article", "twocolumn", Dvips, HR_AFTER),
        cell("article-twocolumn-pdf-nocmdhooks", "article", "twocolumn", Pdf, "\\usepackage[nocmdhooks]{pith}NUMBER"),
        Cell { pages_gt_one: true, ..cell("article-titlepage-pdf-hrafter", "article", "titlepage", Pdf, HR_AFTER) },
        Cell { pages_gt_one: true, ..cell("article-titlepage-xe-nocmdhooks", "article", "titlepage", Xe, "\\usepackage[nocmdhooks]{pith}NUMBER") },
        cell("amsart-lua", "amsart", "", Lua, "PITH"),
        cell("amsart-dvips-hrbefore", "amsart", "", Dvips, HR_BEFORE),
        cell("revtex-reprint-pdf-hrbefore", "revtex", "reprint", Pdf, HR_BEFORE),
        cell("revtex-preprint-xe", "revtex", "preprint", Xe, "PITH"),
        cell("ieeetran-conference-pdf", "ieeetran", "conference", Pdf, "PITH"),
        cell("ieeetran-journal-dvips-hrbefore", "ieeetran", "journal", Dvips, HR_BEFORE),
        // acmart loads hyperref and hyperxmp itself: the pith properties join hyperxmp's packet.
        Cell { meta: Meta::Shared, ..cell("acmart-sigconf-pdf", "acmart", "sigconf", Pdf, "PITH") },
        Cell { meta: Meta::Shared, ..cell("acmart-acmsmall-lua", "acmart", "acmsmall", Lua, "PITH") },
        cell("llncs-xe-hrafter", "llncs", "", Xe, HR_AFTER),
        cell("elsarticle-preprint-lua", "elsarticle", "preprint", Lua, "PITH"),
        cell("elsarticle-5p-pdf-hrbefore", "elsarticle", "5p", Pdf, HR_BEFORE),
        cell("mnras-pdf", "mnras", "", Pdf, "PITH"),
        // The format date decides the patching method: with the kernel rolled back to 2020-10
        // (latexrelease) there are no command hooks, so etoolbox patches do the placement.
        Cell {
            pre: ROLLBACK,
            log_has: Some("Placement through etoolbox patches (format 2020/10/01)"),
            ..cell("kernel2020-article-twocolumn-pdf", "article", "twocolumn", Pdf, "PITH")
        },
        Cell {
            pre: ROLLBACK,
            log_has: Some("Placement through etoolbox patches (format 2020/10/01)"),
            ..cell("kernel2020-amsart-xe-hrafter", "amsart", "", Xe, HR_AFTER)
        },
        Cell {
            pre: ROLLBACK,
            pages_gt_one: true,
            log_has: Some("Placement through etoolbox patches (format 2020/10/01)"),
            ..cell("kernel2020-article-titlepage-dvips", "article", "titlepage", Dvips, "PITH")
        },
        Cell {
            pre: ROLLBACK,
            log_has: Some("Placement through etoolbox patches (format 2020/10/01)"),
            ..cell("kernel2020-ieeetran-conference-pdf", "ieeetran", "conference", Pdf, "PITH")
        },
        Cell {
            pre: ROLLBACK,
            log_has: Some("Placement through etoolbox patches (format 2020/10/01)"),
            ..cell("kernel2020-elsarticle-5p-pdf", "elsarticle", "5p", Pdf, "PITH")
        },
        // Metadata routes.
        Cell {
            meta: Meta::Shared,
            ..cell("hyperxmp-xe", "article", "", Xe, "PITH\\usepackage{hyperxmp}\\usepackage{hyperref}\\hypersetup{pdfauthor={Ada Author}}")
        },
        Cell {
            meta: Meta::Shared,
            ..cell("hyperxmp-dvips", "article", "", Dvips, "\\usepackage{hyperxmp}\\usepackage{hyperref}PITH")
        },
        Cell {
            meta: Meta::InfoOnly,
            log_has: Some("pith writes /PithNumber and /PithURL to Info only"),
            ..cell(
                "pdfx-pdf",
                "article",
                "",
                Pdf,
                "\\usepackage[a-2b]{pdfx}PITH",
            )
        },
        Cell { pre: "\\DocumentMetadata{}", meta: Meta::Shared, ..cell("docmeta-pdf", "article", "", Pdf, "PITH") },
        Cell { pre: "\\DocumentMetadata{}", meta: Meta::Shared, ..cell("docmeta-xe-hrafter", "article", "", Xe, HR_AFTER) },
        Cell {
            pre: "\\DocumentMetadata{}",
            meta: Meta::Shared,
            ..cell("docmeta-dvips", "article", "", Dvips, "PITH")
        },
        Cell {
            pre: "\\DocumentMetadata{pdfstandard=A-2b}",
            meta: Meta::Shared,
            ..cell("docmeta-a2b-pdf-hrbefore", "article", "", Pdf, HR_BEFORE)
        },
        Cell {
            pre: "\\DocumentMetadata{pdfstandard=A-2b}",
            meta: Meta::Shared,
            ..cell("docmeta-a2b-lua", "article", "", Lua, "PITH")
        },
    ]
}

/// Compiles one cell and checks its PDF; returns the problems found.
fn run_cell(c: &Cell, features: &LegFeatures) -> Vec<String> {
    let dir = tex_dir(&format!("pith-{}-", c.name));
    let d = dir.path();
    install_sty(d);
    if c.pkgs.contains("pdfx") {
        std::fs::write(
            d.join("doc.xmpdata"),
            "\\Title{Zebrafish Migration Patterns}\n\\Author{Ada Author}\n",
        )
        .unwrap();
    }
    std::fs::write(d.join("doc.tex"), document(c)).unwrap();
    if let Err(e) = compile(d, c.engine) {
        return vec![e];
    }
    let pdf = d.join("doc.pdf");
    let mut errs = vec![];
    macro_rules! check {
        ($cond:expr, $msg:expr) => {
            if !$cond {
                errs.push($msg);
            }
        };
    }
    // The bare code has no year: no number is written, only the URL and the short form
    //.
    let expected_number = c.number.starts_with("pith:").then_some(FULL);

    // 1. qpdf --check: no errors, no warnings (duplicated keys are warnings).
    let (ok, out, err) = common::run("qpdf", &["--check", pdf.to_str().unwrap()], None);
    let out = out + &err;
    check!(
        ok && !out.contains("WARNING"),
        format!("qpdf --check: {out}")
    );

    // 2. Info through pdfinfo.
    let (_, info, _) = common::run("pdfinfo", &["-custom", pdf.to_str().unwrap()], None);
    let info_val = |key: &str| {
        info.lines().find_map(|l| {
            l.strip_prefix(&format!("{key}:"))
                .map(|v| v.trim().to_string())
        })
    };
    check!(
        info_val("PithNumber").as_deref() == expected_number,
        format!("pdfinfo PithNumber: {info}")
    );
    check!(
        info_val("PithURL").as_deref() == Some(URL),
        format!("pdfinfo PithURL: {info}")
    );

    // 3. XMP through exiftool.
    let (_, ex, _) = common::run(
        "exiftool",
        &["-j", "-XMP-pith:all", pdf.to_str().unwrap()],
        None,
    );
    let ex: Value = serde_json::from_str(&ex).unwrap_or(Value::Null);
    let ex = &ex[0];
    if c.meta == Meta::InfoOnly {
        check!(
            ex.get("Number").is_none(),
            format!("pdfx: pith XMP written anyway: {ex}")
        );
    } else {
        check!(
            ex.get("Number").and_then(Value::as_str) == expected_number,
            format!("exiftool pith:number: {ex}")
        );
        check!(
            ex["ShortNumber"] == SHORT,
            format!("exiftool pith:shortNumber: {ex}")
        );
        check!(ex["Url"] == URL, format!("exiftool pith:url: {ex}"));
    }

    // 4. Exactly one metadata stream, the catalog's; its packet is well-formed XML.
    match Pdf::load(&pdf) {
        Err(e) => check!(false, e),
        Ok(p) => {
            let streams = p.metadata_streams();
            check!(
                streams.len() == 1,
                format!("{} /Metadata streams, expected 1", streams.len())
            );
            let cat_md = p
                .catalog()
                .and_then(|(_, v)| v["value"].get("/Metadata"))
                .and_then(Value::as_str);
            check!(cat_md.is_some(), "no /Metadata in the catalog".into());
            if let (Some(r), Some((sref, dict))) = (cat_md, streams.first()) {
                check!(
                    r == sref,
                    format!("catalog /Metadata {r} is not the metadata stream {sref}")
                );
                if c.meta == Meta::Own && c.engine != Engine::Dvips {
                    check!(
                        dict.get("/Filter").is_none(),
                        format!("own XMP stream is compressed: {dict}")
                    );
                }
                check_xmp(&stream_data(&pdf, r), c, expected_number, &mut errs);
            }
            if c.pages_gt_one {
                errs.extend(
                    (p.page_count() < 2).then(|| "expected a separate title page".to_string()),
                );
            }
            // 5. The page-1 link: our URL, no border; the badge text lies inside its rectangle.
            let links: Vec<_> = p
                .page1_links()
                .into_iter()
                .filter(|(u, _, _)| u == URL)
                .collect();
            if links.len() != 1 {
                errs.push(format!(
                    "{} page-1 links to {URL}, expected 1: {:?}",
                    links.len(),
                    p.page1_links()
                ));
            }
            let (words, (width, height)) = page1_words(&pdf);
            let badges: Vec<&Word> = words.iter().filter(|w| w.text == SHORT).collect();
            let title = words
                .iter()
                .find(|w| w.text.eq_ignore_ascii_case("zebrafish"));
            if badges.len() != 1 {
                errs.push(format!(
                    "badge text {SHORT} found {} times on page 1",
                    badges.len()
                ));
            } else if let Some(t) = title {
                let b = badges[0];
                if b.y_min < t.y_max {
                    errs.push(format!(
                        "badge (y {:.1}) is not below the title (y {:.1})",
                        b.y_min, t.y_max
                    ));
                }
                // Centred on the page: full width under the title in two-column layouts,
                // not at the top of the first column.
                let centre = (b.x_min + b.x_max) / 2.0;
                if (centre - width / 2.0).abs() > 15.0 {
                    errs.push(format!(
                        "badge centre x {centre:.1} is not the page centre {:.1}",
                        width / 2.0
                    ));
                }
                if let Some((_, border, rect)) = links.first() {
                    if border != &serde_json::json!([0, 0, 0]) {
                        errs.push(format!("link border {border}, expected [0 0 0]"));
                    }
                    let (cx, cy) = (
                        (b.x_min + b.x_max) / 2.0,
                        height - (b.y_min + b.y_max) / 2.0,
                    );
                    let inside = rect.len() == 4
                        && cx >= rect[0].min(rect[2])
                        && cx <= rect[0].max(rect[2])
                        && cy >= rect[1].min(rect[3])
                        && cy <= rect[1].max(rect[3]);
                    if !inside {
                        errs.push(format!(
                            "badge centre ({cx:.1},{cy:.1}) outside the link rectangle {rect:?}"
                        ));
                    }
                }
            } else {
                errs.push("title word not found on page 1".into());
            }
        }
    }
    let l = log(d);
    if let Some(w) = c.log_has {
        let flat = flat_log(&l);
        check!(flat.contains(w), format!("log lacks {w:?}"));
    }
    // pdfmanagement's public schema commands where they exist, else its internal ones.
    if c.pre.contains("DocumentMetadata") {
        let route = if features.pdfmeta_public_schema {
            "public"
        } else {
            "internal"
        };
        let w = format!("XMP schema declared through pdfmanagement's {route} commands");
        check!(flat_log(&l).contains(&w), format!("log lacks {w:?}"));
    }
    check!(
        !l.contains("badge was never placed"),
        "the badge was never placed".into()
    );
    errs
}

fn check_xmp(bytes: &[u8], c: &Cell, number: Option<&str>, errs: &mut Vec<String>) {
    let text = String::from_utf8_lossy(bytes);
    if c.meta == Meta::Own {
        if !text.starts_with("<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>") {
            errs.push(format!("xpacket header: {:?}", &text[..text.len().min(80)]));
        }
        if !text.trim_end().ends_with("<?xpacket end=\"w\"?>") {
            errs.push("no xpacket trailer".into());
        }
        let pad = text.rfind("</x:xmpmeta>").map_or(0, |i| {
            text[i..].chars().filter(|c| c.is_whitespace()).count()
        });
        if pad < 2000 {
            errs.push(format!("only {pad} bytes of padding"));
        }
    }
    let doc = match roxmltree::Document::parse(text.trim_start_matches('\u{feff}')) {
        Ok(d) => d,
        Err(e) => {
            errs.push(format!("XMP is not well-formed XML: {e}"));
            return;
        }
    };
    let prop = |name: &str| {
        doc.descendants()
            .find(|n| n.tag_name().namespace() == Some(PITH_NS) && n.tag_name().name() == name)
            .and_then(|n| n.text())
            .map(str::to_string)
    };
    if c.meta == Meta::InfoOnly {
        return;
    }
    // One extension-schema bag: ours joins the host packet's instead of adding a second.
    let bags = doc
        .descendants()
        .filter(|n| {
            n.tag_name().name() == "schemas"
                && n.tag_name().namespace() == Some("http://www.aiim.org/pdfa/ns/extension/")
        })
        .count();
    if bags != 1 {
        errs.push(format!(
            "{bags} pdfaExtension:schemas properties, expected 1"
        ));
    }
    for (name, want) in [
        ("number", number),
        ("shortNumber", Some(SHORT)),
        ("url", Some(URL)),
    ] {
        if prop(name).as_deref() != want {
            errs.push(format!(
                "XMP pith:{name} = {:?}, expected {want:?}",
                prop(name)
            ));
        }
    }
    // The standard properties `pith inject` writes too: dc:relation holds the
    // record URL, xmp:Identifier the number (without `pith:`), only when it is known, qualified with
    // xmpidq:Scheme `pith` (an item's value is then its rdf:value).
    const XMPIDQ: &str = "http://ns.adobe.com/xmp/Identifier/qual/1.0/";
    let items = |ns: &str, name: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.tag_name().namespace() == Some(ns) && n.tag_name().name() == name)
            .flat_map(|n| n.descendants().filter(|m| m.tag_name().name() == "li"))
            .filter_map(|m| {
                match m.children().find(|v| v.tag_name().name() == "value") {
                    Some(v) => v.text(),
                    None => m.text(),
                }
                .map(str::to_string)
            })
            .collect()
    };
    let schemes: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().namespace() == Some(XMPIDQ) && n.tag_name().name() == "Scheme")
        .filter_map(|n| n.text())
        .collect();
    let want_schemes: Vec<&str> = number.map(|_| "pith").into_iter().collect();
    if schemes != want_schemes {
        errs.push(format!(
            "XMP xmpidq:Scheme {schemes:?}, expected {want_schemes:?}"
        ));
    }
    let relations = items(common::DC_NS, "relation");
    if relations != [URL] {
        errs.push(format!("XMP dc:relation {relations:?}, expected [{URL}]"));
    }
    // The item's value is the number without the `pith:` its scheme says, as `pith inject`
    // writes it (calibre shows `pith:` + value: the number once).
    let is_number = |i: &str| {
        let v = i.strip_prefix("pith:").unwrap_or(i);
        v.len() == 31 && v.as_bytes()[4] == b':' && v[..4].bytes().all(|b| b.is_ascii_digit())
    };
    let ids: Vec<String> = items("http://ns.adobe.com/xap/1.0/", "Identifier")
        .into_iter()
        .filter(|i| is_number(i))
        .collect();
    let want: Vec<&str> = number.map(|n| &n["pith:".len()..]).into_iter().collect();
    if ids != want {
        errs.push(format!("XMP xmp:Identifier {ids:?}, expected {want:?}"));
    }
    // The PDF/A extension schema describes the namespace and each property.
    let schema = doc
        .descendants()
        .find(|n| n.tag_name().name() == "namespaceURI" && n.text() == Some(PITH_NS));
    match schema.and_then(|n| n.parent()) {
        None => errs.push("no pdfaSchema description of the pith namespace".into()),
        Some(li) => {
            let names: Vec<&str> = li
                .descendants()
                .filter(|n| {
                    n.tag_name().name() == "name"
                        && n.tag_name()
                            .namespace()
                            .is_some_and(|s| s.contains("pdfa/ns/property"))
                })
                .filter_map(|n| n.text())
                .collect();
            for want in ["number", "shortNumber", "url"] {
                if !names.contains(&want) {
                    errs.push(format!("schema lacks property {want}: {names:?}"));
                }
            }
        }
    }
}

#[test]
#[ignore = "full tier (TeX Live): cargo test -- --include-ignored"]
fn matrix() {
    if !have_tools("matrix") {
        return;
    }
    let features = leg_features();
    run_matrix(
        "class",
        cells().into_iter().map(|c| adapt(c, &features)).collect(),
        |c| c.name.to_string(),
        |c| c.engine,
        |c| run_cell(c, &features),
    );
}
