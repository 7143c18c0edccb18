//! Known answers of every filter and predictor, the bounds, and the limits of one stream.

use super::*;
use crate::syntax::Parser;
use std::io::Write;

fn dict(s: &str) -> Dict {
    Parser::new(s.as_bytes(), 0, true).dict().unwrap()
}

fn decode_stream(d: &Dict, data: &[u8]) -> Result<Vec<u8>, FilterError> {
    decode(d, data, MAX_DECODED, &Limits::default())
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
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
    // ASCII85: the example of the PostScript reference ("Man ") and a `z` group, then
    // a partial group of 3 characters for 2 bytes.
    assert_eq!(
        decode_stream(&dict("<< /Filter /A85 >>"), b"9jqo^ z\n@:B~>").unwrap(),
        b"Man \0\0\0\0ab"
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
fn lzw_through_weezl() {
    let data = b"-----A---B LZW LZW LZW LZW repeated text";
    let mut enc = weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
    let coded = enc.encode(data).unwrap();
    assert_eq!(
        decode_stream(&dict("<< /Filter /LZWDecode >>"), &coded).unwrap(),
        data
    );
    let mut enc = weezl::encode::Encoder::new(weezl::BitOrder::Msb, 8);
    let coded = enc.encode(data).unwrap();
    let d = dict("<< /Filter /LZW /DecodeParms << /EarlyChange 0 >> >>");
    assert_eq!(decode_stream(&d, &coded).unwrap(), data);
}

#[test]
fn tiff_predictor() {
    let d = dict("<< /Filter /FlateDecode /DecodeParms << /Predictor 2 /Columns 3 >> >>");
    assert_eq!(decode_stream(&d, &deflate(&[1, 1, 1])).unwrap(), [1, 2, 3]);
}

#[test]
fn a_cut_flate_stream_ends_with_what_was_decoded() {
    let text = b"BT (some page text) Tj ET ".repeat(200);
    let z = deflate(&text);
    let out = decode_stream(&dict("<< /Filter /FlateDecode >>"), &z[..z.len() - 4]).unwrap();
    assert!(text.starts_with(&out) && out.len() > text.len() / 2);
}

#[test]
fn decoding_stops_at_the_bound() {
    // 64 MiB of zeros compress to some 64 KB; a 1 MiB bound reads 1 MiB + 1 byte only.
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        e.write_all(&zeros).unwrap();
    }
    let z = e.finish().unwrap();
    let d = dict("<< /Filter /FlateDecode >>");
    let l = Limits::default();
    assert_eq!(
        decode(&d, &z, 1 << 20, &l),
        Err(FilterError::TooLarge(1 << 20))
    );
    assert_eq!(decode(&d, &z, 64 << 20, &l).unwrap().len(), 64 << 20);
    // A scan reads what it needs.
    let head = read_prefix(Decoder::new(&d, &z[..], &l).unwrap(), 10).unwrap();
    assert_eq!(head, [0; 10]);
    // Unfiltered data is bounded too.
    assert_eq!(
        decode(&dict("<< >>"), b"abc", 2, &l),
        Err(FilterError::TooLarge(2))
    );
}

#[test]
fn unknown_and_broken_filters_are_refused() {
    let e = decode_stream(&dict("<< /Filter /JBIG2Decode >>"), b"").unwrap_err();
    assert!(e.to_string().contains("unsupported filter /JBIG2Decode"));
    let bad_row = dict("<< /Filter /Fl /DecodeParms << /Predictor 12 /Columns 1 >> >>");
    assert!(decode_stream(&bad_row, &deflate(&[9, 1])).is_err());
    assert!(decode_stream(&dict("<< /Filter 3 >>"), b"").is_err());
    let huge_rows =
        dict("<< /Filter /Fl /DecodeParms << /Predictor 12 /Columns 16777216 /Colors 64 >> >>");
    assert!(matches!(
        decode_stream(&huge_rows, &deflate(&[0, 1])),
        Err(FilterError::Unsupported(_))
    ));
    assert!(decode_stream(&dict("<< /Filter /A85 >>"), b"9jzqo").is_err());
}

/// Where a broken Flate stream ends does not depend on the size of the reads (found by
/// the `filters` fuzz target: a corrupt stream decoded whole gave more than read in
/// pieces).
#[test]
fn a_broken_flate_stream_ends_alike_however_it_is_read() {
    let text: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let mut z = deflate(&text);
    let at = z.len() / 2;
    z[at] ^= 0x55;
    z[at + 1] ^= 0xaa;
    let d = dict("<< /Filter /FlateDecode >>");
    let l = Limits::default();
    let whole = decode(&d, &z, MAX_DECODED, &l).unwrap();
    // Reads smaller than the decoder's buffer, larger (made into the reader's own memory),
    // and the two in turn.
    for pieces in [
        &[1usize][..],
        &[7],
        &[4096],
        &[100_000],
        &[40_000, 7, 32 << 10, 3],
    ] {
        let mut dec = Decoder::new(&d, &z[..], &l).unwrap();
        let mut got = Vec::new();
        let mut buf = vec![0u8; 100_000];
        for piece in pieces.iter().cycle() {
            let n = dec.read(&mut buf[..*piece]).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, whole, "reads of {pieces:?}");
    }
}

/// The `filters` fuzz target's seeds (a dictionary line, then the data), among them what
/// it found: decoded whole and in reads of 7 bytes, each gives the same bytes.
#[test]
fn the_fuzz_seeds_decode_alike_whole_and_in_pieces() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds/filters");
    let l = Limits::default();
    let mut seen = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let input = std::fs::read(e.unwrap().path()).unwrap();
        let cut = input
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(input.len());
        let data = input.get(cut + 1..).unwrap_or(&[]);
        let Ok(d) = Parser::new(&input[..cut], 0, true).dict() else {
            continue;
        };
        let (Ok(whole), Ok(mut dec)) = (decode(&d, data, 4 << 20, &l), Decoder::new(&d, data, &l))
        else {
            continue;
        };
        let mut got = Vec::new();
        let mut buf = [0u8; 7];
        while let Ok(n) = dec.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, whole);
        seen += 1;
    }
    assert!(seen >= 8, "{seen} seeds decoded");
}

#[test]
fn chains_are_refused_over_the_limits_of_one_stream() {
    let l = Limits::default();
    let chain = |name: &str, n: usize, parm: &str| {
        dict(&format!(
            "<< /Filter [{}] /DecodeParms [{}] >>",
            format!("{name} ").repeat(n),
            format!("{parm} ").repeat(n)
        ))
    };
    // As many filters as the limit allows decode; one more is refused before any is
    // built, however many the stream names.
    let hex = chain("/AHx", l.filters as usize, "null");
    assert!(decode(&hex, b"30>", 10, &l).is_ok());
    for n in [l.filters as usize + 1, 100_000] {
        assert_eq!(
            decode(&chain("/AHx", n, "null"), b"", 10, &l),
            Err(FilterError::OverLimit(Resource::Filters, l.filters))
        );
    }
    assert!(decode(&chain("/Fl", 60_000, "null"), b"", 10, &l).is_err());
    // Sixteen Flate stages fit what a chain may hold; Flate stages of 1 MiB predictor
    // rows do not, from the fourth on.
    assert!(decode(&chain("/Fl", 16, "null"), b"", 10, &l).is_ok());
    let rows = "<< /Predictor 12 /Columns 1048576 >>";
    assert!(decode(&chain("/Fl", 3, rows), b"", 10, &l).is_ok());
    for n in [4, 1000] {
        let want = if n > 16 {
            Resource::Filters
        } else {
            Resource::DecoderBytes
        };
        assert_eq!(
            decode(&chain("/Fl", n, rows), b"", 10, &l),
            Err(FilterError::OverLimit(want, l.get(want)))
        );
    }
}
