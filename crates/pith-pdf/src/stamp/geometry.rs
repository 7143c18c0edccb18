//! Page geometry for the stamp: the visible page area (ISO 32000-2 §14.11.2 crop box
//! within the media box), its display rotation (`/Rotate`, §7.7.3.3) and unit (`/UserUnit`,
//! PDF 1.6), and where the stamp goes in it.
//!
//! It owns the arithmetic only: no PDF objects are read or written here. Positions are worked
//! out in *visual* space, the page as a viewer shows it (origin at the bottom-left corner of
//! the displayed crop box, x to the right, y up, in user units), and mapped back to the page's
//! default user space with [`Page::to_user`]. Sizes given in points are divided by
//! `/UserUnit`, so a 9 pt stamp is 9 pt on paper whatever the page's unit.

use crate::matrix::apply;

/// A rectangle with `x0 <= x1` and `y0 <= y1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Bottom edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Top edge.
    pub y1: f64,
}

impl Rect {
    /// The rectangle with corners `(a, b)` and `(c, d)` in any order (PDF rectangles may list
    /// any two opposite corners, §7.9.5).
    pub fn new(a: f64, b: f64, c: f64, d: f64) -> Rect {
        Rect {
            x0: a.min(c),
            y0: b.min(d),
            x1: a.max(c),
            y1: b.max(d),
        }
    }
    /// Width.
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }
    /// Height.
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
    /// The overlap of two rectangles, `None` when they do not overlap with a positive area.
    pub fn intersect(&self, o: &Rect) -> Option<Rect> {
        let r = Rect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        };
        (r.x0 < r.x1 && r.y0 < r.y1).then_some(r)
    }
    /// Whether `o` lies inside this rectangle (with a tolerance for rounding).
    pub fn contains(&self, o: &Rect) -> bool {
        const EPS: f64 = 1e-6;
        o.x0 >= self.x0 - EPS
            && o.y0 >= self.y0 - EPS
            && o.x1 <= self.x1 + EPS
            && o.y1 <= self.y1 + EPS
    }
    /// The bounding box of this rectangle mapped through the affine matrix `m` (`[a b c d e f]`,
    /// §8.3.4); exact for the multiples of 90° used here.
    pub fn transform(&self, m: &[f64; 6]) -> Rect {
        let (a, b) = apply(m, self.x0, self.y0);
        let (c, d) = apply(m, self.x1, self.y1);
        Rect::new(a, b, c, d)
    }
}

/// Where on the page the stamp goes (`--stamp-position`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Position {
    /// The left margin, reading bottom to top like arXiv's identifier (the default).
    #[default]
    Left,
    /// The right margin, reading top to bottom.
    Right,
    /// Centred along the top edge.
    Top,
    /// Centred along the bottom edge.
    Bottom,
}

/// The displayed page: crop box, rotation and unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Page {
    /// The visible area in default user space: the crop box clipped to the media box.
    pub crop: Rect,
    /// Clockwise display rotation: 0, 90, 180 or 270.
    pub rotate: u16,
    /// Size of one user unit in points (`/UserUnit`, default 1).
    pub user_unit: f64,
}

impl Page {
    /// The page from its (inherited) `/MediaBox`, `/CropBox`, `/Rotate` and `/UserUnit`.
    ///
    /// The crop box is clipped to the media box (§14.11.2: "the crop box is intersected with
    /// the media box"); one that does not overlap it falls back to the media box, as viewers do.
    /// `/Rotate` is taken modulo 360; a value that is not a multiple of 90 is read as 0 (the
    /// spec allows only multiples of 90). A missing, zero or negative `/UserUnit` is 1.
    pub fn new(media: Rect, crop: Option<Rect>, rotate: i64, user_unit: Option<f64>) -> Page {
        let crop = crop.and_then(|c| c.intersect(&media)).unwrap_or(media);
        let r = rotate.rem_euclid(360);
        let rotate = if r % 90 == 0 { r as u16 } else { 0 };
        let user_unit = user_unit
            .filter(|u| u.is_finite() && *u > 0.0)
            .unwrap_or(1.0);
        Page {
            crop,
            rotate,
            user_unit,
        }
    }

    /// Width and height of the page as displayed, in user units.
    pub fn visual_size(&self) -> (f64, f64) {
        let (w, h) = (self.crop.width(), self.crop.height());
        if self.rotate.is_multiple_of(180) {
            (w, h)
        } else {
            (h, w)
        }
    }

    /// The matrix from visual space to default user space (for the `cm` operator).
    pub fn to_user(&self) -> [f64; 6] {
        let c = &self.crop;
        match self.rotate {
            90 => [0.0, 1.0, -1.0, 0.0, c.x1, c.y0],
            180 => [-1.0, 0.0, 0.0, -1.0, c.x1, c.y1],
            270 => [0.0, -1.0, 1.0, 0.0, c.x0, c.y1],
            _ => [1.0, 0.0, 0.0, 1.0, c.x0, c.y0],
        }
    }
}

/// The text to place, measured in ems (multiply by the font size).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extent {
    /// Advance width of the whole text.
    pub advance: f64,
    /// Height above the baseline (the font's ascent, positive).
    pub ascent: f64,
    /// Depth below the baseline (the font's descent, negative).
    pub descent: f64,
}

/// Where the stamp's text goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Visual space to user space, for `cm` before the text object.
    pub matrix: [f64; 6],
    /// The text matrix (`Tm`) in visual space.
    pub text_matrix: [f64; 6],
    /// Font size in user units (after any shrinking to fit the page).
    pub font_size: f64,
    /// The text's box in visual space.
    pub visual: Rect,
    /// The text's box in default user space: the link annotation's `/Rect`.
    pub rect: Rect,
}

/// Distance from the page edge to the stamp, in points.
pub const INSET_PT: f64 = 12.0;
/// In the left and right margins the stamp lies between these fractions of the page height.
/// arXiv centres its identifier stamp vertically in the left margin (a 20 pt line of some 40
/// characters covers roughly the middle 45 % of a Letter or A4 page), so the Pith stamp keeps
/// to the lowest quarter and never meets it.
pub const SIDE_BAND: (f64, f64) = (0.04, 0.27);
/// Along the top and bottom edges the stamp may use this fraction of the page width, centred,
/// and along the right edge this fraction of its height.
pub const EDGE_BAND: f64 = 0.8;

/// Places `text` at `pos` on `page` at `size_pt` points, shrinking the font when the text is
/// longer than the band it must fit in (so the stamp never leaves the page).
pub fn place(page: &Page, pos: Position, size_pt: f64, text: &Extent) -> Placement {
    let uu = page.user_unit;
    let (w, h) = page.visual_size();
    let s = fit_band(page, pos, size_pt / uu, text);
    let along = match pos {
        Position::Left | Position::Right => h * SIDE_BAND.0,
        Position::Top | Position::Bottom => (w - text.advance * s) / 2.0,
    };
    let thick = (text.ascent - text.descent) * s;
    // The inset shrinks on pages too small for it, so the stamp stays on the page.
    let inset = (INSET_PT / uu).min(((w.min(h) - thick) / 2.0).max(0.0));
    place_at(page, pos, s, text, inset, along)
}

/// The font size (user units) at most `s` at which `text` fits the band of `pos`.
fn fit_band(page: &Page, pos: Position, s: f64, text: &Extent) -> f64 {
    let (w, h) = page.visual_size();
    // Only the left margin shares its middle with arXiv's identifier; along the other edges
    // the stamp may use most of the edge before it shrinks (a small page, a figure).
    let along = match pos {
        Position::Left => h * (SIDE_BAND.1 - SIDE_BAND.0),
        Position::Right => h * EDGE_BAND,
        Position::Top | Position::Bottom => w * EDGE_BAND,
    };
    if text.advance > 0.0 && text.advance * s > along {
        along / text.advance
    } else {
        s
    }
}

/// Places `text` at font size `s` (user units) along edge `pos`, `inset` from the edge and
/// starting `along` from the bottom (left and right) or the left (top and bottom) of the
/// displayed page.
fn place_at(
    page: &Page,
    pos: Position,
    s: f64,
    text: &Extent,
    inset: f64,
    along: f64,
) -> Placement {
    let (w, h) = page.visual_size();
    let len = text.advance * s;
    let asc = text.ascent * s;
    let desc = -text.descent * s;
    let thick = asc + desc;
    let v0 = along;
    let (tm, visual) = match pos {
        Position::Left => {
            // Rotated 90° counter-clockwise: ascenders point to the left edge.
            let ub = inset + asc;
            (
                [0.0, 1.0, -1.0, 0.0, ub, v0],
                Rect::new(inset, v0, inset + thick, v0 + len),
            )
        }
        Position::Right => {
            // Rotated 90° clockwise: ascenders point to the right edge.
            let ub = w - inset - asc;
            (
                [0.0, -1.0, 1.0, 0.0, ub, v0 + len],
                Rect::new(w - inset - thick, v0, w - inset, v0 + len),
            )
        }
        Position::Bottom => {
            let u0 = along;
            let vb = inset + desc;
            (
                [1.0, 0.0, 0.0, 1.0, u0, vb],
                Rect::new(u0, inset, u0 + len, inset + thick),
            )
        }
        Position::Top => {
            let u0 = along;
            let vb = h - inset - asc;
            (
                [1.0, 0.0, 0.0, 1.0, u0, vb],
                Rect::new(u0, h - inset - thick, u0 + len, h - inset),
            )
        }
    };
    let matrix = page.to_user();
    Placement {
        matrix,
        text_matrix: tm,
        font_size: s,
        visual,
        rect: visual.transform(&matrix),
    }
}

/// The smallest stamp on paper, in points: smaller text is not legible.
pub const MIN_SIZE_PT: f64 = 6.0;
/// The least distance kept between the stamp and the page's content, in points.
pub const GAP_PT: f64 = 3.0;
/// The least distance kept between the stamp and the edge of the page, in points.
pub const MIN_INSET_PT: f64 = 2.0;
/// The distance from every edge of the page the stamp keeps wherever the free margins allow
/// it, in points: nearer, a printer may not print it (the unprintable band of office printers
/// is 4 to 6 mm) and a trimmed page may lose it.
pub const TRIM_PT: f64 = 10.0;

impl Page {
    /// The matrix from default user space to visual space (the inverse of [`Page::to_user`]).
    pub fn to_visual(&self) -> [f64; 6] {
        let [a, b, c, d, e, f] = self.to_user();
        let det = a * d - b * c;
        [
            d / det,
            -b / det,
            -c / det,
            a / det,
            (c * f - d * e) / det,
            (b * e - a * f) / det,
        ]
    }
}

/// Places `text` in a free margin of `page`: the edges in `order`, each tried at
/// `size_pt` points and then smaller down to [`MIN_SIZE_PT`], at several places along the edge
/// (from the usual one outwards) and insets from [`INSET_PT`] down to [`MIN_INSET_PT`]. A place
/// is free when the stamp's box, grown by [`GAP_PT`], meets none of `occupied` (boxes of the
/// page's content in default user space) and lies inside the displayed crop box. Every edge and
/// size is tried first at [`TRIM_PT`] or more from every edge of the page; only when none has
/// room there does the stamp go nearer an edge. `None` when no edge has room.
pub fn place_free(
    page: &Page,
    order: &[Position],
    size_pt: f64,
    text: &Extent,
    occupied: &[Rect],
) -> Option<Placement> {
    let uu = page.user_unit;
    let (w, h) = page.visual_size();
    let area = Rect::new(0.0, 0.0, w, h);
    let to_visual = page.to_visual();
    let boxes: Vec<Rect> = occupied
        .iter()
        .filter_map(|r| {
            r.transform(&to_visual).intersect(&area).or_else(|| {
                // A box of no area (a line, a point) still marks content.
                let t = r.transform(&to_visual);
                (t.x1 >= 0.0 && t.x0 <= w && t.y1 >= 0.0 && t.y0 <= h).then_some(t)
            })
        })
        .collect();
    let gap = GAP_PT / uu;
    let free = |v: &Rect| {
        area.contains(v)
            && boxes.iter().all(|b| {
                let g = Rect {
                    x0: v.x0 - gap,
                    y0: v.y0 - gap,
                    x1: v.x1 + gap,
                    y1: v.y1 + gap,
                };
                !(b.x0 < g.x1 && g.x0 < b.x1 && b.y0 < g.y1 && g.y0 < b.y1)
            })
    };
    // Two passes: clear of the trim band of every edge, then as near as MIN_INSET_PT.
    let passes: [(f64, &[f64]); 2] = [
        (TRIM_PT, &[INSET_PT, TRIM_PT]),
        (MIN_INSET_PT, &[8.0, 5.0, MIN_INSET_PT]),
    ];
    for (edge, insets) in passes {
        let edge = edge / uu;
        let insets: Vec<f64> = insets.iter().map(|i| i / uu).collect();
        for &pos in order {
            if let Some(p) = place_on_edge(page, pos, size_pt, text, edge, &insets, &free) {
                return Some(p);
            }
        }
    }
    None
}

/// The first free place on edge `pos` (see [`place_free`]) at `insets` from it and at least
/// `edge` (user units) from the ends of the edge.
fn place_on_edge(
    page: &Page,
    pos: Position,
    size_pt: f64,
    text: &Extent,
    edge: f64,
    insets: &[f64],
    free: &dyn Fn(&Rect) -> bool,
) -> Option<Placement> {
    let uu = page.user_unit;
    let (w, h) = page.visual_size();
    let mut size = size_pt;
    while size >= MIN_SIZE_PT - 1e-9 {
        let s = fit_band(page, pos, size / uu, text);
        if s * uu < MIN_SIZE_PT - 1e-9 {
            break;
        }
        let len = text.advance * s;
        let (span, usual) = match pos {
            Position::Left | Position::Right => (h, h * SIDE_BAND.0),
            Position::Top | Position::Bottom => (w, (w - len) / 2.0),
        };
        // Places along the edge: the usual one first, then outwards from it in steps of
        // 5 % of the edge, `edge` or more from its ends.
        let step = span * 0.05;
        let inside = |a: f64| a >= edge - 1e-9 && a + len <= span - edge + 1e-9;
        let mut alongs = vec![];
        if inside(usual) {
            alongs.push(usual);
        } else if inside(edge) && usual < edge {
            alongs.push(edge);
        }
        for k in 1..40 {
            for a in [usual + step * k as f64, usual - step * k as f64] {
                if inside(a) {
                    alongs.push(a);
                }
            }
        }
        for &along in &alongs {
            for &inset in insets {
                let p = place_at(page, pos, s, text, inset, along);
                if free(&p.visual) {
                    return Some(p);
                }
            }
        }
        size -= 0.5;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: Extent = Extent {
        advance: 8.0,
        ascent: 0.9,
        descent: -0.25,
    };

    fn letter() -> Rect {
        Rect::new(0.0, 0.0, 612.0, 792.0)
    }

    /// Maps a point of text space (glyph coordinates in ems) through Tm and the matrix.
    fn user_point(p: &Placement, x: f64, y: f64) -> (f64, f64) {
        let t = &p.text_matrix;
        let s = p.font_size;
        let (u, v) = (
            t[0] * x * s + t[2] * y * s + t[4],
            t[1] * x * s + t[3] * y * s + t[5],
        );
        let m = &p.matrix;
        (m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5])
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn crop_box_is_clipped_to_media_box_and_rotation_normalised() {
        let p = Page::new(
            letter(),
            Some(Rect::new(-10.0, 50.0, 300.0, 900.0)),
            -90,
            None,
        );
        assert_eq!(p.crop, Rect::new(0.0, 50.0, 300.0, 792.0));
        assert_eq!(p.rotate, 270);
        assert_eq!(Page::new(letter(), None, 45, Some(0.0)).rotate, 0);
        assert_eq!(Page::new(letter(), None, 450, Some(-2.0)).rotate, 90);
        assert_eq!(Page::new(letter(), None, 0, Some(-2.0)).user_unit, 1.0);
        // A crop box outside the media box falls back to the media box.
        let q = Page::new(letter(), Some(Rect::new(700.0, 0.0, 800.0, 10.0)), 0, None);
        assert_eq!(q.crop, letter());
    }

    #[test]
    fn left_stamp_on_an_upright_page_reads_upwards_in_the_lower_left_margin() {
        let page = Page::new(letter(), None, 0, None);
        let p = place(&page, Position::Left, 9.0, &TEXT);
        assert_eq!(p.font_size, 9.0);
        // The baseline start is at the bottom, the end above it: text runs upwards.
        let (x0, y0) = user_point(&p, 0.0, 0.0);
        let (x1, y1) = user_point(&p, TEXT.advance, 0.0);
        assert!(close(x0, x1) && y1 > y0);
        // Ascenders point left (towards the page edge).
        let (xa, _) = user_point(&p, 0.0, TEXT.ascent);
        assert!(xa < x0);
        assert!(close(p.rect.x0, INSET_PT));
        assert!(close(p.rect.width(), 9.0 * 1.15));
        assert!(close(p.rect.height(), 72.0));
        assert!(p.rect.y1 <= 792.0 * SIDE_BAND.1 + 1e-9);
        assert!(p.rect.y0 >= 792.0 * SIDE_BAND.0 - 1e-9);
    }

    #[test]
    fn the_stamp_box_is_where_the_glyphs_are_for_every_rotation_and_position() {
        let media = Rect::new(-20.0, 10.0, 580.0, 850.0);
        let crop = Rect::new(0.0, 30.0, 560.0, 800.0);
        for rotate in [0, 90, 180, 270] {
            for uu in [1.0, 2.5] {
                for pos in [
                    Position::Left,
                    Position::Right,
                    Position::Top,
                    Position::Bottom,
                ] {
                    let page = Page::new(media, Some(crop), rotate, Some(uu));
                    let p = place(&page, pos, 9.0, &TEXT);
                    // The four corners of the text box land on the corners of `rect`.
                    let corners = [
                        user_point(&p, 0.0, TEXT.descent),
                        user_point(&p, TEXT.advance, TEXT.descent),
                        user_point(&p, 0.0, TEXT.ascent),
                        user_point(&p, TEXT.advance, TEXT.ascent),
                    ];
                    let xs = corners.iter().map(|c| c.0);
                    let ys = corners.iter().map(|c| c.1);
                    let bb = Rect::new(
                        xs.clone().fold(f64::MAX, f64::min),
                        ys.clone().fold(f64::MAX, f64::min),
                        xs.fold(f64::MIN, f64::max),
                        ys.fold(f64::MIN, f64::max),
                    );
                    for (a, b) in [
                        (bb.x0, p.rect.x0),
                        (bb.y0, p.rect.y0),
                        (bb.x1, p.rect.x1),
                        (bb.y1, p.rect.y1),
                    ] {
                        assert!(
                            close(a, b),
                            "rotate {rotate} uu {uu} {pos:?}: {bb:?} vs {:?}",
                            p.rect
                        );
                    }
                    assert!(page.crop.contains(&p.rect), "{rotate} {pos:?}");
                    // 9 pt on paper whatever the unit.
                    assert!(close(p.font_size * uu, 9.0));
                }
            }
        }
    }

    #[test]
    fn positions_are_the_displayed_margins_on_rotated_pages() {
        let crop = Rect::new(100.0, 200.0, 712.0, 992.0);
        // /Rotate 90: the displayed left edge is the user-space bottom edge (y = 200).
        let page = Page::new(crop, None, 90, None);
        let p = place(&page, Position::Left, 9.0, &TEXT);
        assert!(close(p.rect.y0, 200.0 + INSET_PT));
        // The displayed bottom of the page is the user-space right edge (x = 712).
        assert!(p.rect.x1 > 700.0 - 612.0 * SIDE_BAND.1 && p.rect.x1 <= 712.0);
        // On the displayed page the text still runs bottom to top: in visual space its
        // direction is +v; the displayed "up" of a /Rotate 90 page is user-space -x.
        let (xa, _) = user_point(&p, 0.0, 0.0);
        let (xb, _) = user_point(&p, TEXT.advance, 0.0);
        assert!(xb < xa);
        // /Rotate 180: the displayed left edge is the user-space right edge.
        let page = Page::new(crop, None, 180, None);
        let p = place(&page, Position::Left, 9.0, &TEXT);
        assert!(close(p.rect.x1, 712.0 - INSET_PT));
        // /Rotate 270 (a quarter turn counter-clockwise): the displayed top edge is the
        // user-space right edge.
        let page = Page::new(crop, None, 270, None);
        let p = place(&page, Position::Top, 9.0, &TEXT);
        assert!(close(p.rect.x1, 712.0 - INSET_PT));
        let p = place(&page, Position::Bottom, 9.0, &TEXT);
        assert!(close(p.rect.x0, 100.0 + INSET_PT));
    }

    #[test]
    fn long_text_shrinks_to_fit_its_band_and_small_pages_keep_it_on_the_page() {
        let page = Page::new(letter(), None, 0, None);
        let long = Extent {
            advance: 30.0,
            ..TEXT
        };
        let p = place(&page, Position::Left, 9.0, &long);
        assert!(p.font_size < 9.0);
        assert!(close(p.rect.height(), 792.0 * (SIDE_BAND.1 - SIDE_BAND.0)));
        let tiny = Page::new(Rect::new(0.0, 0.0, 20.0, 20.0), None, 0, None);
        for pos in [
            Position::Left,
            Position::Right,
            Position::Top,
            Position::Bottom,
        ] {
            let p = place(&tiny, pos, 9.0, &TEXT);
            assert!(p.font_size > 0.0);
            assert!(tiny.crop.contains(&p.rect), "{pos:?} {:?}", p.rect);
        }
    }

    #[test]
    fn free_margins_are_chosen_and_full_pages_have_none() {
        let page = Page::new(letter(), None, 0, None);
        let order = [
            Position::Left,
            Position::Right,
            Position::Bottom,
            Position::Top,
        ];
        // Body text only: the left margin, as without any content.
        let body = [Rect::new(72.0, 72.0, 540.0, 720.0)];
        let p = place_free(&page, &order, 9.0, &TEXT, &body).unwrap();
        assert_eq!(p, place(&page, Position::Left, 9.0, &TEXT));
        // Text down the whole left margin (x = 5..50): another edge, clear of every box.
        let full_left = [body[0], Rect::new(5.0, 5.0, 50.0, 787.0)];
        let p = place_free(&page, &order, 9.0, &TEXT, &full_left).unwrap();
        assert!(p.rect.x0 > 50.0, "{:?}", p.rect);
        for b in &full_left {
            assert!(b.intersect(&p.rect).is_none(), "{b:?} {:?}", p.rect);
        }
        // A small margin: the stamp moves in towards the edge and shrinks, never below 6 pt.
        let tight = [Rect::new(16.0, 0.0, 612.0, 792.0)];
        let p = place_free(&page, &order, 9.0, &TEXT, &tight).unwrap();
        assert!(p.rect.x1 <= 16.0 - GAP_PT + 1e-9 && p.font_size >= MIN_SIZE_PT - 1e-9);
        // A 22 pt margin: a smaller stamp 10 pt from the edge rather than a larger one nearer.
        let margin22 = [Rect::new(22.0, 0.0, 612.0, 792.0)];
        let p = place_free(&page, &order, 9.0, &TEXT, &margin22).unwrap();
        assert!(
            p.rect.x0 >= TRIM_PT - 1e-9 && p.rect.y0 >= TRIM_PT,
            "{:?}",
            p.rect
        );
        assert!(p.font_size < 9.0);
        // Content on every edge, a full-bleed box, a page a few points wide: no room.
        assert!(place_free(&page, &order, 9.0, &TEXT, &[letter()]).is_none());
        let narrow = Page::new(Rect::new(0.0, 0.0, 4.0, 300.0), None, 0, None);
        assert!(place_free(&narrow, &order, 9.0, &TEXT, &[]).is_none());
        // /Rotate 90: the displayed left margin is the user-space bottom edge; content there
        // sends the stamp elsewhere, still inside the crop box.
        let page = Page::new(letter(), None, 90, None);
        let bottom = [Rect::new(0.0, 5.0, 612.0, 50.0)];
        let p = place_free(&page, &order, 9.0, &TEXT, &bottom).unwrap();
        assert!(
            p.rect.y0 > 50.0 && page.crop.contains(&p.rect),
            "{:?}",
            p.rect
        );
    }
}
