//! In a tagged PDF the stamp's link annotation joins the structure tree: a `Link`
//! element whose `/K` holds an `OBJR` to the annotation, the annotation's `/StructParent`, that
//! key's entry in the parent tree pointing at the element, and `/ParentTreeNextKey` past it;
//! the stamp's text stays an artifact. Checked with qpdf --check and pikepdf on the tagged
//! LaTeX paper of tests/fixtures/stamp (`\DocumentMetadata`, a flat `/Nums` parent tree) and on
//! a tagged file built here whose parent tree has `/Kids`; a stamp written again keeps one
//! element; an untagged file gets no `/StructParent`.

use crate::common;

use std::path::Path;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
const B: &str = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL";

/// Checks the structure of the stamped `path` with pikepdf: prints "ok N" (N Link elements
/// pointing at the stamp's annotation) or what is wrong.
const CHECK: &str = r#"
import sys, pikepdf
pdf = pikepdf.open(sys.stdin.read().strip())
root = pdf.Root
page = pdf.pages[0].obj
links = [a for a in page.get("/Annots", []) if a.get("/PithStamp") == "/Link"]
assert len(links) == 1, "one stamp link"
annot = links[0]
if "/StructTreeRoot" not in root:
    print("untagged", "/StructParent" in annot)
    sys.exit(0)
st = root.StructTreeRoot
key = int(annot.StructParent)
def lookup(node, k, depth=0):
    assert depth < 32
    if "/Nums" in node:
        nums = node.Nums
        for i in range(0, len(nums), 2):
            if int(nums[i]) == k:
                return nums[i + 1]
    for kid in node.get("/Kids", []):
        lim = kid.get("/Limits")
        if lim is not None and not (int(lim[0]) <= k <= int(lim[1])):
            continue
        r = lookup(kid, k, depth + 1)
        if r is not None:
            return r
    return None
elem = lookup(st.ParentTree, key)
assert elem is not None, "the key is in the parent tree"
assert elem.S == "/Link", elem.S
objr = elem.K
assert objr.Type == "/OBJR"
assert objr.Obj.objgen == annot.objgen, "the OBJR points back at the annotation"
assert int(st.ParentTreeNextKey) > key, "ParentTreeNextKey past the key"
# The element hangs in the tree: its parent lists it among its kids.
parent = elem.P
kids = parent.K if isinstance(parent.K, pikepdf.Array) else [parent.K]
assert any(getattr(k, "objgen", None) == elem.objgen for k in kids), "the parent holds it"
# Every Link element in the tree pointing at the annotation.
n = 0
seen = set()
stack = [st]
while stack:
    node = stack.pop()
    if node.is_indirect:
        if node.objgen in seen:
            continue
        seen.add(node.objgen)
    k = node.get("/K")
    if k is None:
        continue
    for c in (k if isinstance(k, pikepdf.Array) else [k]):
        if isinstance(c, pikepdf.Dictionary):
            if c.get("/Type") == "/OBJR" and c.Obj.objgen == annot.objgen:
                n += 1
            elif c.get("/Type") != "/MCR":
                stack.append(c)
# Keys are unique in the parent tree.
print("ok", n)
"#;

fn check(path: &Path) -> String {
    common::tools::python(CHECK, path.to_str().unwrap())
        .unwrap_or_else(|e| panic!("pikepdf check of {}: {e}", path.display()))
        .trim()
        .to_string()
}

fn qpdf_ok(path: &Path) {
    let (code, _) = common::tools::qpdf_check(path);
    assert_eq!(code, 0, "{}: qpdf --check", path.display());
}

/// A tagged one-page file whose parent tree has `/Kids` (keys 0 and 1 in two leaves).
fn tagged_with_kids() -> Vec<u8> {
    let objs = [
        "<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 6 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /StructParents 0 /Resources << /Font << /F1 5 0 R >> >> >>",
        "<< /Length 62 >>\nstream\n/P << /MCID 0 >> BDC BT /F1 12 Tf 72 700 Td (Tagged) Tj ET EMC\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R >>",
        "<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] >>",
        "<< /Type /StructElem /S /P /P 7 0 R /Pg 3 0 R /K 0 >>",
        "<< /Kids [10 0 R 11 0 R] >>",
        "<< /Limits [0 0] /Nums [0 [8 0 R]] >>",
        "<< /Limits [1 1] /Nums [1 8 0 R] >>",
    ];
    crate::common::pdfgen::classic_text(&objs)
}

#[test]
fn the_link_joins_the_structure_tree() {
    if !common::have_python_module("pikepdf", "the_link_joins_the_structure_tree")
        || !common::have_tool("qpdf", "the_link_joins_the_structure_tree")
    {
        return;
    }
    let dir = common::tmpdir();
    let kids = dir.path().join("kids.pdf");
    std::fs::write(&kids, tagged_with_kids()).unwrap();
    for input in [common::fixture("stamp/tagged.pdf"), kids] {
        let name = input.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.path().join(format!("{name}.stamped.pdf"));
        let (code, stdout, err) = common::inject(&input, A, &out, &["--stamp", "-v"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            format!("{stdout}{err}").contains("structure tree: Link element"),
            "{name}: {stdout}{err}"
        );
        qpdf_ok(&out);
        assert_eq!(check(&out), "ok 1", "{name}");
        // Stamping again with another number replaces the stamp (asked for with --replace):
        // still one Link element.
        let again = dir.path().join(format!("{name}.again.pdf"));
        let (code, _, err) = common::inject(&out, B, &again, &["--stamp", "--replace"]);
        assert_eq!(code, 0, "{name}: {err}");
        qpdf_ok(&again);
        assert_eq!(check(&again), "ok 1", "{name}: again");
    }
    // An untagged file: no /StructParent on the link.
    let plain = dir.path().join("plain.stamped.pdf");
    let (code, _, err) = common::inject(
        &common::fixture("stamp/article.pdf"),
        A,
        &plain,
        &["--stamp"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(check(&plain), "untagged False");
}
