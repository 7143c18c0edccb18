//! What the walk does with a mark: text shown, paths built, filled, stroked and clipped,
//! images painted and forms walked into, each kept as the box it covers.

use super::lexer::Lexer;
use super::shapes::{bbox, bbox_of_clip, line_pieces, quad_outline, union};
use super::{Background, Walk, GLYPH_ASC, GLYPH_DESC, MAX_BOXES, MAX_SEGMENTS};
use crate::matrix::{apply, mul, Matrix};
use crate::stamp::geometry::Rect;

impl<'x> Walk<'x> {
    /// Adds `r` (in the space `m` maps to user space before the CTM) to the extent, within
    /// the clip.
    pub(super) fn mark(&mut self, r: Rect, m: &Matrix) {
        let b = bbox(&r, &mul(m, &self.gs.ctm));
        self.mark_user(b);
    }

    /// Adds `b`, a box in default user space, to the extent, within the clip.
    pub(super) fn mark_user(&mut self, b: Rect) {
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
    pub(super) fn paint_image(&mut self) {
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
    pub(super) fn show(&mut self, x0: f64, x1: f64, moved: f64) {
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
    pub(super) fn form(&mut self, bbox: Rect, matrix: &Matrix, data: &[u8], scope: usize) {
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

    pub(super) fn next_line(&mut self, tx: f64, ty: f64) {
        self.tlm = mul(&[1.0, 0.0, 0.0, 1.0, tx, ty], &self.tlm);
        self.tm = self.tlm;
    }

    pub(super) fn path_point(&mut self, x: f64, y: f64) -> (f64, f64) {
        let (u, v) = apply(&self.gs.ctm, x, y);
        self.path = union(self.path, Rect::new(u, v, u, v));
        (u, v)
    }

    /// Starts a subpath at `(x, y)` (`m`, and the corner of `re`).
    pub(super) fn move_to(&mut self, x: f64, y: f64) {
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
    pub(super) fn segment(&mut self, pts: &[(f64, f64)]) {
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
    pub(super) fn push_line(&mut self, from: (f64, f64), to: (f64, f64)) {
        for r in line_pieces(from, to) {
            self.push_seg(r);
        }
    }

    pub(super) fn push_seg(&mut self, b: Rect) {
        if let Some(segs) = self.segs.as_mut() {
            if segs.len() >= MAX_SEGMENTS {
                self.segs = None;
            } else {
                segs.push(b);
            }
        }
    }

    /// Closes the subpath (`h`): a line back to its start.
    pub(super) fn close(&mut self) {
        let (a, b) = (self.point, self.start);
        self.push_line(a, b);
        self.point = self.start;
    }

    /// Ends the path: paints it (`stroke`, `fill`), then applies a pending clip.
    pub(super) fn end_path(&mut self, stroke: bool, fill: bool) {
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
}
