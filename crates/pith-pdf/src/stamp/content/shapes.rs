//! The boxes marks cover in user space: a rectangle through a matrix, a filled shape as
//! horizontal strips of its outline, long lines cut into pieces.

use super::{LINE_PIECE, MAX_SEGMENTS, MAX_STRIPS, STRIP};
use crate::matrix::{apply, Matrix};
use crate::stamp::geometry::Rect;

/// The box of a form's `/BBox` in user space, for its clip.
pub(super) fn bbox_of_clip(r: &Rect, m: &Matrix) -> Rect {
    bbox(r, m)
}

/// The bounding box of `r`'s four corners mapped by any affine `m`.
pub fn bbox(r: &Rect, m: &Matrix) -> Rect {
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
pub(super) fn strips(p: &Rect, outline: &[Rect]) -> Option<Vec<Rect>> {
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
pub(super) fn line_pieces(from: (f64, f64), to: (f64, f64)) -> Vec<Rect> {
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
pub(super) fn quad_outline(m: &Matrix) -> Vec<Rect> {
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

pub(super) fn union(a: Option<Rect>, b: Rect) -> Option<Rect> {
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
