//! arXiv's bulk PDF manifest, `arXiv_pdf_manifest.xml`: one `<file>` per tar with
//! `filename`, `md5sum`, `size`, `num_items`, `first_item`, `last_item`, `seq_num`,
//! `timestamp`, `yymm` (and whatever else a `<file>` holds, kept in order).
//!
//! This module reads a manifest ([`Manifest::parse`]), finds a tar's entry, assigns tars to
//! shards ([`shard_key`]), tells whether a tar is already done in an output directory
//! ([`done`]: its output and its report agree) and builds the output manifest in the same
//! format, with the outputs' md5 and size ([`Manifest::outputs`], [`Manifest::to_xml`]). It
//! reads files but writes none; the caller writes the XML it returns.

use std::fmt;
use std::path::{Path, PathBuf};

/// Error reading a manifest.
#[derive(Debug)]
pub struct Error {
    path: PathBuf,
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Occurs when the manifest cannot be read.
    #[error("cannot read")]
    Read(#[source] std::io::Error),
    /// Occurs when the manifest is not XML (or too deeply nested to be one).
    #[error("not XML: {0}")]
    Xml(String),
    /// Occurs when a `<file>` lacks `filename`, `md5sum` or a numeric `size`.
    #[error("{0}")]
    Entry(String),
}

impl Error {
    /// The manifest file.
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
        write!(f, "{}: {}", self.path.display(), self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

/// One `<file>` of the manifest: its fields in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TarEntry {
    fields: Vec<(String, String)>,
}

impl TarEntry {
    /// The text of field `key` (`yymm`, `seq_num`, …).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets field `key` to `value`, in its place (or last when new).
    pub fn set(&mut self, key: &str, value: &str) {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_owned(),
            None => self.fields.push((key.to_owned(), value.to_owned())),
        }
    }

    /// The `filename` field as written (`pdf/arXiv_pdf_2402_001.tar`).
    pub fn filename(&self) -> &str {
        self.get("filename").unwrap_or_default()
    }

    /// The tar's file name, without the directory (`arXiv_pdf_2402_001.tar`).
    pub fn name(&self) -> &str {
        let f = self.filename();
        f.rsplit('/').next().unwrap_or(f)
    }

    /// The `md5sum` field (hex, lower case).
    pub fn md5(&self) -> String {
        self.get("md5sum")
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    }

    /// The `size` field.
    pub fn size(&self) -> u64 {
        self.get("size")
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_default()
    }
}

/// A parsed manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    root: String,
    /// The tars, in document order.
    pub entries: Vec<TarEntry>,
}

/// Largest manifest read (arXiv's is a few MB).
const MAX_BYTES: u64 = 256 << 20;

impl Manifest {
    /// Reads and parses the manifest at `path`.
    ///
    /// # Errors
    /// As [`Manifest::parse`], and [`ErrorKind::Read`].
    pub fn read(path: &Path) -> Result<Self, Error> {
        let err = |kind| Error {
            path: path.to_owned(),
            kind,
        };
        let f = std::fs::File::open(path).map_err(|e| err(ErrorKind::Read(e)))?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::Read::take(f, MAX_BYTES + 1), &mut text)
            .map_err(|e| err(ErrorKind::Read(e)))?;
        if text.len() as u64 > MAX_BYTES {
            return Err(err(ErrorKind::Entry("larger than 256 MiB".into())));
        }
        Self::parse(path, &text)
    }

    /// Parses manifest `text` (read from `path`, which errors name).
    ///
    /// # Errors
    /// [`ErrorKind::Xml`], and [`ErrorKind::Entry`] for a `<file>` without `filename`,
    /// `md5sum` or a numeric `size`.
    ///
    /// # Examples
    /// ```
    /// use pith::batch::manifest::Manifest;
    /// let xml = "<arXivPDF><file><filename>pdf/arXiv_pdf_0001_001.tar</filename>\
    ///   <md5sum>00112233445566778899aabbccddeeff</md5sum><size>10240</size>\
    ///   <yymm>0001</yymm></file></arXivPDF>";
    /// let m = Manifest::parse("m.xml".as_ref(), xml)?;
    /// assert_eq!(m.find("arXiv_pdf_0001_001.tar").unwrap().size(), 10240);
    /// # Ok::<(), pith::batch::manifest::Error>(())
    /// ```
    pub fn parse(path: &Path, text: &str) -> Result<Self, Error> {
        let err = |kind| Error {
            path: path.to_owned(),
            kind,
        };
        let shape = crate::xml::shape(text);
        if shape.depth > 16 || shape.attributes > 64 {
            return Err(err(ErrorKind::Xml("nested too deeply".into())));
        }
        let doc =
            roxmltree::Document::parse(text).map_err(|e| err(ErrorKind::Xml(e.to_string())))?;
        let root = doc.root_element();
        let mut entries = Vec::new();
        for (i, file) in root
            .children()
            .filter(|n| n.is_element() && n.tag_name().name() == "file")
            .enumerate()
        {
            let fields: Vec<(String, String)> = file
                .children()
                .filter(|n| n.is_element())
                .map(|n| {
                    (
                        n.tag_name().name().to_owned(),
                        n.text().unwrap_or_default().trim().to_owned(),
                    )
                })
                .collect();
            let e = TarEntry { fields };
            let bad = |what: &str| {
                err(ErrorKind::Entry(format!(
                    "<file> {} ({}): {what}",
                    i + 1,
                    e.filename()
                )))
            };
            if e.filename().is_empty() {
                return Err(bad("no <filename>"));
            }
            let md5 = e.md5();
            if md5.len() != 32 || !md5.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad("no <md5sum> of 32 hex digits"));
            }
            if e.get("size")
                .and_then(|s| s.trim().parse::<u64>().ok())
                .is_none()
            {
                return Err(bad("no numeric <size>"));
            }
            entries.push(e);
        }
        Ok(Manifest {
            root: root.tag_name().name().to_owned(),
            entries,
        })
    }

    /// The entry of the tar named `name` (its file name, with or without the directory of
    /// the `filename` field).
    pub fn find(&self, name: &str) -> Option<&TarEntry> {
        let base = name.rsplit('/').next().unwrap_or(name);
        self.entries.iter().find(|e| e.name() == base)
    }

    /// The entry whose md5 and size are these (a tar read from a pipe, not named).
    pub fn find_content(&self, md5: &str, size: u64) -> Option<&TarEntry> {
        self.entries
            .iter()
            .find(|e| e.md5() == md5 && e.size() == size)
    }

    /// The output manifest for `out_dir`: the entries whose tar is done there ([`done`]), in
    /// order, with the output's md5 and size; the other fields kept.
    pub fn outputs(&self, out_dir: &Path) -> Manifest {
        let entries = self
            .entries
            .iter()
            .filter_map(|e| {
                let d = done(out_dir, e)?;
                let mut e = e.clone();
                e.set("md5sum", &d.md5);
                e.set("size", &d.size.to_string());
                Some(e)
            })
            .collect();
        Manifest {
            root: self.root.clone(),
            entries,
        }
    }

    /// The manifest as XML, in arXiv's layout: one element per line.
    pub fn to_xml(&self) -> String {
        let mut s = String::from("<?xml version='1.0' standalone='yes'?>\n");
        s.push_str(&format!("<{}>\n", self.root));
        for e in &self.entries {
            s.push_str("<file>\n");
            for (k, v) in &e.fields {
                s.push_str(&format!("<{k}>{}</{k}>\n", crate::escape::xml(v)));
            }
            s.push_str("</file>\n");
        }
        s.push_str(&format!("</{}>\n", self.root));
        s
    }
}

/// The key that assigns a tar to a shard: FNV-1a of its file name, so a tar stays in its
/// shard whatever else the manifest lists (a month added, the order changed).
///
/// # Examples
/// ```
/// let s = pith::batch::Shard::parse("1/4")?;
/// let k = pith::batch::manifest::shard_key("arXiv_pdf_2402_001.tar");
/// assert_eq!(s.contains(k), k % 4 == 1);
/// # Ok::<(), pith::batch::Error>(())
/// ```
pub fn shard_key(name: &str) -> usize {
    let base = name.rsplit('/').next().unwrap_or(name);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in base.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % (1 << 31)) as usize
}

/// The report of the tar `name` in an output directory (`arXiv_pdf_2402_001.tar.jsonl`).
pub fn report_path(out_dir: &Path, name: &str) -> PathBuf {
    out_dir.join(format!("{name}.jsonl"))
}

/// An output already done, from its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    /// md5 of the output (hex).
    pub md5: String,
    /// Size of the output.
    pub size: u64,
}

/// Whether the tar of `entry` is done in `out_dir`: its report's last line is the totals of
/// a run on an input with the entry's md5 and size, and the output is there with the size
/// that line gives.
pub fn done(out_dir: &Path, entry: &TarEntry) -> Option<Done> {
    let text = report_tail(&report_path(out_dir, entry.name()))?;
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let v: serde_json::Value = serde_json::from_str(last).ok()?;
    if v.get("summary")?.as_str()? != "summary"
        || v.get("md5_in")?.as_str()? != entry.md5()
        || v.get("size_in")?.as_u64()? != entry.size()
    {
        return None;
    }
    let size = v.get("size")?.as_u64()?;
    let md5 = v.get("md5")?.as_str()?.to_owned();
    let meta = std::fs::metadata(out_dir.join(entry.name())).ok()?;
    (meta.is_file() && meta.len() == size).then_some(Done { md5, size })
}

/// The most of a report's end read to find its last line: the totals line is a few hundred
/// bytes, and a report of a tar of a hundred thousand members is tens of megabytes that a
/// resumed run need not read.
const REPORT_TAIL: u64 = 64 << 10;

/// The last [`REPORT_TAIL`] bytes of the report at `path`, as text (a line cut at the start
/// is not the last one, which is all [`done`] reads); `None` when it cannot be read.
fn report_tail(path: &Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(REPORT_TAIL)))
        .ok()?;
    let mut tail = Vec::new();
    f.take(REPORT_TAIL).read_to_end(&mut tail).ok()?;
    Some(String::from_utf8_lossy(&tail).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = "<?xml version='1.0' standalone='yes'?>\n<arXivPDF>\n<file>\n<content_md5sum>x</content_md5sum>\n<filename>pdf/arXiv_pdf_0001_001.tar</filename>\n<first_item>astro-ph0001001</first_item>\n<md5sum>949ae880fbaf4649a1a7780f8b3c9cd5</md5sum>\n<num_items>2</num_items>\n<seq_num>1</seq_num>\n<size>20480</size>\n<timestamp>2010-12-23 00:13:59</timestamp>\n<yymm>0001</yymm>\n</file>\n</arXivPDF>\n";

    #[test]
    fn round_trip() {
        let m = Manifest::parse(Path::new("m.xml"), XML).unwrap();
        assert_eq!(m.to_xml(), XML);
        let e = m.find("pdf/arXiv_pdf_0001_001.tar").unwrap();
        assert_eq!((e.size(), e.get("yymm")), (20480, Some("0001")));
        assert!(m.find_content(&e.md5(), 20480).is_some());
        for bad in [
            "<a><file><md5sum>949ae880fbaf4649a1a7780f8b3c9cd5</md5sum><size>1</size></file></a>",
            "<a><file><filename>x</filename><md5sum>zz</md5sum><size>1</size></file></a>",
            "<a><file><filename>x</filename><md5sum>949ae880fbaf4649a1a7780f8b3c9cd5</md5sum></file></a>",
            "<a>",
        ] {
            let e = Manifest::parse(Path::new("m.xml"), bad).unwrap_err();
            assert!(e.to_string().starts_with("m.xml: "), "{e}");
        }
    }

    #[test]
    fn shards_spread() {
        let mut counts = [0usize; 4];
        for i in 0..400 {
            counts[shard_key(&format!("arXiv_pdf_{:04}_{:03}.tar", 2400 + i / 10, i % 10)) % 4] +=
                1;
        }
        assert!(counts.iter().all(|&c| c > 50), "{counts:?}");
        assert_eq!(shard_key("pdf/a.tar"), shard_key("a.tar"));
    }

    /// A report far longer than the tail read is judged by its last line alone; one whose
    /// last line is cut, or is not the totals of this input, is not done.
    #[test]
    fn a_long_report_is_judged_by_its_last_line() {
        let m = Manifest::parse(Path::new("m.xml"), XML).unwrap();
        let e = m.find("pdf/arXiv_pdf_0001_001.tar").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join(e.name()), vec![0u8; 512]).unwrap();
        let member = format!(
            "{{\"pdf\":\"{}\",\"status\":\"injected\"}}\n",
            "x".repeat(200)
        );
        let mut report = member.repeat(((REPORT_TAIL as usize) * 4) / member.len());
        let totals = format!(
            "{{\"summary\":\"summary\",\"md5_in\":\"{}\",\"size_in\":20480,\"md5\":\"ab\",\"size\":512}}\n",
            e.md5()
        );
        report.push_str(&totals);
        std::fs::write(report_path(out, e.name()), &report).unwrap();
        let done = done(out, e).unwrap();
        assert_eq!((done.md5.as_str(), done.size), ("ab", 512));
        // Cut in its last line: a run that stopped while writing its totals.
        std::fs::write(report_path(out, e.name()), &report[..report.len() - 10]).unwrap();
        assert!(super::done(out, e).is_none());
        // The last line as long as the whole tail: never taken for the totals.
        let long = format!("{report}{}\n", "y".repeat(REPORT_TAIL as usize));
        std::fs::write(report_path(out, e.name()), long).unwrap();
        assert!(super::done(out, e).is_none());
    }
}
