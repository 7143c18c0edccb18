//! Typed writers for logical structure (ISO 32000-2 §14.7): a structure element ([`Elem`],
//! §14.7.2), an object reference to an annotation ([`objr`], §14.7.5.3) and a number tree leaf
//! ([`number_leaf`], §7.9.7) for the parent tree. They build dictionary values on the
//! primitives of [`super::object`]; the stamp's `tagged` module decides where they go.

use super::object::{dict, name_obj};
use crate::syntax::{Obj, Ref};

/// A structure element with one kid.
#[derive(Debug, Clone, PartialEq)]
pub struct Elem<'a> {
    /// `/S`: the structure type (e.g. `Link`).
    pub s: &'a str,
    /// `/P`: the parent element or the structure tree root.
    pub parent: Ref,
    /// `/Pg`: the page its content is on.
    pub page: Ref,
    /// `/K`: its kid (an [`objr`], a marked-content id…).
    pub kid: Obj,
    /// `/Alt`: the alternate description.
    pub alt: Option<&'a str>,
}

impl Elem<'_> {
    /// The element dictionary.
    pub fn to_obj(&self) -> Obj {
        let mut e = vec![
            ("Type", name_obj("StructElem")),
            ("S", name_obj(self.s)),
            ("P", Obj::Ref(self.parent)),
            ("Pg", Obj::Ref(self.page)),
            ("K", self.kid.clone()),
        ];
        if let Some(a) = self.alt {
            e.push(("Alt", Obj::Str(a.as_bytes().to_vec())));
        }
        dict(e)
    }
}

/// An object reference (`/Type /OBJR`) to annotation `obj` on page `page`.
pub fn objr(obj: Ref, page: Ref) -> Obj {
    dict(vec![
        ("Type", name_obj("OBJR")),
        ("Obj", Obj::Ref(obj)),
        ("Pg", Obj::Ref(page)),
    ])
}

/// A number tree leaf holding the one pair `key` → `value`, with its `/Limits`.
pub fn number_leaf(key: i64, value: Obj) -> Obj {
    dict(vec![
        ("Limits", Obj::Array(vec![Obj::Int(key), Obj::Int(key)])),
        ("Nums", Obj::Array(vec![Obj::Int(key), value])),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::object::assert_writes;

    #[test]
    fn link_element_objr_and_leaf() {
        let e = Elem {
            s: "Link",
            parent: Ref::new(9, 0),
            page: Ref::new(3, 0),
            kid: objr(Ref::new(20, 0), Ref::new(3, 0)),
            alt: Some("A"),
        };
        assert_writes(
            &e.to_obj(),
            b"<< /Type /StructElem /S /Link /P 9 0 R /Pg 3 0 R /K << /Type /OBJR /Obj 20 0 R /Pg 3 0 R >> /Alt <41> >>",
        );
        assert_writes(
            &number_leaf(5, Obj::Ref(Ref::new(21, 0))),
            b"<< /Limits [5 5] /Nums [5 21 0 R] >>",
        );
    }
}
