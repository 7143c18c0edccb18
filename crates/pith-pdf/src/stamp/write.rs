//! Writing a planned stamp into an incremental update: its content stream wrapped around the
//! page's, the link annotation, the font objects and the page's new version with its own
//! resources (and, in a tagged file, the structure element); and telling a stamp already
//! there from one to replace.

use super::geometry::Rect;
use super::{font, Plan, GREY, PLATE_PAD_EM};
use crate::security::StreamKind;
use crate::syntax::{Dict, Obj, Ref};
use crate::writer::annotation::Link;
use crate::writer::content::Content;
use crate::writer::object::{self as wo, dict, name_obj};
use crate::writer::Update;
use crate::Error;

impl Plan {
    /// The stamp's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The annotation's `/Rect` in default user space.
    pub fn rect(&self) -> Rect {
        self.placement.rect
    }

    /// The stamp's content stream data, starting with the `closes` `Q`s that end the page's
    /// own (isolated) content.
    pub(super) fn content(&self, closes: usize) -> Vec<u8> {
        let p = &self.placement;
        let mut c = Content::new();
        for _ in 0..closes {
            c.restore_state();
        }
        c.save_state()
            .begin_marked_content(b"Artifact")
            .transform(p.matrix);
        if self.plate {
            let v = &p.visual;
            let pad = PLATE_PAD_EM * p.font_size;
            c.set_fill_gray(1.0)
                .rect(
                    v.x0 - pad,
                    v.y0 - pad,
                    v.width() + 2.0 * pad,
                    v.height() + 2.0 * pad,
                )
                .fill_nonzero();
        }
        if self.grey {
            c.set_fill_gray(GREY);
        }
        // The text state is reset as well, in case the original content leaves it changed and
        // unbalanced (more `q` than `Q`).
        c.reset_text_state()
            .begin_text()
            .set_font(&self.font_name, p.font_size)
            .set_text_matrix(p.text_matrix)
            .show_bytes(&self.encoded)
            .end_text()
            .end_marked_content()
            .restore_state();
        c.finish()
    }

    /// The link annotation (its strings are encrypted by the writer in an encrypted file).
    pub(super) fn annotation(&self) -> Obj {
        let r = &self.placement.rect;
        Link {
            rect: [r.x0, r.y0, r.x1, r.y1],
            page: self.page_ref,
            uri: &self.url,
            contents: &self.alt(),
            struct_parent: self.struct_parent,
            mark: Some(("PithStamp", "Link")),
        }
        .to_obj()
    }

    /// The dictionary of the stamp's content stream: `/PithStamp /Stamp`, and what it shows
    /// and its record in `/PithText` and `/PithURL` ([`printed`] reads them back).
    pub(super) fn stamp_entries(&self) -> Obj {
        dict(vec![
            ("PithStamp", name_obj("Stamp")),
            ("PithText", Obj::Str(self.text.clone().into_bytes())),
            ("PithURL", Obj::Str(self.url.clone().into_bytes())),
        ])
    }

    /// The alternate description of the link (annotation `/Contents`, structure `/Alt`).
    pub(super) fn alt(&self) -> String {
        format!("Pith Number {}: open its record at {}", self.text, self.url)
    }

    /// Whether page 1 already carries exactly this stamp (nothing to write).
    pub fn is_current(&self) -> bool {
        let Some(ex) = &self.existing else {
            return false;
        };
        let closes = leading_closes(&ex.data);
        let Some((_, d)) = &ex.annot else {
            return false;
        };
        let uri = match d.get(b"A") {
            Some(Obj::Dict(a)) => a.get(b"URI").cloned(),
            _ => None,
        };
        ex.data == self.content(closes)
            && uri == Some(Obj::Str(self.url.clone().into_bytes()))
            && self.tags.is_none()
    }

    /// Adds the stamp's objects to `up` and describes them in `written`.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) when the built-in font does not parse.
    pub fn write(&self, up: &mut Update, written: &mut Vec<String>) -> Result<(), Error> {
        let r = &self.placement.rect;
        let at = format!(
            "[{} {} {} {}]",
            wo::num(r.x0),
            wo::num(r.y0),
            wo::num(r.x1),
            wo::num(r.y1)
        );
        // An encrypted file's new objects carry encrypted strings (streams are encrypted by
        // the writer).
        let sec = up.security();
        if let Some(ex) = &self.existing {
            // Replace the stamp in place: same objects, new versions; the page is unchanged
            // unless the annotation went missing.
            let data = self.content(leading_closes(&ex.data));
            up.stream(ex.stream, &self.stamp_entries(), StreamKind::Other, &data);
            let annot = match &ex.annot {
                Some((a, _)) => *a,
                None => up.alloc(),
            };
            up.value(annot, &self.annotation());
            if let Some(t) = &self.tags {
                let link = t.write(up, annot, self.page_ref, &self.alt());
                written.push(tagged_line(link, t.key()));
            }
            if ex.annot.is_none() {
                let mut annots = self.annots.clone();
                annots.push(Obj::Ref(annot));
                let page = self.page_with(None, None, Some(annots), sec);
                up.object(self.page_ref, &page);
            }
            written.push(format!(
                "stamp on page 1 (object {}) replaced: {} at {at}, link annotation {} {}",
                self.page_ref.num, self.text, annot.num, annot.gen
            ));
            return Ok(());
        }

        let refs = font::write(up)?;
        let mut contents = Vec::new();
        let mut closes = 0;
        if !self.contents.is_empty() {
            let q = up.alloc();
            let opens = self.nesting.opens();
            closes = self.nesting.closes();
            up.stream(
                q,
                &mark(b"Isolate"),
                StreamKind::Other,
                "q\n".repeat(opens).as_bytes(),
            );
            contents.push(Obj::Ref(q));
            contents.extend(self.contents.iter().cloned());
        }
        let s = up.alloc();
        up.stream(
            s,
            &self.stamp_entries(),
            StreamKind::Other,
            &self.content(closes),
        );
        contents.push(Obj::Ref(s));
        let a = up.alloc();
        up.value(a, &self.annotation());
        if let Some(t) = &self.tags {
            let link = t.write(up, a, self.page_ref, &self.alt());
            written.push(tagged_line(link, t.key()));
        }
        let mut annots = self.annots.clone();
        annots.push(Obj::Ref(a));

        // The page's own resources: a copy of what it had (own, shared or inherited) plus
        // the font, so nothing that other pages use is changed.
        let mut res = match &self.resources {
            Some(Obj::Dict(d)) => d.clone(),
            _ => Dict::default(),
        };
        let mut fonts = match res.get(b"Font") {
            Some(Obj::Dict(d)) => d.clone(),
            Some(Obj::Ref(..)) => self.font_dict.clone().unwrap_or_default(),
            _ => Dict::default(),
        };
        fonts
            .entries
            .push((self.font_name.clone(), Obj::Ref(refs.type0), 0..0));
        set(&mut res, b"Font", Obj::Dict(fonts));
        let page = self.page_with(Some(Obj::Dict(res)), Some(contents), Some(annots), sec);
        up.object(self.page_ref, &page);
        written.push(format!(
            "stamp on page 1 (object {}): {} at {at} in DejaVu Sans (objects {}–{}), link annotation {} {}",
            self.page_ref.num, self.text, refs.type0.num, refs.cid_set.num, a.num, a.gen
        ));
        Ok(())
    }

    /// The page dictionary with `/Resources`, `/Contents` and `/Annots` replaced where given
    /// (its strings, read decrypted, are encrypted again with `sec` for an encrypted file).
    pub(super) fn page_with(
        &self,
        res: Option<Obj>,
        contents: Option<Vec<Obj>>,
        annots: Option<Vec<Obj>>,
        sec: Option<&dyn crate::security::SecurityHandler>,
    ) -> Vec<u8> {
        let mut d = self.page.clone();
        if let Some(r) = res {
            set(&mut d, b"Resources", r);
        }
        if let Some(c) = contents {
            set(&mut d, b"Contents", Obj::Array(c));
        }
        if let Some(a) = annots {
            set(&mut d, b"Annots", Obj::Array(a));
        }
        wo::to_vec(&Obj::Dict(d), wo::Strings::of(sec, self.page_ref))
    }
}

/// The dictionary of a stream pith marks as its own: `/PithStamp /<what>`.
pub(super) fn mark(what: &[u8]) -> Obj {
    dict(vec![(
        "PithStamp",
        name_obj(std::str::from_utf8(what).unwrap_or("Stamp")),
    )])
}

/// The line describing the link's place in the structure tree.
pub(super) fn tagged_line(link: Ref, key: i64) -> String {
    format!(
        "structure tree: Link element {} {} for the stamp's link, parent tree key {key}",
        link.num, link.gen
    )
}

/// How many `Q` lines a stamp stream written before starts with.
pub(super) fn leading_closes(data: &[u8]) -> usize {
    data.chunks(2).take_while(|c| *c == b"Q\n").count()
}

/// Sets `key` in `d` (replacing every earlier occurrence).
pub(super) fn set(d: &mut Dict, key: &[u8], v: Obj) {
    d.entries.retain(|(k, _, _)| k != key);
    d.entries.push((key.to_vec(), v, 0..0));
}
