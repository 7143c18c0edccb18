//! WARC files (ISO 28500, WARC/1.0 and 1.1): the `response` records of a file, each with the
//! HTTP answer inside decoded and its payload digest checked.
//!
//! A file is plain or gzip (one member per record, as crawlers write `.warc.gz`, or one member
//! for the whole file); it is told by its first bytes, not its name. Every record's header is
//! read within [`Limits`] (line length, line count, folded lines included), its content only when its
//! `Content-Length` is within them, and all the bytes decompressed are counted, so a gzip bomb
//! ends in [`ErrorKind::Limit`] instead of filling memory. Records other than `response` are
//! skipped (read and dropped, still counted).
//!
//! The payload digest (`WARC-Payload-Digest: sha1:<base32>`) is over the HTTP entity body.
//! Crawlers disagree on whether that is before or after the transfer coding is removed, and
//! some hash after the content coding is removed too; a [`Response`] therefore holds the body
//! decoded (chunked transfer coding, then gzip content coding) and its digest check
//! ([`Response::digest_holds`]) accepts the declared digest when it is the SHA-1 of the body as
//! stored, as de-chunked, or as decoded. The PDF is the decoded body.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::{sha1_base32, timestamp_of_warc_date, Capture, Error, ErrorKind, Limits};
use crate::bounded::{self, Line, Lines};

/// One `response` record: the capture, the HTTP answer, and whether its digest holds.
#[derive(Debug, Clone)]
pub struct Response {
    /// `WARC-Target-URI`.
    pub target_uri: String,
    /// `WARC-Date` as given.
    pub date: String,
    /// `WARC-Payload-Digest` as given (`sha1:…`), when the record has one.
    pub declared_digest: Option<String>,
    /// The HTTP status.
    pub status: u16,
    /// The HTTP `Content-Type`, when given.
    pub content_type: Option<String>,
    /// The entity body, transfer and content coding removed.
    pub payload: Vec<u8>,
    /// The base32 SHA-1 of the body as stored, de-chunked, and decoded (the candidates the
    /// declared digest is compared with), deduplicated.
    candidates: Vec<String>,
    /// Why the body could not be decoded, when it could not.
    decode_error: Option<String>,
    /// The record's number in the file, from 1.
    pub index: usize,
}

impl Response {
    /// Whether the declared payload digest is the SHA-1 of the body (as stored, de-chunked or
    /// decoded) and the body decoded: `Err` says why not.
    ///
    /// # Errors
    /// The reason, one line: no digest, a digest other than SHA-1, a body that cannot be
    /// decoded, or a digest that matches none of the body's forms.
    pub fn digest_holds(&self) -> Result<(), String> {
        if let Some(e) = &self.decode_error {
            return Err(format!("its body cannot be decoded: {e}"));
        }
        let Some(d) = &self.declared_digest else {
            return Err("it has no WARC-Payload-Digest".into());
        };
        let Some((algo, value)) = d.trim().split_once(':') else {
            return Err(format!("its payload digest {d:?} names no algorithm"));
        };
        if !algo.eq_ignore_ascii_case("sha1") {
            return Err(format!(
                "its payload digest is {algo}, not sha1 (the Archive's digest)"
            ));
        }
        let value = value.trim().to_ascii_uppercase();
        if self.candidates.contains(&value) {
            Ok(())
        } else {
            Err(format!(
                "its payload digest sha1:{value} is not the SHA-1 of its body (sha1:{})",
                self.candidates.last().map_or("", String::as_str)
            ))
        }
    }

    /// The capture this record is: its URL, timestamp (from `WARC-Date`) and the decoded
    /// payload's digest. `None` when the date is not a WARC date.
    pub fn capture(&self) -> Option<Capture> {
        Some(Capture {
            url: self.target_uri.clone(),
            timestamp: timestamp_of_warc_date(&self.date)?,
            digest: sha1_base32(&self.payload),
            status: Some(self.status),
            mime: self.content_type.clone(),
        })
    }
}

/// Reads the `response` records of the WARC file at `path` and hands each to `each`; stops
/// when `each` returns `false`.
///
/// # Errors
/// [`ErrorKind::Io`], [`ErrorKind::NotWarc`], [`ErrorKind::Gzip`], [`ErrorKind::Limit`],
/// [`ErrorKind::Stopped`], each naming the file.
pub fn read_file(
    path: &Path,
    limits: &Limits,
    each: &mut dyn FnMut(Response) -> bool,
) -> Result<usize, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::from(ErrorKind::Io(e)).in_file(path))?;
    read(BufReader::new(f), limits, each).map_err(|e| e.in_file(path))
}

/// Reads the `response` records of a WARC stream (plain or gzip) and hands each to `each`;
/// returns how many records the stream held (of every type). Everything is read through
/// [`crate::bounded`]: the bytes decompressed, every line (empty and folded ones too) and
/// every record are counted before they are held, and [`Limits::stop`] is seen as it reads.
///
/// # Errors
/// As [`read_file`], naming no file.
pub fn read(
    mut input: impl BufRead,
    limits: &Limits,
    each: &mut dyn FnMut(Response) -> bool,
) -> Result<usize, Error> {
    let bounds = limits.bounds();
    let head = input
        .fill_buf()
        .map_err(|e| Error::from(ErrorKind::Io(e)))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let gz = flate2::bufread::MultiGzDecoder::new(input);
        let counted = BufReader::new(bounded::Reader::new(gz, &bounds));
        records(Lines::new(counted, &bounds), limits, each)
    } else {
        let counted = BufReader::new(bounded::Reader::new(input, &bounds));
        records(Lines::new(counted, &bounds), limits, each)
    }
}

/// The next line of a header, or an error naming the header when the line is too long.
fn line<R: BufRead>(
    lines: &mut Lines<R>,
    max: usize,
    what: &str,
) -> Result<Option<Vec<u8>>, Error> {
    match lines.next_line()? {
        None => Ok(None),
        Some(Line::Text(t)) => Ok(Some(t.to_vec())),
        Some(Line::TooLong(_)) => {
            Err(ErrorKind::Limit(format!("a {what} line is longer than {max} bytes")).into())
        }
    }
}

/// Header fields up to the empty line: `(name, value)`, names as given. Every line counts
/// against [`Limits::header_lines`], a folded one (which continues the field before it) too.
fn headers<R: BufRead>(
    input: &mut Lines<R>,
    limits: &Limits,
    what: &str,
) -> Result<Vec<(String, String)>, Error> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut count = 0usize;
    loop {
        let Some(l) = line(input, limits.line_bytes, what)? else {
            return Err(
                ErrorKind::NotWarc(format!("a {what} header ends before its empty line")).into(),
            );
        };
        if l.is_empty() {
            return Ok(out);
        }
        count += 1;
        if count > limits.header_lines {
            return Err(ErrorKind::Limit(format!(
                "a {what} header has more than {} lines",
                limits.header_lines
            ))
            .into());
        }
        let l = String::from_utf8_lossy(&l).into_owned();
        if l.starts_with([' ', '\t']) {
            // A folded line continues the field before it.
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(l.trim());
            }
            continue;
        }
        match l.split_once(':') {
            Some((k, v)) => out.push((k.trim().to_owned(), v.trim().to_owned())),
            None => {
                let shown: String = l.chars().take(40).collect();
                return Err(ErrorKind::NotWarc(format!(
                    "a {what} header line has no colon: {shown:?}"
                ))
                .into());
            }
        }
    }
}

fn field<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn records<R: BufRead>(
    mut input: Lines<R>,
    limits: &Limits,
    each: &mut dyn FnMut(Response) -> bool,
) -> Result<usize, Error> {
    let mut n = 0;
    loop {
        // Records are separated by two CRLFs; any number of empty lines is tolerated, each
        // counted against the file's lines.
        let version = loop {
            match line(&mut input, limits.line_bytes, "WARC")? {
                None => return Ok(n),
                Some(l) if l.is_empty() => continue,
                Some(l) => break l,
            }
        };
        if !version.starts_with(b"WARC/") {
            let shown = String::from_utf8_lossy(&version[..version.len().min(40)]).into_owned();
            return Err(ErrorKind::NotWarc(format!(
                "record {} starts with {shown:?}, not a WARC/1.x version line",
                n + 1
            ))
            .into());
        }
        n += 1;
        if n > limits.records {
            return Err(
                ErrorKind::Limit(format!("it holds more than {} records", limits.records)).into(),
            );
        }
        let h = headers(&mut input, limits, "WARC")?;
        let length: u64 = field(&h, "Content-Length")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| {
                Error::from(ErrorKind::NotWarc(format!(
                    "record {n} has no Content-Length"
                )))
            })?;
        if length > limits.record_bytes {
            return Err(ErrorKind::Limit(format!(
                "record {n} is {length} bytes, over the limit of {} bytes",
                limits.record_bytes
            ))
            .into());
        }
        let is_response =
            field(&h, "WARC-Type").is_some_and(|t| t.eq_ignore_ascii_case("response"));
        let is_http = field(&h, "Content-Type")
            .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/http"));
        if !(is_response && is_http) {
            let skipped = std::io::copy(&mut input.input().take(length), &mut std::io::sink())
                .map_err(bounded::Error::from_io)?;
            if skipped < length {
                return Err(ErrorKind::NotWarc(format!("record {n} is cut short")).into());
            }
            continue;
        }
        let block = bounded::read_all(
            input.input().take(length),
            &bounded::Bounds {
                bytes: length,
                ..limits.bounds()
            },
        )?;
        if (block.len() as u64) < length {
            return Err(ErrorKind::NotWarc(format!("record {n} is cut short")).into());
        }
        let response = http_response(&block, &h, n, limits)?;
        if !each(response) {
            return Ok(n);
        }
    }
}

/// The HTTP answer in a `response` record's block.
fn http_response(
    block: &[u8],
    h: &[(String, String)],
    index: usize,
    limits: &Limits,
) -> Result<Response, Error> {
    let mut cursor = Lines::new(std::io::Cursor::new(block), &limits.bounds());
    let status_line = line(&mut cursor, limits.line_bytes, "HTTP")?.unwrap_or_default();
    let status_line = String::from_utf8_lossy(&status_line).into_owned();
    let mut parts = status_line.split_whitespace();
    let status = match (
        parts.next(),
        parts.next().and_then(|s| s.parse::<u16>().ok()),
    ) {
        (Some(v), Some(s)) if v.starts_with("HTTP/") => s,
        _ => {
            return Err(ErrorKind::NotWarc(format!(
                "record {index}'s block does not start with an HTTP status line"
            ))
            .into())
        }
    };
    let http = headers(&mut cursor, limits, "HTTP")?;
    let at = usize::try_from(cursor.input().position()).unwrap_or(block.len());
    let body = &block[at.min(block.len())..];
    let chunked = field(&http, "Transfer-Encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    let gzip = field(&http, "Content-Encoding").map(|c| c.trim().to_ascii_lowercase());
    let mut candidates = vec![sha1_base32(body)];
    let mut decode_error = None;
    let dechunked = if chunked {
        match dechunk(body, limits) {
            Ok(d) => {
                candidates.push(sha1_base32(&d));
                Some(d)
            }
            Err(e) => {
                decode_error = Some(e);
                None
            }
        }
    } else {
        None
    };
    let entity = dechunked.as_deref().unwrap_or(body);
    let payload = match gzip.as_deref() {
        None | Some("" | "identity") => entity.to_vec(),
        Some("gzip" | "x-gzip") => match gunzip(entity, limits) {
            Ok(d) => {
                candidates.push(sha1_base32(&d));
                d
            }
            Err(e) => {
                decode_error.get_or_insert(e);
                entity.to_vec()
            }
        },
        Some(other) => {
            decode_error.get_or_insert(format!("content coding {other} is not read"));
            entity.to_vec()
        }
    };
    candidates.dedup();
    Ok(Response {
        target_uri: field(h, "WARC-Target-URI")
            .unwrap_or_default()
            .trim_matches(['<', '>'])
            .to_owned(),
        date: field(h, "WARC-Date").unwrap_or_default().to_owned(),
        declared_digest: field(h, "WARC-Payload-Digest").map(str::to_owned),
        status,
        content_type: field(&http, "Content-Type").map(str::to_owned),
        payload,
        candidates,
        decode_error,
        index,
    })
}

/// Removes the chunked transfer coding (RFC 9112 §7.1), within the record limit.
fn dechunk(body: &[u8], limits: &Limits) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut c = Lines::new(std::io::Cursor::new(body), &limits.bounds());
    loop {
        let size_line = line(&mut c, limits.line_bytes, "chunk")
            .map_err(|e| e.to_string())?
            .ok_or("the chunked body ends before its last chunk")?;
        let size_text = String::from_utf8_lossy(&size_line);
        let hex = size_text.split(';').next().unwrap_or("").trim();
        let size = u64::from_str_radix(hex, 16).map_err(|_| format!("bad chunk size {hex:?}"))?;
        if size == 0 {
            return Ok(out);
        }
        if out.len() as u64 + size > limits.record_bytes {
            return Err(format!(
                "the chunks add up to more than {} bytes",
                limits.record_bytes
            ));
        }
        let start = usize::try_from(c.input().position()).unwrap_or(usize::MAX);
        let end = start
            .checked_add(size as usize)
            .filter(|e| *e <= body.len())
            .ok_or("a chunk runs past the end of the body")?;
        out.extend_from_slice(&body[start..end]);
        c.input().set_position(end as u64);
        // The CRLF after the chunk's data.
        let _ = line(&mut c, limits.line_bytes, "chunk").map_err(|e| e.to_string())?;
    }
}

/// Decompresses a gzip body, refusing more than [`Limits::record_bytes`].
fn gunzip(body: &[u8], limits: &Limits) -> Result<Vec<u8>, String> {
    let bounds = bounded::Bounds {
        bytes: limits.record_bytes,
        ..limits.bounds()
    };
    bounded::read_all(flate2::read::MultiGzDecoder::new(body), &bounds).map_err(|e| {
        match e.kind() {
            bounded::ErrorKind::Bytes(n) => format!("it decompresses to more than {n} bytes"),
            _ => format!("gzip: {e}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(body: &[u8], http_headers: &str, digest: &str) -> Vec<u8> {
        let mut block = format!("HTTP/1.1 200 OK\r\n{http_headers}\r\n").into_bytes();
        block.extend_from_slice(body);
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://arxiv.org/pdf/2402.03791v3\r\n\
             WARC-Date: 2024-02-07T10:11:12Z\r\nWARC-Payload-Digest: sha1:{digest}\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(&block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn all(bytes: &[u8], limits: &Limits) -> Result<Vec<Response>, Error> {
        let mut v = Vec::new();
        read(bytes, limits, &mut |r| {
            v.push(r);
            true
        })?;
        Ok(v)
    }

    #[test]
    fn chunked_and_gzip_bodies_are_decoded_before_hashing() {
        let pdf = b"%PDF-1.4 a paper\n%%EOF\n";
        let plain = record(pdf, "Content-Type: application/pdf\r\n", &sha1_base32(pdf));
        let chunked_body = b"5\r\n%PDF-\r\n12;ext=1\r\n1.4 a paper\n%%EOF\n\r\n0\r\n\r\n";
        let chunked = record(
            chunked_body,
            "Transfer-Encoding: chunked\r\n",
            &sha1_base32(pdf),
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, pdf).unwrap();
        let gz = gz.finish().unwrap();
        let zipped = record(&gz, "Content-Encoding: gzip\r\n", &sha1_base32(&gz));
        let tampered = record(b"%PDF-1.4 another\n", "", &sha1_base32(pdf));
        let mut file = [plain, chunked, zipped, tampered].concat();
        let got = all(&file, &Limits::default()).unwrap();
        assert_eq!(got.len(), 4);
        for r in &got[..3] {
            assert_eq!(r.payload, pdf);
            assert_eq!(r.digest_holds(), Ok(()));
            assert_eq!(r.capture().unwrap().timestamp, "20240207101112");
        }
        assert!(got[3]
            .digest_holds()
            .unwrap_err()
            .contains("is not the SHA-1"));
        // A gzip file of the same records reads the same.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &file).unwrap();
        assert_eq!(
            all(&gz.finish().unwrap(), &Limits::default())
                .unwrap()
                .len(),
            4
        );
        file.truncate(file.len() - 10);
        assert!(all(&file, &Limits::default()).is_err());
    }

    #[test]
    fn bounds_are_kept() {
        let big = vec![b'x'; 4096];
        let r = record(&big, "", &sha1_base32(&big));
        let small = Limits {
            record_bytes: 1024,
            ..Limits::default()
        };
        let e = all(&r, &small).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, &r).unwrap();
        let bomb = Limits {
            decompressed_bytes: 1000,
            ..Limits::default()
        };
        let e = all(&gz.finish().unwrap(), &bomb).unwrap_err();
        assert!(e.to_string().contains("decompresses to more than"), "{e}");
        let e = all(b"<html>not a warc</html>\n", &Limits::default()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::NotWarc(_)), "{e}");
        let long = format!("WARC/1.0\r\nX: {}\r\n\r\n", "y".repeat(100));
        let tight = Limits {
            line_bytes: 50,
            ..Limits::default()
        };
        assert!(matches!(
            all(long.as_bytes(), &tight).unwrap_err().kind(),
            ErrorKind::Limit(_)
        ));
    }
}
