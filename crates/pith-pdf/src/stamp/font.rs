//! The stamp's font: DejaVu Sans, cut down at build time to the characters a stamp
//! can hold (`assets/fonts/subset.sh`, fontTools' pyftsubset; licence in
//! `assets/fonts/LICENSE-DejaVu.txt`), embedded whole as a Type0 font with a CIDFontType2
//! descendant (ISO 32000-2 §9.7.4), `/Identity-H` encoding, `/CIDToGIDMap /Identity`, a `/W`
//! widths array and a `/ToUnicode` CMap (§9.10.3), so text extraction returns the characters
//! and PDF/A files keep every font embedded.
//!
//! It owns measuring and encoding the stamp text and the bytes of the five font objects. It
//! reads the font with `ttf-parser`; it does no I/O and does not know about pages. The same
//! code embeds [`TEXT`], the font cut down to printable ASCII, for the text of a one-page
//! drawing (the `page` module); each is a [`Font`].

use std::fmt::Write as _;

use super::geometry::Extent;
use crate::syntax::{Obj, Ref};
use crate::writer::font as wf;
use crate::{Error, ErrorKind};

/// The font file: DejaVu Sans subset to `pith: 0-9 A-Z` (see `assets/fonts/subset.sh`).
pub static FONT: &[u8] = include_bytes!("../../assets/fonts/PithStamp-DejaVuSans.ttf");

/// `/BaseFont` of the embedded subset: a six-letter subset tag (§9.9.2) and the font's name.
pub const BASE_FONT: &str = "PITHST+DejaVuSans";

/// An embedded font: the TrueType file and its `/BaseFont`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Font {
    /// The font file.
    pub bytes: &'static [u8],
    /// `/BaseFont`: a six-letter subset tag and the font's name.
    pub base_font: &'static str,
}

/// The stamp's font ([`FONT`]).
pub const STAMP: Font = Font {
    bytes: FONT,
    base_font: BASE_FONT,
};

/// DejaVu Sans subset to printable ASCII (U+0020..U+007E; see `assets/fonts/subset.sh`).
pub const TEXT: Font = Font {
    bytes: include_bytes!("../../assets/fonts/PithText-DejaVuSans.ttf"),
    base_font: "PITHTX+DejaVuSans",
};

/// Text encoded for the stamp font.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The string operand of `Tj`: two bytes (glyph id = CID) per character.
    pub bytes: Vec<u8>,
    /// The text's size in ems.
    pub extent: Extent,
}

/// The body of one font object, as the typed writers of [`crate::writer::font`] build it.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A dictionary.
    Dict(Obj),
    /// A stream: its dictionary (without `/Length`) and its data.
    Stream(Obj, Vec<u8>),
}

/// Object identities of the six font objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FontRefs {
    /// The Type0 font (what the page's `/Font` resource names).
    pub type0: Ref,
    /// The CIDFontType2 descendant.
    pub cid: Ref,
    /// The font descriptor.
    pub descriptor: Ref,
    /// The `/FontFile2` stream.
    pub file: Ref,
    /// The `/ToUnicode` CMap stream.
    pub to_unicode: Ref,
    /// The `/CIDSet` stream (which CIDs the subset holds; PDF/A-1 requires it for CID font
    /// subsets, PDF/A-2 and later accept it when it is right).
    pub cid_set: Ref,
}

#[cfg(test)]
fn face() -> Result<ttf_parser::Face<'static>, Error> {
    STAMP.face()
}

impl Font {
    fn face(&self) -> Result<ttf_parser::Face<'static>, Error> {
        ttf_parser::Face::parse(self.bytes, 0).map_err(|e| {
            Error::new(ErrorKind::Unsupported(format!(
                "the built-in font {} does not parse: {e}",
                self.base_font
            )))
        })
    }
}

/// Every character the font maps, with its glyph id, in code point order.
fn mapped(face: &ttf_parser::Face<'_>) -> Vec<(char, u16)> {
    let mut out = Vec::new();
    if let Some(cmap) = face.tables().cmap {
        for sub in cmap.subtables {
            if !sub.is_unicode() {
                continue;
            }
            sub.codepoints(|cp| {
                if let (Some(c), Some(g)) = (char::from_u32(cp), sub.glyph_index(cp)) {
                    out.push((c, g.0));
                }
            });
        }
    }
    out.sort_unstable();
    out.dedup_by_key(|p| p.0);
    out
}

/// Encodes `text` for the stamp font and measures it.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when a character is not in the font (only `pith:`, digits,
/// upper-case letters and the space are).
pub fn encode(text: &str) -> Result<Encoded, Error> {
    STAMP.encode(text)
}

impl Font {
    /// Encodes `text` for this font and measures it.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] when a character is not in the font.
    pub fn encode(&self, text: &str) -> Result<Encoded, Error> {
        let face = self.face()?;
        let upem = f64::from(face.units_per_em());
        let mut bytes = Vec::with_capacity(text.len() * 2);
        let mut advance = 0.0;
        for c in text.chars() {
            let g = face.glyph_index(c).ok_or_else(|| {
                Error::new(ErrorKind::Unsupported(format!(
                    "the built-in font has no glyph for {c:?}"
                )))
            })?;
            bytes.extend_from_slice(&g.0.to_be_bytes());
            advance += f64::from(face.glyph_hor_advance(g).unwrap_or(0)) / upem;
        }
        Ok(Encoded {
            bytes,
            extent: Extent {
                advance,
                ascent: f64::from(face.ascender()) / upem,
                descent: f64::from(face.descender()) / upem,
            },
        })
    }
}

/// A font-unit value in the PDF's 1/1000 em text space units.
fn thousandths(v: i32, upem: f64) -> i64 {
    (f64::from(v) * 1000.0 / upem).round() as i64
}

/// The bodies of the six font objects, keyed by identity (the strings of the CIDFont's
/// `/CIDSystemInfo` are encrypted by the writer for an encrypted file).
///
/// # Errors
/// [`ErrorKind::Unsupported`] when the built-in font does not parse (a broken build).
pub fn objects(r: &FontRefs) -> Result<Vec<(Ref, Body)>, Error> {
    STAMP.objects(r)
}

/// Allocates the six font objects in `up` and writes them: the stamp's font, which a stamp or
/// a badge drawn anew names.
///
/// # Errors
/// As [`objects`].
pub fn write(up: &mut crate::writer::Update) -> Result<FontRefs, Error> {
    let refs = FontRefs {
        type0: up.alloc(),
        cid: up.alloc(),
        descriptor: up.alloc(),
        file: up.alloc(),
        to_unicode: up.alloc(),
        cid_set: up.alloc(),
    };
    for (id, obj) in objects(&refs)? {
        match obj {
            Body::Dict(d) => up.value(id, &d),
            Body::Stream(entries, data) => {
                up.stream(id, &entries, crate::security::StreamKind::Other, &data)
            }
        }
    }
    Ok(refs)
}

impl Font {
    /// The bodies of the six font objects of this font, keyed by identity.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] when the built-in font does not parse (a broken build).
    pub fn objects(&self, r: &FontRefs) -> Result<Vec<(Ref, Body)>, Error> {
        let (font, base_font) = (self.bytes, self.base_font);
        let face = self.face()?;
        let upem = f64::from(face.units_per_em());
        let glyphs = face.number_of_glyphs();
        let widths: Vec<i64> = (0..glyphs)
            .map(|g| {
                let w = face.glyph_hor_advance(ttf_parser::GlyphId(g)).unwrap_or(0);
                thousandths(i32::from(w), upem)
            })
            .collect();
        let bb = face.global_bounding_box();
        let t = |v: i16| thousandths(i32::from(v), upem);
        let cap = face.capital_height().unwrap_or(face.ascender());

        let type0 = wf::Type0 {
            base_font,
            descendant: r.cid,
            to_unicode: r.to_unicode,
        }
        .to_obj();
        let cid = wf::CidFont {
            base_font,
            descriptor: r.descriptor,
            widths: &widths,
        }
        .to_obj();
        let descriptor = wf::FontDescriptor {
            font_name: base_font,
            flags: 4,
            bbox: [t(bb.x_min), t(bb.y_min), t(bb.x_max), t(bb.y_max)],
            ascent: t(face.ascender()),
            descent: t(face.descender()),
            cap_height: t(cap),
            stem_v: 80,
            font_file2: r.file,
            cid_set: r.cid_set,
        }
        .to_obj();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(font, 9);
        let file = Body::Stream(wf::font_file2(font.len()), packed);
        let cmap = Body::Stream(wf::plain_stream(), to_unicode(&mapped(&face)).into_bytes());
        // Every glyph of the subset is a CID (Identity mapping): bits 0..glyphs set, high bit first.
        let mut set = vec![0u8; usize::from(glyphs).div_ceil(8)];
        for g in 0..usize::from(glyphs) {
            set[g / 8] |= 0x80 >> (g % 8);
        }
        let cid_set = Body::Stream(wf::plain_stream(), set);
        Ok(vec![
            (r.type0, Body::Dict(type0)),
            (r.cid, Body::Dict(cid)),
            (r.descriptor, Body::Dict(descriptor)),
            (r.file, file),
            (r.to_unicode, cmap),
            (r.cid_set, cid_set),
        ])
    }
}

/// The `/ToUnicode` CMap (§9.10.3, Adobe technical note 5411) from glyph ids (2-byte codes)
/// to the characters the font maps to them.
fn to_unicode(map: &[(char, u16)]) -> String {
    let mut by_gid: Vec<(u16, char)> = map.iter().map(|&(c, g)| (g, c)).collect();
    by_gid.sort_unstable();
    by_gid.dedup_by_key(|p| p.0);
    let mut s = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    // At most 100 entries per block (§9.10.3 via the CMap specification's limit).
    for chunk in by_gid.chunks(100) {
        let _ = writeln!(s, "{} beginbfchar", chunk.len());
        for (g, c) in chunk {
            let mut units = [0u16; 2];
            let hex: String = c
                .encode_utf16(&mut units)
                .iter()
                .map(|u| format!("{u:04X}"))
                .collect();
            let _ = writeln!(s, "<{g:04X}> <{hex}>");
        }
        s.push_str("endbfchar\n");
    }
    s.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::object::{to_vec, Strings};

    #[test]
    fn the_font_covers_every_pith_number_character() {
        let all = "pith:2024:ABCDEFGHIJKLMNOPQRSTUVWXYZ234567 0189";
        let e = encode(all).unwrap();
        assert_eq!(e.bytes.len(), 2 * all.chars().count());
        assert!(e.extent.ascent > 0.7 && e.extent.ascent < 1.1);
        assert!(e.extent.descent < 0.0 && e.extent.descent > -0.4);
        // DejaVu Sans: "pith:7BMK4ZKT" is about 7.3 em wide.
        let short = encode("pith:7BMK4ZKT").unwrap();
        assert!(short.extent.advance > 6.0 && short.extent.advance < 9.0);
        assert!(encode("pith:7bmk").is_err());
    }

    #[test]
    fn to_unicode_maps_the_glyphs_encode_uses() {
        let face = face().unwrap();
        let map = mapped(&face);
        let cmap = to_unicode(&map);
        let e = encode("pith:7").unwrap();
        for (pair, c) in e.bytes.chunks(2).zip("pith:7".chars()) {
            let line = format!("<{:02X}{:02X}> <{:04X}>", pair[0], pair[1], c as u32);
            assert!(cmap.contains(&line), "{line} missing from\n{cmap}");
        }
    }

    #[test]
    fn font_objects_reference_each_other_and_carry_the_font() {
        let r = FontRefs {
            type0: Ref::new(10, 0),
            cid: Ref::new(11, 0),
            descriptor: Ref::new(12, 0),
            file: Ref::new(13, 0),
            to_unicode: Ref::new(14, 0),
            cid_set: Ref::new(15, 0),
        };
        let objs = objects(&r).unwrap();
        let get = |n: u32| objs.iter().find(|o| o.0.num == n).unwrap().1.clone();
        let text = |n: u32| {
            let o = match get(n) {
                Body::Dict(o) | Body::Stream(o, _) => o,
            };
            String::from_utf8(to_vec(&o, Strings::default())).unwrap()
        };
        assert!(text(10).contains("/DescendantFonts [11 0 R] /ToUnicode 14 0 R"));
        assert!(text(11).contains("/FontDescriptor 12 0 R"));
        assert!(text(12).contains("/FontFile2 13 0 R /CIDSet 15 0 R"));
        let glyphs = usize::from(face().unwrap().number_of_glyphs());
        let Body::Stream(_, set) = get(15) else {
            panic!("CIDSet is a stream")
        };
        assert_eq!(set.len(), glyphs.div_ceil(8));
        let ones: u32 = set.iter().map(|b| b.count_ones()).sum();
        assert_eq!(ones as usize, glyphs);
        assert!(text(13).contains(&format!("/Length1 {}", FONT.len())));
        let w = text(11);
        let n = w
            .split("/W [0 [")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .split_whitespace()
            .count();
        assert_eq!(n, glyphs);
    }
}
