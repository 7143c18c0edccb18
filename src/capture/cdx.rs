//! CDX lines: the Wayback Machine's index of captures, as its CDX API answers and as crawl
//! indexes are written.
//!
//! Two shapes are read: space-separated lines (the CDX API's default output, `urlkey timestamp
//! original mimetype statuscode digest length`, and classic 11-field CDX files, whose first
//! six fields are the same; a ` CDX …` legend line is skipped), and the API's JSON output
//! (`output=json`: an array of arrays whose first row names the columns). Each line becomes a
//! [`Capture`], or a reason it cannot. Sizes are bounded by [`Limits::cdx_lines`] and the
//! caller's read of the text; the digest is checked to be 32 base32 characters, nothing more:
//! what it is compared with is the caller's.

use super::{Capture, Error, ErrorKind, Limits};

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

/// Reads CDX text: JSON output when it starts with `[`, lines otherwise.
///
/// # Errors
/// [`ErrorKind::NotCdx`] when JSON output is not an array of string arrays with a legend row
/// naming `timestamp`, `original` and `digest`; [`ErrorKind::Limit`] past
/// [`Limits::cdx_lines`]. A line that is not a capture is a [`BadLine`], not an error.
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
    if text.trim_start().starts_with('[') {
        return read_json(text, limits);
    }
    let mut captures = Vec::new();
    let mut bad = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if i >= limits.cdx_lines {
            return Err(
                ErrorKind::Limit(format!("it holds more than {} lines", limits.cdx_lines)).into(),
            );
        }
        let l = l.trim_end_matches('\r');
        if l.trim().is_empty() || l.starts_with(" CDX") || l.starts_with("CDX ") {
            continue;
        }
        let f: Vec<&str> = l.split(' ').filter(|s| !s.is_empty()).collect();
        let r = if f.len() >= 7 {
            capture(f[1], f[2], f[3], f[4], f[5])
        } else {
            Err(format!("{} fields, not 7 or 11", f.len()))
        };
        match r {
            Ok(c) => captures.push(c),
            Err(reason) => bad.push(BadLine {
                line: i + 1,
                reason,
            }),
        }
    }
    Ok((captures, bad))
}

fn read_json(text: &str, limits: &Limits) -> Result<(Vec<Capture>, Vec<BadLine>), Error> {
    let not = |m: &str| Error::from(ErrorKind::NotCdx(m.to_owned()));
    let rows: Vec<Vec<serde_json::Value>> =
        serde_json::from_str(text).map_err(|e| not(&format!("bad JSON output: {e}")))?;
    if rows.len() > limits.cdx_lines {
        return Err(
            ErrorKind::Limit(format!("it holds more than {} rows", limits.cdx_lines)).into(),
        );
    }
    let Some((legend, rows)) = rows.split_first() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let col = |name: &str| legend.iter().position(|v| v.as_str() == Some(name));
    let (Some(ts), Some(orig), Some(dig)) = (col("timestamp"), col("original"), col("digest"))
    else {
        return Err(not(
            "the first row does not name the timestamp, original and digest columns",
        ));
    };
    let (mime, status) = (col("mimetype"), col("statuscode"));
    let mut captures = Vec::new();
    let mut bad = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let get = |c: Option<usize>| {
            c.and_then(|c| row.get(c))
                .and_then(serde_json::Value::as_str)
                .unwrap_or("")
        };
        match capture(
            get(Some(ts)),
            get(Some(orig)),
            get(mime),
            get(status),
            get(Some(dig)),
        ) {
            Ok(c) => captures.push(c),
            Err(reason) => bad.push(BadLine {
                line: i + 2,
                reason,
            }),
        }
    }
    Ok((captures, bad))
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
            cdx_lines: 2,
            ..Limits::default()
        };
        assert!(read(&lines, &few).is_err());
    }
}
