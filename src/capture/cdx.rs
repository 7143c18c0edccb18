//! CDX lines: the Wayback Machine's index of captures, as its CDX API answers and as crawl
//! indexes are written.
//!
//! Two shapes are read: space-separated lines (the CDX API's default output, `urlkey timestamp
//! original mimetype statuscode digest length`, and classic 11-field CDX files, whose first
//! six fields are the same; a ` CDX …` legend line is skipped), and the API's JSON output
//! (`output=json`: an array of arrays whose first row names the columns). Each line becomes a
//! [`Capture`], or a reason it cannot, handed over as it is read ([`read_stream`]): nothing
//! grows with the file but the caller's own keeping, and a JSON answer is read row by row
//! ([`crate::bounded::json::Array`]), never parsed whole. The digest is checked to be 32 base32 characters, nothing more:
//! what it is compared with is the caller's.

use std::io::BufRead;
use std::path::Path;

use super::{Capture, Error, ErrorKind, Limits};
use crate::bounded::{self, Line};

/// One line that could not be read: its number (from 1) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The line's number, from 1 (in JSON: the row's, the legend row being 1).
    pub line: usize,
    /// Why it is not a capture.
    pub reason: String,
}

/// Whether `digest` is a base32 SHA-1 (32 characters of `A-Z2-7`, case ignored).
pub fn is_digest(digest: &str) -> bool {
    digest.len() == 32
        && digest
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || (b'2'..=b'7').contains(&b))
}

fn capture(
    timestamp: &str,
    original: &str,
    mime: &str,
    status: &str,
    digest: &str,
) -> Result<Capture, String> {
    if timestamp.len() != 14 || !timestamp.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("timestamp {timestamp:?} is not 14 digits"));
    }
    if !is_digest(digest) {
        return Err(format!("digest {digest:?} is not a base32 SHA-1"));
    }
    if !(original.starts_with("http://") || original.starts_with("https://")) {
        return Err(format!("{original:?} is not an http(s) URL"));
    }
    Ok(Capture {
        url: original.to_owned(),
        timestamp: timestamp.to_owned(),
        digest: digest.to_ascii_uppercase(),
        status: status.parse().ok(),
        mime: (!mime.is_empty() && mime != "-").then(|| mime.to_owned()),
    })
}

/// Reads CDX text: JSON output when it starts with `[`, lines otherwise ([`read_stream`] over
/// text already in memory).
///
/// # Errors
/// As [`read_stream`].
///
/// # Examples
/// ```
/// let text = "org,arxiv)/pdf/2402.03791v3 20240207101112 https://arxiv.org/pdf/2402.03791v3 \
///             application/pdf 200 VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5 123456\n";
/// let (captures, bad) = pith::capture::cdx::read(text, &Default::default())?;
/// assert_eq!(captures[0].timestamp, "20240207101112");
/// assert!(bad.is_empty());
/// # Ok::<(), pith::capture::Error>(())
/// ```
pub fn read(text: &str, limits: &Limits) -> Result<(Vec<Capture>, Vec<BadLine>), Error> {
    let mut captures = Vec::new();
    let mut bad = Vec::new();
    read_stream(text.as_bytes(), limits, &mut |r| {
        match r {
            Ok(c) => captures.push(c),
            Err(b) => bad.push(b),
        }
        true
    })?;
    Ok((captures, bad))
}

/// Reads the CDX file at `path` ([`read_stream`]), naming it in its errors.
///
/// # Errors
/// As [`read_stream`], and [`ErrorKind::Io`].
pub fn read_file(
    path: &Path,
    limits: &Limits,
    each: &mut dyn FnMut(Result<Capture, BadLine>) -> bool,
) -> Result<u64, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::from(ErrorKind::Io(e)).in_file(path))?;
    read_stream(std::io::BufReader::new(f), limits, each).map_err(|e| e.in_file(path))
}

/// Reads a CDX stream, JSON output when its first non-blank byte is `[`, lines otherwise, and
/// hands each line (or row) to `each` as a [`Capture`] or a [`BadLine`] as it is read; stops
/// when `each` returns `false`. Returns how many lines or rows were read. Nothing is held but
/// the line being read: lines and rows are counted against [`Limits::lines`] before they are
/// held, each held up to [`Limits::line_bytes`] (a longer line is a [`BadLine`]; a longer JSON
/// row refuses the answer), the bytes against [`Limits::decompressed_bytes`], and
/// [`Limits::stop`] is seen as it reads. A line that is not UTF-8 is a [`BadLine`].
///
/// # Errors
/// [`ErrorKind::NotCdx`] when JSON output is not an array of string arrays with a legend row
/// naming `timestamp`, `original` and `digest`; [`ErrorKind::Limit`] past the bounds;
/// [`ErrorKind::Stopped`].
pub fn read_stream(
    input: impl BufRead,
    limits: &Limits,
    each: &mut dyn FnMut(Result<Capture, BadLine>) -> bool,
) -> Result<u64, Error> {
    let bounds = limits.bounds();
    let mut input = std::io::BufReader::new(bounded::Reader::new(input, &bounds));
    // The first byte that is not white space tells JSON from lines.
    let json = loop {
        let head = input.fill_buf().map_err(bounded::Error::from_io)?;
        match head.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => {
                let b = head[i];
                input.consume(i);
                break b == b'[';
            }
            None if head.is_empty() => return Ok(0),
            None => {
                let n = head.len();
                input.consume(n);
            }
        }
    };
    if json {
        return read_json(input, limits, each);
    }
    let mut lines = bounded::Lines::new(input, &bounds);
    let mut n = 0u64;
    while let Some(l) = lines.next_line()? {
        n += 1;
        let line = usize::try_from(n).unwrap_or(usize::MAX);
        let r = match l {
            Line::TooLong(len) => Err(format!(
                "{len} bytes, longer than {} bytes",
                limits.line_bytes
            )),
            Line::Text(t) => match std::str::from_utf8(t) {
                Err(_) => Err("not UTF-8 text".to_owned()),
                Ok(l) => {
                    if l.trim().is_empty() || l.starts_with(" CDX") || l.starts_with("CDX ") {
                        continue;
                    }
                    let f: Vec<&str> = l.split(' ').filter(|s| !s.is_empty()).take(8).collect();
                    if f.len() >= 7 {
                        capture(f[1], f[2], f[3], f[4], f[5])
                    } else {
                        Err(format!("{} fields, not 7 or 11", f.len()))
                    }
                }
            },
        };
        if !each(r.map_err(|reason| BadLine { line, reason })) {
            break;
        }
    }
    Ok(n)
}

fn read_json(
    input: impl BufRead,
    limits: &Limits,
    each: &mut dyn FnMut(Result<Capture, BadLine>) -> bool,
) -> Result<u64, Error> {
    let not = |m: &str| Error::from(ErrorKind::NotCdx(m.to_owned()));
    let mut rows = bounded::json::Array::new(input, &limits.bounds());
    let row = |bytes: &[u8]| -> Result<Vec<serde_json::Value>, Error> {
        bounded::json::parse(bytes, limits.line_bytes as u64)
            .map_err(|e| not(&format!("a row is not an array: {e}")))
    };
    let Some(legend) = rows.next_element()? else {
        return Ok(0);
    };
    let legend = row(legend)?;
    let col = |name: &str| legend.iter().position(|v| v.as_str() == Some(name));
    let (Some(ts), Some(orig), Some(dig)) = (col("timestamp"), col("original"), col("digest"))
    else {
        return Err(not(
            "the first row does not name the timestamp, original and digest columns",
        ));
    };
    let (mime, status) = (col("mimetype"), col("statuscode"));
    let mut n = 1u64;
    while let Some(bytes) = rows.next_element()? {
        n += 1;
        let line = usize::try_from(n).unwrap_or(usize::MAX);
        let r = row(bytes)?;
        let get = |c: Option<usize>| {
            c.and_then(|c| r.get(c))
                .and_then(serde_json::Value::as_str)
                .unwrap_or("")
        };
        let c = capture(
            get(Some(ts)),
            get(Some(orig)),
            get(mime),
            get(status),
            get(Some(dig)),
        );
        if !each(c.map_err(|reason| BadLine { line, reason })) {
            break;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";

    #[test]
    fn lines_and_json_read_alike() {
        let lines = format!(
            " CDX N b a m s k r M S V g\n\
             org,arxiv)/pdf/2402.03791v3 20240207101112 https://arxiv.org/pdf/2402.03791v3 application/pdf 200 {D} 1234\n\
             org,arxiv)/pdf/2402.03791v3 20240207101112 https://arxiv.org/pdf/2402.03791v3 application/pdf 200 {D} - - 1234 99 x.warc.gz\n\
             org,arxiv)/pdf/2402.03791v3 2024 https://arxiv.org/pdf/2402.03791v3 application/pdf 200 {D} 1234\n\
             short line\n"
        );
        let (c, bad) = read(&lines, &Limits::default()).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[0].status, Some(200));
        assert_eq!(bad.iter().map(|b| b.line).collect::<Vec<_>>(), [4, 5]);
        let json = format!(
            r#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
               ["org,arxiv)/pdf/2402.03791v3","20240207101112","https://arxiv.org/pdf/2402.03791v3","application/pdf","200","{D}","1234"],
               ["x","20240207101112","https://arxiv.org/pdf/2402.03791v3","application/pdf","200","not-a-digest","1"]]"#
        );
        let (j, bad) = read(&json, &Limits::default()).unwrap();
        assert_eq!(j, c[..1]);
        assert_eq!(bad[0].line, 3);
        assert_eq!(
            j[0].raw_url(),
            "https://web.archive.org/web/20240207101112id_/https://arxiv.org/pdf/2402.03791v3"
        );
        assert!(read("[[\"a\"],[\"b\"]]", &Limits::default()).is_err());
        let few = Limits {
            lines: 2,
            ..Limits::default()
        };
        assert!(read(&lines, &few).is_err());
    }
}
