//! Typed writers for the font objects pith embeds (ISO 32000-2 §9.6–§9.9): a Type0 font
//! ([`Type0`], §9.7.6), its CIDFontType2 descendant ([`CidFont`], §9.7.4), the font descriptor
//! ([`FontDescriptor`], §9.8) and the dictionaries of the font file, ToUnicode CMap and CIDSet
//! streams. Each builds a dictionary value on the primitives of [`super::object`]; the caller
//! writes it with [`super::Update::value`] or [`super::Update::stream`]. They hold no font
//! data of their own: the stamp's `font` module measures its font and fills them.

use super::object::{dict, name_obj};
use crate::syntax::{Obj, Ref};

/// A Type0 (composite) font with `/Encoding /Identity-H` (§9.7.6, PDF 1.2+).
#[derive(Debug, Clone, PartialEq)]
pub struct Type0<'a> {
    /// `/BaseFont`.
    pub base_font: &'a str,
    /// `/DescendantFonts`: the one CIDFont.
    pub descendant: Ref,
    /// `/ToUnicode`: the CMap stream (§9.10.3).
    pub to_unicode: Ref,
}

impl Type0<'_> {
    /// The font dictionary.
    pub fn to_obj(&self) -> Obj {
        dict(vec![
            ("Type", name_obj("Font")),
            ("Subtype", name_obj("Type0")),
            ("BaseFont", name_obj(self.base_font)),
            ("Encoding", name_obj("Identity-H")),
            (
                "DescendantFonts",
                Obj::Array(vec![Obj::Ref(self.descendant)]),
            ),
            ("ToUnicode", Obj::Ref(self.to_unicode)),
        ])
    }
}

/// A CIDFontType2 (TrueType outlines) with `/CIDToGIDMap /Identity`, `/DW 1000` and the
/// widths of CIDs 0.. in one `/W` run (§9.7.4.3), and `/CIDSystemInfo` Adobe-Identity-0.
#[derive(Debug, Clone, PartialEq)]
pub struct CidFont<'a> {
    /// `/BaseFont`.
    pub base_font: &'a str,
    /// `/FontDescriptor`.
    pub descriptor: Ref,
    /// The width of each CID from 0, in thousandths of an em.
    pub widths: &'a [i64],
}

impl CidFont<'_> {
    /// The font dictionary.
    pub fn to_obj(&self) -> Obj {
        let info = dict(vec![
            ("Registry", Obj::Str(b"Adobe".to_vec())),
            ("Ordering", Obj::Str(b"Identity".to_vec())),
            ("Supplement", Obj::Int(0)),
        ]);
        let w = Obj::Array(vec![
            Obj::Int(0),
            Obj::Array(self.widths.iter().map(|&w| Obj::Int(w)).collect()),
        ]);
        dict(vec![
            ("Type", name_obj("Font")),
            ("Subtype", name_obj("CIDFontType2")),
            ("BaseFont", name_obj(self.base_font)),
            ("CIDSystemInfo", info),
            ("FontDescriptor", Obj::Ref(self.descriptor)),
            ("DW", Obj::Int(1000)),
            ("W", w),
            ("CIDToGIDMap", name_obj("Identity")),
        ])
    }
}

/// A font descriptor (§9.8.1) for an embedded TrueType font (`/FontFile2`) with a `/CIDSet`;
/// metrics in thousandths of an em.
#[derive(Debug, Clone, PartialEq)]
pub struct FontDescriptor<'a> {
    /// `/FontName`.
    pub font_name: &'a str,
    /// `/Flags` (§9.8.2; 4 is Symbolic).
    pub flags: i64,
    /// `/FontBBox`: x0, y0, x1, y1.
    pub bbox: [i64; 4],
    /// `/Ascent`.
    pub ascent: i64,
    /// `/Descent`.
    pub descent: i64,
    /// `/CapHeight`.
    pub cap_height: i64,
    /// `/StemV`.
    pub stem_v: i64,
    /// `/FontFile2`: the font program stream.
    pub font_file2: Ref,
    /// `/CIDSet`: the stream of the CIDs present (PDF/A-1 for CID font subsets).
    pub cid_set: Ref,
}

impl FontDescriptor<'_> {
    /// The descriptor dictionary.
    pub fn to_obj(&self) -> Obj {
        dict(vec![
            ("Type", name_obj("FontDescriptor")),
            ("FontName", name_obj(self.font_name)),
            ("Flags", Obj::Int(self.flags)),
            (
                "FontBBox",
                Obj::Array(self.bbox.iter().map(|&v| Obj::Int(v)).collect()),
            ),
            ("ItalicAngle", Obj::Int(0)),
            ("Ascent", Obj::Int(self.ascent)),
            ("Descent", Obj::Int(self.descent)),
            ("CapHeight", Obj::Int(self.cap_height)),
            ("StemV", Obj::Int(self.stem_v)),
            ("FontFile2", Obj::Ref(self.font_file2)),
            ("CIDSet", Obj::Ref(self.cid_set)),
        ])
    }
}

/// The dictionary of a `/FontFile2` stream (§9.9) compressed with Flate: `/Length1` is the
/// length of the font program before compression.
pub fn font_file2(length1: usize) -> Obj {
    dict(vec![
        ("Length1", Obj::Int(length1 as i64)),
        ("Filter", name_obj("FlateDecode")),
    ])
}

/// The dictionary of an unfiltered stream with no entries of its own besides `/Length` (a
/// ToUnicode CMap, a CIDSet).
pub fn plain_stream() -> Obj {
    dict(vec![])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::object::assert_writes;

    #[test]
    fn type0() {
        assert_writes(
            &Type0 {
                base_font: "PITHST+DejaVuSans",
                descendant: Ref::new(9, 0),
                to_unicode: Ref::new(12, 0)
            }
            .to_obj(),
            b"<< /Type /Font /Subtype /Type0 /BaseFont /PITHST+DejaVuSans /Encoding /Identity-H /DescendantFonts [9 0 R] /ToUnicode 12 0 R >>"
        );
    }

    #[test]
    fn cid_font() {
        assert_writes(
            &CidFont {
                base_font: "A+B",
                descriptor: Ref::new(10, 0),
                widths: &[0, 600, 1000]
            }
            .to_obj(),
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /A+B /CIDSystemInfo << /Registry <41646F6265> /Ordering <4964656E74697479> /Supplement 0 >> /FontDescriptor 10 0 R /DW 1000 /W [0 [0 600 1000]] /CIDToGIDMap /Identity >>"
        );
    }

    #[test]
    fn font_descriptor_and_streams() {
        assert_writes(
            &FontDescriptor {
                font_name: "A+B",
                flags: 4,
                bbox: [-1021, -463, 1793, 1232],
                ascent: 928,
                descent: -236,
                cap_height: 729,
                stem_v: 80,
                font_file2: Ref::new(11, 0),
                cid_set: Ref::new(13, 0),
            }
            .to_obj(),
            b"<< /Type /FontDescriptor /FontName /A+B /Flags 4 /FontBBox [-1021 -463 1793 1232] /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 11 0 R /CIDSet 13 0 R >>"
        );
        assert_writes(
            &font_file2(1234),
            b"<< /Length1 1234 /Filter /FlateDecode >>",
        );
        assert_writes(&plain_stream(), b"<< >>");
    }
}
