//! The text a content stream shows (ISO 32000-2 §9.4), as lines: the text operators
//! (`BT`, `Tf`, `Td`, `TD`, `Tm`, `T*`, `TL`, `Tc`, `Tw`, `Tz`, `Ts`, `Tj`, `TJ`, `'`, `"`)
//! and the matrix operators (`cm`, `q`, `Q`) are followed; `Do` is handed to the caller (who
//! reads a form's content where it is drawn); everything else is read past.
//! Tokens come from the engine's object parser ([`crate::syntax::Parser`]); inline image
//! data is skipped to its `EI`.
//!
//! A line ends where the baseline moves by more than half the font's size, where the text's
//! direction turns (arXiv's stamp runs up the margin), or where the pen jumps back along the
//! baseline by more than the font's size: text drawn again further left is another line (the
//! line numbers `lineno` sets in the margin after each line's text; an accent or a kern moves
//! back less than that). A space goes in where the pen
//! jumps forward by more than a sixth of it (TeX sets word spaces as moves, not as space
//! characters), which the glyph widths make exact. Positions along and across a line are
//! taken in the text's own direction, so a line set sideways is one line too. Lines come in the order the
//! stream draws them, which is reading order for TeX's output.

use std::collections::HashMap;
use std::rc::Rc;

use super::font::{Font, MAX_LINE_TEXT};
use super::Line;
use crate::budget::{Budget, Resource};
use crate::matrix::{mul, Matrix, IDENTITY};
use crate::syntax::{is_regular, Obj, Parser};
use crate::Error;

/// Most operands kept before an operator (a `TJ` array is one).
const MAX_OPERANDS: usize = 64;
/// Most `q` levels kept (deeper saves are counted, not stored).
const MAX_SAVES: usize = 256;
/// Most elements of a `TJ` array kept: its elements are read one by one and counted as
/// operators, and those past this many are read past (a real `TJ` shows one line).
const MAX_TJ_ITEMS: usize = 4096;
/// Most bytes of text one page's lines hold together: lines past it are not kept.
pub(crate) const MAX_PAGE_TEXT: usize = 4 << 20;

fn num(o: &Obj) -> Option<f64> {
    match o {
        Obj::Int(i) => Some(*i as f64),
        Obj::Real(r) if r.is_finite() => Some(*r),
        _ => None,
    }
}

/// The lines of text a page's content shows, built as the stream is read.
pub(crate) struct Lines {
    pub lines: Vec<Line>,
    current: String,
    /// Where the current line starts, in user space, and its font's size there.
    x0: f64,
    y0: f64,
    size: f64,
    /// The current line's direction (a unit vector in user space).
    dir: (f64, f64),
    /// The current line's baseline, across its direction, and the pen's position along it
    /// and in user space at the end of the last glyph.
    last_y: Option<f64>,
    pen_along: f64,
    pen_x: f64,
    /// Bytes of text in `lines`.
    held: usize,
}

impl Lines {
    pub(crate) fn new() -> Self {
        Lines {
            lines: Vec::new(),
            current: String::new(),
            x0: 0.0,
            y0: 0.0,
            size: 0.0,
            dir: (1.0, 0.0),
            last_y: None,
            pen_along: 0.0,
            pen_x: 0.0,
            held: 0,
        }
    }

    fn end_line(&mut self) {
        let t = self.current.trim_end();
        if !t.trim_start().is_empty() && self.held + t.len() <= MAX_PAGE_TEXT {
            self.held += t.len();
            self.lines.push(Line {
                text: t.to_owned(),
                x0: self.x0 as f32,
                x1: self.pen_x as f32,
                y: self.y0 as f32,
                size: self.size as f32,
                rotated: !upright(self.dir),
            });
        }
        self.current.clear();
    }

    /// Finishes the last line and gives every line.
    pub(crate) fn finish(mut self) -> Vec<Line> {
        self.end_line();
        self.lines
    }
}

struct State {
    ctm: Matrix,
    font: Option<Rc<Font>>,
    size: f64,
    char_space: f64,
    word_space: f64,
    scale: f64,
    leading: f64,
    rise: f64,
}

/// Whether text running along `dir` reads left to right (within 45 degrees).
fn upright(dir: (f64, f64)) -> bool {
    dir.0 > std::f64::consts::FRAC_1_SQRT_2
}

/// What a content stream's `Do` asks for: the resource name drawn, the matrix it is drawn
/// under, and the lines being built.
pub(crate) type Draw<'a> = dyn FnMut(&[u8], &Matrix, &mut Lines) -> Result<(), Error> + 'a;

/// Reads `content` with the fonts `fonts` names (resource name → font) under the matrix
/// `ctm`, adding its lines to `out`; each `Do` goes to `draw`. Each operator costs one of
/// [`Resource::Operators`].
///
/// # Errors
/// The budget's refusal or a stop, or `draw`'s error. Malformed content is read past, never
/// refused.
pub(crate) fn show(
    content: &[u8],
    fonts: &HashMap<Vec<u8>, Rc<Font>>,
    ctm: Matrix,
    budget: &Budget,
    out: &mut Lines,
    draw_form: &mut Draw,
) -> Result<(), Error> {
    let mut p = Parser::new(content, 0, true);
    let mut operands: Vec<Obj> = Vec::new();
    let mut st = State {
        ctm,
        font: None,
        size: 0.0,
        char_space: 0.0,
        word_space: 0.0,
        scale: 1.0,
        leading: 0.0,
        rise: 0.0,
    };
    let mut saves: Vec<(Matrix, Option<Rc<Font>>, f64)> = Vec::new();
    let mut extra_saves = 0usize;
    let (mut tm, mut tlm) = (IDENTITY, IDENTITY);
    loop {
        p.skip_ws();
        let Some(b) = p.byte_at(p.pos) else { break };
        let is_op = is_regular(b) && !(b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.'));
        if b == b'[' {
            // An array (a `TJ`'s) is read element by element, each counted as an operator,
            // and at most [`MAX_TJ_ITEMS`] kept: its size never decides what it costs.
            let items = array(&mut p, budget)?;
            if operands.len() < MAX_OPERANDS {
                operands.push(Obj::Array(items));
            }
            continue;
        }
        if !is_op {
            let start = p.pos;
            match p.object() {
                Ok(o) => {
                    if operands.len() < MAX_OPERANDS {
                        operands.push(o);
                    }
                }
                Err(_) => {
                    // Not an object: read past what the parser read (at least a byte) and
                    // forget the operands. Going back to the next byte would read the same
                    // stretch again from each of its bytes: quadratic in a long malformed run.
                    p.pos = p.pos.max(start + 1);
                    operands.clear();
                }
            }
            continue;
        }
        let start = p.pos;
        while p.byte_at(p.pos).is_some_and(is_regular) {
            p.pos += 1;
        }
        let op = &content[start..p.pos];
        budget.spend(Resource::Operators, 1)?;
        let n = |i: usize| operands.get(i).and_then(num);
        match op {
            b"q" => {
                if saves.len() < MAX_SAVES {
                    saves.push((st.ctm, st.font.clone(), st.size));
                } else {
                    extra_saves += 1;
                }
            }
            b"Q" => {
                if extra_saves > 0 {
                    extra_saves -= 1;
                } else if let Some((ctm, font, size)) = saves.pop() {
                    (st.ctm, st.font, st.size) = (ctm, font, size);
                }
            }
            b"cm" => {
                if let [Some(a), Some(b), Some(c), Some(d), Some(e), Some(f)] =
                    [n(0), n(1), n(2), n(3), n(4), n(5)]
                {
                    st.ctm = mul(&[a, b, c, d, e, f], &st.ctm);
                }
            }
            b"BT" => {
                tm = IDENTITY;
                tlm = IDENTITY;
            }
            b"Tf" => {
                if let (Some(Obj::Name(name)), Some(size)) = (operands.first(), n(1)) {
                    st.font = fonts.get(name).cloned();
                    st.size = size;
                }
            }
            b"Tc" => st.char_space = n(0).unwrap_or(0.0),
            b"Tw" => st.word_space = n(0).unwrap_or(0.0),
            b"Tz" => st.scale = n(0).unwrap_or(100.0) / 100.0,
            b"TL" => st.leading = n(0).unwrap_or(0.0),
            b"Ts" => st.rise = n(0).unwrap_or(0.0),
            b"Td" | b"TD" => {
                let (tx, ty) = (n(0).unwrap_or(0.0), n(1).unwrap_or(0.0));
                if op == b"TD" {
                    st.leading = -ty;
                }
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, tx, ty], &tlm);
                tm = tlm;
            }
            b"Tm" => {
                if let [Some(a), Some(b), Some(c), Some(d), Some(e), Some(f)] =
                    [n(0), n(1), n(2), n(3), n(4), n(5)]
                {
                    tlm = [a, b, c, d, e, f];
                    tm = tlm;
                }
            }
            b"T*" => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -st.leading], &tlm);
                tm = tlm;
            }
            b"Tj" | b"'" | b"\"" | b"TJ" => {
                if op == b"\"" {
                    st.word_space = n(0).unwrap_or(st.word_space);
                    st.char_space = n(1).unwrap_or(st.char_space);
                }
                if op == b"'" || op == b"\"" {
                    tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -st.leading], &tlm);
                    tm = tlm;
                }
                let items: Vec<Obj> = match operands.pop() {
                    Some(Obj::Array(a)) if op == b"TJ" => a,
                    Some(s @ Obj::Str(_)) => vec![s],
                    _ => Vec::new(),
                };
                for it in &items {
                    match it {
                        Obj::Str(s) => draw(s, &st, &mut tm, out),
                        o => {
                            if let Some(k) = num(o) {
                                let tx = -k / 1000.0 * st.size * st.scale;
                                tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &tm);
                            }
                        }
                    }
                }
            }
            b"Do" => {
                if let Some(Obj::Name(name)) = operands.first() {
                    draw_form(name, &st.ctm, out)?;
                }
            }
            b"ID" => {
                // Inline image data runs to white space, `EI`, white space (or the end).
                let rest = &content[p.pos..];
                let end = rest
                    .windows(4)
                    .position(|w| {
                        crate::syntax::is_white(w[0])
                            && &w[1..3] == b"EI"
                            && (crate::syntax::is_white(w[3]))
                    })
                    .map_or(rest.len(), |i| i + 3);
                p.pos += end;
            }
            _ => {}
        }
        operands.clear();
    }
    Ok(())
}

/// The elements of the array at the parser's position (its `[`), at most [`MAX_TJ_ITEMS`]
/// of them kept; the parser ends past its `]` (or at the end of the content).
fn array(p: &mut Parser, budget: &Budget) -> Result<Vec<Obj>, Error> {
    p.pos += 1;
    let mut items = Vec::new();
    loop {
        p.skip_ws();
        match p.byte_at(p.pos) {
            None => break,
            Some(b']') => {
                p.pos += 1;
                break;
            }
            Some(_) => {}
        }
        budget.spend(Resource::Operators, 1)?;
        let start = p.pos;
        match p.object() {
            Ok(o) if items.len() < MAX_TJ_ITEMS => items.push(o),
            Ok(_) => {}
            // Not an object: read past what the parser read (at least a byte), never again
            // from the next byte (see `show`).
            Err(_) => p.pos = p.pos.max(start + 1),
        }
    }
    Ok(items)
}

/// Draws the string `s` at the text matrix `tm`, moving it past the glyphs.
fn draw(s: &[u8], st: &State, tm: &mut Matrix, out: &mut Lines) {
    let Some(font) = &st.font else { return };
    let trm = mul(tm, &st.ctm);
    let (x, y) = (st.rise * trm[2] + trm[4], st.rise * trm[3] + trm[5]);
    // The font's size in user space, along the text's vertical.
    let h = (st.size * (trm[2] * trm[2] + trm[3] * trm[3]).sqrt())
        .abs()
        .max(0.1);
    // Positions along the text's direction and across it (its baseline).
    let len = (trm[0] * trm[0] + trm[1] * trm[1]).sqrt();
    let dir = if len > 0.0 && len.is_finite() {
        (trm[0] / len, trm[1] / len)
    } else {
        (1.0, 0.0)
    };
    let (along, across) = (x * dir.0 + y * dir.1, y * dir.0 - x * dir.1);
    let same_dir = (dir.0 - out.dir.0).abs() + (dir.1 - out.dir.1).abs() < 0.1;
    match out.last_y {
        Some(ly) if same_dir && (across - ly).abs() <= h * 0.5 && along - out.pen_along >= -h => {
            let gap = along - out.pen_along;
            if gap > h / 6.0 && !out.current.ends_with(' ') {
                out.current.push(' ');
            }
        }
        Some(_) => {
            out.end_line();
            (out.x0, out.y0, out.size, out.dir) = (x, y, h, dir);
        }
        None => (out.x0, out.y0, out.size, out.dir) = (x, y, h, dir),
    }
    out.last_y = Some(across);
    let mut adv_total = 0.0;
    // Past the longest line kept, glyphs still move the pen but add no text.
    let mut sink = String::new();
    let text = if out.current.len() < MAX_LINE_TEXT {
        &mut out.current
    } else {
        &mut sink
    };
    font.decode(s, text, |w, is_space| {
        let mut tx = w / 1000.0 * st.size + st.char_space;
        if is_space {
            tx += st.word_space;
        }
        adv_total += tx * st.scale;
    });
    *tm = mul(&[1.0, 0.0, 0.0, 1.0, adv_total, 0.0], tm);
    let end = mul(tm, &st.ctm);
    out.pen_x = end[4];
    out.pen_along = end[4] * dir.0 + end[5] * dir.1;
}
