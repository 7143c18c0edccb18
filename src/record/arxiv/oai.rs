//! A streaming reader of OAI-PMH `ListRecords` responses from arXiv (`export.arxiv.org/oai2`),
//! as harvesters (metha, sickle, oai-harvest) save them: one page per file, often gzipped, or
//! several pages concatenated.
//!
//! Records come one at a time from a pull parser (quick-xml); memory holds one record, never
//! the page. Two metadata formats are read:
//! - `arXivRaw` (`metadataPrefix=arXivRaw`): `<id>`, `<version version="vN"><date>` in RFC
//!   2822, `<title>`, `<abstract>`, `<categories>` (primary first), `<license>`: everything a
//!   record needs; and `<authors>`, kept for display;
//! - `arXiv` (`metadataPrefix=arXiv`): it has no version list and only the day of v1
//!   (`<created>`), so neither `source.version` nor `submitted_at` can be derived; its records
//!   are read and reported with that reason, never numbered from guesses.
//!
//! Deleted records (`<header status="deleted">`) are returned as [`Body::Deleted`]. An OAI
//! `<error>` element ends the file with an error (except `noRecordsMatch`, an empty answer);
//! `<resumptionToken>` is kept ([`OaiReader::resumption`]) so a caller can say that more pages
//! exist. DTDs are refused, and so is any entity beyond XML's five predefined ones; no single
//! markup token may exceed [`MAX_TOKEN`] bytes nor nest deeper than [`MAX_DEPTH`], so hostile
//! input cannot exhaust memory or stack.

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::RawMeta;

/// The longest markup token (a text run, a tag) accepted, in bytes.
pub const MAX_TOKEN: u64 = 16 << 20;
/// The longest field (title, abstract…) kept, in bytes.
pub const MAX_FIELD: usize = 4 << 20;
/// The deepest element nesting accepted (an OAI-PMH page nests 6 levels).
pub const MAX_DEPTH: usize = 64;
/// The most `<version>` entries kept for one record (arXiv's record holder has a few dozen).
pub const MAX_VERSIONS: usize = 1000;

/// One `<record>` of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OaiRecord {
    /// 1-based position of the record in the file.
    pub position: u64,
    /// The header's `<identifier>` (`oai:arXiv.org:2402.03791`).
    pub identifier: String,
    /// What the record holds, or why it cannot be used.
    pub body: Result<Body, String>,
}

impl OaiRecord {
    /// The arXiv id: the metadata's `<id>` or, failing that, the identifier's tail.
    pub fn arxiv_id(&self) -> &str {
        match &self.body {
            Ok(Body::Meta(m)) if !m.id.trim().is_empty() => m.id.trim(),
            _ => self
                .identifier
                .trim()
                .strip_prefix("oai:arXiv.org:")
                .unwrap_or(self.identifier.trim()),
        }
    }
}

/// The content of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// arXivRaw metadata.
    Meta(RawMeta),
    /// The record was deleted from the repository.
    Deleted,
}

/// A `<resumptionToken>`: more pages follow when its text is not empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resumption {
    /// The token to ask for the next page with.
    pub token: String,
    /// `completeListSize`, when given.
    pub complete_list_size: Option<u64>,
    /// `cursor`, when given.
    pub cursor: Option<u64>,
}

/// Counts the bytes read since the last event, so that one endless token is refused.
struct Guard<R> {
    inner: R,
    since_event: Arc<AtomicU64>,
}

impl<R: io::Read> io::Read for Guard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.since_event.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Guard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.since_event.load(Ordering::Relaxed) > MAX_TOKEN {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a markup token longer than {MAX_TOKEN} bytes"),
            ));
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.since_event.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Identifier,
    Id,
    Title,
    Abstract,
    Categories,
    License,
    Authors,
    Date,
    ErrorText,
    Token,
}

#[derive(Debug, Default)]
struct Rec {
    identifier: String,
    deleted: bool,
    /// Depth of the metadata format element (`<arXivRaw>`), once seen, and its name.
    format: Option<(usize, String)>,
    meta: RawMeta,
    version_label: String,
    error: Option<String>,
}

/// Reads the records of OAI-PMH pages one by one.
pub struct OaiReader<R: BufRead> {
    reader: Reader<Guard<R>>,
    since_event: Arc<AtomicU64>,
    buf: Vec<u8>,
    stack: Vec<Vec<u8>>,
    position: u64,
    rec: Option<Rec>,
    /// The field being read, with the depth of its element.
    field: Option<(Field, usize)>,
    text: String,
    text_over: bool,
    oai_error: Option<(String, String)>,
    resumption: Option<Resumption>,
    no_records: bool,
    done: bool,
}

impl<R: BufRead> OaiReader<R> {
    /// A reader over a decompressed stream.
    pub fn new(inner: R) -> Self {
        let since_event = Arc::new(AtomicU64::new(0));
        let mut reader = Reader::from_reader(Guard {
            inner,
            since_event: since_event.clone(),
        });
        let c = reader.config_mut();
        c.expand_empty_elements = true;
        c.check_end_names = true;
        c.trim_text(false);
        OaiReader {
            reader,
            since_event,
            buf: Vec::new(),
            stack: Vec::new(),
            position: 0,
            rec: None,
            field: None,
            text: String::new(),
            text_over: false,
            oai_error: None,
            resumption: None,
            no_records: false,
            done: false,
        }
    }

    /// The last `<resumptionToken>` read, if any (an empty token means the list is complete).
    pub fn resumption(&self) -> Option<&Resumption> {
        self.resumption.as_ref()
    }

    /// The code of the OAI-PMH `<error>` the response holds, once read (`idDoesNotExist`,
    /// `badArgument`, …): callers tell "no such paper" from a damaged answer by it.
    pub fn error_code(&self) -> Option<&str> {
        self.oai_error.as_ref().map(|(code, _)| code.as_str())
    }

    /// Whether the response was the OAI error `noRecordsMatch` (an empty result, not a failure).
    pub fn no_records_match(&self) -> bool {
        self.no_records
    }

    /// The next record; `None` at the end of the stream. An `Err` (malformed XML, a DTD, an OAI
    /// error, an I/O error such as a truncated gzip) ends the stream: what follows it cannot be
    /// placed.
    ///
    /// # Errors
    /// A one-line reason with the byte offset in the decompressed stream.
    pub fn next_record(&mut self) -> Option<Result<OaiRecord, String>> {
        if self.done {
            return None;
        }
        let r = self.step();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }

    fn step(&mut self) -> Option<Result<OaiRecord, String>> {
        loop {
            self.buf.clear();
            self.since_event.store(0, Ordering::Relaxed);
            let ev = match self.reader.read_event_into(&mut self.buf) {
                Ok(ev) => ev.into_owned(),
                Err(e) => {
                    return Some(Err(format!(
                        "XML error at byte {}: {e}",
                        self.reader.error_position()
                    )))
                }
            };
            match ev {
                Event::Eof => {
                    if let Some(r) = &self.rec {
                        let _ = r;
                        return Some(Err(format!(
                            "the file ends inside record {} (truncated?)",
                            self.position
                        )));
                    }
                    if !self.stack.is_empty() {
                        return Some(Err(format!(
                            "the file ends inside <{}> (truncated?)",
                            String::from_utf8_lossy(self.stack.last().expect("not empty"))
                        )));
                    }
                    return None;
                }
                Event::DocType(_) => {
                    return Some(Err(
                        "a DOCTYPE declaration: DTDs and entities are refused".into()
                    ))
                }
                Event::Start(e) => {
                    if let Err(m) = self.start(&e) {
                        return Some(Err(m));
                    }
                }
                Event::End(_) => {
                    if let Some(out) = self.end() {
                        return Some(out);
                    }
                }
                Event::Text(t) => match t.xml_content() {
                    Ok(s) => self.push_text(&s),
                    Err(e) => self.record_error(format!("text is not valid UTF-8: {e}")),
                },
                Event::CData(t) => match t.decode() {
                    Ok(s) => self.push_text(&s),
                    Err(e) => self.record_error(format!("CDATA is not valid UTF-8: {e}")),
                },
                Event::GeneralRef(r) => {
                    if r.is_char_ref() {
                        match r.resolve_char_ref() {
                            Ok(Some(c)) => self.push_text(c.encode_utf8(&mut [0; 4])),
                            _ => self.record_error(
                                "a character reference that is not a character".into(),
                            ),
                        }
                    } else {
                        let name = r.decode().map(|n| n.into_owned()).unwrap_or_default();
                        match quick_xml::escape::resolve_predefined_entity(&name) {
                            Some(s) => self.push_text(s),
                            None => self.record_error(format!(
                                "entity &{name}; is not one of XML's predefined five (entities are refused)"
                            )),
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn record_error(&mut self, msg: String) {
        if let Some(r) = &mut self.rec {
            r.error.get_or_insert(msg);
        }
    }

    fn push_text(&mut self, s: &str) {
        if self.field.is_none() {
            return;
        }
        if self.text.len() + s.len() > MAX_FIELD {
            self.text_over = true;
            return;
        }
        self.text.push_str(s);
    }

    fn start(&mut self, e: &BytesStart) -> Result<(), String> {
        let name = e.local_name().as_ref().to_vec();
        let parent = self.stack.last().map(Vec::as_slice);
        let depth = self.stack.len() + 1;
        if depth > MAX_DEPTH {
            return Err(format!("elements nested deeper than {MAX_DEPTH}"));
        }
        let attr = |key: &[u8]| -> Option<String> {
            e.try_get_attribute(key)
                .ok()
                .flatten()
                .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
        };
        let mut field = None;
        match (parent, name.as_slice()) {
            (Some(b"ListRecords" | b"GetRecord"), b"record") => {
                self.position += 1;
                self.rec = Some(Rec::default());
            }
            (Some(b"OAI-PMH"), b"error") => {
                self.oai_error = Some((attr(b"code").unwrap_or_default(), String::new()));
                field = Some(Field::ErrorText);
            }
            (Some(b"ListRecords"), b"resumptionToken") => {
                self.resumption = Some(Resumption {
                    token: String::new(),
                    complete_list_size: attr(b"completeListSize").and_then(|v| v.parse().ok()),
                    cursor: attr(b"cursor").and_then(|v| v.parse().ok()),
                });
                field = Some(Field::Token);
            }
            _ => {}
        }
        if let Some(rec) = &mut self.rec {
            match (parent, name.as_slice()) {
                (Some(b"record"), b"header") => {
                    rec.deleted = attr(b"status").as_deref() == Some("deleted");
                }
                (Some(b"header"), b"identifier") => field = Some(Field::Identifier),
                (Some(b"metadata"), fmt) if rec.format.is_none() => {
                    rec.format = Some((depth, String::from_utf8_lossy(fmt).into_owned()));
                }
                _ => {}
            }
            if let Some((fdepth, fmt)) = &rec.format {
                if depth == fdepth + 1 {
                    field = match name.as_slice() {
                        b"id" => Some(Field::Id),
                        b"title" => Some(Field::Title),
                        b"abstract" => Some(Field::Abstract),
                        b"categories" => Some(Field::Categories),
                        b"license" => Some(Field::License),
                        b"authors" if fmt == "arXivRaw" => Some(Field::Authors),
                        b"version" if fmt == "arXivRaw" => {
                            rec.version_label = attr(b"version").unwrap_or_default();
                            None
                        }
                        _ => None,
                    };
                } else if depth == fdepth + 2 && parent == Some(b"version") && name == b"date" {
                    field = Some(Field::Date);
                }
            }
        }
        if let Some(f) = field {
            self.field = Some((f, depth));
            self.text.clear();
            self.text_over = false;
        }
        self.stack.push(name);
        Ok(())
    }

    fn end(&mut self) -> Option<Result<OaiRecord, String>> {
        let depth = self.stack.len();
        let name = self.stack.pop().unwrap_or_default();
        if let Some((field, fdepth)) = self.field {
            if fdepth == depth {
                self.field = None;
                let text = std::mem::take(&mut self.text);
                if self.text_over {
                    self.record_error(format!("a field longer than {MAX_FIELD} bytes"));
                }
                match field {
                    Field::ErrorText => {
                        if let Some((code, t)) = &mut self.oai_error {
                            *t = text.trim().to_owned();
                            if code == "noRecordsMatch" {
                                self.no_records = true;
                            } else {
                                return Some(Err(format!(
                                    "the OAI-PMH response is an error: {code}: {t}"
                                )));
                            }
                        }
                    }
                    Field::Token => {
                        if let Some(r) = &mut self.resumption {
                            r.token = text.trim().to_owned();
                        }
                    }
                    f => {
                        if let Some(rec) = &mut self.rec {
                            match f {
                                Field::Identifier => rec.identifier = text,
                                Field::Id => rec.meta.id = text.trim().to_owned(),
                                Field::Title => rec.meta.title = text,
                                Field::Abstract => rec.meta.abstract_text = text,
                                Field::Categories => rec.meta.categories = text,
                                Field::License => rec.meta.license = Some(text),
                                Field::Authors => rec.meta.authors = text,
                                Field::Date if rec.meta.versions.len() >= MAX_VERSIONS => {
                                    rec.error.get_or_insert_with(|| {
                                        format!("more than {MAX_VERSIONS} <version> entries")
                                    });
                                }
                                Field::Date => {
                                    rec.meta.versions.push((rec.version_label.clone(), text))
                                }
                                Field::ErrorText | Field::Token => {}
                            }
                        }
                    }
                }
            }
        }
        if name == b"record"
            && self.rec.is_some()
            && self
                .stack
                .last()
                .is_some_and(|p| p == b"ListRecords" || p == b"GetRecord")
        {
            let rec = self.rec.take().expect("checked");
            return Some(Ok(finish(rec, self.position)));
        }
        None
    }
}

fn finish(rec: Rec, position: u64) -> OaiRecord {
    let body = if let Some(e) = rec.error {
        Err(e)
    } else if rec.deleted {
        Ok(Body::Deleted)
    } else {
        match rec.format.as_ref().map(|(_, f)| f.as_str()) {
            Some("arXivRaw") => Ok(Body::Meta(rec.meta)),
            Some("arXiv") => Err("the arXiv metadata format has no version list and no v1 time, so the record's version and submitted_at cannot be derived; harvest with metadataPrefix=arXivRaw".into()),
            Some(other) => Err(format!("metadata format <{other}> is not read (harvest with metadataPrefix=arXivRaw)")),
            None => Err("a record without <metadata>".into()),
        }
    };
    let mut rec_id = rec.identifier;
    rec_id = rec_id.trim().to_owned();
    let mut out = OaiRecord {
        position,
        identifier: rec_id,
        body,
    };
    // The identifier's tail stands in for a missing <id>.
    if let Ok(Body::Meta(m)) = &mut out.body {
        if m.id.trim().is_empty() {
            if let Some(t) = out.identifier.strip_prefix("oai:arXiv.org:") {
                m.id = t.to_owned();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const PAGE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-03-01T00:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="arXivRaw">http://export.arxiv.org/oai2</request>
<ListRecords>
<record><header><identifier>oai:arXiv.org:0704.0001</identifier><datestamp>2008-11-13</datestamp><setSpec>physics:hep-ph</setSpec></header>
<metadata><arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/"><id>0704.0001</id><submitter>P</submitter>
<version version="v1"><date>Mon, 2 Apr 2007 19:18:42 GMT</date><size>37kb</size><source_type>D</source_type></version>
<version version="v2"><date>Tue, 24 Jul 2007 20:10:27 GMT</date><size>37kb</size><source_type>D</source_type></version>
<title>Calculation of prompt diphoton production cross sections at Tevatron and
  LHC energies</title><authors>C. Bal&amp;zs</authors><categories>hep-ph</categories>
<abstract>  A fully &lt;differential&gt; calculation &#x3b1; <![CDATA[a<b]]>
</abstract></arXivRaw></metadata></record>
<record><header status="deleted"><identifier>oai:arXiv.org:hep-th/9901001</identifier><datestamp>2010-01-01</datestamp></header></record>
<record><header><identifier>oai:arXiv.org:0704.0002</identifier></header><metadata><arXivRaw><id>0704.0002</id><title>x &bogus; y</title></arXivRaw></metadata></record>
<resumptionToken cursor="0" completeListSize="2400000">6960524|1001</resumptionToken>
</ListRecords></OAI-PMH>"#;

    fn all(xml: &str) -> (Vec<Result<OaiRecord, String>>, Option<Resumption>) {
        let mut r = OaiReader::new(xml.as_bytes());
        let mut v = Vec::new();
        while let Some(x) = r.next_record() {
            v.push(x);
        }
        (v, r.resumption().cloned())
    }

    #[test]
    fn reads_arxivraw_deleted_and_token() {
        let (v, token) = all(PAGE);
        assert_eq!(v.len(), 3);
        let r = v[0].as_ref().unwrap();
        assert_eq!((r.position, r.arxiv_id()), (1, "0704.0001"));
        let Ok(Body::Meta(m)) = &r.body else {
            panic!("{r:?}")
        };
        assert_eq!(m.versions.len(), 2);
        assert_eq!(
            m.abstract_text,
            "  A fully <differential> calculation \u{3b1} a<b\n"
        );
        assert!(m.title.contains("and\n  LHC"));
        assert_eq!(m.license, None);
        assert_eq!(m.authors, "C. Bal&zs");
        let p = m.to_paper().unwrap();
        assert_eq!(
            (p.version, p.submitted.as_str()),
            (2, "2007-04-02T19:18:42Z")
        );
        let d = v[1].as_ref().unwrap();
        assert_eq!(
            (&d.body, d.arxiv_id()),
            (&Ok(Body::Deleted), "hep-th/9901001")
        );
        let e = v[2].as_ref().unwrap();
        assert!(e.body.as_ref().unwrap_err().contains("&bogus;"), "{e:?}");
        let t = token.unwrap();
        assert_eq!(t.token, "6960524|1001");
        assert_eq!(t.complete_list_size, Some(2_400_000));
    }

    #[test]
    fn oai_errors_and_damage() {
        let err = r#"<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><error code="badResumptionToken">The value of the resumptionToken argument is invalid or expired.</error></OAI-PMH>"#;
        let (v, _) = all(err);
        assert_eq!(v.len(), 1);
        assert!(v[0]
            .as_ref()
            .unwrap_err()
            .contains("badResumptionToken: The value"));
        let none = err.replace("badResumptionToken", "noRecordsMatch");
        let mut r = OaiReader::new(none.as_bytes());
        assert!(r.next_record().is_none());
        assert!(r.no_records_match());
        let (v, _) = all(&PAGE[..PAGE.len() / 2]);
        let e = v.last().unwrap().as_ref().unwrap_err();
        assert!(e.contains("end of input") || e.contains("truncated"), "{e}");
        let (v, _) = all(&PAGE[..PAGE.find("<record><header status").unwrap()]);
        assert!(
            v.last()
                .unwrap()
                .as_ref()
                .unwrap_err()
                .contains("truncated"),
            "{v:?}"
        );
        let dtd = PAGE.replace(
            "<OAI-PMH ",
            "<!DOCTYPE OAI-PMH [<!ENTITY x \"y\">]><OAI-PMH ",
        );
        let (v, _) = all(&dtd);
        assert!(v[0].as_ref().unwrap_err().contains("DTD"), "{v:?}");
        let deep = format!("<OAI-PMH>{}", "<a>".repeat(100));
        assert!(all(&deep).0[0].as_ref().unwrap_err().contains("deeper"));
    }

    #[test]
    fn hostile_records_are_bounded() {
        let many = "<version version=\"v1\"><date>Mon, 2 Apr 2007 19:18:42 GMT</date></version>"
            .repeat(MAX_VERSIONS + 1);
        let page = format!("<OAI-PMH><ListRecords><record><header><identifier>x</identifier></header><metadata><arXivRaw><id>0704.0001</id>{many}</arXivRaw></metadata></record></ListRecords></OAI-PMH>");
        let (v, _) = all(&page);
        let e = v[0].as_ref().unwrap().body.as_ref().unwrap_err();
        assert!(e.contains("more than 1000 <version>"), "{e}");
        let long = format!("<OAI-PMH><ListRecords><record><header><identifier>x</identifier></header><metadata><arXivRaw><id>0704.0001</id><title>{}</title></arXivRaw></metadata></record></ListRecords></OAI-PMH>", "a ".repeat(MAX_FIELD));
        let (v, _) = all(&long);
        let e = v[0].as_ref().unwrap().body.as_ref().unwrap_err();
        assert!(e.contains("a field longer than"), "{e}");
    }

    #[test]
    fn arxiv_format_is_reported_not_guessed() {
        let page = r#"<OAI-PMH><ListRecords><record><header><identifier>oai:arXiv.org:0704.0001</identifier></header><metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>0704.0001</id><created>2007-04-02</created><title>T</title><categories>hep-ph</categories><abstract>A</abstract></arXiv></metadata></record></ListRecords></OAI-PMH>"#;
        let (v, _) = all(page);
        let e = v[0].as_ref().unwrap().body.as_ref().unwrap_err();
        assert!(e.contains("metadataPrefix=arXivRaw"), "{e}");
        assert_eq!(v[0].as_ref().unwrap().arxiv_id(), "0704.0001");
    }
}
