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

use std::io::{self, Read};

use super::geometry::Rect;
use crate::budget::{Budget, Resource};

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

/// A token of a content stream; strings are counted, not kept.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    /// A string: its length in bytes and how many of them are spaces (32).
    Str(u64, u64),
    Name(Vec<u8>),
    ArrOpen,
    ArrClose,
    /// An operator (or any other bare word), at most 8 bytes kept.
    Op([u8; 8], usize),
}

/// Longest name kept (longer ones are cut: they name nothing pith looks up).
const MAX_NAME: usize = 127;

/// Reads tokens from a [`Read`] through one buffer.
struct Lexer<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// Bytes taken from `src` so far.
    read: u64,
    bound: u64,
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_delim(b: u8) -> bool {
    b"()<>[]{}/%".contains(&b)
}

/// The lexer went past the byte bound.
#[derive(Debug)]
pub struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("content longer than the bound")
    }
}

impl std::error::Error for TooLong {}

impl<R: Read> Lexer<R> {
    fn new(src: R, bound: u64) -> Self {
        Lexer {
            src,
            buf: vec![0; 64 << 10],
            pos: 0,
            len: 0,
            read: 0,
            bound,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.len {
            if self.read > self.bound {
                return Err(io::Error::other(TooLong));
            }
            self.len = loop {
                match self.src.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            self.pos = 0;
            self.read += self.len as u64;
            if self.len == 0 {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    fn bump(&mut self) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if b.is_some() {
            self.pos += 1;
        }
        Ok(b)
    }

    /// The next token, `None` at the end.
    fn next(&mut self) -> io::Result<Option<Tok>> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(None);
            };
            if is_white(b) {
                self.pos += 1;
                continue;
            }
            self.pos += 1;
            return Ok(Some(match b {
                b'%' => {
                    while let Some(c) = self.peek()? {
                        if c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.pos += 1;
                    }
                    continue;
                }
                b'(' => self.literal()?,
                b'<' => {
                    if self.peek()? == Some(b'<') {
                        self.pos += 1;
                        self.dict()?;
                        continue;
                    }
                    self.hex()?
                }
                b'/' => {
                    let mut n = Vec::new();
                    while let Some(c) = self.peek()? {
                        if is_white(c) || is_delim(c) {
                            break;
                        }
                        if n.len() < MAX_NAME {
                            n.push(c);
                        }
                        self.pos += 1;
                    }
                    Tok::Name(n)
                }
                b'[' => Tok::ArrOpen,
                b']' => Tok::ArrClose,
                b'>' | b')' | b'{' | b'}' => continue,
                _ => {
                    // A bare word: a number or an operator. Up to 32 bytes are kept (numbers
                    // that long are written by some producers); an operator longer than 8
                    // bytes is none pith knows.
                    let mut w = [0u8; 32];
                    w[0] = b;
                    let mut n = 1;
                    while let Some(c) = self.peek()? {
                        if is_white(c) || is_delim(c) {
                            break;
                        }
                        if n < 32 {
                            w[n] = c;
                        }
                        n += 1;
                        self.pos += 1;
                    }
                    let word = &w[..n.min(32)];
                    match std::str::from_utf8(word).ok().and_then(number) {
                        Some(v) => Tok::Num(v),
                        None => {
                            let mut op = [0u8; 8];
                            let k = n.min(8);
                            op[..k].copy_from_slice(&w[..k]);
                            Tok::Op(op, k)
                        }
                    }
                }
            }));
        }
    }

    /// A literal string after `(`: balanced parentheses, backslash escapes.
    fn literal(&mut self) -> io::Result<Tok> {
        let (mut len, mut spaces, mut level) = (0u64, 0u64, 1usize);
        while let Some(c) = self.bump()? {
            match c {
                b'\\' => {
                    // An escape stands for one byte (octal digits, a letter, or nothing
                    // before an end of line); counting it as one overstates slightly.
                    if let Some(e) = self.bump()? {
                        if !matches!(e, b'\n' | b'\r') {
                            len += 1;
                        }
                        if e.is_ascii_digit() {
                            for _ in 0..2 {
                                if self.peek()?.is_some_and(|d| d.is_ascii_digit()) {
                                    self.pos += 1;
                                }
                            }
                        }
                    }
                    continue;
                }
                b'(' => level += 1,
                b')' => {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
                _ => {}
            }
            len += 1;
            if c == b' ' {
                spaces += 1;
            }
        }
        Ok(Tok::Str(len, spaces))
    }

    /// A hexadecimal string after `<`.
    fn hex(&mut self) -> io::Result<Tok> {
        let mut digits = 0u64;
        while let Some(c) = self.bump()? {
            if c == b'>' {
                break;
            }
            if c.is_ascii_hexdigit() {
                digits += 1;
            }
        }
        Ok(Tok::Str(digits.div_ceil(2), 0))
    }

    /// Skips a dictionary after `<<` (an operand of `BDC`, `DP`, `BI`), nested ones included.
    fn dict(&mut self) -> io::Result<()> {
        let mut level = 1usize;
        while let Some(c) = self.bump()? {
            match c {
                b'(' => {
                    self.literal()?;
                }
                b'<' if self.peek()? == Some(b'<') => {
                    self.pos += 1;
                    level += 1;
                }
                b'<' => {
                    self.hex()?;
                }
                b'>' if self.peek()? == Some(b'>') => {
                    self.pos += 1;
                    level -= 1;
                    if level == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// After `ID`: skips the inline image data up to an `EI` between white space (or the end).
    fn skip_inline_image(&mut self) -> io::Result<()> {
        // One white-space byte follows ID (§8.9.7).
        let mut prev = b' ';
        let mut state = 0u8; // 1: saw white then `E`; 2: saw white, `E`, `I`
        while let Some(c) = self.bump()? {
            state = match (state, c) {
                (0, b'E') if is_white(prev) => 1,
                (1, b'I') => 2,
                (2, c) if is_white(c) => return Ok(()),
                _ => 0,
            };
            prev = c;
        }
        Ok(())
    }
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

/// Parses a PDF number (§7.3.3): optional sign, digits with at most one point.
fn number(s: &str) -> Option<f64> {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

type M = [f64; 6];
const IDENTITY: M = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `a × b` (row vectors, §8.3.4: a point goes through `a` first).
fn mul(a: &M, b: &M) -> M {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: &M, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

/// The box of a form's `/BBox` in user space, for its clip.
fn bbox_of_clip(r: &Rect, m: &M) -> Rect {
    bbox(r, m)
}

/// The bounding box of `r`'s four corners mapped by any affine `m`.
pub fn bbox(r: &Rect, m: &M) -> Rect {
    let pts = [
        apply(m, r.x0, r.y0),
        apply(m, r.x1, r.y0),
        apply(m, r.x0, r.y1),
        apply(m, r.x1, r.y1),
    ];
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    Rect { x0, y0, x1, y1 }
}

/// The area a filled shape with box `p` covers, as horizontal strips: within a strip, every
/// point inside a closed shape lies between two points of its outline at the same height (a
/// horizontal line from it crosses the outline on both sides), so each strip spans the
/// outline pieces `outline` (boxes of its segments, long lines cut short) that reach it.
/// Strips covering the same span are joined. `None` when strips would not help: a small
/// shape, or an outline not known piece by piece.
fn strips(p: &Rect, outline: &[Rect]) -> Option<Vec<Rect>> {
    if outline.len() < 3 || p.width() < 4.0 * STRIP || p.height() < 4.0 * STRIP {
        return None;
    }
    let n = ((p.height() / STRIP).ceil() as usize).clamp(1, MAX_STRIPS);
    let step = p.height() / n as f64;
    let mut out: Vec<Rect> = Vec::new();
    for i in 0..n {
        let (y0, y1) = (p.y0 + step * i as f64, p.y0 + step * (i + 1) as f64);
        let mut span: Option<(f64, f64)> = None;
        for b in outline.iter().filter(|b| b.y0 <= y1 && b.y1 >= y0) {
            span = Some(span.map_or((b.x0, b.x1), |(a, c)| (a.min(b.x0), c.max(b.x1))));
        }
        let Some((x0, x1)) = span else { continue };
        match out.last_mut() {
            Some(l)
                if (l.x0 - x0).abs() < 0.5
                    && (l.x1 - x1).abs() < 0.5
                    && (l.y1 - y0).abs() < 1e-9 =>
            {
                l.y1 = y1;
            }
            _ => out.push(Rect { x0, y0, x1, y1 }),
        }
    }
    Some(out)
}

/// The boxes of a straight line `from`–`to`: one box, or when the line is long and slanted
/// pieces no longer than [`LINE_PIECE`] (its own box would cover the whole rectangle it is
/// the diagonal of).
fn line_pieces(from: (f64, f64), to: (f64, f64)) -> Vec<Rect> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let pieces = (dx.hypot(dy) / LINE_PIECE).ceil();
    if !(dx.abs() > 1.0 && dy.abs() > 1.0 && pieces > 1.0) {
        return vec![Rect::new(from.0, from.1, to.0, to.1)];
    }
    let n = pieces.min(MAX_SEGMENTS as f64) as usize;
    (0..n)
        .map(|i| {
            let (t0, t1) = (i as f64 / n as f64, (i + 1) as f64 / n as f64);
            Rect::new(
                from.0 + dx * t0,
                from.1 + dy * t0,
                from.0 + dx * t1,
                from.1 + dy * t1,
            )
        })
        .collect()
}

/// The outline of the unit square mapped by `m` (an image's place, §8.9.5) as boxes of
/// pieces no longer than [`LINE_PIECE`].
fn quad_outline(m: &M) -> Vec<Rect> {
    let c = [
        apply(m, 0.0, 0.0),
        apply(m, 1.0, 0.0),
        apply(m, 1.0, 1.0),
        apply(m, 0.0, 1.0),
    ];
    (0..4)
        .flat_map(|k| line_pieces(c[k], c[(k + 1) % 4]))
        .collect()
}

fn union(a: Option<Rect>, b: Rect) -> Option<Rect> {
    if !(b.x0.is_finite() && b.y0.is_finite() && b.x1.is_finite() && b.y1.is_finite()) {
        return a;
    }
    Some(match a {
        None => b,
        Some(a) => Rect {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        },
    })
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
    ctm: M,
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
    tm: M,
    tlm: M,
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

    /// Adds `r` (in the space `m` maps to user space before the CTM) to the extent, within
    /// the clip.
    fn mark(&mut self, r: Rect, m: &M) {
        let b = bbox(&r, &mul(m, &self.gs.ctm));
        self.mark_user(b);
    }

    /// Adds `b`, a box in default user space, to the extent, within the clip.
    fn mark_user(&mut self, b: Rect) {
        let b = match self.gs.clip {
            Some(c) => match b.intersect(&c) {
                Some(i) => i,
                None => return,
            },
            None => b,
        };
        if let (Some((luminance, image)), false) = (self.paint, self.text_seen) {
            if self.covers_page(&b) {
                self.found.background.push(Background {
                    rect: b,
                    luminance,
                    image,
                });
                return;
            }
        }
        self.found.extent = union(self.found.extent, b);
        if !(b.x0.is_finite() && b.y0.is_finite() && b.x1.is_finite() && b.y1.is_finite()) {
            return;
        }
        // Runs of text along a line come one after another: a mark that touches the last box
        // on its line grows it instead of adding one.
        let boxes = &mut self.found.boxes;
        let full = boxes.len() >= MAX_BOXES;
        if let Some(last) = boxes.last_mut() {
            let same_line = (last.y0 - b.y0).abs() < 0.5 && (last.y1 - b.y1).abs() < 0.5;
            if full || (same_line && b.x0 <= last.x1 + 1.0 && b.x1 >= last.x0) {
                *last = union(Some(*last), b).unwrap_or(*last);
                return;
            }
        }
        boxes.push(b);
    }

    /// Marks an image: the unit square of the current matrix (§8.9.5).
    fn paint_image(&mut self) {
        let m = self.gs.ctm;
        let b = bbox(&Rect::new(0.0, 0.0, 1.0, 1.0), &m);
        // An upright image fills its box; a rotated or skewed one only part of it.
        let upright =
            (m[1].abs() < 1e-9 && m[2].abs() < 1e-9) || (m[0].abs() < 1e-9 && m[3].abs() < 1e-9);
        let outline = if upright {
            Vec::new()
        } else {
            quad_outline(&m)
        };
        self.paint_shape(b, &outline, (None, true));
    }

    /// Adds a run of text `x0..x1` (unscaled text space) at the text matrix, then moves it.
    fn show(&mut self, x0: f64, x1: f64, moved: f64) {
        let g = &self.gs;
        let fs = g.font_size.abs().max(0.0);
        let r = Rect::new(
            x0,
            GLYPH_DESC * fs + g.rise,
            x1.max(x0),
            GLYPH_ASC * fs + g.rise,
        );
        let tm = self.tm;
        if x1 > x0 {
            self.text_seen = true;
            self.mark(r, &tm);
        }
        self.tm = mul(&[1.0, 0.0, 0.0, 1.0, moved, 0.0], &self.tm);
    }

    /// Walks into a form (§8.10.1): its matrix joins the CTM, its box clips, its `q`/`Q` do
    /// not count in the page's nesting, and the graphics and text state come back after it.
    /// Past the byte bound, the form counts by its box.
    fn form(&mut self, bbox: Rect, matrix: &M, data: &[u8], scope: usize) {
        let saved = (
            self.gs.clone(),
            self.stack.len(),
            self.depth,
            self.found.nesting,
            self.tm,
            self.tlm,
            self.scope,
        );
        self.gs.ctm = mul(matrix, &self.gs.ctm);
        let b = bbox_of_clip(&bbox, &self.gs.ctm);
        self.gs.clip = Some(match self.gs.clip {
            Some(c) => c.intersect(&b).unwrap_or(Rect::new(b.x0, b.y0, b.x0, b.y0)),
            None => b,
        });
        self.scope = scope;
        self.form_depth += 1;
        let operands = std::mem::take(&mut self.operands);
        let mut lx = Lexer::new(data, self.bound.saturating_sub(self.read));
        let r = self.run(&mut lx);
        self.read += lx.read;
        self.form_depth -= 1;
        self.operands = operands;
        let (gs, height, depth, nesting, tm, tlm, scope) = saved;
        self.gs = gs;
        self.stack.truncate(height);
        self.depth = depth;
        self.found.nesting = nesting;
        self.tm = tm;
        self.tlm = tlm;
        self.scope = scope;
        self.path = None;
        self.segs = Some(Vec::new());
        self.closers.clear();
        if r.is_err() {
            self.mark(bbox, matrix);
        }
    }

    fn next_line(&mut self, tx: f64, ty: f64) {
        self.tlm = mul(&[1.0, 0.0, 0.0, 1.0, tx, ty], &self.tlm);
        self.tm = self.tlm;
    }

    fn path_point(&mut self, x: f64, y: f64) -> (f64, f64) {
        let (u, v) = apply(&self.gs.ctm, x, y);
        self.path = union(self.path, Rect::new(u, v, u, v));
        (u, v)
    }

    /// Starts a subpath at `(x, y)` (`m`, and the corner of `re`).
    fn move_to(&mut self, x: f64, y: f64) {
        // A fill closes every subpath (§8.5.3.1): the line back to the start of the one
        // before is part of the filled shape's outline, though not of a stroke.
        if self.path.is_some() && self.point != self.start {
            let closer = line_pieces(self.point, self.start);
            if self.closers.len() + closer.len() > MAX_SEGMENTS {
                self.segs = None;
            }
            self.closers.extend(closer);
        }
        let p = self.path_point(x, y);
        self.point = p;
        self.start = p;
    }

    /// A segment from the current point through `pts` (user space): a line, or a curve whose
    /// control points bound it (§8.5.2.2). A long slanted line is marked as a chain of short
    /// pieces: its own box would cover the whole rectangle it is the diagonal of (a page-wide
    /// diagonal would take every margin).
    fn segment(&mut self, pts: &[(f64, f64)]) {
        let from = self.point;
        let mut b = Rect::new(from.0, from.1, from.0, from.1);
        for &(x, y) in pts {
            let (u, v) = self.path_point(x, y);
            b = union(Some(b), Rect::new(u, v, u, v)).unwrap_or(b);
            self.point = (u, v);
        }
        if pts.len() == 1 {
            self.push_line(from, self.point);
        } else {
            self.push_seg(b);
        }
    }

    /// A straight segment `from`–`to` (user space), in pieces when it is long and slanted.
    fn push_line(&mut self, from: (f64, f64), to: (f64, f64)) {
        for r in line_pieces(from, to) {
            self.push_seg(r);
        }
    }

    fn push_seg(&mut self, b: Rect) {
        if let Some(segs) = self.segs.as_mut() {
            if segs.len() >= MAX_SEGMENTS {
                self.segs = None;
            } else {
                segs.push(b);
            }
        }
    }

    /// Closes the subpath (`h`): a line back to its start.
    fn close(&mut self) {
        let (a, b) = (self.point, self.start);
        self.push_line(a, b);
        self.point = self.start;
    }

    /// Ends the path: paints it (`stroke`, `fill`), then applies a pending clip.
    fn end_path(&mut self, stroke: bool, fill: bool) {
        if let Some(p) = self.path {
            let visible_fill = fill && !self.gs.white_fill;
            if stroke || visible_fill {
                // Stroke width in user space: the line width scaled by the CTM's larger axis.
                let m = &self.gs.ctm;
                let scale = (m[0].hypot(m[1])).max(m[2].hypot(m[3]));
                let half = if stroke {
                    self.gs.line_width.max(1.0) * scale / 2.0
                } else {
                    0.0
                };
                let grow = |b: &Rect| Rect::new(b.x0 - half, b.y0 - half, b.x1 + half, b.y1 + half);
                // The path's points were mapped to user space as they came. A fill covers the
                // whole path; a stroke alone only its segments.
                match (&self.segs, visible_fill) {
                    (Some(segs), false) => {
                        for b in segs.clone() {
                            self.mark_user(grow(&b));
                        }
                    }
                    (segs, true) => {
                        let last = line_pieces(self.point, self.start);
                        let outline: Vec<Rect> = match segs {
                            Some(s) => s
                                .iter()
                                .chain(&self.closers)
                                .chain(&last)
                                .map(grow)
                                .collect(),
                            None => Vec::new(),
                        };
                        self.paint_shape(grow(&p), &outline, (self.gs.fill_luminance, false));
                    }
                    _ => self.mark_user(grow(&p)),
                }
            }
            if self.pending_clip {
                self.gs.clip = Some(match self.gs.clip {
                    Some(c) => c.intersect(&p).unwrap_or(Rect::new(p.x0, p.y0, p.x0, p.y0)),
                    None => p,
                });
            }
        }
        self.path = None;
        self.segs = Some(Vec::new());
        self.closers.clear();
        self.pending_clip = false;
    }

    fn op(&mut self, op: &[u8]) {
        match op {
            b"q" => {
                self.depth += 1;
                if self.stack.len() < 1024 {
                    self.stack.push(self.gs.clone());
                }
            }
            b"Q" => {
                self.depth -= 1;
                self.found.nesting.min = self.found.nesting.min.min(self.depth);
                if let Some(g) = self.stack.pop() {
                    self.gs = g;
                }
            }
            b"cm" => {
                if let Some(m) = self.nums::<6>() {
                    self.gs.ctm = mul(&m, &self.gs.ctm);
                }
            }
            b"w" => {
                if let Some([w]) = self.nums::<1>() {
                    self.gs.line_width = w.abs();
                }
            }
            b"g" => {
                let v = self.nums::<1>();
                self.gs.white_fill = v == Some([1.0]);
                self.gs.fill_luminance = v.map(|[g]| luminance(g, g, g));
            }
            b"rg" => {
                let v = self.nums::<3>();
                self.gs.white_fill = v == Some([1.0; 3]);
                self.gs.fill_luminance = v.map(|[r, g, b]| luminance(r, g, b));
            }
            b"k" => {
                let v = self.nums::<4>();
                self.gs.white_fill = v == Some([0.0; 4]);
                // The naive conversion (§10.4.2.4): enough to tell light from dark.
                self.gs.fill_luminance = v.map(|[c, m, y, k]| {
                    luminance(
                        (1.0 - c) * (1.0 - k),
                        (1.0 - m) * (1.0 - k),
                        (1.0 - y) * (1.0 - k),
                    )
                });
            }
            b"sc" | b"scn" | b"cs" => {
                self.gs.white_fill = false;
                self.gs.fill_luminance = None;
            }
            b"m" => {
                if let Some([x, y]) = self.nums::<2>() {
                    self.move_to(x, y);
                }
            }
            b"l" => {
                if let Some([x, y]) = self.nums::<2>() {
                    self.segment(&[(x, y)]);
                }
            }
            b"c" => {
                if let Some(p) = self.nums::<6>() {
                    self.segment(&[(p[0], p[1]), (p[2], p[3]), (p[4], p[5])]);
                }
            }
            b"v" | b"y" => {
                if let Some(p) = self.nums::<4>() {
                    self.segment(&[(p[0], p[1]), (p[2], p[3])]);
                }
            }
            b"h" => self.close(),
            b"re" => {
                if let Some([x, y, w, h]) = self.nums::<4>() {
                    self.move_to(x, y);
                    self.segment(&[(x + w, y)]);
                    self.segment(&[(x + w, y + h)]);
                    self.segment(&[(x, y + h)]);
                    self.close();
                }
            }
            b"s" | b"b" | b"b*" => {
                // Close, then paint.
                self.close();
                self.end_path(true, op != b"s");
            }
            b"W" | b"W*" => self.pending_clip = true,
            b"S" => self.end_path(true, false),
            b"f" | b"F" | b"f*" => self.end_path(false, true),
            b"B" | b"B*" => self.end_path(true, true),
            b"n" => self.end_path(false, false),
            b"sh" => match (self.gs.clip, self.page) {
                (Some(c), _) => self.paint_user(c, None),
                (None, Some(area)) if !self.text_seen => self.paint_user(area, None),
                (None, _) => self.found.everything = true,
            },
            b"Do" => {
                let x = match self.operands.last() {
                    Some(Tok::Name(n)) => (self.xobject)(self.scope, n),
                    _ => None,
                };
                match x {
                    Some(XObject::Form {
                        bbox,
                        matrix,
                        content: Some((data, scope)),
                    }) if self.form_depth < MAX_FORM_DEPTH => {
                        self.form(bbox, &matrix, &data, scope)
                    }
                    Some(XObject::Form { bbox, matrix, .. }) => self.mark(bbox, &matrix),
                    _ => self.paint_image(),
                }
            }
            b"BT" => {
                self.tm = IDENTITY;
                self.tlm = IDENTITY;
            }
            b"Tf" => {
                if let Some([s]) = self.nums::<1>() {
                    self.gs.font_size = s;
                }
            }
            b"Tz" => {
                if let Some([z]) = self.nums::<1>() {
                    self.gs.th = z / 100.0;
                }
            }
            b"Tc" => {
                if let Some([v]) = self.nums::<1>() {
                    self.gs.tc = v;
                }
            }
            b"Tw" => {
                if let Some([v]) = self.nums::<1>() {
                    self.gs.tw = v;
                }
            }
            b"TL" => {
                if let Some([v]) = self.nums::<1>() {
                    self.gs.tl = v;
                }
            }
            b"Ts" => {
                if let Some([v]) = self.nums::<1>() {
                    self.gs.rise = v;
                }
            }
            b"Td" => {
                if let Some([x, y]) = self.nums::<2>() {
                    self.next_line(x, y);
                }
            }
            b"TD" => {
                if let Some([x, y]) = self.nums::<2>() {
                    self.gs.tl = -y;
                    self.next_line(x, y);
                }
            }
            b"Tm" => {
                if let Some(m) = self.nums::<6>() {
                    self.tm = m;
                    self.tlm = m;
                }
            }
            b"T*" => self.next_line(0.0, -self.gs.tl),
            b"Tj" | b"'" | b"\"" => {
                if op == b"\"" {
                    if let Some([aw, ac]) =
                        self.operands.len().checked_sub(3).and_then(|k| {
                            match (&self.operands[k], &self.operands[k + 1]) {
                                (Tok::Num(a), Tok::Num(b)) => Some([*a, *b]),
                                _ => None,
                            }
                        })
                    {
                        self.gs.tw = aw;
                        self.gs.tc = ac;
                    }
                }
                if op != b"Tj" {
                    self.next_line(0.0, -self.gs.tl);
                }
                if let Some(Tok::Str(len, spaces)) = self.operands.last() {
                    let adv = self.advance(*len, *spaces);
                    self.show(0.0, adv, adv);
                }
            }
            b"TJ" => {
                if let Some((x, lo, hi)) = self.array.take() {
                    self.show(lo, hi, x);
                }
            }
            _ => {}
        }
        if op != b"TJ" {
            self.array = None;
        }
    }
}

/// Scans content stream bytes for their `q`/`Q` nesting (no bound).
pub fn nesting(data: &[u8]) -> Nesting {
    let mut w = Walk::new(u64::MAX, |_, _| None);
    // Reading a slice cannot fail.
    let _ = w.feed(data);
    w.finish().nesting
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(data: &[u8]) -> Option<Rect> {
        let mut w = Walk::new(u64::MAX, |_, n| match n {
            b"Fm1" => Some(XObject::Form {
                bbox: Rect::new(0.0, 0.0, 10.0, 20.0),
                matrix: [1.0, 0.0, 0.0, 1.0, 100.0, 100.0],
                content: None,
            }),
            // A page-sized form holding a frame and one word, itself calling Fm1.
            b"Fx" => Some(XObject::Form {
                bbox: Rect::new(0.0, 0.0, 612.0, 792.0),
                matrix: IDENTITY,
                content: Some((
                    b"q 2 w 10 10 592 772 re S Q BT /F1 10 Tf 300 400 Td (ab) Tj ET /Fm1 Do Q Q"
                        .to_vec(),
                    1,
                )),
            }),
            _ => None,
        });
        w.feed(data).unwrap();
        w.finish().extent
    }

    fn close(a: Rect, b: Rect) -> bool {
        [a.x0 - b.x0, a.y0 - b.y0, a.x1 - b.x1, a.y1 - b.y1]
            .iter()
            .all(|d| d.abs() < 1e-6)
    }

    #[test]
    fn numbers() {
        assert_eq!(number("12"), Some(12.0));
        assert_eq!(number("-.5"), Some(-0.5));
        assert_eq!(number("+3."), Some(3.0));
        assert_eq!(number("1.2.3"), None);
        assert_eq!(number("Tj"), None);
        assert_eq!(number("-"), None);
    }

    #[test]
    fn text_boxes_follow_the_text_and_current_matrices() {
        // 10 pt text, two bytes, at (50, 700): 20 pt wide, 3.5 below to 10.5 above.
        let e = extent(b"BT /F1 10 Tf 50 700 Td (ab) Tj ET").unwrap();
        assert!(close(e, Rect::new(50.0, 696.5, 70.0, 710.5)), "{e:?}");
        // The same under a 2x CTM and a TJ with a kern of -1000 (one em to the right).
        let e = extent(b"q 2 0 0 2 0 0 cm BT /F1 10 Tf 10 10 Td [(a) -1000 (b)] TJ ET Q").unwrap();
        assert!(close(e, Rect::new(20.0, 13.0, 80.0, 41.0)), "{e:?}");
        // Text rotated by 90 degrees with Tm.
        let e = extent(b"BT /F1 10 Tf 0 1 -1 0 30 100 Tm (abc) Tj ET").unwrap();
        assert!(close(e, Rect::new(19.5, 100.0, 33.5, 130.0)), "{e:?}");
        // T* and TL, ' moves to the next line first.
        let e = extent(b"BT /F1 10 Tf 12 TL 0 100 Td (a) ' ET").unwrap();
        assert!(close(e, Rect::new(0.0, 84.5, 10.0, 98.5)), "{e:?}");
    }

    #[test]
    fn paths_images_forms_and_clips() {
        let e = extent(b"1 w 10 10 m 20 30 l S").unwrap();
        assert!(close(e, Rect::new(9.5, 9.5, 20.5, 30.5)), "{e:?}");
        // A white page-filling rectangle is not content; a grey one is.
        assert_eq!(extent(b"1 g 0 0 612 792 re f"), None);
        let e = extent(b"0.5 g 0 0 612 792 re f").unwrap();
        assert!(close(e, Rect::new(0.0, 0.0, 612.0, 792.0)));
        // An image is the unit square of its matrix; a form its BBox through /Matrix.
        let e = extent(b"q 100 0 0 50 300 400 cm /Im1 Do Q").unwrap();
        assert!(close(e, Rect::new(300.0, 400.0, 400.0, 450.0)), "{e:?}");
        let e = extent(b"/Fm1 Do").unwrap();
        assert!(close(e, Rect::new(100.0, 100.0, 110.0, 120.0)), "{e:?}");
        // A form walked into: its marks, not its box; its Q too many does not count.
        let mut w = Walk::new(u64::MAX, |s, n| match (s, n) {
            (0, b"Fx") => Some(XObject::Form {
                bbox: Rect::new(0.0, 0.0, 612.0, 792.0),
                matrix: IDENTITY,
                content: Some((b"2 w 10 10 592 772 re S /Im Do".to_vec(), 1)),
            }),
            (1, b"Im") => Some(XObject::Image),
            _ => None,
        });
        w.feed(&b"q /Fx Do Q"[..]).unwrap();
        let f = w.finish();
        assert_eq!(f.nesting, Nesting { min: 0, end: 0 });
        let middle = Rect::new(100.0, 100.0, 500.0, 700.0);
        assert!(
            f.boxes.iter().all(|b| b.intersect(&middle).is_none()),
            "{:?}",
            f.boxes
        );
        assert_eq!(f.boxes.len(), 5, "four edges and the image: {:?}", f.boxes);
        let e = extent(b"/Fx Do").unwrap();
        assert!(close(e, Rect::new(9.0, 9.0, 603.0, 783.0)), "{e:?}");
        // A clip bounds what follows until Q.
        let e = extent(b"q 0 0 50 50 re W n 0.5 g 0 0 612 792 re f Q").unwrap();
        assert!(close(e, Rect::new(0.0, 0.0, 50.0, 50.0)), "{e:?}");
        // An inline image, and bytes inside it that look like operators.
        let e = extent(b"q 10 0 0 10 5 5 cm BI /W 1 /H 1 /BPC 8 /CS /G ID Tj (q\nEI Q").unwrap();
        assert!(close(e, Rect::new(5.0, 5.0, 15.0, 15.0)), "{e:?}");
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"0 0 10 10 re W n /Sh0 sh"[..]).unwrap();
        w.feed(&b"/Sh1 sh"[..]).unwrap();
        let f = w.finish();
        assert!(!f.everything && f.extent.is_some());
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"/Sh1 sh"[..]).unwrap();
        assert!(w.finish().everything);
    }

    #[test]
    fn a_stroked_frame_marks_its_edges_not_the_page_inside() {
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"2 w 10 10 592 772 re S"[..]).unwrap();
        let f = w.finish();
        // Four thin boxes along the edges; the middle of the page is free.
        assert_eq!(f.boxes.len(), 4, "{:?}", f.boxes);
        let middle = Rect::new(100.0, 100.0, 500.0, 700.0);
        assert!(f.boxes.iter().all(|b| b.intersect(&middle).is_none()));
        // A slanted line marks the pieces along it, not the square it is the diagonal of.
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"1 w 0 0 m 600 600 l S"[..]).unwrap();
        let f = w.finish();
        assert!(f.boxes.len() > 10, "{:?}", f.boxes);
        let corner = Rect::new(400.0, 50.0, 550.0, 200.0);
        assert!(f.boxes.iter().all(|b| b.intersect(&corner).is_none()));
        assert!(f.boxes.iter().any(|b| b
            .intersect(&Rect::new(299.0, 299.0, 301.0, 301.0))
            .is_some()));
        // Filled, the same rectangle covers the page.
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"0.5 g 10 10 592 772 re f"[..]).unwrap();
        assert!(w.finish().boxes[0].intersect(&middle).is_some());
    }

    #[test]
    fn slanted_shapes_leave_their_corners_free() {
        let walk = |data: &[u8]| {
            let mut w = Walk::new(u64::MAX, |_, _| None);
            w.feed(data).unwrap();
            w.finish().boxes
        };
        let covered = |boxes: &[Rect], x: f64, y: f64| {
            boxes
                .iter()
                .any(|b| b.x0 <= x && x <= b.x1 && b.y0 <= y && y <= b.y1)
        };
        // A filled diamond 400 pt wide: its middle is content, the corners of its box are not.
        let diamond = walk(b"200 0 m 400 200 l 200 400 l 0 200 l h f");
        assert!(covered(&diamond, 200.0, 200.0) && covered(&diamond, 20.0, 200.0));
        for (x, y) in [(20.0, 20.0), (380.0, 20.0), (20.0, 380.0), (380.0, 380.0)] {
            assert!(!covered(&diamond, x, y), "({x}, {y}): {diamond:?}");
        }
        // A fill closes an open subpath: the triangle's inside is covered up to its diagonal.
        let triangle = walk(b"0 0 m 300 0 l 300 300 l f");
        assert!(covered(&triangle, 200.0, 100.0) && covered(&triangle, 290.0, 280.0));
        assert!(!covered(&triangle, 30.0, 250.0), "{triangle:?}");
        // A stroke of the same open path marks its two lines only, not the diagonal.
        let stroke = walk(b"0 0 m 300 0 l 300 300 l S");
        assert!(!covered(&stroke, 150.0, 150.0) && !covered(&stroke, 200.0, 100.0));
        // An image on a plane skewed as TikZ draws one: its box's corners stay free.
        let image = walk(b"q 300 100 -100 300 150 0 cm /Im1 Do Q");
        assert!(covered(&image, 200.0, 200.0));
        assert!(
            !covered(&image, 60.0, 20.0) && !covered(&image, 400.0, 380.0),
            "{image:?}"
        );
        // An upright rectangle is still one box; a small shape counts by its box.
        assert_eq!(
            walk(b"10 10 500 500 re f"),
            vec![Rect::new(10.0, 10.0, 510.0, 510.0)]
        );
        assert_eq!(
            walk(b"0 0 m 20 0 l 0 20 l f"),
            vec![Rect::new(0.0, 0.0, 20.0, 20.0)]
        );
    }

    #[test]
    fn page_covering_paints_before_the_text_are_background() {
        let page = Rect::new(0.0, 0.0, 612.0, 792.0);
        let walk = |data: &[u8]| {
            let mut w = Walk::new(u64::MAX, |_, _| None).with_page(page);
            w.feed(data).unwrap();
            w.finish()
        };
        let text = Rect::new(72.0, 696.5, 92.0, 710.5);
        // A cream page colour, then text: background (light), and only the text is content.
        let f = walk(b"1 0.97 0.88 rg 0 0 612 792 re f 0 g BT /F1 10 Tf 72 700 Td (ab) Tj ET");
        assert_eq!(f.background.len(), 1, "{f:?}");
        assert!(f.background[0].luminance.is_some_and(|l| l > 0.85));
        assert_eq!(f.boxes.len(), 1);
        assert!(close(f.boxes[0], text), "{:?}", f.boxes);
        // An image nearly as large as the page, and an unclipped shading: background of
        // unknown colour.
        let f = walk(b"q 590 0 0 770 11 11 cm /Im Do Q /Sh sh BT /F1 10 Tf 72 700 Td (ab) Tj ET");
        assert_eq!(f.background.len(), 2, "{f:?}");
        assert!(f.background.iter().all(|b| b.luminance.is_none()));
        assert_eq!(
            f.background.iter().map(|b| b.image).collect::<Vec<_>>(),
            [true, false]
        );
        assert!(!f.everything);
        // A dark CMYK fill is dark.
        let f = walk(b"0 0 0 0.9 k 0 0 612 792 re f");
        assert!(f.background[0].luminance.is_some_and(|l| l < 0.05));
        // After the text, the same paints are content; smaller ones always are.
        let f = walk(b"BT /F1 10 Tf 72 700 Td (ab) Tj ET 0.5 g 0 0 612 792 re f /Sh sh");
        assert!(f.background.is_empty() && f.everything);
        assert!(close(f.boxes[1], page), "{:?}", f.boxes);
        let f = walk(b"0.5 g 0 0 500 792 re f");
        assert!(f.background.is_empty() && f.boxes.len() == 1);
        // Without the page's area nothing is background.
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(&b"0.5 g 0 0 612 792 re f"[..]).unwrap();
        assert!(w.finish().background.is_empty());
    }

    #[test]
    fn the_bound_stops_the_walk() {
        let data = vec![b' '; 1 << 20];
        let mut w = Walk::new(1000, |_, _| None);
        let e = w.feed(&data[..]).unwrap_err();
        assert!(e.get_ref().is_some_and(|i| i.is::<TooLong>()));
    }
}
