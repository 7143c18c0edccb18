//! arXiv's version dates (RFC 2822, `Mon, 2 Apr 2007 19:18:42 GMT`) → the record's
//! `submitted_at` form, UTC `YYYY-MM-DDTHH:MM:SSZ`.
//!
//! Both bulk forms carry these dates: the snapshot's `versions[].created` and arXivRaw's
//! `<version><date>`. The weekday is optional in RFC 2822 and is ignored here (a wrong weekday
//! must not make a paper unnumberable); numeric zones (`+0100`) and the obsolete names RFC 2822
//! allows (`GMT`, `UT`, `EST`…) are converted to UTC.

use chrono::{DateTime, SecondsFormat, Utc};

/// Converts an RFC 2822 date to UTC `YYYY-MM-DDTHH:MM:SSZ`.
///
/// # Errors
/// A one-line reason when the text is not an RFC 2822 date.
///
/// # Examples
/// ```
/// use pith::record::arxiv::date::rfc2822_to_utc;
/// assert_eq!(rfc2822_to_utc("Mon, 2 Apr 2007 19:18:42 GMT").unwrap(), "2007-04-02T19:18:42Z");
/// assert_eq!(rfc2822_to_utc("2 Apr 2007 21:18:42 +0200").unwrap(), "2007-04-02T19:18:42Z");
/// ```
pub fn rfc2822_to_utc(text: &str) -> Result<String, String> {
    let t = text.trim();
    // Drop the weekday ("Mon, "): chrono checks it against the date, arXiv's metadata does not.
    let body = match t.split_once(',') {
        Some((day, rest)) if day.trim().chars().all(|c| c.is_ascii_alphabetic()) => rest.trim(),
        _ => t,
    };
    DateTime::parse_from_rfc2822(body)
        .map(|d| {
            d.with_timezone(&Utc)
                .to_rfc3339_opts(SecondsFormat::Secs, true)
        })
        .map_err(|e| format!("{t:?} is not an RFC 2822 date ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arxiv_dates() {
        for (input, want) in [
            ("Mon, 2 Apr 2007 19:18:42 GMT", "2007-04-02T19:18:42Z"),
            ("Tue, 6 Feb 2024 08:14:56 GMT", "2024-02-06T08:14:56Z"),
            ("Wed, 18 Dec 2024 22:15:11 GMT", "2024-12-18T22:15:11Z"),
            // Wrong weekday: ignored.
            ("Fri, 18 Dec 2024 22:15:11 GMT", "2024-12-18T22:15:11Z"),
            ("  18 Dec 2024 17:15:11 EST ", "2024-12-18T22:15:11Z"),
            ("Thu, 31 Dec 1992 23:30:00 -0100", "1993-01-01T00:30:00Z"),
            ("Mon, 02 Apr 2007 19:18:42 UT", "2007-04-02T19:18:42Z"),
        ] {
            assert_eq!(rfc2822_to_utc(input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn rejects_non_dates() {
        for bad in [
            "",
            "2007-04-02T19:18:42Z",
            "Mon, 31 Feb 2007 19:18:42 GMT",
            "Mon, 2 Apr 2007 25:18:42 GMT",
            "yesterday",
        ] {
            let e = rfc2822_to_utc(bad).unwrap_err();
            assert!(e.contains("not an RFC 2822 date"), "{e}");
        }
    }
}
