//! The references job: what papers cite, read from their PDFs ([`crate::refs::from_pages`])
//! and from the `.bbl` files of their arXiv source tars ([`crate::refs::from_bbl`]), as one
//! [`Reference`] per identifier, the lines `pith refs` writes and `pith index --refs` reads.
//!
//! The citing paper is named by the file's name as arXiv names its files
//! (`2402.03791v3.pdf`, `2402.03791v3.tar.gz`, [`crate::batch::arxiv::id_from_path`]), or else
//! by the stamp arXiv prints up the first page of a PDF ([`crate::refs::stamp`]), or else by
//! the PDF's metadata (the arXiv id `pith inject` writes, XMP `dc:identifier`, `prism:doi`,
//! an arXiv id in Info `/Subject` or `/Keywords`),
//! and each line says which ([`CitingFrom`]). One rule ([`edge`]) says what makes a line a
//! citation edge, for `pith refs` ([`read`] refuses a file whose citing paper nothing names)
//! and `pith index --refs` alike, and for a batch's references ([`RefsSink`]), which write
//! nothing for such a file and say so in its report line. Reading one file costs at most
//! [`Settings::limits`] and stops with [`Settings::stop`]; a source tar is read member by
//! member through [`crate::bounded`] (its bytes decompressed counted against the decoded
//! bytes of [`Settings::limits`], the stop token seen as it reads), only its `.bbl` members
//! held, every other member read past without memory or a temporary file.

pub mod request;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::tar::format::{read_wanted, Wanted};
use super::{Error, ErrorKind, Settings};
use crate::bounded;
use crate::pdf;
use crate::refs::{Cited, Mention, Via};
use crate::stream::read_full;

/// Largest `.bbl` read (real ones are under a megabyte).
pub const MAX_BBL: u64 = 16 << 20;

/// One identifier a paper cites, with where it was read: a line of `pith refs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// The file read (a PDF, a source tar, a `.bbl`), as given.
    pub file: String,
    /// The `.bbl` member of a source tar it was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    /// The citing paper's arXiv id with its version (`2402.03791v3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citing: Option<String>,
    /// Where `citing` was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citing_from: Option<CitingFrom>,
    /// The arXiv id cited, without version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv: Option<String>,
    /// The version cited, when the reference gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// The DOI cited, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// The page (from 1) of a PDF it was read on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// The line (from 1) on that page, or in the `.bbl`.
    pub line: u32,
    /// `link` when the identifier is a link's target on that line rather than its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<ReadVia>,
}

/// Where a line's citing paper was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CitingFrom {
    /// The file's name, as arXiv names its files.
    Name,
    /// arXiv's stamp up the first page's margin.
    Stamp,
    /// The PDF's metadata: the arXiv identifier `pith inject` writes for a known paper
    /// (`xmp:Identifier` of scheme `arxiv`), or XMP `dc:identifier` or `prism:doi`, or Info
    /// `/Subject` or `/Keywords` naming an arXiv id (`arXiv:2402.03791`, an arxiv.org URL, the
    /// DOI `10.48550/arXiv.2402.03791`).
    Metadata,
}

/// How an identifier other than by its printed text was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ReadVia {
    /// A link annotation's target on the line.
    Link,
}

/// The citing paper and where it was read.
type Citing = Option<(String, CitingFrom)>;

impl Reference {
    fn new(file: &Path, member: Option<&str>, citing: &Citing, m: Mention) -> Self {
        let (arxiv, version, doi) = match m.cited {
            Cited::Arxiv { id, version } => (Some(id), version, None),
            Cited::Doi(d) => (None, None, Some(d)),
        };
        Reference {
            file: file.display().to_string(),
            member: member.map(str::to_owned),
            citing: citing.as_ref().map(|c| c.0.clone()),
            citing_from: citing.as_ref().map(|c| c.1),
            arxiv,
            version,
            doi,
            page: m.page,
            line: m.line,
            via: match m.via {
                Via::Text => None,
                Via::Link => Some(ReadVia::Link),
            },
        }
    }
}

/// A line of `pith refs` as a citation edge: what `pith index --refs` stores, and what
/// `pith refs` writes ([`edge`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The citing paper's arXiv id, without its version.
    pub citing: String,
    /// The citing paper's version, when known.
    pub citing_version: Option<u32>,
    /// `arxiv` or `doi`.
    pub kind: &'static str,
    /// The arXiv id (without version) or the DOI (lower case) cited.
    pub cited: String,
    /// The version cited, when the reference names one.
    pub cited_version: Option<u32>,
    /// Where it was read: `page 12, line 30`, `main.bbl, line 4`.
    pub evidence: String,
}

/// Why a line is no citation edge ([`edge`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotAnEdge {
    /// Neither the file's name, nor arXiv's stamp, nor the PDF's metadata named the paper.
    #[error(
        "no citing paper: name the PDF as arXiv does (2402.03791v3.pdf, or the source \
         2402.03791v3.tar.gz), or give it arXiv's stamp or its arXiv id in its XMP metadata"
    )]
    NoCitingPaper,
    /// The citing paper is named by something other than an arXiv id.
    #[error("{0:?} is not an arXiv id")]
    CitingNotArxiv(String),
    /// The line names neither an arXiv id nor a DOI.
    #[error("neither an arXiv id nor a DOI")]
    NoIdentifier,
    /// The line names the citing paper itself.
    #[error("arXiv:{0} cites itself: a paper is never its own reference")]
    CitesItself(String),
}

/// The one rule for what makes a line a citation edge: a citing paper named by its arXiv
/// id, a cited arXiv id or DOI (`10.` and a slash), and no paper citing itself.
///
/// # Errors
/// [`NotAnEdge`], saying which part is missing.
pub fn edge(r: &Reference) -> Result<Edge, NotAnEdge> {
    let citing = r.citing.as_deref().ok_or(NotAnEdge::NoCitingPaper)?;
    let (citing, citing_version) = crate::record::split_versioned_id(citing);
    if !crate::record::is_arxiv_id(&citing) {
        return Err(NotAnEdge::CitingNotArxiv(citing));
    }
    let (kind, cited) = match (&r.arxiv, &r.doi) {
        (Some(a), None) if crate::record::is_arxiv_id(a) => ("arxiv", a.clone()),
        (None, Some(d)) if d.starts_with("10.") && d.contains('/') => {
            ("doi", d.to_ascii_lowercase())
        }
        _ => return Err(NotAnEdge::NoIdentifier),
    };
    if kind == "arxiv" && cited == citing {
        return Err(NotAnEdge::CitesItself(citing));
    }
    let evidence = match (&r.member, r.page) {
        (_, Some(p)) => format!("page {p}, line {}", r.line),
        (Some(m), None) => format!("{m}, line {}", r.line),
        (None, None) => format!("line {}", r.line),
    };
    Ok(Edge {
        citing,
        citing_version,
        kind,
        cited,
        cited_version: r.version,
        evidence,
    })
}

/// The arXiv id and version a file's name gives (`2402.03791v3.pdf`, `hep-th9901001v1.tar.gz`).
pub fn citing_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = [".tar.gz", ".tgz", ".tar", ".gz", ".pdf", ".bbl"]
        .iter()
        .find_map(|e| {
            name.len()
                .checked_sub(e.len())
                .filter(|&i| name.is_char_boundary(i) && name[i..].eq_ignore_ascii_case(e))
                .map(|i| &name[..i])
        })
        .unwrap_or(name);
    let as_pdf = path.with_file_name(format!("{stem}.pdf"));
    let (id, version) = crate::batch::arxiv::id_from_path(&as_pdf)?;
    Some(match version {
        Some(v) => format!("{id}v{v}"),
        None => id,
    })
}

/// The files `paths` name: each file as given, each directory's PDFs (sorted, walked as a
/// batch walks them).
///
/// # Errors
/// [`ErrorKind::Io`] when a path or directory cannot be read, [`ErrorKind::Request`] for a
/// symbolic link in a directory that the walk does not follow.
pub fn inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let pdfs = crate::batch::pdfs_under(p).map_err(|(path, e)| {
                Error::new(ErrorKind::Io("cannot read the directory".into(), e)).in_file(&path)
            })?;
            // A link the walk does not follow (outside the folder, a loop, not a file) is
            // named rather than skipped: the run would otherwise say nothing of that paper.
            if let Some((link, why)) = pdfs.refused.into_iter().next() {
                return Err(
                    Error::new(ErrorKind::Request(format!("not read: {why}"))).in_file(&link)
                );
            }
            out.extend(pdfs.pdfs);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// What the file at `path` cites: a PDF's reference section, every `.bbl` of a source tar
/// (gzip or not), or a `.bbl` file, as the citation edges of its citing paper: every line
/// `pith refs` writes passes [`edge`], and a file whose citing paper is named by neither its
/// name, nor arXiv's stamp, nor its metadata is refused.
///
/// # Errors
/// [`ErrorKind::Io`] when the file cannot be read, [`ErrorKind::Pdf`] when a PDF is refused
/// (damaged, encrypted with a password, over the limits, stopped), [`ErrorKind::Request`]
/// for a file that is none of these, and for one without a citing paper
/// ([`NotAnEdge::NoCitingPaper`]).
pub fn read(path: &Path, settings: &Settings) -> Result<Vec<Reference>, Error> {
    let (citing, lines) = read_lines(path, settings)?;
    if citing.is_none() {
        return Err(
            Error::new(ErrorKind::Request(NotAnEdge::NoCitingPaper.to_string())).in_file(path),
        );
    }
    Ok(lines.into_iter().filter(|r| edge(r).is_ok()).collect())
}

/// The file's citing paper and every line read from it ([`read`] before its rule).
fn read_lines(path: &Path, settings: &Settings) -> Result<(Citing, Vec<Reference>), Error> {
    let io = |what: &str| {
        let what = what.to_owned();
        move |e: std::io::Error| Error::new(ErrorKind::Io(what, e)).in_file(path)
    };
    let mut head = [0u8; 1024];
    let n = {
        let mut f = std::fs::File::open(path).map_err(io("cannot open"))?;
        read_full(&mut f, &mut head).map_err(io("cannot read"))?
    };
    if head[..n].windows(5).any(|w| w == b"%PDF-") {
        let file = std::fs::File::open(path).map_err(io("cannot open"))?;
        return pdf_lines(file, path, settings);
    }
    let citing = citing_of(path).map(|c| (c, CitingFrom::Name));
    let (_, stream) = crate::decompress::open(path).map_err(io("cannot read"))?;
    // Everything the file decompresses to is counted against the document budget's decoded
    // bytes and read under the file's stop token: a bomb or a slow file ends as one error.
    let bounds = bounded::Bounds {
        bytes: settings.limits.decoded_bytes,
        stop: settings.stop.clone(),
        ..bounded::Bounds::default()
    };
    let bounded_err = |e: bounded::Error| -> Error {
        match e.kind() {
            bounded::ErrorKind::Stopped(h) => {
                Error::from(pdf::Error::new(pdf::ErrorKind::Stopped(*h)).in_file(path))
            }
            _ => Error::new(ErrorKind::Io(
                "cannot read".into(),
                std::io::Error::other(e.to_string()),
            ))
            .in_file(path),
        }
    };
    let mut stream = bounded::Reader::new(stream, &bounds);
    let mut first = vec![0u8; 512];
    let got =
        read_full(&mut stream, &mut first).map_err(|e| bounded_err(bounded::Error::from_io(e)))?;
    first.truncate(got);
    let is_tar = got == 512 && &first[257..262] == b"ustar";
    let mut rest = std::io::Cursor::new(first).chain(stream);
    if !is_tar {
        let name = path.to_string_lossy().to_ascii_lowercase();
        if !(name.ends_with(".bbl") || name.ends_with(".bbl.gz")) {
            return Err(Error::new(ErrorKind::Request(
                "neither a PDF, an arXiv source tar nor a .bbl file".into(),
            ))
            .in_file(path));
        }
        let text = read_bbl(&mut rest, &bounds).map_err(bounded_err)?;
        let lines = crate::refs::from_bbl(&text)
            .into_iter()
            .filter(|m| !is_self(&citing, m))
            .map(|m| Reference::new(path, None, &citing, m))
            .collect();
        return Ok((citing, lines));
    }
    let mut out = Vec::new();
    let mut offset = 0u64;
    loop {
        settings
            .stop
            .check()
            .map_err(|e| Error::from(e.in_file(path)))?;
        // Only a `.bbl` within the bound is held; every other member is read past into
        // nothing (no temporary file), and the bytes are counted under the file's budget.
        let next = read_wanted(&mut rest, &mut offset, MAX_BBL, &|e| {
            e.is_file() && e.name.to_ascii_lowercase().ends_with(".bbl")
        })
        .map_err(|e| match e {
            super::tar::ErrorKind::Read(io) => bounded_err(bounded::Error::from_io(io)),
            e => Error::new(ErrorKind::Io(
                format!("cannot read the source tar: {e}"),
                std::io::Error::other(e.to_string()),
            ))
            .in_file(path),
        })?;
        let (name, data) = match next {
            Wanted::Member(name, data) => (name, data),
            Wanted::Skipped => continue,
            Wanted::End => break,
        };
        let text = String::from_utf8_lossy(&data).into_owned();
        out.extend(
            crate::refs::from_bbl(&text)
                .into_iter()
                .filter(|m| !is_self(&citing, m))
                .map(|m| Reference::new(path, Some(&name), &citing, m)),
        );
    }
    Ok((citing, out))
}

/// What the PDF `src` cites, read as the file `path` (its name, or else arXiv's stamp on its
/// first page, gives `citing`): the lines
/// `pith refs` writes for that file, read within [`Settings::limits`] and stopped with
/// [`Settings::stop`].
///
/// # Errors
/// [`ErrorKind::Pdf`] when the PDF is refused (damaged, encrypted with a password, over the
/// limits, stopped).
pub fn of_pdf<R: pdf::ReadAt>(
    src: R,
    path: &Path,
    settings: &Settings,
) -> Result<Vec<Reference>, Error> {
    pdf_lines(src, path, settings).map(|(_, lines)| lines)
}

/// [`of_pdf`] with the citing paper it found.
fn pdf_lines<R: pdf::ReadAt>(
    src: R,
    path: &Path,
    settings: &Settings,
) -> Result<(Citing, Vec<Reference>), Error> {
    let budget = pdf::budget::Budget::new(settings.limits, settings.stop.clone());
    let pages = pdf::text::pages(&src, budget).map_err(|e| Error::from(e.in_file(path)))?;
    let citing = match citing_of(path) {
        Some(c) => Some((c, CitingFrom::Name)),
        None => crate::refs::stamp(&pages)
            .map(|c| (c, CitingFrom::Stamp))
            .or_else(|| citing_of_metadata(&src, settings).map(|c| (c, CitingFrom::Metadata))),
    };
    let lines = crate::refs::from_pages(&pages)
        .into_iter()
        .filter(|m| !is_self(&citing, m))
        .map(|m| Reference::new(path, None, &citing, m))
        .collect();
    Ok((citing, lines))
}

/// The citing paper's arXiv id (with its version when given) that the PDF's metadata names,
/// read by the reader `pith inspect` uses, within the same limits: the `arxiv` identifier
/// `pith inject` writes first, then XMP `dc:identifier`, then `prism:doi`, then an arXiv id
/// in Info `/Subject` or `/Keywords`. A file whose
/// metadata cannot be read names none (its references were read; only `citing` is missing).
fn citing_of_metadata<R: pdf::ReadAt>(src: &R, settings: &Settings) -> Option<String> {
    let opts = pdf::InspectOptions {
        limits: settings.limits,
        stop: settings.stop.clone(),
        ..pdf::InspectOptions::default()
    };
    let ins = pdf::inspect_opts(src, &opts).ok()?;
    let x = ins.xmp.unwrap_or_default();
    let schemed = x
        .schemes
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("arxiv"))
        .map(|(_, v)| v.as_str());
    let plain = [x.dc_identifier.as_deref(), x.prism_doi.as_deref()];
    // Free text (Info `/Subject`, `/Keywords`): only a word that says it is arXiv's counts
    // (`arXiv:ID`, an arxiv.org URL, arXiv's DOI), read in its first 4 KiB.
    let described = [ins.info_subject.as_deref(), ins.info_keywords.as_deref()];
    let words = described.into_iter().flatten().flat_map(|t| {
        let end = (0..=t.len().min(4096))
            .rev()
            .find(|&i| t.is_char_boundary(i))
            .unwrap_or(0);
        t[..end]
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';'))
            .map(|w| w.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | '.')))
            .filter(|w| {
                let l = w.to_ascii_lowercase();
                l.starts_with("arxiv:") || l.contains("arxiv.org/") || l.contains("10.48550/")
            })
    });
    let found = schemed
        .chain(plain.into_iter().flatten())
        .chain(words)
        .find_map(|v| {
            let v = v.trim();
            let v = v
                .get(..4)
                .filter(|p| p.eq_ignore_ascii_case("doi:"))
                .map_or(v, |_| &v[4..]);
            let (id, version) = crate::arxiv_id::of_text(v)?;
            Some(match version {
                Some(n) => format!("{id}v{n}"),
                None => id,
            })
        });
    found
}

/// Where a batch writes the references of the PDFs it reads (`pith batch --refs FILE`,
/// Python's `batch(refs=…)`): the lines `pith refs` writes, each file's lines together and
/// flushed when that file is done, from any worker, by the rule `pith refs` follows
/// ([`edge`]). A file whose references cannot be read, or whose citing paper nothing names,
/// gives no lines; its batch line says why ([`RefsSink::pdf`]).
#[derive(Debug)]
pub struct RefsSink {
    path: PathBuf,
    out: std::sync::Mutex<(std::io::BufWriter<std::fs::File>, Option<std::io::Error>)>,
}

/// What the references file is called in a sentence.
const WHAT: &str = "the list of references";

impl RefsSink {
    /// Refuses `path` as a references file where creating it would destroy a file the run
    /// reads (one of `inputs`, or a PDF), where it names standard output, which a report
    /// may share, or where it is a folder.
    ///
    /// # Errors
    /// [`ErrorKind::Request`], whose sentence says what to give.
    pub fn check_target<'a>(
        path: &Path,
        inputs: impl IntoIterator<Item = &'a Path>,
    ) -> Result<(), Error> {
        let refuse = |why: &str| {
            Err(Error::new(ErrorKind::Request(format!(
                "the references file {} {why}; name a new .jsonl file",
                path.display()
            ))))
        };
        if crate::output::is_stdio(path) {
            return refuse("would be standard output");
        }
        let pdf = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdf"));
        if pdf {
            return refuse("is named as a PDF, which it would replace");
        }
        if inputs.into_iter().any(|i| super::same_file(i, path)) {
            return refuse("is a file the run reads");
        }
        super::outputs::not_a_folder(path, WHAT)
    }

    /// Creates (or empties) the file at `path`, its missing folders made as every writer
    /// makes them.
    ///
    /// # Errors
    /// As [`super::outputs::create_file`]: a folder at `path` is refused in words,
    /// [`ErrorKind::Io`] when it cannot be created.
    pub fn create(path: &Path) -> Result<RefsSink, Error> {
        let f = super::outputs::create_file(path, WHAT)?;
        Ok(RefsSink {
            path: path.to_owned(),
            out: std::sync::Mutex::new((std::io::BufWriter::new(f), None)),
        })
    }

    /// Reads the references of the PDF `src`, named `file` in the lines ([`of_pdf`]), and
    /// writes them. Returns why they could not be read, as a note for the file's report line.
    pub fn pdf<R: pdf::ReadAt>(&self, src: R, file: &Path, settings: &Settings) -> Option<String> {
        let (citing, lines) = match pdf_lines(src, file, settings) {
            Ok(l) => l,
            Err(e) => return Some(format!("references not read: {}", pdf::chain(&e))),
        };
        // The rule `pith refs` follows: a file whose citing paper nothing names gives no
        // lines, and its report line says why.
        if citing.is_none() {
            return Some(format!(
                "references not written: {}",
                NotAnEdge::NoCitingPaper
            ));
        }
        let mut chunk = Vec::new();
        for l in lines.iter().filter(|r| edge(r).is_ok()) {
            // A `Reference` is strings and numbers: it always serialises.
            if serde_json::to_writer(&mut chunk, l).is_ok() {
                chunk.push(b'\n');
            }
        }
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let (w, err) = &mut *out;
        if err.is_none() {
            if let Err(e) = w.write_all(&chunk).and_then(|()| w.flush()) {
                *err = Some(e);
            }
        }
        None
    }

    /// Flushes the file and reports the first write that failed.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when a write failed.
    pub fn finish(&self) -> Result<(), Error> {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let (w, err) = &mut *out;
        let r = match err.take() {
            Some(e) => Err(e),
            None => w.flush().and_then(|()| w.get_ref().sync_all()),
        };
        r.map_err(|e| {
            Error::new(ErrorKind::Io("cannot write the references".into(), e)).in_file(&self.path)
        })
    }
}

impl super::tar::AlsoRead for RefsSink {
    /// A PDF member's references, named by the member (`file` is its name in the tar, and
    /// `citing` the arXiv id that name gives).
    fn member(&self, name: &str, body: &super::tar::Body, settings: &Settings) -> Option<String> {
        let name = Path::new(name);
        match body {
            super::tar::Body::Mem(v) => self.pdf(v.as_slice(), name, settings),
            super::tar::Body::Spool(f, _) => self.pdf(f, name, settings),
            super::tar::Body::At(f, offset, len) => {
                self.pdf(super::tar::Window::new(f, *offset, *len), name, settings)
            }
        }
    }
}

/// Whether `m` names the citing paper itself (arXiv's stamp in the margin of its own PDF).
fn is_self(citing: &Citing, m: &Mention) -> bool {
    match (citing, &m.cited) {
        (Some((c, _)), Cited::Arxiv { id, .. }) => crate::record::split_versioned_id(c).0 == *id,
        _ => false,
    }
}

/// A `.bbl` file's text, at most [`MAX_BBL`] bytes of it.
fn read_bbl(r: &mut impl Read, bounds: &bounded::Bounds) -> Result<String, bounded::Error> {
    let bounds = bounded::Bounds {
        bytes: MAX_BBL,
        ..bounds.clone()
    };
    Ok(String::from_utf8_lossy(&bounded::read_all(r, &bounds)?).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citing_from_names() {
        assert_eq!(
            citing_of(Path::new("x/2402.03791v3.pdf")).as_deref(),
            Some("2402.03791v3")
        );
        assert_eq!(
            citing_of(Path::new("2402.03791v3.tar.gz")).as_deref(),
            Some("2402.03791v3")
        );
        assert_eq!(
            citing_of(Path::new("hep-th9901001v1.tgz")).as_deref(),
            Some("hep-th/9901001v1")
        );
        assert_eq!(citing_of(Path::new("paper.pdf")), None);
    }

    fn line(citing: Option<&str>, arxiv: Option<&str>, doi: Option<&str>) -> Reference {
        Reference {
            file: "f.pdf".into(),
            member: None,
            citing: citing.map(str::to_owned),
            citing_from: citing.map(|_| CitingFrom::Name),
            arxiv: arxiv.map(str::to_owned),
            version: None,
            doi: doi.map(str::to_owned),
            page: Some(2),
            line: 7,
            via: None,
        }
    }

    #[test]
    fn refs_edge_rule() {
        let e = edge(&line(Some("2402.03791v3"), None, Some("10.1000/A"))).unwrap();
        assert_eq!(
            (
                e.citing.as_str(),
                e.citing_version,
                e.kind,
                e.cited.as_str()
            ),
            ("2402.03791", Some(3), "doi", "10.1000/a")
        );
        assert_eq!(e.evidence, "page 2, line 7");
        assert_eq!(
            edge(&line(None, Some("1706.03762"), None)),
            Err(NotAnEdge::NoCitingPaper)
        );
        assert!(NotAnEdge::NoCitingPaper
            .to_string()
            .starts_with("no citing paper: name the PDF as arXiv does (2402.03791v3.pdf"));
        assert!(matches!(
            edge(&line(Some("paper"), Some("1706.03762"), None)),
            Err(NotAnEdge::CitingNotArxiv(_))
        ));
        assert_eq!(
            edge(&line(Some("1706.03762v5"), Some("1706.03762"), None)),
            Err(NotAnEdge::CitesItself("1706.03762".into()))
        );
        assert_eq!(
            edge(&line(Some("1706.03762v5"), None, Some("doi"))),
            Err(NotAnEdge::NoIdentifier)
        );
    }
}
