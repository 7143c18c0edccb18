//! The evidence rule for "stored": when a capture shows that the Internet Archive holds a
//! version's PDF. Every door that calls a version stored (`pith verify PDF --capture`, `pith
//! index --captures`, and the mirror, which shows what the index kept) asks [`judge`], so the
//! same capture gets the same verdict wherever it is read.
//!
//! A capture counts for version N of a paper only when all of these hold:
//! - its URL is that version's own arXiv PDF URL (`arxiv.org/pdf/<id>vN`, with or without
//!   `.pdf`, `www.` or `export.`, http or https: [`super::arxiv_of_url`]);
//! - the Archive's answer was HTTP 200 (a redirect, an error or an unstated status is not the
//!   PDF);
//! - it is dated no earlier than the version was announced (when the caller knows the date),
//!   and never before the month the arXiv id was given;
//! - its payload digest is the SHA-1 of a PDF pith itself read and recognised as that version
//!   ([`Read`]: the file given, a WARC payload pith parsed, or a batch or tar report line whose
//!   status is `injected` or `unchanged`), carrying that version's number when it is known.
//!
//! The [`Verdict`] lists every check with its outcome, including those that could not be made
//! here (a CDX line's digest is as the line states; a number's version without a record).

use serde::Serialize;

use super::Capture;
use crate::number::PithNumber;

/// The version a capture is judged for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The arXiv id, without version (`2402.03791`, `hep-th/9901001`).
    pub id: String,
    /// The version number.
    pub version: u32,
    /// When the version was announced, as a Wayback timestamp (`YYYYMMDDhhmmss`), when known.
    pub announced: Option<String>,
    /// The version's Pith Number, when known (the index's record of it).
    pub number: Option<PithNumber>,
}

impl Version {
    /// The version `id` `vN`, nothing else known of it.
    pub fn new(id: &str, version: u32) -> Self {
        Version {
            id: id.to_owned(),
            version,
            announced: None,
            number: None,
        }
    }

    /// The same version, announced at `date` (ISO 8601 UTC, `2024-02-07T10:11:12Z`, or a
    /// Wayback timestamp); a date that is neither is ignored.
    pub fn announced(mut self, date: &str) -> Self {
        let digits: String = date.chars().filter(char::is_ascii_digit).collect();
        self.announced = (digits.len() == 14).then_some(digits);
        self
    }

    /// The same version, whose number is `number`.
    pub fn numbered(mut self, number: PithNumber) -> Self {
        self.number = Some(number);
        self
    }

    fn name(&self) -> String {
        format!("arXiv:{}v{}", self.id, self.version)
    }
}

/// The first timestamp an arXiv id can have been given at: the first of its `YYMM` month
/// (`2402.03791` → `20240201000000`, `hep-th/9901001` → `19990101000000`); `None` for text that
/// is no arXiv id.
pub fn id_month(id: &str) -> Option<String> {
    let digits = match id.split_once('/') {
        Some((_, n)) => n,
        None => id,
    };
    let yymm = digits.get(..4)?;
    if !yymm.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let yy: u32 = yymm[..2].parse().ok()?;
    let mm: u32 = yymm[2..].parse().ok()?;
    if !(1..=12).contains(&mm) {
        return None;
    }
    // arXiv began in 1991: a two-digit year from 91 is the 1900s.
    let year = if yy >= 91 { 1900 + yy } else { 2000 + yy };
    Some(format!("{year}{mm:02}01000000"))
}

/// How the capture's payload digest is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// pith hashed the payload (a WARC record): `Ok` when its SHA-1 is the digest the record
    /// states, else why not.
    Hashed(Result<(), String>),
    /// Only stated (a CDX line): pith did not see the payload.
    Stated,
}

/// A PDF pith read: its SHA-1 and what it was recognised as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// What was read, for the verdict's sentences (`the file given`, `batch.jsonl line 3`).
    pub what: String,
    /// The SHA-1 of its bytes, base32.
    pub sha1: String,
    /// The Pith Number it carries (or was written into it, for a report line), if any.
    pub number: Option<PithNumber>,
    /// The version it names itself (its XMP's arXiv identifier, a report line's id and
    /// version), if any.
    pub names: Option<(String, u32)>,
}

/// What a check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The check was made and holds.
    Holds,
    /// The check was made and fails: the capture does not count.
    Fails,
    /// The check could not be made here; the verdict does not rest on it.
    NotChecked,
}

/// One check of [`judge`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Which: `url`, `status`, `date`, `payload`, `pdf` or `number`.
    pub check: &'static str,
    /// What it found.
    pub outcome: Outcome,
    /// What it found, as one sentence.
    pub detail: String,
}

/// Whether a capture counts for a version, and every check that decided it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The version judged for (`arXiv:2402.03791v3`).
    pub version: String,
    /// Whether the capture shows the Archive holds the version's PDF.
    pub stored: bool,
    /// Every check, in order.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// Why the capture does not count: the first check that fails.
    pub fn reason(&self) -> Option<&str> {
        self.checks
            .iter()
            .find(|c| c.outcome == Outcome::Fails)
            .map(|c| c.detail.as_str())
    }

    /// The checks that could not be made here, as sentences.
    pub fn not_checked(&self) -> impl Iterator<Item = &str> {
        self.checks
            .iter()
            .filter(|c| c.outcome == Outcome::NotChecked)
            .map(|c| c.detail.as_str())
    }
}

/// Judges whether `capture` shows that the Archive holds `version`'s PDF, the capture's
/// payload digest being known as `payload` says, against the PDFs pith read (`reads`).
///
/// # Examples
/// ```
/// use pith::capture::{evidence::{judge, Payload, Version}, Capture};
/// let c = Capture {
///     url: "https://arxiv.org/pdf/2402.03791v3".into(),
///     timestamp: "20240301080910".into(),
///     digest: "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5".into(),
///     status: Some(404),
///     mime: None,
/// };
/// let v = judge(&c, &Payload::Stated, &Version::new("2402.03791", 3), &[]);
/// assert!(!v.stored);
/// assert_eq!(v.reason(), Some("the Archive's answer was HTTP 404, not 200"));
/// ```
pub fn judge(capture: &Capture, payload: &Payload, version: &Version, reads: &[Read]) -> Verdict {
    let name = version.name();
    let mut checks = Vec::with_capacity(6);
    let mut push = |check, outcome, detail: String| {
        checks.push(Check {
            check,
            outcome,
            detail,
        })
    };
    match capture.arxiv_version() {
        Some((id, v)) if id == version.id && v == version.version => push(
            "url",
            Outcome::Holds,
            format!("{} is {name}'s PDF URL", capture.url),
        ),
        _ => push(
            "url",
            Outcome::Fails,
            format!("{} is not {name}'s PDF URL at arxiv.org", capture.url),
        ),
    }
    match capture.status {
        Some(200) => push("status", Outcome::Holds, "the answer was HTTP 200".into()),
        Some(s) => push(
            "status",
            Outcome::Fails,
            format!("the Archive's answer was HTTP {s}, not 200"),
        ),
        None => push(
            "status",
            Outcome::Fails,
            "the capture does not state the Archive's HTTP status".into(),
        ),
    }
    date(capture, version, &mut push);
    match payload {
        Payload::Hashed(Ok(())) => push(
            "payload",
            Outcome::Holds,
            "pith hashed the payload: its SHA-1 is the digest the record states".into(),
        ),
        Payload::Hashed(Err(why)) => push("payload", Outcome::Fails, why.clone()),
        Payload::Stated => push(
            "payload",
            Outcome::NotChecked,
            "the payload's digest is as the CDX line states; pith did not see the payload".into(),
        ),
    }
    pdf(capture, version, reads, &mut push);
    let stored = checks.iter().all(|c| c.outcome != Outcome::Fails);
    Verdict {
        version: name,
        stored,
        checks,
    }
}

fn date(c: &Capture, v: &Version, push: &mut impl FnMut(&'static str, Outcome, String)) {
    let ts = &c.timestamp;
    if ts.len() != 14 || !ts.bytes().all(|b| b.is_ascii_digit()) {
        push(
            "date",
            Outcome::Fails,
            format!("its timestamp {ts:?} is not 14 digits"),
        );
        return;
    }
    let name = v.name();
    let (floor, of) = match (&v.announced, id_month(&v.id)) {
        (Some(a), _) => (a.clone(), "it was announced"),
        (None, Some(m)) => (m, "its id was given"),
        (None, None) => {
            push(
                "date",
                Outcome::NotChecked,
                format!("when {name} was announced is not known here"),
            );
            return;
        }
    };
    if ts.as_str() < floor.as_str() {
        push(
            "date",
            Outcome::Fails,
            format!(
                "it was captured {}, before {name} existed ({of} {})",
                super::time_utc(ts),
                super::time_utc(&floor)
            ),
        );
        return;
    }
    push(
        "date",
        Outcome::Holds,
        format!(
            "it was captured {}, after {of} ({})",
            super::time_utc(ts),
            super::time_utc(&floor)
        ),
    );
    if v.announced.is_none() {
        push(
            "date",
            Outcome::NotChecked,
            format!("when {name} itself was announced is not known here, only its id's month"),
        );
    }
}

fn pdf(
    c: &Capture,
    v: &Version,
    reads: &[Read],
    push: &mut impl FnMut(&'static str, Outcome, String),
) {
    let name = v.name();
    let same: Vec<&Read> = reads
        .iter()
        .filter(|r| r.sha1.eq_ignore_ascii_case(&c.digest))
        .collect();
    if same.is_empty() {
        let detail = match reads {
            [] => format!(
                "no PDF pith read for {name} has the digest {} (give the PDF, or a batch or tar report line with its number and sha1)",
                c.digest
            ),
            [r] => format!(
                "its digest {} is not the SHA-1 of {} ({})",
                c.digest, r.what, r.sha1
            ),
            _ => format!(
                "its digest {} is the SHA-1 of none of the {} PDFs pith read",
                c.digest,
                reads.len()
            ),
        };
        push("pdf", Outcome::Fails, detail);
        return;
    }
    // The read that best shows the version: one whose number and name both agree.
    let mut last = None;
    for r in same {
        match recognise(r, v) {
            Ok(unchecked) => {
                push(
                    "pdf",
                    Outcome::Holds,
                    format!(
                        "its digest is the SHA-1 of {}, a PDF pith read carrying {}",
                        r.what,
                        r.number.as_ref().map(PithNumber::full).unwrap_or_default()
                    ),
                );
                if let Some(u) = unchecked {
                    push("number", Outcome::NotChecked, u);
                }
                return;
            }
            Err(why) => last = Some(why),
        }
    }
    push("pdf", Outcome::Fails, last.unwrap_or_default());
}

/// Whether `r` is recognised as `v`: `Ok` with what could not be checked, or why not.
fn recognise(r: &Read, v: &Version) -> Result<Option<String>, String> {
    let name = v.name();
    let Some(n) = &r.number else {
        return Err(format!(
            "{} carries no Pith Number: pith did not recognise it as {name}",
            r.what
        ));
    };
    if let Some((id, ver)) = &r.names {
        if (id.as_str(), *ver) != (v.id.as_str(), v.version) {
            return Err(format!("{} is arXiv:{id}v{ver}, not {name}", r.what));
        }
    }
    match &v.number {
        Some(want) if want.code() != n.code() => Err(format!(
            "{} carries {}, not {name}'s {}",
            r.what,
            n.full(),
            want.full()
        )),
        Some(_) => Ok(None),
        None if r.names.is_some() => Ok(Some(format!(
            "that {} is {name}'s number: no record of {name} here",
            n.full()
        ))),
        None => Ok(Some(format!(
            "that {} is {name}'s PDF: it names no arXiv version and no record of {name} is here",
            r.what
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";

    fn cap(url: &str, ts: &str, status: Option<u16>) -> Capture {
        Capture {
            url: url.into(),
            timestamp: ts.into(),
            digest: D.into(),
            status,
            mime: None,
        }
    }

    fn read(number: Option<&str>, names: Option<(&str, u32)>) -> Read {
        Read {
            what: "the file given".into(),
            sha1: D.into(),
            number: number.map(|n| PithNumber::parse(n).unwrap()),
            names: names.map(|(i, v)| (i.to_owned(), v)),
        }
    }

    const N: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";
    const OTHER: &str = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL";

    #[test]
    fn every_form_of_the_url_counts_and_nothing_else() {
        let v = Version::new("2402.03791", 3);
        let r = [read(Some(N), Some(("2402.03791", 3)))];
        for url in [
            "https://arxiv.org/pdf/2402.03791v3",
            "http://arxiv.org/pdf/2402.03791v3.pdf",
            "https://export.arxiv.org/pdf/2402.03791v3",
            "https://www.arxiv.org/pdf/2402.03791v3",
        ] {
            let j = judge(
                &cap(url, "20240301000000", Some(200)),
                &Payload::Stated,
                &v,
                &r,
            );
            assert!(j.stored, "{url}: {j:?}");
        }
        for url in [
            "https://arxiv.org/pdf/2402.03791v2",
            "https://arxiv.org/abs/2402.03791v3",
            "https://arxiv.org/pdf/2402.03792v3",
            "https://example.org/pdf/2402.03791v3",
        ] {
            let j = judge(
                &cap(url, "20240301000000", Some(200)),
                &Payload::Stated,
                &v,
                &r,
            );
            assert!(!j.stored, "{url}");
            assert!(j
                .reason()
                .unwrap()
                .contains("is not arXiv:2402.03791v3's PDF URL"));
        }
    }

    #[test]
    fn status_date_and_pdf_each_refuse() {
        let url = "https://arxiv.org/pdf/2402.03791v3";
        let v = Version::new("2402.03791", 3);
        let good = [read(Some(N), Some(("2402.03791", 3)))];
        for s in [Some(404), Some(302), None] {
            let j = judge(&cap(url, "20240301000000", s), &Payload::Stated, &v, &good);
            assert!(!j.stored && j.checks[1].outcome == Outcome::Fails, "{s:?}");
        }
        let early = judge(
            &cap(url, "19960101000000", Some(200)),
            &Payload::Stated,
            &v,
            &good,
        );
        assert!(early
            .reason()
            .unwrap()
            .contains("before arXiv:2402.03791v3 existed"));
        // Announced on the 6th: a capture on the 2nd is before it.
        let dated = v.clone().announced("2024-02-06T08:14:56Z");
        let j = judge(
            &cap(url, "20240202000000", Some(200)),
            &Payload::Stated,
            &dated,
            &good,
        );
        assert!(!j.stored);
        // No number, another paper's number or name, another digest: no.
        for (r, why) in [
            (read(None, None), "carries no Pith Number"),
            (
                read(Some(N), Some(("2402.03792", 3))),
                "is arXiv:2402.03792v3",
            ),
        ] {
            let j = judge(
                &cap(url, "20240301000000", Some(200)),
                &Payload::Stated,
                &v,
                &[r],
            );
            assert!(j.reason().unwrap().contains(why), "{j:?}");
        }
        let numbered = v.clone().numbered(PithNumber::parse(N).unwrap());
        let j = judge(
            &cap(url, "20240301000000", Some(200)),
            &Payload::Stated,
            &numbered,
            &[read(Some(OTHER), None)],
        );
        assert!(j.reason().unwrap().contains("not arXiv:2402.03791v3's"));
        let mut other = good[0].clone();
        other.sha1 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".into();
        let j = judge(
            &cap(url, "20240301000000", Some(200)),
            &Payload::Stated,
            &v,
            &[other],
        );
        assert!(j
            .reason()
            .unwrap()
            .contains("is not the SHA-1 of the file given"));
        let j = judge(
            &cap(url, "20240301000000", Some(200)),
            &Payload::Hashed(Err("tampered".into())),
            &v,
            &good,
        );
        assert_eq!(j.reason(), Some("tampered"));
    }

    #[test]
    fn what_was_not_checked_is_said() {
        let url = "https://arxiv.org/pdf/2402.03791v3";
        let v = Version::new("2402.03791", 3);
        let j = judge(
            &cap(url, "20240301000000", Some(200)),
            &Payload::Stated,
            &v,
            &[read(Some(N), None)],
        );
        assert!(j.stored);
        let not: Vec<&str> = j.not_checked().collect();
        assert_eq!(not.len(), 3, "{not:?}");
        let full = v
            .announced("2024-02-06T08:14:56Z")
            .numbered(PithNumber::parse(N).unwrap());
        let j = judge(
            &cap(url, "20240301000000", Some(200)),
            &Payload::Hashed(Ok(())),
            &full,
            &[read(Some(N), None)],
        );
        assert!(j.stored && j.not_checked().count() == 0, "{j:?}");
    }

    #[test]
    fn id_months() {
        assert_eq!(id_month("2402.03791").as_deref(), Some("20240201000000"));
        assert_eq!(
            id_month("hep-th/9901001").as_deref(),
            Some("19990101000000")
        );
        assert_eq!(id_month("0704.0001").as_deref(), Some("20070401000000"));
        assert_eq!(id_month("2413.00001"), None);
    }
}
