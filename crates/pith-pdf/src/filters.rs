//! Stream filters (ISO 32000-2 §7.4): decoding the data of the streams pith reads (xref
//! streams, object streams, XMP packets). One function per filter; Flate, LZW and ASCII85 go
//! through lopdf, ASCIIHex, RunLength and the PNG/TIFF predictors are here (lopdf 0.36 lacks
//! them or TIFF). Decoding only: pith writes its streams unfiltered. Every output is bounded by
//! [`MAX_DECODED`] so a decompression bomb is refused, not allocated.

use super::reader::damaged;
use super::syntax::{Dict, Obj};
use super::Error;

/// Largest decoded stream accepted (xref streams, object streams, XMP packets).
pub const MAX_DECODED: usize = 256 << 20;

/// Decodes stream data through its `/Filter` chain (abbreviated names included): Flate, LZW and ASCII85 through lopdf,
/// ASCIIHex, RunLength and the PNG/TIFF predictors here (lopdf 0.36 lacks them or TIFF).
///
/// # Errors
/// [`ErrorKind::Damaged`](super::ErrorKind::Damaged) when a filter fails, is unsupported or
/// the output exceeds [`MAX_DECODED`].
pub fn decode_stream(d: &Dict, data: &[u8]) -> Result<Vec<u8>, Error> {
    let filters: Vec<Vec<u8>> = match d.get(b"Filter") {
        None | Some(Obj::Null) => return Ok(data.to_vec()),
        Some(Obj::Name(n)) => vec![n.clone()],
        Some(Obj::Array(a)) => a
            .iter()
            .filter_map(|o| o.as_name().map(<[u8]>::to_vec))
            .collect(),
        Some(_) => return Err(damaged("bad /Filter", 0)),
    };
    let parms: Vec<Option<&Dict>> = match d.get(b"DecodeParms").or_else(|| d.get(b"DP")) {
        Some(Obj::Dict(p)) => vec![Some(p)],
        Some(Obj::Array(a)) => a.iter().map(Obj::as_dict).collect(),
        _ => vec![],
    };
    let mut cur = data.to_vec();
    for (i, f) in filters.iter().enumerate() {
        let parm = parms.get(i).copied().flatten();
        let name: &[u8] = match f.as_slice() {
            b"Fl" => b"FlateDecode",
            b"LZW" => b"LZWDecode",
            b"A85" => b"ASCII85Decode",
            b"AHx" => b"ASCIIHexDecode",
            b"RL" => b"RunLengthDecode",
            other => other,
        };
        // A /Crypt filter (§7.4.10) is undone by the security handler before decoding.
        if name == b"Crypt" {
            continue;
        }
        cur = match name {
            b"ASCIIHexDecode" => ascii_hex(&cur),
            b"RunLengthDecode" => run_length(&cur),
            b"FlateDecode" | b"LZWDecode" | b"ASCII85Decode" => {
                let mut ld = lopdf::Dictionary::new();
                ld.set("Filter", lopdf::Object::Name(name.to_vec()));
                if let (Some(p), b"LZWDecode") = (parm, name) {
                    if let Some(Obj::Int(e)) = p.get(b"EarlyChange") {
                        let mut pd = lopdf::Dictionary::new();
                        pd.set("EarlyChange", lopdf::Object::Integer(*e));
                        ld.set("DecodeParms", lopdf::Object::Dictionary(pd));
                    }
                }
                let raw = lopdf::Stream::new(ld, cur)
                    .decompressed_content()
                    .map_err(|e| {
                        damaged(
                            format!("cannot decode a {} stream: {e}", String::from_utf8_lossy(f)),
                            0,
                        )
                    })?;
                if name == b"ASCII85Decode" {
                    raw
                } else {
                    unpredict(raw, parm)?
                }
            }
            other => {
                return Err(damaged(
                    format!("unsupported filter /{}", String::from_utf8_lossy(other)),
                    0,
                ))
            }
        };
        if cur.len() > MAX_DECODED {
            return Err(damaged("decoded stream is too large", 0));
        }
    }
    Ok(cur)
}

fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut hi: Option<u8> = None;
    for &b in data {
        if b == b'>' {
            break;
        }
        let v = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => continue,
        };
        match hi.take() {
            Some(h) => out.push(h << 4 | v),
            None => hi = Some(v),
        }
    }
    if let Some(h) = hi {
        out.push(h << 4);
    }
    out
}

fn run_length(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let n = data[i] as usize;
        i += 1;
        if n == 128 {
            break;
        } else if n < 128 {
            let end = (i + n + 1).min(data.len());
            out.extend_from_slice(&data[i..end]);
            i = end;
        } else if i < data.len() {
            out.extend(std::iter::repeat_n(data[i], 257 - n));
            i += 1;
        }
    }
    out
}

/// Undoes a PNG (10–15) or TIFF (2) predictor (§7.4.4.4).
fn unpredict(data: Vec<u8>, parm: Option<&Dict>) -> Result<Vec<u8>, Error> {
    let Some(p) = parm else { return Ok(data) };
    let get = |k: &[u8], d: i64| p.get(k).and_then(Obj::as_int).unwrap_or(d);
    let predictor = get(b"Predictor", 1);
    if predictor < 2 {
        return Ok(data);
    }
    let colors = get(b"Colors", 1).clamp(1, 64) as usize;
    let bpc = get(b"BitsPerComponent", 8).clamp(1, 16) as usize;
    let columns = get(b"Columns", 1).clamp(1, 1 << 24) as usize;
    let bpp = (colors * bpc).div_ceil(8).max(1);
    let row = (colors * bpc * columns).div_ceil(8);
    if predictor == 2 {
        if bpc != 8 {
            return Err(damaged(
                "TIFF predictor with BitsPerComponent other than 8",
                0,
            ));
        }
        let mut out = data;
        for r in out.chunks_mut(row) {
            for i in bpp..r.len() {
                r[i] = r[i].wrapping_add(r[i - bpp]);
            }
        }
        return Ok(out);
    }
    let mut out = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; row];
    for chunk in data.chunks(row + 1) {
        if chunk.len() < 2 {
            break;
        }
        let (ft, src) = (chunk[0], &chunk[1..]);
        let mut cur = vec![0u8; row];
        cur[..src.len()].copy_from_slice(src);
        for i in 0..row {
            let a = if i >= bpp { cur[i - bpp] } else { 0 };
            let b = prev[i];
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            cur[i] = match ft {
                0 => cur[i],
                1 => cur[i].wrapping_add(a),
                2 => cur[i].wrapping_add(b),
                3 => cur[i].wrapping_add(((u16::from(a) + u16::from(b)) / 2) as u8),
                4 => {
                    let pa = (i16::from(b) - i16::from(c)).abs();
                    let pb = (i16::from(a) - i16::from(c)).abs();
                    let pc = (i16::from(a) + i16::from(b) - 2 * i16::from(c)).abs();
                    let pr = if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    };
                    cur[i].wrapping_add(pr)
                }
                _ => return Err(damaged("bad PNG predictor row type", 0)),
            };
        }
        out.extend_from_slice(&cur[..src.len()]);
        prev = cur;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Parser;

    fn dict(s: &str) -> Dict {
        Parser::new(s.as_bytes(), 0, true).dict().unwrap()
    }

    /// A zlib stream (RFC 1950) holding `data` in one stored deflate block (RFC 1951 §3.2.4).
    fn deflate(data: &[u8]) -> Vec<u8> {
        let n = data.len() as u16;
        let mut out = vec![0x78, 0x01, 0x01];
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(!n).to_le_bytes());
        out.extend_from_slice(data);
        let (mut a, mut b) = (1u32, 0u32);
        for &x in data {
            a = (a + u32::from(x)) % 65521;
            b = (b + a) % 65521;
        }
        out.extend_from_slice(&(b << 16 | a).to_be_bytes());
        out
    }

    #[test]
    fn unfiltered_and_simple_filters() {
        assert_eq!(decode_stream(&dict("<< >>"), b"abc").unwrap(), b"abc");
        assert_eq!(
            decode_stream(&dict("<< /Filter /AHx >>"), b"48 65 6c6C6f7>").unwrap(),
            b"Hellop"
        );
        // RunLength: 2 literal bytes, then 'z' repeated 3 times, then EOD.
        assert_eq!(
            decode_stream(
                &dict("<< /Filter /RunLengthDecode >>"),
                &[1, b'a', b'b', 254, b'z', 128]
            )
            .unwrap(),
            b"abzzz"
        );
    }

    #[test]
    fn flate_chain_and_png_predictor() {
        // Two rows of 3 bytes with the PNG Up predictor (type 2).
        let rows = [2u8, 1, 2, 3, 2, 1, 1, 1];
        let d = dict("<< /Filter [/FlateDecode] /DecodeParms [<< /Predictor 12 /Columns 3 >>] >>");
        assert_eq!(
            decode_stream(&d, &deflate(&rows)).unwrap(),
            [1, 2, 3, 2, 3, 4]
        );
        let d = dict("<< /Filter [/AHx /Fl] >>");
        let hex: String = deflate(b"xmp").iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(decode_stream(&d, hex.as_bytes()).unwrap(), b"xmp");
    }

    #[test]
    fn tiff_predictor() {
        let d = dict("<< /Filter /FlateDecode /DecodeParms << /Predictor 2 /Columns 3 >> >>");
        assert_eq!(decode_stream(&d, &deflate(&[1, 1, 1])).unwrap(), [1, 2, 3]);
    }

    #[test]
    fn unknown_and_broken_filters_are_refused() {
        let e = decode_stream(&dict("<< /Filter /JBIG2Decode >>"), b"").unwrap_err();
        assert!(e.to_string().contains("unsupported filter /JBIG2Decode"));
        let bad_row = dict("<< /Filter /Fl /DecodeParms << /Predictor 12 /Columns 1 >> >>");
        assert!(decode_stream(&bad_row, &deflate(&[9, 1])).is_err());
        assert!(decode_stream(&dict("<< /Filter 3 >>"), b"").is_err());
    }
}
