//! Small PDFs built to be expensive: each looks like an ordinary one-page paper to a reader
//! that checks little, and multiplies what a careless reader spends (memory, objects, walk
//! steps, operators) far beyond its size on disk. The tests run every door of pith on them
//! under an address-space limit and expect a success or a clean refusal.
//!
//! Every shape is deterministic (the same [`Knobs`] give the same bytes) and parametric, so
//! that the quick tier can take a small one and the full tier the size an attacker would.
//! This module writes bytes only; it knows nothing of how pith reads them, and says nothing of
//! the outcome a reader should give.

use crate::zlib::{pattern_after, zeros_after};

mod chains;
mod write;
pub use chains::{filter_chain, many_links, objstm_header, predictor_chain, text_content};
use write::{
    base, classic, obj, page, put, start, stream, xref_stream_tail, Objects, HEADER, TEXT,
};

/// The sizes that make the shapes expensive. [`Knobs::full`] is the size of the files seen
/// to abort, hang or take gigabytes; [`Knobs::small`] the same shapes a thousand times
/// cheaper.
#[derive(Debug, Clone, Copy)]
pub struct Knobs {
    /// References on page 1's `/Annots` to one shared link annotation.
    pub annot_refs: usize,
    /// Bytes of that annotation (its `/QuadPoints` numbers).
    pub annot_bytes: usize,
    /// Free entries in one cross-reference stream section.
    pub xref_free: u64,
    /// Chained `/Prev` sections of such free entries.
    pub xref_sections: usize,
    /// Dictionaries in the AcroForm's `/Fields`, each with `/Kids` pointing back at it.
    pub form_fields: usize,
    /// Levels of the shared page tree.
    pub tree_levels: usize,
    /// Kids per level, every one the same node of the level below.
    pub tree_kids: usize,
    /// Depth of nested arrays and dictionaries.
    pub nesting: usize,
    /// Incremental updates after the original file.
    pub updates: usize,
    /// Outline items before their `/Next` loops back to the first.
    pub outline_items: usize,
    /// Levels of the name trees (`/Dests`, `/EmbeddedFiles`).
    pub name_levels: usize,
    /// Kids per name-tree node, all the same node of the level below.
    pub name_kids: usize,
    /// Bytes of page 1's content stream once inflated (`q Q` pairs, four bytes each).
    pub content_bytes: u64,
    /// What the zlib bombs inflate to.
    pub bomb_bytes: u64,
    /// `/AHx` filters a stream names.
    pub hex_filters: usize,
    /// Empty `/Fl` stages a stream names.
    pub flate_filters: usize,
    /// Flate stages, each with a PNG predictor of 1 MiB rows, a stream names.
    pub predictor_filters: usize,
    /// Pairs an object stream's header claims (`/N`).
    pub objstm_pairs: u64,
    /// Distinct link annotations to a record page on page 1.
    pub links: usize,
    /// Bytes of page 1's content stream of text, unfiltered.
    pub text_bytes: u64,
}

impl Knobs {
    /// The sizes of the files that hurt: 4,096 references to a 60 KB annotation, 8 Mi free
    /// xref entries in eight sections, 60,000 fields, a 60-level tree of 1,000 kids, 100,000
    /// levels of nesting, 5,000 updates, 100 MB of content operators, 2 GiB bombs.
    pub fn full() -> Knobs {
        Knobs {
            annot_refs: 4096,
            annot_bytes: 60_000,
            xref_free: 8 << 20,
            xref_sections: 8,
            form_fields: 60_000,
            tree_levels: 60,
            tree_kids: 1000,
            nesting: 100_000,
            updates: 5000,
            outline_items: 10_000,
            name_levels: 40,
            name_kids: 1000,
            content_bytes: 100 << 20,
            bomb_bytes: 2 << 30,
            hex_filters: 100_000,
            flate_filters: 60_000,
            predictor_filters: 1000,
            objstm_pairs: 67_000_000,
            links: 200,
            text_bytes: 16 << 20,
        }
    }

    /// The same shapes, cheap enough for the quick tier.
    pub fn small() -> Knobs {
        Knobs {
            annot_refs: 64,
            annot_bytes: 2000,
            xref_free: 1 << 20,
            xref_sections: 2,
            form_fields: 100,
            tree_levels: 4,
            tree_kids: 8,
            nesting: 200,
            updates: 20,
            outline_items: 10,
            name_levels: 3,
            name_kids: 4,
            content_bytes: 1 << 20,
            bomb_bytes: 4 << 20,
            hex_filters: 200,
            flate_filters: 100,
            predictor_filters: 20,
            objstm_pairs: 4_000_000,
            links: 20,
            text_bytes: 1 << 20,
        }
    }
}

/// One expensive file.
#[derive(Debug, Clone)]
pub struct Shape {
    /// A short name, usable as a file name.
    pub name: &'static str,
    /// What it does to a reader, in a few words.
    pub what: &'static str,
    /// The PDF.
    pub pdf: Vec<u8>,
}

/// Every shape at the sizes `k` gives, in a fixed order.
pub fn all(k: &Knobs) -> Vec<Shape> {
    let s = |name, what, pdf| Shape { name, what, pdf };
    vec![
        s(
            "shared-annot",
            "page 1 lists one large link annotation thousands of times",
            shared_annot(k.annot_refs, k.annot_bytes),
        ),
        s(
            "xref-free",
            "cross-reference streams of millions of free entries, chained by /Prev",
            xref_free(k.xref_free, k.xref_sections),
        ),
        s(
            "form-fanout",
            "AcroForm fields whose /Kids are the /Fields array itself",
            form_fanout(k.form_fields),
        ),
        s(
            "page-dag",
            "a page tree whose every level lists one node of the next many times",
            page_dag(k.tree_levels, k.tree_kids),
        ),
        s(
            "kids-cycle",
            "a page tree whose /Kids, indirect arrays, lead back to the root",
            kids_cycle(),
        ),
        s(
            "objstm-loop",
            "object streams each said to be stored in the other",
            objstm_loop(),
        ),
        s(
            "deep-nesting",
            "arrays and dictionaries nested to a great depth on page 1 and in the catalog",
            deep_nesting(k.nesting),
        ),
        s(
            "many-updates",
            "thousands of incremental updates, each with its own xref section",
            many_updates(k.updates),
        ),
        s(
            "prev-loop",
            "two xref sections whose /Prev entries point at each other",
            prev_loop(),
        ),
        s(
            "outline-loop",
            "an outline whose /Next and /First chains loop",
            outline_loop(k.outline_items),
        ),
        s(
            "name-trees",
            "Dests and EmbeddedFiles name trees with shared and looping kids",
            name_trees(k.name_levels, k.name_kids),
        ),
        s(
            "content-ops",
            "page 1's content stream holding millions of operators",
            content_ops(k.content_bytes),
        ),
        s(
            "xref-bomb",
            "a cross-reference stream that inflates to gigabytes",
            xref_bomb(k.bomb_bytes),
        ),
        s(
            "objstm-bomb",
            "an object stream holding the catalog that inflates to gigabytes",
            objstm_bomb(k.bomb_bytes),
        ),
        s(
            "hex-chain",
            "page 1's content and the XMP stream each name thousands of /AHx filters",
            filter_chain("/AHx", k.hex_filters),
        ),
        s(
            "flate-chain",
            "page 1's content and the XMP stream each name thousands of empty /Fl stages",
            filter_chain("/Fl", k.flate_filters),
        ),
        s(
            "predictor-chain",
            "Flate stages each undoing a PNG predictor of 1 MiB rows",
            predictor_chain(k.predictor_filters),
        ),
        s(
            "objstm-header",
            "an object stream holding the catalog whose header claims millions of pairs",
            objstm_header(k.objstm_pairs),
        ),
        s(
            "many-links",
            "page 1 with hundreds of large link annotations to a record page",
            many_links(k.links, k.annot_bytes),
        ),
        s(
            "text-content",
            "page 1's content stream of megabytes of text, unfiltered",
            text_content(k.text_bytes),
        ),
    ]
}

/// Page 1's `/Annots` lists object 6, `refs` times: a link to a record page (as a paper's
/// number link is), of about `bytes` bytes, most of them its `/QuadPoints` numbers.
pub fn shared_annot(refs: usize, bytes: usize) -> Vec<u8> {
    let mut objs = base("", " /Annots 7 0 R");
    let mut quad = String::with_capacity(bytes + 16);
    let mut i = 0u32;
    while quad.len() < bytes {
        quad.push_str(&format!("{} ", i % 600));
        i += 1;
    }
    objs.push(obj(format!(
        "<< /Type /Annot /Subtype /Link /Rect [72 72 144 96] /Border [0 0 0] \
         /A << /S /URI /URI ({RECORD_URL}) >> /QuadPoints [{quad}] >>"
    )));
    objs.push(obj(format!("[{}]", "6 0 R ".repeat(refs))));
    classic(&objs, "")
}

/// The record page of a published number (arXiv 2402.03791v3), where a paper's link goes.
pub(crate) const RECORD_URL: &str = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// A file whose cross-reference stream lists its own objects and then, through `/Prev`,
/// `sections` more streams of `free` free entries each (three zero bytes a row: 8 Mi entries
/// take about 24 KB once compressed).
pub fn xref_free(free: u64, sections: usize) -> Vec<u8> {
    let objs = base("", "");
    let (mut out, offs) = start(&objs);
    let first_free = objs.len() as u64 + 2;
    // One free row, then whole MiB of them (the compressor wants a prefix to start from).
    let mib = (free >> 20).max(1);
    let rows = 1 + (mib << 20);
    let z = zeros_after(&[0; 3], 3 * rows);
    let size = first_free + rows;
    // The free sections, oldest first, each pointing at the one before.
    let mut prev: Option<usize> = None;
    for _ in 0..sections {
        let at = out.len();
        let link = prev.map(|p| format!(" /Prev {p}")).unwrap_or_default();
        out.extend_from_slice(
            format!(
                "{first_free} 0 obj\n<< /Type /XRef /Size {size} /Index [{first_free} {rows}] \
                 /W [1 1 1] /Root 1 0 R{link} /Filter /FlateDecode /Length {} >>\nstream\n",
                z.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(&z);
        out.extend_from_slice(b"\nendstream\nendobj\n");
        prev = Some(at);
    }
    // The newest section: the real objects and itself.
    let rows = std::iter::once((0, 0, 65535))
        .chain(offs.iter().map(|&o| (1, o as u32, 0)))
        .collect();
    let link = prev.map(|p| format!(" /Prev {p}")).unwrap_or_default();
    xref_stream_tail(out, rows, None, Some(size), &link)
}

/// The AcroForm's `/Fields` (object 6) holds `fields` dictionaries whose `/Kids` is object 6.
pub fn form_fanout(fields: usize) -> Vec<u8> {
    let mut objs = base(" /AcroForm << /Fields 6 0 R >>", "");
    objs.push(obj(format!("[{}]", "<</Kids 6 0 R>>".repeat(fields))));
    classic(&objs, "")
}

/// A page tree of `levels` levels under the root: each level's node lists the node of the
/// next level `kids` times (its `/Count` says as much, up to the largest integer), and the
/// last lists the one page. A reader that walks it as a tree visits `kids ^ levels` nodes.
pub fn page_dag(levels: usize, kids: usize) -> Vec<u8> {
    let levels = levels.max(1);
    // Objects 1–5 as usual, but the page's parent is the last level (object 5 + levels).
    // Page 1 links to itself: a reader that numbers the destination's page walks the tree.
    let link =
        " /Annots [<< /Type /Annot /Subtype /Link /Rect [72 72 144 96] /Dest [4 0 R /Fit] >>]";
    let mut objs = base("", "");
    let last = 5 + levels;
    objs[3] = obj(page(link).replace("/Parent 2 0 R", &format!("/Parent {last} 0 R")));
    let count = |below: usize| -> u64 {
        (0..below).fold(1u64, |c, _| {
            c.saturating_mul(kids as u64).min(i64::MAX as u64)
        })
    };
    objs[1] = obj(format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        "6 0 R ".repeat(kids),
        count(levels).saturating_mul(1)
    ));
    for l in 1..=levels {
        let n = 5 + l;
        let parent = if l == 1 { 2 } else { n - 1 };
        let body = if l == levels {
            "4 0 R".to_owned()
        } else {
            format!("{} 0 R ", n + 1).repeat(kids)
        };
        objs.push(obj(format!(
            "<< /Type /Pages /Parent {parent} 0 R /Kids [{body}] /Count {} >>",
            count(levels - l)
        )));
    }
    classic(&objs, "")
}

/// The root's `/Kids` is an indirect array whose first kid is a `/Pages` node whose `/Kids`,
/// another indirect array, lists the root and itself; page 1 comes after them.
pub fn kids_cycle() -> Vec<u8> {
    let mut objs = base("", "");
    objs[1] = obj("<< /Type /Pages /Kids 6 0 R /Count 3 >>");
    objs.push(obj("[7 0 R 4 0 R]"));
    objs.push(obj("<< /Type /Pages /Parent 2 0 R /Kids 8 0 R /Count 2 >>"));
    objs.push(obj("[2 0 R 7 0 R 8 0 R]"));
    classic(&objs, "")
}

/// The catalog and the page tree root are in object stream 7, which the xref stream says is
/// stored in object stream 8, which it says is stored in 7. Each stream's `/Length` is an
/// object stored in the other.
pub fn objstm_loop() -> Vec<u8> {
    let objs = base("", "");
    let mut out = HEADER.to_vec();
    let mut rows: Vec<(u8, u32, u16)> = vec![(0, 0, 65535), (2, 7, 0), (2, 7, 1)];
    for (i, o) in objs.iter().enumerate().skip(2) {
        rows.push((1, put(&mut out, i + 1, o) as u32, 0));
    }
    let (o1, o2) = (&objs[0].0, &objs[1].0);
    let head8 = "10 0 ";
    let head7 = format!("1 0 2 {} 9 {} ", o1.len() + 1, o1.len() + o2.len() + 2);
    // Object 9, 8's length, is known once 8's data is; object 10, 7's, once 7's is.
    let len8 = head8.len() + 7;
    let data7_without_len = format!(
        "{head7}{o1}
{o2}
{len8:>6}
"
    );
    let data7 = data7_without_len;
    let data8 = format!("{head8}{:>6}\n", data7.len());
    assert_eq!(data8.len(), len8);
    let mut put_stm = |n: usize, dict: String, data: &str| {
        out.extend_from_slice(format!("{n} 0 obj\n{dict}\nstream\n").as_bytes());
        out.extend_from_slice(data.as_bytes());
        out.extend_from_slice(b"\nendstream\nendobj\n");
    };
    put_stm(
        7,
        format!(
            "<< /Type /ObjStm /N 3 /First {} /Extends 8 0 R /Length 10 0 R >>",
            head7.len()
        ),
        &data7,
    );
    put_stm(
        8,
        format!(
            "<< /Type /ObjStm /N 1 /First {} /Extends 7 0 R /Length 9 0 R >>",
            head8.len()
        ),
        &data8,
    );
    // 6 is free; the xref says 7 is stored in 8 and 8 in 7; 9 (8's length) is in 7 and 10
    // (7's length) in 8.
    rows.extend([(0, 0, 0), (2, 8, 0), (2, 7, 0), (2, 7, 2), (2, 8, 0)]);
    xref_stream_tail(out, rows, None, None, "")
}

/// `depth` levels of alternating arrays and dictionaries, on page 1 (`/PieceInfo`), in the
/// catalog (`/PieceInfo`) and as the Info dictionary's `/Keywords`' neighbour.
pub fn deep_nesting(depth: usize) -> Vec<u8> {
    let mut nest = String::with_capacity(depth * 8);
    for i in 0..depth {
        nest.push_str(if i % 2 == 0 { "[" } else { "<< /A " });
    }
    nest.push('0');
    for i in (0..depth).rev() {
        nest.push_str(if i % 2 == 0 { "]" } else { " >>" });
    }
    let mut objs = base(" /PieceInfo 6 0 R", " /PieceInfo 6 0 R");
    objs.push(obj(format!("<< /X {nest} >>")));
    objs.push(obj(format!("<< /Producer (deep) /Nest {nest} >>")));
    classic(&objs, " /Info 7 0 R")
}

/// The file, then `updates` incremental updates, each writing a new Info dictionary and the
/// catalog again, with its own xref section and a `/Prev` to the one before.
pub fn many_updates(updates: usize) -> Vec<u8> {
    let objs = base("", "");
    let mut out = classic(&objs, "");
    let mut prev = last_startxref(&out);
    for u in 0..updates {
        let info = out.len();
        out.extend_from_slice(
            format!("6 0 obj\n<< /Producer (update {u}) >>\nendobj\n").as_bytes(),
        );
        let cat = out.len();
        out.extend_from_slice(b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
        let x = out.len();
        out.extend_from_slice(
            format!(
                "xref\n1 1\n{cat:010} 00000 n\r\n6 1\n{info:010} 00000 n\r\n\
                 trailer\n<< /Size 7 /Root 1 0 R /Info 6 0 R /Prev {prev} >>\nstartxref\n{x}\n%%EOF\n"
            )
            .as_bytes(),
        );
        prev = x;
    }
    out
}

/// The file, then one update whose trailer's `/Prev` is the original section, whose own
/// trailer's `/Prev` is the update's section: a reader that follows `/Prev` without noting
/// where it has been never ends.
pub fn prev_loop() -> Vec<u8> {
    let objs = base("", "");
    let mut out = classic(&objs, "");
    let first = last_startxref(&out);
    let info = out.len();
    out.extend_from_slice(b"6 0 obj\n<< /Producer (update) >>\nendobj\n");
    let x = out.len();
    out.extend_from_slice(
        format!(
            "xref\n6 1\n{info:010} 00000 n\r\n\
             trailer\n<< /Size 7 /Root 1 0 R /Info 6 0 R /Prev {first} >>\nstartxref\n{x}\n%%EOF\n"
        )
        .as_bytes(),
    );
    // The original trailer, same length, now pointing forward at the update.
    let old = "<< /Size 6 /Root 1 0 R >>";
    let at = out
        .windows(old.len())
        .position(|w| w == old.as_bytes())
        .expect("the original trailer");
    let new = format!("<< /Size 6 /Prev {x} >>");
    assert!(new.len() <= old.len());
    let new = format!("{new:<width$}", width = old.len());
    out[at..at + old.len()].copy_from_slice(new.as_bytes());
    out
}

fn last_startxref(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(&pdf[pdf.len().saturating_sub(64)..]).into_owned();
    let after = text.rsplit("startxref").next().unwrap_or("");
    after
        .split_whitespace()
        .next()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0)
}

/// An outline of `items` items whose last `/Next` is the first, and whose every item's
/// `/First` is the outline's first item (a child that is its own ancestor).
pub fn outline_loop(items: usize) -> Vec<u8> {
    let items = items.max(2);
    let mut objs = base(" /Outlines 6 0 R /PageMode /UseOutlines", "");
    objs.push(obj(format!(
        "<< /Type /Outlines /First 7 0 R /Last {} 0 R /Count {items} >>",
        6 + items
    )));
    for i in 0..items {
        let n = 7 + i;
        let next = if i + 1 == items { 7 } else { n + 1 };
        let prev = if i == 0 { 6 + items } else { n - 1 };
        objs.push(obj(format!(
            "<< /Title (Item {i}) /Parent 6 0 R /Next {next} 0 R /Prev {prev} 0 R /First 7 0 R \
             /Last 7 0 R /Count 1 /Dest [4 0 R /Fit] >>"
        )));
    }
    classic(&objs, "")
}

/// `/Names` with a `/Dests` and an `/EmbeddedFiles` tree: `levels` levels of one node each,
/// every node listing the node below `kids` times and, last, itself; the leaves name page 1.
/// Page 1 links to a name the trees do not hold, so looking it up visits every node.
pub fn name_trees(levels: usize, kids: usize) -> Vec<u8> {
    let levels = levels.max(1);
    let link = " /Annots [<< /Type /Annot /Subtype /Link /Rect [72 72 144 96] /Dest (zz) >>]";
    let mut objs = base(" /Names << /Dests 6 0 R /EmbeddedFiles 6 0 R >>", link);
    for l in 0..levels {
        let n = 6 + l;
        if l + 1 == levels {
            objs.push(obj(format!(
                "<< /Limits [(a) (z)] /Names [(a) [4 0 R /Fit] (b) [4 0 R /Fit]] /Kids [{n} 0 R] >>"
            )));
        } else {
            objs.push(obj(format!(
                "<< /Kids [{}{n} 0 R] >>",
                format!("{} 0 R ", n + 1).repeat(kids)
            )));
        }
    }
    classic(&objs, "")
}

/// Page 1's content stream inflates to `bytes` bytes of `q Q` pairs: a quarter as many
/// operators, from a stream a thousand times smaller.
pub fn content_ops(bytes: u64) -> Vec<u8> {
    let z = pattern_after(TEXT.as_bytes(), b"q Q\n", bytes);
    let mut objs = base("", "");
    objs[4] = stream("<< /Filter /FlateDecode >>", z);
    classic(&objs, "")
}

/// The catalog and the page tree root are in an object stream that inflates to `total`
/// (the objects, then zeros).
pub fn objstm_bomb(total: u64) -> Vec<u8> {
    let objs = base("", "");
    let mut out = HEADER.to_vec();
    let mut rows: Vec<(u8, u32, u16)> = vec![(0, 0, 65535), (2, 6, 0), (2, 6, 1)];
    for (i, o) in objs.iter().enumerate().skip(2) {
        rows.push((1, put(&mut out, i + 1, o) as u32, 0));
    }
    let second = objs[0].0.len() + 1;
    let head = format!("1 0 2 {second} ");
    let data = format!("{head}{}\n{}\n", objs[0].0, objs[1].0);
    let z = zeros_after(data.as_bytes(), total);
    rows.push((1, out.len() as u32, 0));
    out.extend_from_slice(
        format!(
            "6 0 obj\n<< /Type /ObjStm /N 2 /First {} /Filter /FlateDecode /Length {} >>\nstream\n",
            head.len(),
            z.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&z);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    xref_stream_tail(out, rows, None, None, "")
}

/// The cross-reference stream inflates to `total` (its rows, then zeros).
pub fn xref_bomb(total: u64) -> Vec<u8> {
    let objs = base("", "");
    let mut out = HEADER.to_vec();
    let mut rows: Vec<(u8, u32, u16)> = vec![(0, 0, 65535)];
    for (i, o) in objs.iter().enumerate() {
        rows.push((1, put(&mut out, i + 1, o) as u32, 0));
    }
    xref_stream_tail(out, rows, Some(total), None, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_knobs_give_the_same_bytes() {
        let (a, b) = (all(&Knobs::small()), all(&Knobs::small()));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.pdf, y.pdf, "{}", x.name);
        }
    }
}
