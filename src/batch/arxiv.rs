//! Matching PDFs to arXiv bulk metadata by arXiv id and version, for
//! `pith batch --arxiv-metadata`.
//!
//! A PDF's id comes from its name as arXiv and its bulk mirrors write it ([`id_from_path`]):
//! `2402.03791v3.pdf`, old-style `hep-th9901001v1.pdf`, or `hep-th/9901001v1.pdf` (also
//! `hep-th/pdf/9901/9901001v1.pdf`) in a directory tree; or from a manifest column
//! `arxiv_id` ([`read_manifest`]). The metadata is then streamed once ([`collect`]), keeping
//! only the entries some PDF needs, and each PDF gets a [`Decision`]: its number, a skip (it is
//! not the latest version: the record, and so the number, is the latest version's), or a
//! failure (no entry, a bad or deleted entry). Entries no PDF needed are counted.
//!
//! This module decides; it writes nothing and touches no PDF.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::arxiv_id::split_version;
use crate::number::PithNumber;
use crate::record::arxiv::bulk::{self, Meaning, MetadataFile, Place, Report, Unit};
use crate::record::is_arxiv_id;

/// A PDF and the arXiv paper it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The PDF.
    pub pdf: PathBuf,
    /// Its path relative to the batch root (mirrored under `--out-dir`).
    pub relative: PathBuf,
    /// arXiv id without version.
    pub id: String,
    /// The version the PDF is, when its name or the manifest says.
    pub version: Option<u32>,
    /// An explicit output path from the manifest.
    pub out: Option<PathBuf>,
}

/// Error reading a directory or a manifest.
#[derive(Debug)]
pub struct Error {
    path: PathBuf,
    line: Option<usize>,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a directory cannot be read.
    #[error("cannot read the directory")]
    Io(#[source] std::io::Error),
    /// Occurs when a manifest line is not an object with `pdf` and an arXiv id (in
    /// `arxiv_id` or the PDF's name).
    #[error("{0}")]
    Manifest(String),
}

impl Error {
    /// The file or directory concerned.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            ErrorKind::Manifest(_) => None,
        }
    }
}

pub use crate::arxiv_id::{yymm_of, OLD_ARCHIVES};

/// The arXiv id and version a PDF's path names, as arXiv and its bulk mirrors name files:
/// - `2402.03791v3.pdf`, `0704.0001v1.pdf` (new-style; the directory does not matter);
/// - `hep-th9901001v1.pdf`, `math.GT0309136v2.pdf` (old-style, archive glued to the number;
///   a subject class `.XX` is not part of the id and is dropped);
/// - `hep-th/9901001v1.pdf`, `hep-th/pdf/9901/9901001v1.pdf` (old-style: the nearest
///   directory that is not `pdf` nor all digits is the archive).
///
/// The version is `None` when the name has none (`2402.03791.pdf`). `None` overall when the
/// name is not an arXiv paper's.
///
/// # Examples
/// ```
/// use pith::batch::arxiv::id_from_path;
/// use std::path::Path;
/// assert_eq!(id_from_path(Path::new("x/2402.03791v3.pdf")), Some(("2402.03791".into(), Some(3))));
/// assert_eq!(id_from_path(Path::new("hep-th9901001v1.pdf")), Some(("hep-th/9901001".into(), Some(1))));
/// assert_eq!(id_from_path(Path::new("hep-th/9901001v2.pdf")), Some(("hep-th/9901001".into(), Some(2))));
/// assert_eq!(id_from_path(Path::new("paper.pdf")), None);
/// ```
pub fn id_from_path(path: &Path) -> Option<(String, Option<u32>)> {
    crate::arxiv_id::of_path(path)
}

/// Walks `root` for `*.pdf` files ([`crate::batch::pdfs_under`]: sorted, links followed only
/// to files inside it) and names each by [`id_from_path`]. PDFs whose names carry no arXiv
/// id are returned in the second list, links not followed in the third.
///
/// # Errors
/// When a directory cannot be read.
pub fn scan_dir(root: &Path) -> Result<Scanned, Error> {
    let walk = crate::batch::pdfs_under(root).map_err(|(path, e)| Error {
        path,
        line: None,
        kind: ErrorKind::Io(e),
    })?;
    let mut wanted = Vec::new();
    let mut unnamed = Vec::new();
    for pdf in walk.pdfs {
        let relative = pdf.strip_prefix(root).unwrap_or(&pdf).to_owned();
        // The archive directory of `hep-th/9901001v1.pdf` may be the root itself.
        let named = id_from_path(&relative).or_else(|| id_from_path(&pdf));
        match named {
            Some((id, version)) => wanted.push(Wanted {
                pdf,
                relative,
                id,
                version,
                out: None,
            }),
            None => unnamed.push(pdf),
        }
    }
    Ok((wanted, unnamed, walk.refused))
}

/// What [`scan_dir`] found: PDFs named for an arXiv id, the others, and the `*.pdf` links
/// not followed, with why ([`crate::batch::pdfs_under`]).
pub type Scanned = (Vec<Wanted>, Vec<PathBuf>, Vec<(PathBuf, String)>);

/// Reads a JSON Lines manifest for arXiv matching: one object per PDF with `pdf` (a path),
/// optional `arxiv_id` (`2402.03791v3`, `hep-th/9901001v1`; without it the PDF's name is
/// used) and optional `out`. Relative paths are taken from `base`; blank lines and lines
/// starting with `#` are skipped.
///
/// # Errors
/// Naming the manifest line: not JSON, no `pdf`, or no arXiv id in the column or the name.
pub fn read_manifest(manifest: &Path, text: &str, base: &Path) -> Result<Vec<Wanted>, Error> {
    let bad = |line: usize, reason: String| Error {
        path: manifest.to_owned(),
        line: Some(line),
        kind: ErrorKind::Manifest(reason),
    };
    let lines = super::manifest_lines(text, base).map_err(|(n, m)| bad(n, m))?;
    let mut out = Vec::new();
    for l in lines {
        let (id, version) = match l.fields.get("arxiv_id") {
            Some(Value::String(s)) => {
                let (id, version) = split_version(s.trim());
                if !is_arxiv_id(id) || version == Some(0) {
                    return Err(bad(
                        l.line,
                        format!("\"arxiv_id\" {s:?} is not an arXiv id"),
                    ));
                }
                (id.to_owned(), version)
            }
            None | Some(Value::Null) => id_from_path(&l.relative)
                .or_else(|| id_from_path(&l.pdf))
                .ok_or_else(|| {
                    bad(
                        l.line,
                        format!(
                            "no \"arxiv_id\" and {:?} is not named like an arXiv PDF",
                            l.relative.display().to_string()
                        ),
                    )
                })?,
            Some(_) => return Err(bad(l.line, "\"arxiv_id\" must be a string".into())),
        };
        out.push(Wanted {
            pdf: l.pdf,
            relative: l.relative,
            id,
            version,
            out: l.out,
        });
    }
    Ok(out)
}

/// Most bytes of a title an entry keeps: far more than any arXiv title, and what keeps
/// millions of kept entries bounded.
pub const TITLE_BOUND: usize = 1 << 10;

/// Most bytes of the authors an entry keeps; a longer list (collaborations of thousands) ends
/// with `et al.` after the names that fit.
pub const AUTHORS_BOUND: usize = 4 << 10;

/// The paper's fields an entry keeps for the inject, beside its number: its title, authors,
/// v1 date and primary category, in one string (a run may keep millions of entries), the
/// title cut at [`TITLE_BOUND`] bytes and the authors at [`AUTHORS_BOUND`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fields(Box<str>);

/// Separates the fields, and the authors, in [`Fields`]: control characters no field holds
/// (their whitespace is collapsed to spaces).
const FIELD: char = '\u{1f}';
const AUTHOR: char = '\u{1e}';

/// `text` cut to at most `bound` bytes at a character boundary.
fn cut(text: &str, bound: usize) -> &str {
    if text.len() <= bound {
        return text;
    }
    let mut end = bound;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].trim_end()
}

impl Fields {
    /// The fields of `d` to keep (its id and version are the entry's own).
    pub fn keep(d: &crate::record::Details) -> Fields {
        let clean = |t: &str| t.replace([FIELD, AUTHOR], " ");
        let mut authors = String::new();
        let mut cut_short = false;
        const ET_AL: &str = "et al.";
        for a in &d.authors {
            let a = clean(a);
            if authors.len() + a.len() + 1 + ET_AL.len() + 1 > AUTHORS_BOUND {
                cut_short = true;
                break;
            }
            if !authors.is_empty() {
                authors.push(AUTHOR);
            }
            authors.push_str(&a);
        }
        if cut_short {
            if !authors.is_empty() {
                authors.push(AUTHOR);
            }
            authors.push_str(ET_AL);
        }
        let title = clean(cut(&d.title, TITLE_BOUND));
        Fields(
            [title.as_str(), &authors, &d.submitted_at, &d.primary_cat]
                .join(&FIELD.to_string())
                .into(),
        )
    }

    /// The paper's display fields, for the paper `id` version `version`.
    pub fn details(&self, id: &str, version: u32) -> crate::record::Details {
        let mut f = self.0.split(FIELD);
        let mut next = || f.next().unwrap_or_default().to_owned();
        let (title, authors, submitted_at, primary_cat) = (next(), next(), next(), next());
        crate::record::Details {
            arxiv_id: id.to_owned(),
            version,
            title,
            authors: authors
                .split(AUTHOR)
                .filter(|a| !a.is_empty())
                .map(str::to_owned)
                .collect(),
            submitted_at,
            version_date: None,
            primary_cat,
            cross_cats: Vec::new(),
        }
    }
}

/// A metadata entry some PDF needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataEntry {
    /// The paper's latest version and number.
    Numbered {
        /// Latest version.
        version: u32,
        /// The record's number.
        number: PithNumber,
        /// The paper's title, authors and dates, written beside the number.
        fields: Fields,
        /// Where the entry was read.
        place: Place,
    },
    /// The record is deleted.
    Deleted(Place),
    /// The entry cannot be used.
    Bad(Place, String),
}

/// What one pass over the metadata kept.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// Entries for the ids that were asked for.
    pub entries: HashMap<String, MetadataEntry>,
    /// Lines or records read.
    pub read: u64,
    /// Entries no PDF needed.
    pub unmatched: u64,
    /// Lines, records or files that were unusable and had no id to attribute them to.
    pub unattributed_bad: u64,
}

enum Seen {
    Wanted(String, MetadataEntry),
    Other(String),
    Unattributed(Report),
    Nothing,
}

/// Streams the metadata once and keeps the entries for the ids in `wanted`. When an id
/// appears more than once (overlapping harvests), the highest version wins, and the later
/// entry on a tie. Entries not wanted are counted and passed to `unmatched` by id; bad units
/// without an id, and notices, go to `report`.
///
/// # Errors
/// As [`bulk::scan`].
pub fn collect(
    inputs: &[MetadataFile],
    wanted: &HashSet<String>,
    threads: usize,
    unmatched: &mut dyn FnMut(&str),
    report: &mut dyn FnMut(&Report),
) -> Result<Collected, bulk::Error> {
    collect_where(
        inputs,
        &|id| wanted.contains(id),
        threads,
        unmatched,
        report,
    )
}

/// [`collect`] for the ids `wanted` accepts: the ids of a stream not read yet (a tar on a
/// pipe) are known only by their month ([`yymm_of`]), or not at
/// all (every id).
///
/// # Errors
/// As [`bulk::scan`].
pub fn collect_where(
    inputs: &[MetadataFile],
    wanted: &(dyn Fn(&str) -> bool + Sync),
    threads: usize,
    unmatched: &mut dyn FnMut(&str),
    report: &mut dyn FnMut(&Report),
) -> Result<Collected, bulk::Error> {
    let mut c = Collected::default();
    let work = |u: Unit| -> Seen {
        let id = u.arxiv_id();
        let Some(id) = id else {
            return match u.meaning() {
                Meaning::Bad(reason) => Seen::Unattributed(Report::Bad {
                    place: u.place,
                    reason,
                }),
                Meaning::Notice(message) => Seen::Unattributed(Report::Notice {
                    place: u.place,
                    message,
                }),
                _ => Seen::Nothing,
            };
        };
        if !wanted(&id) {
            return Seen::Other(id);
        }
        let place = u.place.clone();
        let entry = match u.meaning() {
            Meaning::Meta(m) => match m
                .into_paper()
                .and_then(|p| bulk::number_paper(&p).map(|(r, _, n)| (p, r, n)))
            {
                Ok((p, r, n)) => MetadataEntry::Numbered {
                    version: r.source.version,
                    number: n,
                    fields: Fields::keep(&p.details(&r)),
                    place,
                },
                Err(e) => MetadataEntry::Bad(place, e),
            },
            Meaning::Deleted(_) => MetadataEntry::Deleted(place),
            Meaning::Bad(e) => MetadataEntry::Bad(place, e),
            Meaning::Notice(_) | Meaning::Nothing => return Seen::Nothing,
        };
        Seen::Wanted(id, entry)
    };
    let consume = |s: Seen| {
        match s {
            Seen::Wanted(id, e) => {
                c.read += 1;
                let newer = match (c.entries.get(&id), &e) {
                    (
                        Some(MetadataEntry::Numbered { version: old, .. }),
                        MetadataEntry::Numbered { version, .. },
                    ) => version >= old,
                    (Some(MetadataEntry::Numbered { .. }), _) => false,
                    _ => true,
                };
                if newer {
                    c.entries.insert(id, e);
                }
            }
            Seen::Other(id) => {
                c.read += 1;
                c.unmatched += 1;
                unmatched(&id);
            }
            Seen::Unattributed(r) => {
                if let Report::Bad { .. } = r {
                    c.read += 1;
                    c.unattributed_bad += 1;
                }
                report(&r);
            }
            Seen::Nothing => {}
        }
        true
    };
    bulk::scan(inputs, threads, work, consume)?;
    Ok(c)
}

/// What to do with one PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Inject this number, with the paper's fields (its latest version's, the version the
    /// number is of).
    Number(PithNumber, Box<crate::record::Details>),
    /// Leave the PDF alone on purpose (an older version): why, and that numbering any version
    /// would inject it.
    Skip(String),
    /// The metadata has no entry for the PDF: why.
    Unmatched(String),
    /// The PDF's entry cannot number it (deleted, unusable, older than the PDF): why.
    Fail(String),
}

/// Decides what to do with `w` given the collected metadata. `any_version` numbers a PDF
/// that is not the latest version (or whose name has no version) with the latest version's
/// number, which is the only number the paper has.
pub fn decide(w: &Wanted, c: &Collected, any_version: bool) -> Decision {
    let id = &w.id;
    match c.entries.get(id) {
        None => Decision::Unmatched(format!(
            "no metadata entry for {id} in the metadata files"
        )),
        Some(MetadataEntry::Deleted(place)) => {
            Decision::Fail(format!("{id} is a deleted record in the metadata ({place})"))
        }
        Some(MetadataEntry::Bad(place, reason)) => Decision::Fail(format!(
            "the metadata entry for {id} is unusable ({place}: {reason})"
        )),
        Some(MetadataEntry::Numbered {
            version,
            number,
            fields,
            ..
        }) => match w.version {
            Some(v) if v == *version => {
                Decision::Number(number.clone(), Box::new(fields.details(id, *version)))
            }
            Some(v) if v > *version => Decision::Fail(format!(
                "{id}v{v} is newer than the metadata's latest version v{version} (stale metadata?)"
            )),
            _ if any_version => {
                Decision::Number(number.clone(), Box::new(fields.details(id, *version)))
            }
            Some(v) => Decision::Skip(format!(
                "{id}v{v} is not the latest version (v{version}); the record, and so the number, is v{version}'s; --arxiv-any-version (Python: any_version=True) injects it anyway"
            )),
            None => Decision::Skip(format!(
                "the name gives no version of {id}; the number is the latest version's, v{version}; --arxiv-any-version (Python: any_version=True) injects it anyway"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yymm() {
        assert_eq!(yymm_of("2402.03791"), Some("2402"));
        assert_eq!(yymm_of("hep-th/0001001"), Some("0001"));
        assert_eq!(yymm_of("x"), None);
    }

    #[test]
    fn names_as_mirrors_write_them() {
        for (p, want) in [
            ("2402.03791v3.pdf", Some(("2402.03791", Some(3)))),
            ("a/b/0704.0001v12.PDF", Some(("0704.0001", Some(12)))),
            ("2402.03791.pdf", Some(("2402.03791", None))),
            ("hep-th9901001v1.pdf", Some(("hep-th/9901001", Some(1)))),
            ("math.GT0309136v2.pdf", Some(("math/0309136", Some(2)))),
            ("hep-th/9901001v1.pdf", Some(("hep-th/9901001", Some(1)))),
            (
                "arxiv/hep-th/pdf/9901/9901001v1.pdf",
                Some(("hep-th/9901001", Some(1))),
            ),
            ("9901/9901001v1.pdf", None),
            ("tmp/9901001v1.pdf", None),
            ("paper1234567v1.pdf", None),
            ("paper.pdf", None),
            ("2402.03791v3.txt", None),
            ("2402.037v3.pdf", None),
            ("HEP-TH9901001v1.pdf", None),
            ("2402.03791v0.pdf", None),
        ] {
            let got = id_from_path(Path::new(p));
            let want = want.map(|(i, v)| (i.to_owned(), v));
            assert_eq!(got, want, "{p}");
        }
    }

    #[test]
    fn manifest_column_or_name() {
        let m = Path::new("m.jsonl");
        let text = "{\"pdf\":\"x.pdf\",\"arxiv_id\":\"hep-th/9901001v2\"}\n# c\n{\"pdf\":\"d/2402.03791v3.pdf\",\"out\":\"o.pdf\"}\n";
        let w = read_manifest(m, text, Path::new("/b")).unwrap();
        assert_eq!(
            (w[0].id.as_str(), w[0].version),
            ("hep-th/9901001", Some(2))
        );
        assert_eq!(w[1].pdf, Path::new("/b/d/2402.03791v3.pdf"));
        assert_eq!(w[1].out.as_deref(), Some(Path::new("/b/o.pdf")));
        for bad in [
            "{\"pdf\":\"x.pdf\"}",
            "{\"arxiv_id\":\"2402.03791\"}",
            "{\"pdf\":\"a.pdf\",\"arxiv_id\":\"nope\"}",
            "x",
        ] {
            let e = read_manifest(m, bad, Path::new("/")).unwrap_err();
            assert!(e.to_string().starts_with("m.jsonl:1: "), "{e}");
        }
    }

    #[test]
    fn kept_fields_are_one_bounded_string_and_give_the_details_back() {
        let d = crate::record::Details {
            arxiv_id: "2402.03791".into(),
            version: 3,
            title: "A title".into(),
            authors: vec!["A. One".into(), "B. Two".into()],
            submitted_at: "2024-02-06T08:14:56Z".into(),
            version_date: None,
            primary_cat: "cs.DC".into(),
            cross_cats: Vec::new(),
        };
        assert_eq!(Fields::keep(&d).details("2402.03791", 3), d);
        let many = crate::record::Details {
            title: "é".repeat(2000),
            authors: (0..5000).map(|i| format!("Author Number{i}")).collect(),
            ..d.clone()
        };
        let kept = Fields::keep(&many);
        assert!(
            kept.0.len() <= TITLE_BOUND + AUTHORS_BOUND + 64,
            "{}",
            kept.0.len()
        );
        let back = kept.details("2402.03791", 3);
        assert!(back.title.len() <= TITLE_BOUND && back.title.starts_with("éé"));
        assert_eq!(back.authors.last().map(String::as_str), Some("et al."));
        assert_eq!(back.authors[..3], many.authors[..3]);
        assert_eq!(back.submitted_at, d.submitted_at);
    }

    #[test]
    fn decisions() {
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let place = Place {
            path: "m".into(),
            pos: bulk::Pos::Line(1),
        };
        let mut c = Collected::default();
        c.entries.insert(
            "2402.03791".into(),
            MetadataEntry::Numbered {
                version: 3,
                number: n.clone(),
                fields: Fields::default(),
                place: place.clone(),
            },
        );
        c.entries
            .insert("hep-th/9901001".into(), MetadataEntry::Deleted(place));
        let w = |id: &str, v| Wanted {
            pdf: "p.pdf".into(),
            relative: "p.pdf".into(),
            id: id.into(),
            version: v,
            out: None,
        };
        assert_eq!(
            decide(&w("2402.03791", Some(3)), &c, false),
            Decision::Number(
                n.clone(),
                Box::new(Fields::default().details("2402.03791", 3))
            )
        );
        assert!(
            matches!(decide(&w("2402.03791", Some(2)), &c, false), Decision::Skip(r) if r.contains("not the latest version (v3)"))
        );
        assert_eq!(
            decide(&w("2402.03791", Some(2)), &c, true),
            Decision::Number(
                n.clone(),
                Box::new(Fields::default().details("2402.03791", 3))
            )
        );
        assert!(matches!(
            decide(&w("2402.03791", None), &c, false),
            Decision::Skip(_)
        ));
        assert!(
            matches!(decide(&w("2402.03791", Some(4)), &c, true), Decision::Fail(r) if r.contains("newer"))
        );
        assert!(
            matches!(decide(&w("hep-th/9901001", Some(1)), &c, false), Decision::Fail(r) if r.contains("deleted"))
        );
        assert!(
            matches!(decide(&w("1234.56789", Some(1)), &c, false), Decision::Unmatched(r) if r.contains("no metadata entry"))
        );
    }
}
