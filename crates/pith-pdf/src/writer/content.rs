//! A typed writer of content streams (ISO 32000-2 §8.2, Annex A), as typst/pdf-writer's
//! `Content`: one method per operator, named after what it does, each writing its operands
//! and operator on a line of their own. The stamp and the badge pith redraws on page 1 are
//! written with it, and so are the one-page drawings of the `page` module; nothing here decides
//! what to draw.
//!
//! Numbers go through [`super::object::num`] (no exponent, at most four decimals), names
//! through [`super::object::name`], strings of glyph codes as hexadecimal.
//!
//! # Examples
//! ```
//! use pith_pdf::writer::content::Content;
//! let mut c = Content::new();
//! c.save_state().set_fill_gray(0.35).begin_text().set_font(b"F1", 9.0).show(&[0, 1]);
//! c.end_text().restore_state();
//! assert_eq!(c.finish(), b"q\n0.35 g\nBT\n/F1 9 Tf\n<00000001> Tj\nET\nQ\n");
//! ```
//! (Each code of a [`Content::show`] string is two bytes: the fonts pith embeds are CID
//! fonts with `Identity-H` encoding.)

use super::object::{name, num};

/// A content stream being written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Content {
    buf: Vec<u8>,
}

impl Content {
    /// An empty content stream.
    pub fn new() -> Self {
        Content::default()
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }

    fn nums(&mut self, vs: &[f64]) {
        for v in vs {
            self.buf.extend_from_slice(num(*v).as_bytes());
            self.buf.push(b' ');
        }
    }

    fn op(&mut self, op: &str) -> &mut Self {
        self.buf.extend_from_slice(op.as_bytes());
        self.buf.push(b'\n');
        self
    }

    /// `q`: saves the graphics state (§8.4.2).
    pub fn save_state(&mut self) -> &mut Self {
        self.op("q")
    }

    /// `Q`: restores the graphics state saved last.
    pub fn restore_state(&mut self) -> &mut Self {
        self.op("Q")
    }

    /// `cm`: concatenates `m` to the current transformation matrix (§8.4.4).
    pub fn transform(&mut self, m: [f64; 6]) -> &mut Self {
        self.nums(&m);
        self.op("cm")
    }

    /// `g`: the fill colour in DeviceGray (§8.6.8).
    pub fn set_fill_gray(&mut self, gray: f64) -> &mut Self {
        self.nums(&[gray]);
        self.op("g")
    }

    /// `rg`: the fill colour in DeviceRGB.
    pub fn set_fill_rgb(&mut self, r: f64, g: f64, b: f64) -> &mut Self {
        self.nums(&[r, g, b]);
        self.op("rg")
    }

    /// `re`: appends a rectangle to the path (§8.5.2.1).
    pub fn rect(&mut self, x: f64, y: f64, width: f64, height: f64) -> &mut Self {
        self.nums(&[x, y, width, height]);
        self.op("re")
    }

    /// `m`: begins a new subpath at (`x`, `y`) (§8.5.2.1).
    pub fn move_to(&mut self, x: f64, y: f64) -> &mut Self {
        self.nums(&[x, y]);
        self.op("m")
    }

    /// `l`: a straight segment to (`x`, `y`).
    pub fn line_to(&mut self, x: f64, y: f64) -> &mut Self {
        self.nums(&[x, y]);
        self.op("l")
    }

    /// `c`: a cubic Bézier segment with control points (`x1`, `y1`), (`x2`, `y2`) to
    /// (`x3`, `y3`).
    pub fn cubic_to(&mut self, c: [f64; 6]) -> &mut Self {
        self.nums(&c);
        self.op("c")
    }

    /// `h`: closes the current subpath.
    pub fn close_path(&mut self) -> &mut Self {
        self.op("h")
    }

    /// `f`: fills the path with the non-zero winding rule (§8.5.3.1).
    pub fn fill_nonzero(&mut self) -> &mut Self {
        self.op("f")
    }

    /// `BMC`: begins a marked-content sequence tagged `tag` (§14.6), e.g. `Artifact`.
    pub fn begin_marked_content(&mut self, tag: &[u8]) -> &mut Self {
        name(tag, &mut self.buf);
        self.buf.push(b' ');
        self.op("BMC")
    }

    /// `EMC`: ends the marked-content sequence begun last.
    pub fn end_marked_content(&mut self) -> &mut Self {
        self.op("EMC")
    }

    /// `Do`: paints the XObject named `xobject` in the resources (§8.8).
    pub fn x_object(&mut self, xobject: &[u8]) -> &mut Self {
        name(xobject, &mut self.buf);
        self.buf.push(b' ');
        self.op("Do")
    }

    /// `BT`: begins a text object (§9.4.1).
    pub fn begin_text(&mut self) -> &mut Self {
        self.op("BT")
    }

    /// `ET`: ends the text object.
    pub fn end_text(&mut self) -> &mut Self {
        self.op("ET")
    }

    /// `Tc`, `Tw`, `Tz`, `Ts`, `Tr` to their initial values (§9.3): character and word
    /// spacing 0, horizontal scaling 100, rise 0, fill rendering, whatever the content before
    /// left them at.
    pub fn reset_text_state(&mut self) -> &mut Self {
        self.op("0 Tc 0 Tw 100 Tz 0 Ts 0 Tr")
    }

    /// `Tz`: the horizontal scaling, in percent of the glyphs' natural width (§9.3.4).
    pub fn set_horizontal_scaling(&mut self, percent: f64) -> &mut Self {
        self.nums(&[percent]);
        self.op("Tz")
    }

    /// `Tf`: the font resource `font` at `size` (§9.3.1).
    pub fn set_font(&mut self, font: &[u8], size: f64) -> &mut Self {
        name(font, &mut self.buf);
        self.buf.push(b' ');
        self.nums(&[size]);
        self.op("Tf")
    }

    /// `Td`: moves to the start of the next line, offset by (`x`, `y`) (§9.4.2).
    pub fn next_line(&mut self, x: f64, y: f64) -> &mut Self {
        self.nums(&[x, y]);
        self.op("Td")
    }

    /// `Tm`: the text matrix and text line matrix (§9.4.2).
    pub fn set_text_matrix(&mut self, m: [f64; 6]) -> &mut Self {
        self.nums(&m);
        self.op("Tm")
    }

    /// `Tj`: shows a string of two-byte glyph codes, written in hexadecimal (§9.4.3).
    pub fn show(&mut self, codes: &[u16]) -> &mut Self {
        self.buf.push(b'<');
        for c in codes {
            self.buf.extend_from_slice(format!("{c:04X}").as_bytes());
        }
        self.buf.extend_from_slice(b"> ");
        self.op("Tj")
    }

    /// `Tj` with the string's bytes as they are (already encoded for the font).
    pub fn show_bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.buf.push(b'<');
        for b in bytes {
            self.buf.extend_from_slice(format!("{b:02X}").as_bytes());
        }
        self.buf.extend_from_slice(b"> ");
        self.op("Tj")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::object::assert_bytes;

    #[test]
    fn every_operator_on_its_line() {
        let mut c = Content::new();
        c.save_state()
            .begin_marked_content(b"Artifact")
            .transform([1.0, 0.0, 0.0, 1.0, 12.5, 0.0])
            .set_fill_gray(1.0)
            .rect(0.0, -1.5, 40.25, 10.0)
            .fill_nonzero()
            .move_to(1.0, 2.0)
            .line_to(3.0, 2.0)
            .cubic_to([4.0, 2.0, 5.0, 3.0, 5.0, 4.0])
            .close_path()
            .fill_nonzero()
            .set_fill_rgb(0.043, 0.4, 0.765)
            .reset_text_state()
            .begin_text()
            .set_font(b"PithStamp", 9.0)
            .set_text_matrix([0.0, 1.0, -1.0, 0.0, 20.0, 30.0])
            .set_horizontal_scaling(95.5)
            .next_line(1.0, -2.0)
            .show_bytes(&[0x00, 0x2A])
            .end_text()
            .x_object(b"Pith Badge")
            .end_marked_content()
            .restore_state();
        let found = c.finish();
        let expected: &[u8] = b"q\n/Artifact BMC\n1 0 0 1 12.5 0 cm\n1 g\n0 -1.5 40.25 10 re\nf\n1 2 m\n3 2 l\n4 2 5 3 5 4 c\nh\nf\n0.043 0.4 0.765 rg\n0 Tc 0 Tw 100 Tz 0 Ts 0 Tr\nBT\n/PithStamp 9 Tf\n0 1 -1 0 20 30 Tm\n95.5 Tz\n1 -2 Td\n<002A> Tj\nET\n/Pith#20Badge Do\nEMC\nQ\n";
        assert_bytes(&found, expected);
    }
}
