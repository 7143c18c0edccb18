//! A walk over page 1's content streams as they are decoded (ISO 32000-2 §8, §9.4), for the
//! stamp: how the content nests `q`/`Q` ([`Nesting`]) and where it draws (its
//! extent in default user space), in one pass that never holds a page's content
//! stream whole.
//!
//! The lexer reads tokens from any [`Read`] through one 64 KiB buffer and skips what cannot
//! hold an operator (strings, comments, dictionaries, inline image data). The walk tracks the
//! current transformation matrix, the clip, the text state and matrices, and keeps the box of
//! every mark ([`Found::boxes`]): glyph runs (an approximation that overstates: each byte of a
//! string is taken as a glyph one em wide, from 0.35 em below the baseline to 1.05 em above),
//! filled paths (fills in white, invisible on paper, excepted) and the segments of stroked
//! ones, images, inline images, form XObjects (walked into when the caller gives their
//! content, else their `/BBox` through `/Matrix`) and shadings (the clip, or the whole page
//! when unclipped). It stops with an error past a byte bound the caller gives, forms included.
//!
//! Given the page's area ([`Walk::with_page`]), a fill, image or shading that covers nearly
//! all of it before any text is drawn is kept apart as [`Found::background`] (a page colour,
//! a framed or coloured page, a full-page picture behind the text), with the luminance of its
//! colour where the walk knows it, so the caller can tell the page's background from content
//! that reaches its edges.
//!
//! It reads bytes only; XObjects are described to it by the caller ([`XObject`]).
//!
//! Its rooms: the lexer (`lexer`), the boxes marks cover (`shapes`), the operators (`ops`)
//! and what the walk does with each mark (`marks`); the walk's state and its entry points are
//! here.

use std::io::{self, Read};

use super::geometry::Rect;
use crate::budget::{Budget, Resource};
use crate::matrix::{Matrix, IDENTITY};

mod lexer;
mod marks;
mod ops;
mod shapes;
#[cfg(test)]
mod tests;

pub use lexer::TooLong;
use lexer::{Lexer, Tok};
pub use shapes::bbox;
use shapes::strips;

/// Nesting of `q`/`Q` in a content stream, counted from 0 at its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nesting {
    /// The lowest depth reached (0 or negative: `-k` means `k` more `Q` than `q` at a point).
    pub min: i64,
    /// The depth at the end.
    pub end: i64,
}

impl Nesting {
    /// How many `q` to put before the content so that it never pops a state it did not save.
    pub fn opens(&self) -> usize {
        1 + usize::try_from(-self.min).unwrap_or(0)
    }
    /// How many `Q` after the content bring the stack back to where it was before the opens.
    pub fn closes(&self) -> usize {
        usize::try_from(self.opens() as i64 + self.end).unwrap_or(0)
    }
}

/// What a `Do` operand names, as the caller found it in the page's resources.
#[derive(Debug, Clone, PartialEq)]
pub enum XObject {
    /// An image: it fills the unit square of the current matrix (§8.9.5).
    Image,
    /// A form: its content lies inside `/BBox` mapped by `/Matrix` (§8.10.1).
    Form {
        /// `/BBox` in form space.
        bbox: Rect,
        /// `/Matrix` (form space to the user space of the `Do`).
        matrix: [f64; 6],
        /// Its decoded content and the scope its own `Do` operands are looked up in (its
        /// resources), when the caller read them: the walk then goes into the form (a frame
        /// or a page-sized form marks what it draws, not its whole box); else the box counts.
        content: Option<(Vec<u8>, usize)>,
    },
}

/// The relative luminance of an sRGB colour (components 0 to 1), as WCAG 2 defines it.
pub fn luminance(r: f64, g: f64, b: f64) -> f64 {
    let lin = |v: f64| {
        let v = v.clamp(0.0, 1.0);
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// Glyph box of one byte of text, in ems: width, and from below the baseline to above it.
const GLYPH_EM: f64 = 1.0;
const GLYPH_DESC: f64 = -0.35;
const GLYPH_ASC: f64 = 1.05;
/// The most mark boxes kept (32 bytes each); further marks are merged into the last one.
pub const MAX_BOXES: usize = 1 << 16;
/// The longest piece of a slanted line marked as one box, in default user space units.
const LINE_PIECE: f64 = 12.0;
/// The most segments of one path kept for a stroke or for a fill's strips.
const MAX_SEGMENTS: usize = 4096;
/// The height of the strips a large slanted or curved shape is marked in, in default user
/// space units: its box alone would cover the corners it leaves empty (a skewed plane, a
/// diamond, a disc), and those corners are the margins the stamp looks for.
const STRIP: f64 = 8.0;
/// The most strips one shape is marked in.
const MAX_STRIPS: usize = 128;
/// Longest operand stack kept (real operators take at most 6 operands; `sc`/`scn` up to 33).
const MAX_OPERANDS: usize = 64;

/// The graphics state the walk tracks (§8.4.1), saved by `q` and restored by `Q`.
#[derive(Debug, Clone)]
struct Gs {
    ctm: Matrix,
    /// The clip's box in default user space; `None` is unclipped.
    clip: Option<Rect>,
    line_width: f64,
    /// Whether the fill colour is white (`1 g`, `1 1 1 rg`, `0 0 0 0 k`).
    white_fill: bool,
    /// Relative luminance (0 black to 1 white) of the fill colour when it is a device colour
    /// set by `g`, `rg` or `k`; `None` for any other colour space.
    fill_luminance: Option<f64>,
    font_size: f64,
    /// Horizontal scaling (`Tz`/100), character and word spacing, leading and rise.
    th: f64,
    tc: f64,
    tw: f64,
    tl: f64,
    rise: f64,
}

impl Default for Gs {
    fn default() -> Self {
        Gs {
            ctm: IDENTITY,
            clip: None,
            line_width: 1.0,
            white_fill: false,
            fill_luminance: Some(0.0),
            font_size: 0.0,
            th: 1.0,
            tc: 0.0,
            tw: 0.0,
            tl: 0.0,
            rise: 0.0,
        }
    }
}

/// A fill, image or shading covering nearly the whole page, drawn before any text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Background {
    /// Its box in default user space (within the clip).
    pub rect: Rect,
    /// The relative luminance of a uniform fill's device colour (0 black to 1 white); `None`
    /// for images, shadings and other colour spaces.
    pub luminance: Option<f64>,
    /// An image (a picture may carry content up to its edges), not a fill or a shading.
    pub image: bool,
}

/// The least part of the page's width and of its height a paint must cover to count as
/// background: a page colour or full-page picture, not a figure.
pub const BACKGROUND_COVER: f64 = 0.9;

/// What the walk found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    /// How the content nests `q`/`Q`.
    pub nesting: Nesting,
    /// The box of everything drawn, in default user space; `None` when nothing is.
    pub extent: Option<Rect>,
    /// The boxes of the marks, in default user space (at most [`MAX_BOXES`]; past that, the
    /// last one grows to hold the rest).
    pub boxes: Vec<Rect>,
    /// Something covers the whole clip, which is the whole page (an unclipped `sh`).
    pub everything: bool,
    /// Paints covering nearly the whole page before any text (only with
    /// [`Walk::with_page`]); they are in neither `extent` nor `boxes`.
    pub background: Vec<Background>,
}

/// Describes the XObject a `Do` operand names in a scope of resources (0: the page's).
type Describe<'x> = Box<dyn Fn(usize, &[u8]) -> Option<XObject> + 'x>;

/// Deepest nesting of form XObjects walked into (deeper ones count by their box).
const MAX_FORM_DEPTH: usize = 8;

/// A walk over one or more content streams of a page, in order.
pub struct Walk<'x> {
    found: Found,
    depth: i64,
    gs: Gs,
    stack: Vec<Gs>,
    tm: Matrix,
    tlm: Matrix,
    path: Option<Rect>,
    /// The boxes of the current path's segments (user space), for a stroke: a frame drawn
    /// round the page marks its four edges, not the page inside it; and for a large fill, its
    /// outline ([`strips`]). `None` past
    /// [`MAX_SEGMENTS`] (the stroke then marks the path's box).
    segs: Option<Vec<Rect>>,
    /// The closing lines of the current path's earlier open subpaths, for a fill's outline.
    closers: Vec<Rect>,
    /// The current point and the start of the current subpath (user space).
    point: (f64, f64),
    start: (f64, f64),
    pending_clip: bool,
    operands: Vec<Tok>,
    /// Inside `[ … ]`: the running x position, and the lowest and highest reached, in
    /// unscaled text space.
    array: Option<(f64, f64, f64)>,
    xobject: Describe<'x>,
    /// The scope of resources `Do` operands are looked up in, and how deep in forms.
    scope: usize,
    form_depth: usize,
    /// Bytes read so far, for the bound.
    read: u64,
    bound: u64,
    /// The page's area, for telling background from content.
    page: Option<Rect>,
    /// Whether text has been drawn: a paint after it is content, whatever its size.
    text_seen: bool,
    /// While a paint (fill, image, shading) is being marked: the luminance of its colour and
    /// whether it is an image.
    paint: Option<(Option<f64>, bool)>,
    /// The document's budget, which the operators scanned are counted against (and whose
    /// stop token ends the walk); `None` counts nothing.
    budget: Option<&'x Budget>,
    /// Operators scanned and not yet counted against the budget.
    ops: u64,
}

/// Operators scanned between two countings against the budget (and checks of its stop).
const OPS_PER_CHECK: u64 = 256;

impl<'x> Walk<'x> {
    /// A walk that reads at most `bound` bytes in all (forms walked into included),
    /// describing `Do` operands with `xobject` (scope, name; `None`: unknown, taken as an
    /// image).
    pub fn new(bound: u64, xobject: impl Fn(usize, &[u8]) -> Option<XObject> + 'x) -> Self {
        Walk {
            found: Found::default(),
            depth: 0,
            gs: Gs::default(),
            stack: Vec::new(),
            tm: IDENTITY,
            tlm: IDENTITY,
            path: None,
            segs: Some(Vec::new()),
            closers: Vec::new(),
            point: (0.0, 0.0),
            start: (0.0, 0.0),
            pending_clip: false,
            operands: Vec::new(),
            array: None,
            xobject: Box::new(xobject),
            scope: 0,
            form_depth: 0,
            read: 0,
            bound,
            page: None,
            text_seen: false,
            paint: None,
            budget: None,
            ops: 0,
        }
    }

    /// Counts the operators scanned against `budget` (refusing past its
    /// [`Limits::operators`](crate::budget::Limits::operators)) and stops when its token does:
    /// the walk then ends with an I/O error carrying the budget's error.
    pub fn with_budget(mut self, budget: &'x Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Counts the operators scanned since the last count.
    fn spend_ops(&mut self) -> io::Result<()> {
        if let Some(b) = self.budget {
            let n = std::mem::take(&mut self.ops);
            b.spend(Resource::Operators, n).map_err(io::Error::other)?;
        }
        Ok(())
    }

    /// Tells the walk the page's area (default user space), so that a paint covering at
    /// least [`BACKGROUND_COVER`] of its width and height before any text goes into
    /// [`Found::background`].
    pub fn with_page(mut self, area: Rect) -> Self {
        self.page = Some(area);
        self
    }

    /// Marks `b` (default user space) as a paint of colour luminance `luminance`.
    fn paint_user(&mut self, b: Rect, luminance: Option<f64>) {
        self.paint = Some((luminance, false));
        self.mark_user(b);
        self.paint = None;
    }

    /// Whether `b` covers at least [`BACKGROUND_COVER`] of the page's width and height (never
    /// without the page's area).
    fn covers_page(&self, b: &Rect) -> bool {
        self.page.is_some_and(|area| {
            b.intersect(&area).is_some_and(|c| {
                c.width() >= BACKGROUND_COVER * area.width()
                    && c.height() >= BACKGROUND_COVER * area.height()
            })
        })
    }

    /// Marks a paint (`paint`, as in [`Walk::paint`]) of a shape with box `b` and outline
    /// pieces `outline`: a paint that may be the page's background counts by its box, as
    /// [`Walk::mark_user`] decides; any other large shape by its [`strips`].
    fn paint_shape(&mut self, b: Rect, outline: &[Rect], paint: (Option<f64>, bool)) {
        self.paint = Some(paint);
        let background = !self.text_seen && self.covers_page(&b);
        match strips(&b, outline).filter(|_| !background) {
            Some(parts) => {
                for r in parts {
                    self.mark_user(r);
                }
            }
            None => self.mark_user(b),
        }
        self.paint = None;
    }

    /// Walks the next content stream (streams of a page are one sequence, §7.8.2).
    ///
    /// # Errors
    /// The read errors of `src`, and an error whose inner error is [`TooLong`] past the
    /// bound.
    pub fn feed(&mut self, src: impl Read) -> io::Result<()> {
        let mut lx = Lexer::new(src, self.bound.saturating_sub(self.read));
        let r = self.run(&mut lx);
        self.read += lx.read;
        r.and_then(|_| self.spend_ops())
    }

    /// What was found.
    pub fn finish(mut self) -> Found {
        self.found.nesting.end = self.depth;
        self.found
    }

    fn run<R: Read>(&mut self, lx: &mut Lexer<R>) -> io::Result<()> {
        while let Some(t) = lx.next()? {
            match t {
                Tok::Op(w, n) => {
                    self.ops += 1;
                    if self.ops >= OPS_PER_CHECK {
                        self.spend_ops()?;
                    }
                    let op = &w[..n];
                    if op == b"BI" {
                        // Inline image: its dictionary entries, `ID`, the data, `EI`.
                        while let Some(t) = lx.next()? {
                            if matches!(&t, Tok::Op(w, 2) if &w[..2] == b"ID") {
                                break;
                            }
                        }
                        lx.skip_inline_image()?;
                        self.paint_image();
                    } else {
                        self.op(op);
                    }
                    self.operands.clear();
                }
                Tok::ArrOpen => {
                    self.array = Some((0.0, 0.0, 0.0));
                    self.operands.clear();
                }
                Tok::ArrClose => {}
                Tok::Str(len, spaces) if self.array.is_some() => {
                    let adv = self.advance(len, spaces);
                    if let Some((x, lo, hi)) = self.array.as_mut() {
                        *lo = lo.min(*x).min(*x + adv);
                        *x += adv;
                        *hi = hi.max(*x);
                    }
                }
                Tok::Num(v) if self.array.is_some() => {
                    let d = -v / 1000.0 * self.gs.font_size * self.gs.th;
                    if let Some((x, _, _)) = self.array.as_mut() {
                        *x += d;
                    }
                }
                t => {
                    if self.operands.len() >= MAX_OPERANDS {
                        self.operands.clear();
                    }
                    self.operands.push(t);
                }
            }
        }
        Ok(())
    }

    /// The last `n` operands as numbers, if they are numbers.
    fn nums<const N: usize>(&self) -> Option<[f64; N]> {
        let k = self.operands.len().checked_sub(N)?;
        let mut out = [0.0; N];
        for (i, t) in self.operands[k..].iter().enumerate() {
            match t {
                Tok::Num(v) => out[i] = *v,
                _ => return None,
            }
        }
        Some(out)
    }

    /// The advance of a string of `len` bytes (`spaces` of them 32), in unscaled text space.
    fn advance(&self, len: u64, spaces: u64) -> f64 {
        let g = &self.gs;
        ((GLYPH_EM * g.font_size + g.tc) * len as f64 + g.tw * spaces as f64) * g.th
    }
}

/// Scans content stream bytes for their `q`/`Q` nesting (no bound).
pub fn nesting(data: &[u8]) -> Nesting {
    let mut w = Walk::new(u64::MAX, |_, _| None);
    // Reading a slice cannot fail.
    let _ = w.feed(data);
    w.finish().nesting
}
