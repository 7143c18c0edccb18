//! The operators of a content stream (ISO 32000-2 Annex A) and what each does to the walk's
//! state: graphics state, text state and matrices, path construction and painting, `Do`.

use super::lexer::Tok;
use super::{luminance, Walk, XObject, MAX_FORM_DEPTH};
use crate::matrix::{mul, IDENTITY};

impl<'x> Walk<'x> {
    pub(super) fn op(&mut self, op: &[u8]) {
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
