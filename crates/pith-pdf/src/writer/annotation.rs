//! Typed writers for the annotations pith adds (ISO 32000-2 §12.5): a link annotation with a
//! URI action ([`Link`], §12.5.6.5, §12.6.4.8). It builds a dictionary value on the primitives
//! of [`super::object`]; the caller writes it with [`super::Update::value`], which encrypts its
//! strings for the annotation's own object in an encrypted file.

use super::object::{dict, name_obj, rect};
use crate::syntax::{Obj, Ref};

/// A link annotation that opens a URI: `/Border [0 0 0]` (no border), `/F 4` (print),
/// alternate text in `/Contents` (PDF/UA-1 §7.18.5), `/StructParent` in a tagged file.
#[derive(Debug, Clone, PartialEq)]
pub struct Link<'a> {
    /// `/Rect` in default user space: x0, y0, x1, y1.
    pub rect: [f64; 4],
    /// `/P`: the page.
    pub page: Ref,
    /// The `/URI` of the `/A` action.
    pub uri: &'a str,
    /// `/Contents`: the alternate description.
    pub contents: &'a str,
    /// `/StructParent`: the key of the annotation's entry in the parent tree (§14.7.5.4).
    pub struct_parent: Option<i64>,
    /// Private entries written last (a key without the slash and a name value), e.g. pith's
    /// `/PithStamp /Link` mark.
    pub mark: Option<(&'a str, &'a str)>,
}

impl Link<'_> {
    /// The annotation dictionary.
    pub fn to_obj(&self) -> Obj {
        let [x0, y0, x1, y1] = self.rect;
        let action = dict(vec![
            ("Type", name_obj("Action")),
            ("S", name_obj("URI")),
            ("URI", Obj::Str(self.uri.as_bytes().to_vec())),
        ]);
        let mut entries = vec![
            ("Type", name_obj("Annot")),
            ("Subtype", name_obj("Link")),
            ("Rect", rect(x0, y0, x1, y1)),
            (
                "Border",
                Obj::Array(vec![Obj::Int(0), Obj::Int(0), Obj::Int(0)]),
            ),
            ("F", Obj::Int(4)),
            ("P", Obj::Ref(self.page)),
            ("A", action),
            ("Contents", Obj::Str(self.contents.as_bytes().to_vec())),
        ];
        if let Some(k) = self.struct_parent {
            entries.push(("StructParent", Obj::Int(k)));
        }
        if let Some((k, v)) = self.mark {
            entries.push((k, name_obj(v)));
        }
        dict(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::object::{assert_bytes, to_vec, Strings};

    #[test]
    fn link() {
        let l = Link {
            rect: [12.0, 31.68, 22.4766, 101.0],
            page: Ref::new(3, 0),
            uri: "https://x/y",
            contents: "Alt",
            struct_parent: Some(7),
            mark: Some(("PithStamp", "Link")),
        };
        let found = to_vec(&l.to_obj(), Strings::default());
        let expected: &[u8] = b"<< /Type /Annot /Subtype /Link /Rect [12 31.68 22.4766 101] /Border [0 0 0] /F 4 /P 3 0 R /A << /Type /Action /S /URI /URI <68747470733A2F2F782F79> >> /Contents <416C74> /StructParent 7 /PithStamp /Link >>";
        assert_bytes(&found, expected);
    }
}
