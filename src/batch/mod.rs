//! Archive-scale batch post-processing: manifests, shards, and a bounded worker pool.
//!
//! This module owns what a batch is: the list of jobs (from a JSON Lines manifest or from a
//! directory tree with sidecar files), the deterministic `--shard K/N` slice, the parallel run
//! over a fixed number of workers, and the totals. It does not know how a PDF is updated: the
//! caller, the layer above, passes the function that processes one job (updating a PDF, or
//! checking one) and owns the report line ([`Line`]).
//!
//! Memory is bounded by the number of workers: each worker holds one file's job at a time, and
//! the injector reads only what it needs of a file, so one huge PDF occupies one worker and
//! never starves the others of memory.
//!
//! New output files are committed in groups: each worker stages its outputs in an
//! [`crate::output::Group`] (written, their writeback started, not yet synced) and commits the group
//! every [`GROUP_FILES`] files or [`GROUP_BYTES`] bytes (or when it holds its share of open
//! files, where each file is synced alone), when it runs out of jobs, and when
//! the run is stopped. An outcome whose file was staged is reported only after the commit, as
//! the commit left it: a file reported injected is on disk, under its name. A stopped run
//! commits what it staged, so an interrupted batch leaves no temporary file behind.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::record::{self, LocalSource};

/// Error reading a manifest or a directory, or resolving a job's number.
#[derive(Debug)]
pub struct Error {
    path: Option<PathBuf>,
    line: Option<usize>,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when a file or directory cannot be read.
    #[error("cannot read")]
    Io(#[source] std::io::Error),
    /// Occurs when a manifest line is not a JSON object with `pdf` and exactly one of `number`,
    /// `record`, `arxiv_atom`.
    #[error("{0}")]
    Manifest(String),
    /// Occurs when a job's number cannot be obtained (bad number, bad record, bad Atom).
    #[error(transparent)]
    Number(Box<record::Error>),
    /// Occurs when two sidecars of one PDF give different numbers (one was picked
    /// without a word).
    #[error("its sidecars disagree: {0}")]
    Conflict(String),
    /// Occurs when a shard specification is not `K/N` with `0 <= K < N`.
    #[error("the shard {0:?} is not K/N with 0 <= K < N (K is 0-based)")]
    Shard(String),
}

impl Error {
    /// An error of `kind` about `path` (at `line` of a manifest).
    pub fn new(path: &Path, line: Option<usize>, kind: ErrorKind) -> Self {
        Error {
            path: Some(path.to_owned()),
            line,
            kind,
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}", p.display())?;
            if let Some(l) = self.line {
                write!(f, ":{l}")?;
            }
            f.write_str(": ")?;
        }
        self.kind.fmt(f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Number(e) => std::error::Error::source(e.as_ref()),
            k => std::error::Error::source(k),
        }
    }
}

/// One file to process.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Position in the full manifest (before sharding), 0-based.
    pub index: usize,
    /// The input PDF.
    pub pdf: PathBuf,
    /// The input PDF's path relative to the batch root, used to mirror the tree.
    pub relative: PathBuf,
    /// Where the number comes from, as the manifest line or sidecar gives it; the caller resolves it.
    pub source: LocalSource,
    /// Further sidecars of the same PDF, which must give the same number.
    pub also: Vec<LocalSource>,
    /// An explicit output path from the manifest.
    pub out: Option<PathBuf>,
    /// The paper's fields when the run found them beside its number (arXiv's bulk metadata):
    /// written with the number, as a record or Atom sidecar's are.
    pub details: Option<Box<crate::record::Details>>,
}

fn resolve_path(base: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_owned()
    } else {
        base.join(p)
    }
}

/// One line of a JSON Lines manifest, as every manifest reader of a batch takes it: the PDF
/// (resolved against the manifest's folder), its path under an output folder, its `out`, and
/// the whole object for the reader's own keys.
#[derive(Debug, Clone)]
pub struct ManifestLine {
    /// 1-based line number.
    pub line: usize,
    /// `pdf`, resolved against the base folder.
    pub pdf: PathBuf,
    /// `pdf` as written (its file name when absolute): its place under `--out-dir`.
    pub relative: PathBuf,
    /// `out`, resolved against the base folder.
    pub out: Option<PathBuf>,
    /// The line's object.
    pub fields: serde_json::Map<String, Value>,
}

/// The lines of a JSON Lines manifest (blank lines and lines starting with `#` skipped), or
/// the first bad one as (line number, reason): not JSON, not an object, no `pdf` path, an
/// `out` that is not a path. Relative paths are taken from `base`.
pub fn manifest_lines(text: &str, base: &Path) -> Result<Vec<ManifestLine>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let bad = |m: &str| (i + 1, m.to_owned());
        let v: Value = serde_json::from_str(t).map_err(|e| (i + 1, format!("not JSON: {e}")))?;
        let Value::Object(fields) = v else {
            return Err(bad("expected a JSON object"));
        };
        let pdf = fields
            .get("pdf")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("missing \"pdf\" (a path)"))?;
        let dest = match fields.get("out") {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => Some(resolve_path(base, p)),
            Some(_) => return Err(bad("\"out\" must be a path")),
        };
        let rel = Path::new(pdf);
        out.push(ManifestLine {
            line: i + 1,
            pdf: resolve_path(base, pdf),
            relative: if rel.is_absolute() {
                rel.file_name().map(PathBuf::from).unwrap_or_default()
            } else {
                rel.to_owned()
            },
            out: dest,
            fields,
        });
    }
    Ok(out)
}

/// Reads a JSON Lines manifest: one object per PDF with `pdf` and exactly one of `number`,
/// `record` (a path or an inline object) or `arxiv_atom` (a path); optional `out`. Relative
/// paths are taken from `base`. Blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// [`ErrorKind::Manifest`] naming the manifest and line.
pub fn read_manifest(manifest: &Path, text: &str, base: &Path) -> Result<Vec<Item>, Error> {
    let lines = manifest_lines(text, base)
        .map_err(|(n, m)| Error::new(manifest, Some(n), ErrorKind::Manifest(m)))?;
    let mut jobs = Vec::new();
    for l in lines {
        let bad = |m: &str| Error::new(manifest, Some(l.line), ErrorKind::Manifest(m.into()));
        let o = &l.fields;
        let mut sources = Vec::new();
        if let Some(n) = o.get("number") {
            sources.push(LocalSource::Number(
                n.as_str()
                    .ok_or_else(|| bad("\"number\" must be a string"))?
                    .to_owned(),
            ));
        }
        if let Some(r) = o.get("record") {
            sources.push(match r {
                Value::String(p) => LocalSource::RecordFile(resolve_path(base, p)),
                Value::Object(_) => LocalSource::RecordValue(r.clone()),
                _ => return Err(bad("\"record\" must be a path or an object")),
            });
        }
        if let Some(a) = o.get("arxiv_atom") {
            sources.push(LocalSource::Atom {
                path: resolve_path(
                    base,
                    a.as_str()
                        .ok_or_else(|| bad("\"arxiv_atom\" must be a path"))?,
                ),
                id: None,
                next: false,
            });
        }
        if sources.len() != 1 {
            return Err(bad(
                "give exactly one of \"number\", \"record\", \"arxiv_atom\"",
            ));
        }
        jobs.push(Item {
            index: jobs.len(),
            pdf: l.pdf,
            relative: l.relative,
            source: sources.remove(0),
            also: Vec::new(),
            out: l.out,
            details: None,
        });
    }
    Ok(jobs)
}

/// Sidecar suffixes looked up beside `NAME.pdf`, in order.
pub const SIDECARS: [&str; 3] = [".pith", ".record.json", ".atom.xml"];

/// What a walk of a folder found: the PDFs to read, and the `*.pdf` entries it will not read,
/// each with the reason (a report line each, so that every input is accounted for).
#[derive(Debug, Default)]
pub struct Walk {
    /// `*.pdf` files (any case), sorted: regular files, and symbolic links followed to a
    /// regular file inside the folder (named by the link's path).
    pub pdfs: Vec<PathBuf>,
    /// `*.pdf` symbolic links not followed, sorted, with why.
    pub refused: Vec<(PathBuf, String)>,
    /// The entries named like a sidecar ([`SIDECARS`]) in the folders walked, with their type
    /// as the listing gave it (a link not followed): [`discover`] finds a PDF's sidecars here
    /// instead of looking up each name it might have.
    pub sidecars: Sidecars,
}

/// Every `*.pdf` entry (any case) under `root`, sorted ([`Walk`]). Directories are walked
/// without following symbolic links to them, so a link loop cannot make the walk endless. A
/// symbolic link named `*.pdf` is followed when it leads to a regular file inside `root` (a
/// folder of papers that links to one of its own files); one that leads outside `root`, to
/// something other than a regular file, nowhere, or round in a loop is refused with the
/// reason. Shared by [`discover`] and [`crate::batch::arxiv::scan_dir`].
///
/// # Errors
/// The directory or entry that could not be read, with the I/O error.
pub fn pdfs_under(root: &Path) -> Result<Walk, (PathBuf, std::io::Error)> {
    let mut walk = Walk::default();
    let mut stack = vec![root.to_owned()];
    let mut inside: Option<PathBuf> = None;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| (dir.clone(), e))? {
            let entry = entry.map_err(|e| (dir.clone(), e))?;
            let path = entry.path();
            let ft = entry.file_type().map_err(|e| (path.clone(), e))?;
            let pdf = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pdf"));
            if ft.is_dir() {
                stack.push(path);
            } else if is_sidecar_name(&entry.file_name()) {
                walk.sidecars.insert(path, ft);
            } else if ft.is_file() && pdf {
                walk.pdfs.push(path);
            } else if ft.is_symlink() && pdf {
                let root_real = match &inside {
                    Some(r) => r.clone(),
                    None => {
                        let r = std::fs::canonicalize(root).map_err(|e| (root.to_owned(), e))?;
                        inside = Some(r.clone());
                        r
                    }
                };
                match link_target(&path, &root_real) {
                    Ok(()) => walk.pdfs.push(path),
                    Err(why) => walk.refused.push((path, why)),
                }
            }
        }
    }
    walk.pdfs.sort();
    walk.refused.sort();
    Ok(walk)
}

/// Entries named like a sidecar, each with its type as its folder's listing gave it.
pub type Sidecars = std::collections::HashMap<PathBuf, std::fs::FileType>;

/// Whether a folder entry's name ends like a sidecar's ([`SIDECARS`]); never a `*.pdf`.
fn is_sidecar_name(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    SIDECARS.iter().any(|s| name.ends_with(s.as_bytes()))
}

/// Whether the sidecar `p` of `pdf` is a file (a link to one counts), as `p.is_file()` says:
/// from the listing of `pdf`'s folder when `p` is in it (nothing listed there is no file), by
/// a look at `p` itself for a link, or when `p` names another folder (a name the listing
/// does not cover).
fn sidecar_is_file(listed: &Sidecars, pdf: &Path, p: &Path) -> bool {
    if p.parent() != pdf.parent() {
        return p.is_file();
    }
    match listed.get(p) {
        None => false,
        Some(ft) if ft.is_symlink() => p.is_file(),
        Some(ft) => ft.is_file(),
    }
}

/// Whether the symbolic link `link` may be followed: `Ok` when it leads to a regular file
/// under `root` (a canonical path), else why not, in words for the report.
fn link_target(link: &Path, root: &Path) -> Result<(), String> {
    let target = std::fs::canonicalize(link).map_err(|e| {
        let why = if e.raw_os_error() == Some(40) {
            "it loops".to_owned()
        } else if e.kind() == std::io::ErrorKind::NotFound {
            "what it points to does not exist".to_owned()
        } else {
            format!("it cannot be followed ({e})")
        };
        format!("a symbolic link not followed: {why}")
    })?;
    if !target.starts_with(root) {
        return Err(format!(
            "a symbolic link not followed: it points outside the folder, to {}",
            target.display()
        ));
    }
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(
            "a symbolic link not followed: it points to something other than a regular file"
                .to_owned(),
        ),
        Err(e) => Err(format!("a symbolic link not followed: {e}")),
    }
}

/// Walks a directory tree for `*.pdf` files (sorted, symlinks not followed) and pairs each
/// with its sidecars: `NAME.pith` (one number as text, read by its job:
/// [`LocalSource::NumberFile`]), `NAME.record.json` or `NAME.atom.xml`. The first in that
/// order is the job's source, the others must agree with it. PDFs without a sidecar are
/// returned in the second list, links not followed ([`pdfs_under`]) in the third.
///
/// # Errors
/// [`ErrorKind::Io`] when a directory cannot be read.
pub fn discover(root: &Path) -> Result<Discovered, Error> {
    let walk = pdfs_under(root).map_err(|(p, e)| Error::new(&p, None, ErrorKind::Io(e)))?;
    let mut jobs = Vec::new();
    let mut orphans = Vec::new();
    for pdf in walk.pdfs {
        let stem = pdf.with_extension("");
        let mut sources = Vec::new();
        for suffix in SIDECARS {
            // Built from the name's bytes: a name that is not UTF-8 finds its sidecars too.
            let mut p = stem.clone().into_os_string();
            p.push(suffix);
            let p = PathBuf::from(p);
            if !sidecar_is_file(&walk.sidecars, &pdf, &p) {
                continue;
            }
            sources.push(match suffix {
                ".pith" => LocalSource::NumberFile(p),
                ".record.json" => LocalSource::RecordFile(p),
                _ => LocalSource::Atom {
                    path: p,
                    id: None,
                    next: false,
                },
            });
        }
        if sources.is_empty() {
            orphans.push(pdf);
            continue;
        }
        let relative = pdf.strip_prefix(root).unwrap_or(&pdf).to_owned();
        let source = sources.remove(0);
        jobs.push(Item {
            index: jobs.len(),
            pdf,
            relative,
            source,
            also: sources,
            out: None,
            details: None,
        });
    }
    Ok((jobs, orphans, walk.refused))
}

/// What [`discover`] found: the jobs, the PDFs without a number source, and the `*.pdf`
/// links it did not follow, with why.
pub type Discovered = (Vec<Item>, Vec<PathBuf>, Vec<(PathBuf, String)>);

/// A deterministic slice `K/N` of a manifest: job `i` belongs to shard `i mod N`.
///
/// `K` is 0-based (`0/4` … `3/4`), like Kubernetes' `JOB_COMPLETION_INDEX` and a Slurm array
/// `--array=0-3`. Every job lands in exactly one shard, whatever the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This worker's index, `0 <= k < n`.
    pub k: usize,
    /// Number of workers.
    pub n: usize,
}

impl Shard {
    /// Parses `K/N`.
    ///
    /// # Errors
    /// [`ErrorKind::Shard`] unless `0 <= K < N`.
    ///
    /// # Examples
    /// ```
    /// let s = pith::batch::Shard::parse("1/4")?;
    /// assert!(s.contains(5) && !s.contains(4));
    /// # Ok::<(), pith::batch::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad = || Error {
            path: None,
            line: None,
            kind: ErrorKind::Shard(text.to_owned()),
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Whether job `index` belongs to this shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.n == self.k
    }
}

/// What the pool needs of the caller's report line ([`run`] does not know what a line says).
pub trait Line: Send {
    /// The line of a job the run did not start (it was interrupted).
    fn not_started(job: &Item) -> Self;
    /// Marks the line failed: its staged output could not be committed, for `reason`.
    fn commit_failed(&mut self, reason: String);
    /// Sets the wall time spent on the job, in milliseconds.
    fn set_ms(&mut self, ms: u64);
}

/// How a [`run`] ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Run {
    /// Whether it was stopped before every job was started.
    pub interrupted: bool,
    /// Its wall time, in milliseconds.
    pub ms: u64,
}

pub mod arxiv;
pub mod manifest;
mod pool;

pub use pool::{run, GROUP_BYTES, GROUP_FILES};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `*.pdf` entry is either read or refused with its reason: a link to a file of the
    /// folder is followed; links outside, to a folder, to nothing and in a loop are not, and a
    /// linked folder (a loop back to the root) is not walked.
    #[cfg(unix)]
    #[test]
    fn links_are_followed_inside_the_folder_or_refused_with_why() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        let away = outside.path().join("away.pdf");
        std::fs::write(&away, b"%PDF-1.4").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("papers");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("a.pdf"), b"%PDF-1.4").unwrap();
        symlink(root.join("a.pdf"), root.join("sub/inside.pdf")).unwrap();
        symlink("../a.pdf", root.join("sub/relative.PDF")).unwrap();
        symlink(&away, root.join("outside.pdf")).unwrap();
        symlink(root.join("sub"), root.join("folder.pdf")).unwrap();
        symlink(root.join("gone.pdf"), root.join("dangling.pdf")).unwrap();
        symlink(root.join("loop.pdf"), root.join("loop.pdf")).unwrap();
        symlink(&root, root.join("sub/back")).unwrap();
        let walk = pdfs_under(&root).unwrap();
        assert_eq!(
            walk.pdfs,
            [
                root.join("a.pdf"),
                root.join("sub/inside.pdf"),
                root.join("sub/relative.PDF")
            ]
        );
        let refused: Vec<(&str, &str)> = walk
            .refused
            .iter()
            .map(|(p, why)| (p.file_name().unwrap().to_str().unwrap(), why.as_str()))
            .collect();
        let names: Vec<&str> = refused.iter().map(|r| r.0).collect();
        assert_eq!(
            names,
            ["dangling.pdf", "folder.pdf", "loop.pdf", "outside.pdf"]
        );
        for (name, want) in [
            ("dangling.pdf", "does not exist"),
            ("folder.pdf", "other than a regular file"),
            ("loop.pdf", "loops"),
            ("outside.pdf", "outside the folder"),
        ] {
            let why = refused.iter().find(|r| r.0 == name).unwrap().1;
            assert!(why.contains(want), "{name}: {why}");
        }
    }

    /// A sidecar counts when it is a file, or a link to one, wherever it points (as
    /// `is_file` says); a folder or a dangling link named like one does not.
    #[cfg(unix)]
    #[test]
    fn sidecars_are_files_or_links_to_files() {
        use std::os::unix::fs::symlink;
        const N: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("papers");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        let number = dir.path().join("number.txt");
        std::fs::write(&number, N).unwrap();
        for name in ["a", "b", "c", "d", "sub/e"] {
            std::fs::write(root.join(format!("{name}.pdf")), b"%PDF-1.4").unwrap();
        }
        std::fs::write(root.join("a.pith"), N).unwrap();
        symlink(&number, root.join("b.pith")).unwrap();
        std::fs::create_dir(root.join("c.pith")).unwrap();
        symlink(root.join("gone"), root.join("d.pith")).unwrap();
        std::fs::write(root.join("sub/e.record.json"), b"{}").unwrap();
        let (jobs, orphans, _) = discover(&root).unwrap();
        let found: Vec<(&str, bool)> = jobs
            .iter()
            .map(|j| {
                let name = j.relative.to_str().unwrap();
                let sidecar = root.join(name).with_extension("pith");
                (
                    name,
                    matches!(&j.source, LocalSource::NumberFile(p) if *p == sidecar),
                )
            })
            .collect();
        assert_eq!(
            found,
            [("a.pdf", true), ("b.pdf", true), ("sub/e.pdf", false)]
        );
        assert_eq!(orphans, [root.join("c.pdf"), root.join("d.pdf")]);
    }

    /// A PDF whose name is not UTF-8 finds its sidecar: the name is taken as bytes, never
    /// through a lossy display form.
    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_finds_its_sidecar() {
        use std::os::unix::ffi::OsStrExt;
        const N: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
        let dir = tempfile::tempdir().unwrap();
        let stem = std::ffi::OsStr::from_bytes(b"caf\xe9");
        let mut pdf = stem.to_os_string();
        pdf.push(".pdf");
        let mut sidecar = stem.to_os_string();
        sidecar.push(".pith");
        std::fs::write(dir.path().join(&pdf), b"%PDF-1.4").unwrap();
        std::fs::write(dir.path().join(&sidecar), N).unwrap();
        let (jobs, orphans, _) = discover(dir.path()).unwrap();
        assert!(orphans.is_empty(), "{orphans:?}");
        assert_eq!(jobs.len(), 1);
        let want = dir.path().join(sidecar);
        assert!(matches!(&jobs[0].source, LocalSource::NumberFile(p) if *p == want));
    }

    #[test]
    fn manifest_lines_and_errors() {
        let m = Path::new("m.jsonl");
        let text = "{\"pdf\":\"a/x.pdf\",\"number\":\"7BMK4ZKTPUTUY3JKWBANNPOFR5\"}\n\n# comment\n{\"pdf\":\"/abs/y.pdf\",\"record\":\"r.json\",\"out\":\"o.pdf\"}\n";
        let jobs = read_manifest(m, text, Path::new("/base")).unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].pdf, Path::new("/base/a/x.pdf"));
        assert_eq!(
            jobs[1].source,
            LocalSource::RecordFile("/base/r.json".into())
        );
        assert_eq!(jobs[1].out.as_deref(), Some(Path::new("/base/o.pdf")));
        for bad in [
            "{\"pdf\":\"x\"}",
            "[1]",
            "{\"pdf\":\"x\",\"number\":\"N\",\"arxiv_atom\":\"a\"}",
            "nope",
        ] {
            let e = read_manifest(m, bad, Path::new("/")).unwrap_err();
            assert!(e.to_string().starts_with("m.jsonl:1: "), "{e}");
        }
    }

    #[test]
    fn shards_partition_the_manifest() {
        let shards: Vec<Shard> = (0..3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        for i in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.contains(i)).count(), 1);
        }
        for bad in ["3/3", "1", "a/b", "0/0", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
