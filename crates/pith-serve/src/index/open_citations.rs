//! The citations of the indexed papers in OpenCitations' shape (COCI's `oci`, `citing`,
//! `cited`, `creation`, `timespan`), as `pith serve --export` writes them: one edge at a time,
//! read in the table's order with the dates the index holds, so an export of any number of
//! edges holds one in memory.

use serde::Serialize;

use super::{Error, Index};

/// The edges with the dates [`OpenCitation`] needs: the citing version's date (the version
/// the list was read from, else the latest indexed; none when the citing paper is not
/// indexed) and the cited paper's first submission (an indexed arXiv paper only). A paper
/// never cites itself.
const EDGES: &str = "
SELECT c.citing, c.kind, c.cited,
  COALESCE(
    (SELECT CASE WHEN version_date = '' THEN submitted_at ELSE version_date END FROM records
      WHERE arxiv_id = c.citing AND version = c.citing_version AND superseded = 0),
    (SELECT CASE WHEN version_date = '' THEN submitted_at ELSE version_date END FROM records
      WHERE arxiv_id = c.citing AND superseded = 0 ORDER BY version DESC LIMIT 1)),
  CASE WHEN c.kind = 'arxiv' THEN
    (SELECT submitted_at FROM records WHERE arxiv_id = c.cited AND superseded = 0
      ORDER BY version DESC LIMIT 1) END
FROM cites c WHERE NOT (c.kind = 'arxiv' AND c.cited = c.citing)
ORDER BY c.citing, c.kind, c.cited";

impl Index {
    /// Hands `each` every edge whose citing paper is in the index, in OpenCitations' shape:
    /// papers are named by DOI (an arXiv paper by its arXiv DOI, `10.48550/arxiv.ID`),
    /// `creation` is the citing version's date, `timespan` the time from the cited paper's
    /// first version to it (ISO 8601, as `P1Y2M3D`), empty when the cited paper is not in the
    /// index. Rows are read one at a time. Returns how many were handed.
    ///
    /// # Errors
    /// [`super::ErrorKind::Sqlite`], and `each`'s.
    pub fn open_citations(
        &self,
        each: &mut dyn FnMut(&OpenCitation) -> Result<(), Error>,
    ) -> Result<u64, Error> {
        let r = self.read(|c| {
            let mut st = c.prepare(EDGES)?;
            let mut rows = st.query([])?;
            let mut n = 0;
            while let Some(r) = rows.next()? {
                let Some(creation) = r.get::<_, Option<String>>(3)? else {
                    continue;
                };
                let citing: String = r.get(0)?;
                let kind: String = r.get(1)?;
                let cited: String = r.get(2)?;
                let cited_date = r.get::<_, Option<String>>(4)?.map(|d| date_of(&d));
                let creation = date_of(&creation);
                let cited_doi = match kind.as_str() {
                    "arxiv" => arxiv_doi(&cited),
                    _ => cited,
                };
                let citing_doi = arxiv_doi(&citing);
                each(&OpenCitation {
                    oci: oci(&citing_doi, &cited_doi),
                    timespan: cited_date
                        .map(|d| timespan(&d, &creation))
                        .unwrap_or_default(),
                    citing: citing_doi,
                    cited: cited_doi,
                    creation,
                })?;
                n += 1;
            }
            Ok(n)
        });
        match r {
            Err(err) => match err.kind() {
                super::ErrorKind::Sqlite(s) if s.to_string().contains("no such table") => Ok(0),
                _ => Err(err),
            },
            ok => ok,
        }
    }
}

/// One citation as OpenCitations' COCI publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenCitation {
    /// The Open Citation Identifier: `oci:020…-020…`, each DOI (without `10.`) in
    /// OpenCitations' two-digit code.
    pub oci: String,
    /// The citing paper's DOI.
    pub citing: String,
    /// The cited work's DOI.
    pub cited: String,
    /// The citing paper's date, `YYYY-MM-DD`.
    pub creation: String,
    /// From the cited paper's date to the citing one's, ISO 8601 (`P2Y1M3D`); empty when
    /// unknown.
    pub timespan: String,
}

fn arxiv_doi(id: &str) -> String {
    format!("10.48550/arxiv.{}", id.to_ascii_lowercase())
}

fn date_of(ts: &str) -> String {
    ts.get(..10).unwrap_or(ts).to_owned()
}

/// OpenCitations' lookup table (`lookup.csv` of the OCI specification) for the characters
/// of DOIs: digits `00`–`09`, letters `10`–`35`, then punctuation.
fn oci_code(c: char) -> Option<&'static str> {
    const PUNCT: [(char, &str); 33] = [
        ('/', "36"),
        ('.', "37"),
        (':', "38"),
        (';', "39"),
        ('<', "40"),
        ('=', "41"),
        ('>', "42"),
        ('?', "43"),
        ('@', "44"),
        ('[', "45"),
        ('\\', "46"),
        (']', "47"),
        ('^', "48"),
        ('_', "49"),
        ('`', "50"),
        ('!', "51"),
        ('"', "52"),
        ('#', "53"),
        ('$', "54"),
        ('%', "55"),
        ('&', "56"),
        ('\'', "57"),
        ('(', "58"),
        (')', "59"),
        ('*', "60"),
        ('+', "61"),
        (',', "62"),
        ('-', "63"),
        ('{', "64"),
        ('|', "65"),
        ('}', "66"),
        ('~', "67"),
        (' ', "68"),
    ];
    const DIGITS: [&str; 36] = [
        "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14",
        "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
        "30", "31", "32", "33", "34", "35",
    ];
    match c.to_ascii_lowercase() {
        d @ '0'..='9' => Some(DIGITS[d as usize - '0' as usize]),
        l @ 'a'..='z' => Some(DIGITS[10 + l as usize - 'a' as usize]),
        p => PUNCT.iter().find(|(k, _)| *k == p).map(|(_, v)| *v),
    }
}

/// The OCI of a citation between two DOIs, as COCI (supplier prefix `020`) writes it.
pub fn oci(citing: &str, cited: &str) -> String {
    let enc = |doi: &str| -> String {
        let body = doi.strip_prefix("10.").unwrap_or(doi);
        let mut s = String::from("020");
        for c in body.chars() {
            // A character outside the table: its code point, so the identifier stays one.
            match oci_code(c) {
                Some(code) => s.push_str(code),
                None => s.push_str(&format!("9{}", c as u32)),
            }
        }
        s
    };
    format!("oci:{}-{}", enc(citing), enc(cited))
}

/// The ISO 8601 duration from `from` to `to` (dates `YYYY-MM-DD`), `-P…` when `to` is earlier.
fn timespan(from: &str, to: &str) -> String {
    let parse = |d: &str| -> Option<(i32, i32, i32)> {
        let mut it = d.split('-').map(|p| p.parse::<i32>().ok());
        Some((it.next()??, it.next()??, it.next()??))
    };
    let (Some(a), Some(b)) = (parse(from), parse(to)) else {
        return String::new();
    };
    let (sign, (y0, m0, d0), (y1, m1, d1)) = if b >= a { ("", a, b) } else { ("-", b, a) };
    // Whole months first (the start moved on by them, its day kept or clamped to the month's
    // last), then the days left, as date libraries count them.
    let mut months = (y1 - y0) * 12 + (m1 - m0);
    if d1 < d0 {
        months -= 1;
    }
    let (ay, am) = (y0 + (m0 - 1 + months) / 12, (m0 - 1 + months) % 12 + 1);
    let ad = d0.min(month_days(ay, am));
    let d = days(y1, m1, d1) - days(ay, am, ad);
    let (y, m) = (months / 12, months % 12);
    let mut s = format!("{sign}P");
    if y > 0 {
        s.push_str(&format!("{y}Y"));
    }
    if m > 0 {
        s.push_str(&format!("{m}M"));
    }
    if d > 0 || (y == 0 && m == 0) {
        s.push_str(&format!("{d}D"));
    }
    s
}

fn month_days(y: i32, m: i32) -> i32 {
    match m {
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
fn days(y: i32, m: i32, d: i32) -> i32 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oci_as_coci_writes_it() {
        // COCI's own example pair: 10.1002/j… starts 0200100000236 19…
        let o = oci("10.1002/j", "10.48550/arxiv.1706.03762");
        assert!(o.starts_with("oci:020010000023619-020"), "{o}");
        assert!(!o.contains(char::is_alphabetic) || o.starts_with("oci:"));
    }

    #[test]
    fn timespans() {
        assert_eq!(timespan("2017-06-12", "2024-02-06"), "P6Y7M25D");
        assert_eq!(timespan("2020-01-31", "2020-03-01"), "P1M1D");
        assert_eq!(timespan("2019-12-31", "2020-02-29"), "P1M29D");
        assert_eq!(timespan("2020-01-01", "2020-01-01"), "P0D");
        assert_eq!(timespan("2021-01-01", "2020-01-01"), "-P1Y");
    }
}
