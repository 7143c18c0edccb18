//! Cross-reference sections of an update (ISO 32000-2 §7.5.4, §7.5.8): a classic table with
//! its trailer, or an xref stream whose dictionary is the trailer, each ending with
//! `startxref` and `%%EOF`. Offsets are counted from the same base as the file's own
//! ([`Pdf::delta`](crate::Pdf::delta)).

use std::collections::BTreeMap;

use crate::reader::Entry;
use crate::syntax::Ref;
use crate::{Error, ErrorKind};

/// The smallest number of bytes that holds `v` (an xref stream `/W` field width).
pub fn bytes_needed(v: u64) -> usize {
    let mut n = 1;
    while n < 8 && v >> (8 * n) != 0 {
        n += 1;
    }
    n
}

/// Writes an xref table for `offsets` (sorted by object number; consecutive numbers share a
/// subsection) followed by `trailer << /Size size <entries> /Prev prev >>`, `startxref` and
/// `%%EOF`; `xref_pos` is the table's own offset.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when an offset does not fit a 10-digit table entry.
pub fn table(
    out: &mut Vec<u8>,
    offsets: &[(Ref, u64)],
    size: u32,
    entries: &[u8],
    prev: u64,
    xref_pos: u64,
) -> Result<(), Error> {
    let mut s = String::from("xref\n");
    let mut i = 0;
    while i < offsets.len() {
        let mut j = i + 1;
        while j < offsets.len() && offsets[j].0.num == offsets[j - 1].0.num + 1 {
            j += 1;
        }
        s.push_str(&format!("{} {}\n", offsets[i].0.num, j - i));
        for &(r, off) in &offsets[i..j] {
            if off > 9_999_999_999 {
                return Err(Error::new(ErrorKind::Unsupported(
                    "offset too large for an xref table entry (over 10 digits)".into(),
                ))
                .at_offset(off));
            }
            s.push_str(&format!("{off:010} {:05} n\r\n", r.gen));
        }
        i = j;
    }
    s.push_str(&format!("trailer\n<< /Size {size} "));
    out.extend_from_slice(s.as_bytes());
    out.extend_from_slice(entries);
    out.extend_from_slice(format!(" /Prev {prev} >>\nstartxref\n{xref_pos}\n%%EOF\n").as_bytes());
    Ok(())
}

/// Writes xref stream object `id` at `xref_pos` listing `offsets` (sorted, including its own
/// entry), with `entries` and `/Prev prev` in its dictionary, then `startxref` and `%%EOF`.
pub fn stream(
    out: &mut Vec<u8>,
    id: Ref,
    offsets: &[(Ref, u64)],
    size: u32,
    entries: &[u8],
    prev: u64,
    xref_pos: u64,
) {
    let w2 = bytes_needed(xref_pos.max(offsets.iter().map(|o| o.1).max().unwrap_or(0)));
    let mut data = Vec::new();
    let mut index = String::new();
    for &(r, off) in offsets {
        index.push_str(&format!("{} 1 ", r.num));
        data.push(1u8);
        data.extend_from_slice(&off.to_be_bytes()[8 - w2..]);
        data.extend_from_slice(&r.gen.to_be_bytes());
    }
    let mut body = format!(
        "<< /Type /XRef /Size {size} /W [1 {w2} 2] /Index [{}] ",
        index.trim_end()
    )
    .into_bytes();
    body.extend_from_slice(entries);
    body.extend_from_slice(format!(" /Prev {prev} /Length {} >>\nstream\n", data.len()).as_bytes());
    body.extend_from_slice(&data);
    body.extend_from_slice(b"\nendstream");
    out.extend_from_slice(format!("{} {} obj\n", id.num, id.gen).as_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(b"\nendobj\n");
    out.extend_from_slice(format!("startxref\n{xref_pos}\n%%EOF\n").as_bytes());
}

/// One row of a complete section: type, field 2, field 3 (ISO 32000-2 Table 18).
fn row(n: u32, rows: &BTreeMap<u32, Entry>) -> (u8, u64, u64) {
    match rows.get(&n) {
        Some(Entry::Offset(o, g)) => (1, *o, u64::from(*g)),
        Some(Entry::InStream(s, i)) => (2, u64::from(*s), u64::from(*i)),
        _ => (0, 0, if n == 0 { 65535 } else { 0 }),
    }
}

/// Writes a complete xref table (objects 0 to `size - 1`, free where `rows` has nothing) and
/// `trailer << /Size size <entries> >>` without `/Prev`, then `startxref` and `%%EOF`: the
/// section of a repaired file (`--repair`), which replaces the broken chain.
///
/// # Errors
/// [`ErrorKind::Unsupported`] when an offset does not fit a 10-digit entry or an object is
/// in an object stream (a table cannot say so).
pub(crate) fn full_table(
    out: &mut Vec<u8>,
    size: u32,
    rows: &BTreeMap<u32, Entry>,
    entries: &[u8],
    xref_pos: u64,
) -> Result<(), Error> {
    let mut s = format!("xref\n0 {size}\n");
    for n in 0..size {
        match row(n, rows) {
            (1, off, g) if off <= 9_999_999_999 => s.push_str(&format!("{off:010} {g:05} n\r\n")),
            (0, _, g) => s.push_str(&format!("0000000000 {g:05} f\r\n")),
            _ => {
                return Err(Error::new(ErrorKind::Unsupported(
                    "an entry an xref table cannot hold".into(),
                )))
            }
        }
    }
    s.push_str(&format!("trailer\n<< /Size {size} "));
    out.extend_from_slice(s.as_bytes());
    out.extend_from_slice(entries);
    out.extend_from_slice(format!(" >>\nstartxref\n{xref_pos}\n%%EOF\n").as_bytes());
    Ok(())
}

/// Writes a complete xref stream (its own object is in `rows`; objects 0 to `size - 1`) with
/// `entries` in its dictionary and no `/Prev`, then `startxref` and `%%EOF`.
pub(crate) fn full_stream(
    out: &mut Vec<u8>,
    size: u32,
    rows: &BTreeMap<u32, Entry>,
    entries: &[u8],
    xref_pos: u64,
) {
    let top = rows
        .values()
        .map(|e| match e {
            Entry::Offset(o, _) => *o,
            Entry::InStream(s, _) => u64::from(*s),
            Entry::Free => 0,
        })
        .max()
        .unwrap_or(0);
    let w2 = bytes_needed(top.max(xref_pos));
    let mut data = Vec::new();
    for n in 0..size {
        let (t, f2, f3) = row(n, rows);
        data.push(t);
        data.extend_from_slice(&f2.to_be_bytes()[8 - w2..]);
        data.extend_from_slice(&(f3.min(65535) as u16).to_be_bytes());
    }
    let id = rows
        .iter()
        .find(|(_, e)| matches!(e, Entry::Offset(o, _) if *o == xref_pos))
        .map_or(size.saturating_sub(1), |(n, _)| *n);
    let mut body = format!("<< /Type /XRef /Size {size} /W [1 {w2} 2] ").into_bytes();
    body.extend_from_slice(entries);
    body.extend_from_slice(format!(" /Length {} >>\nstream\n", data.len()).as_bytes());
    body.extend_from_slice(&data);
    body.extend_from_slice(b"\nendstream");
    out.extend_from_slice(format!("{id} 0 obj\n").as_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(b"\nendobj\n");
    out.extend_from_slice(format!("startxref\n{xref_pos}\n%%EOF\n").as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(bytes_needed(0), 1);
        assert_eq!(bytes_needed(255), 1);
        assert_eq!(bytes_needed(256), 2);
        assert_eq!(bytes_needed(u64::MAX), 8);
    }

    #[test]
    fn table_groups_consecutive_numbers_into_subsections() {
        let mut out = Vec::new();
        let offs = [
            (Ref::new(3, 0), 100),
            (Ref::new(4, 1), 200),
            (Ref::new(9, 0), 300),
        ];
        table(&mut out, &offs, 10, b"/Root 1 0 R", 50, 400).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "xref\n3 2\n0000000100 00000 n\r\n0000000200 00001 n\r\n9 1\n0000000300 00000 n\r\n\
             trailer\n<< /Size 10 /Root 1 0 R /Prev 50 >>\nstartxref\n400\n%%EOF\n"
        );
        let mut out = Vec::new();
        assert!(table(&mut out, &[(Ref::new(1, 0), 10_000_000_000)], 2, b"", 0, 0).is_err());
    }

    #[test]
    fn complete_sections_list_every_object_from_zero() {
        let rows: BTreeMap<u32, Entry> = [(1, Entry::Offset(15, 0)), (3, Entry::Offset(300, 2))]
            .into_iter()
            .collect();
        let mut out = Vec::new();
        full_table(&mut out, 4, &rows, b"/Root 1 0 R", 400).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "xref\n0 4\n0000000000 65535 f\r\n0000000015 00000 n\r\n0000000000 00000 f\r\n\
             0000000300 00002 n\r\ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n400\n%%EOF\n"
        );
        let mut with_stm = rows.clone();
        with_stm.insert(2, Entry::InStream(3, 1));
        assert!(full_table(&mut Vec::new(), 4, &with_stm, b"", 400).is_err());
        with_stm.insert(4, Entry::Offset(0x1234, 0));
        let mut out = Vec::new();
        full_stream(&mut out, 5, &with_stm, b"/Root 1 0 R", 0x1234);
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with(
            "4 0 obj\n<< /Type /XRef /Size 5 /W [1 2 2] /Root 1 0 R /Length 25 >>\nstream\n"
        ));
        assert!(!text.contains("/Prev"));
        let i = out.windows(7).position(|w| w == b"stream\n").unwrap() + 7;
        assert_eq!(
            &out[i..i + 25],
            &[
                0, 0, 0, 0xff, 0xff, 1, 0, 15, 0, 0, 2, 0, 3, 0, 1, 1, 1, 0x2c, 0, 2, 1, 0x12,
                0x34, 0, 0
            ]
        );
    }

    #[test]
    fn stream_rows_are_big_endian_with_minimal_width() {
        let mut out = Vec::new();
        let offs = [(Ref::new(5, 0), 0x1234), (Ref::new(6, 0), 0x1300)];
        stream(
            &mut out,
            Ref::new(6, 0),
            &offs,
            7,
            b"/Root 1 0 R",
            9,
            0x1300,
        );
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with(
            "6 0 obj\n<< /Type /XRef /Size 7 /W [1 2 2] /Index [5 1 6 1] /Root 1 0 R /Prev 9 /Length 10 >>\nstream\n"
        ));
        let i = out.windows(7).position(|w| w == b"stream\n").unwrap() + 7;
        assert_eq!(&out[i..i + 10], &[1, 0x12, 0x34, 0, 0, 1, 0x13, 0, 0, 0]);
        assert!(text.ends_with("\nendstream\nendobj\nstartxref\n4864\n%%EOF\n"));
    }
}
