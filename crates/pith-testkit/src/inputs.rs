//! Outside inputs that are not PDFs, built to be expensive to read: WARC files, CDX lines and
//! the CDX API's JSON, `pith refs` lines, `.bbl` files and source tars, each small on disk
//! (gzip where the format allows) and costly to a reader that holds what it is given. The PDF
//! text shapes (CMaps, Type 1 encodings, long `TJ` arrays) are [`crate::shapes`]' `text_*`.

use std::io::Write;

/// One input: its file name (the extension tells the reader what it is) and its bytes.
#[derive(Debug, Clone)]
pub struct Input {
    /// The file name to write it under.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

fn input(name: &str, bytes: Vec<u8>) -> Input {
    Input {
        name: name.to_owned(),
        bytes,
    }
}

/// Gzip of `parts` written one after another (one member), `parts` repeated `times`.
pub fn gzip_repeat(head: &[u8], part: &[u8], times: usize) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(head).unwrap();
    for _ in 0..times {
        z.write_all(part).unwrap();
    }
    z.finish().unwrap()
}

/// A WARC `response` record of `url` at `date`: an HTTP `status` answer (`200 OK`, `404 Not
/// Found`, …) carrying `body` as a PDF, its payload digest stated as `sha1:{digest}` (the
/// body's own SHA-1 for a sound record, another for a tampered one).
pub fn warc_response(url: &str, status: &str, date: &str, body: &[u8], digest: &str) -> Vec<u8> {
    let mut block =
        format!("HTTP/1.1 {status}\r\nContent-Type: application/pdf\r\n\r\n").into_bytes();
    block.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n\
         WARC-Payload-Digest: sha1:{digest}\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(&block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A WARC `response` record of `uri` answering a tiny PDF with HTTP 200.
pub fn warc_record(uri: &str) -> Vec<u8> {
    let block = b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n";
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-02-07T10:11:12Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A CDX line of `url` with a well-formed digest.
pub fn cdx_line(url: &str) -> String {
    format!(
        "org,arxiv)/pdf/x 20240207101112 {url} application/pdf 200 VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5 1234\n"
    )
}

/// The capture inputs at scale `k` (1 for the quick tier's small sizes; the sizes at
/// about 10): each a file a capture reader must end in a result or one refusal.
pub fn captures(k: usize) -> Vec<Input> {
    let url = "https://arxiv.org/pdf/2402.03791v3";
    let mut folded = b"WARC/1.0\r\nWARC-Type: response\r\nX: a\r\n".to_vec();
    for _ in 0..50_000 * k {
        folded.extend_from_slice(b" a folded continuation of the header line above\r\n");
    }
    let long_uri = format!("{url}?{}", "a".repeat(16_000));
    let json_row = format!(
        ",[\"k\",\"20240207101112\",\"{url}\",\"application/pdf\",\"200\",\"VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\",\"1\"]"
    );
    let mut cut = gzip_repeat(b"", &warc_record(url), 1000);
    cut.truncate(cut.len() / 2);
    vec![
        input("folded.warc", folded),
        input(
            "long-uris.warc.gz",
            gzip_repeat(b"", &warc_record(&long_uri), 10_000 * k),
        ),
        input(
            "tiny-records.warc.gz",
            gzip_repeat(b"", &warc_record(url), 100_000 * k),
        ),
        input(
            "newlines.warc.gz",
            gzip_repeat(b"", &[b'\n'; 1 << 20], 100 * k),
        ),
        input("cut.warc.gz", cut),
        input(
            "junk.cdx",
            b"junk line of no capture at all\n".repeat(200_000 * k),
        ),
        input("valid.cdx", cdx_line(url).repeat(100_000 * k).into_bytes()),
        input(
            "rows.cdx",
            format!(
                "[[\"urlkey\",\"timestamp\",\"original\",\"mimetype\",\"statuscode\",\"digest\",\"length\"]{}]",
                json_row.repeat(100_000 * k)
            )
            .into_bytes(),
        ),
        input(
            "one-row.cdx",
            format!("[[\"timestamp\",\"original\",\"digest\"],[\"{}\"]]", "x".repeat(1 << 20))
                .into_bytes(),
        ),
        input("binary.cdx", b"\xff\xfe\x00 not text\n".repeat(1000)),
    ]
}

/// `pith refs` line inputs for `pith index --refs`: a line of 256 MiB × `k` (gzip, a few
/// hundred KB), and a million junk lines × `k`.
pub fn refs_lines(k: usize) -> Vec<Input> {
    vec![
        input(
            "long-line.jsonl.gz",
            gzip_repeat(b"{\"file\":\"", &[b'x'; 1 << 20], 256 * k),
        ),
        input(
            "junk.jsonl.gz",
            gzip_repeat(b"", b"not a line of pith refs\n", 1_000_000 * k),
        ),
    ]
}

/// A `.bbl` citing one DOI followed by `dots` dots (the trimming of a DOI's trailing
/// punctuation is the cost).
pub fn bbl_dots(dots: usize) -> Vec<u8> {
    format!(
        "\\bibitem{{a}} A. Author. doi:10.1000/abc{}\n",
        ".".repeat(dots)
    )
    .into_bytes()
}

/// A gzip source tar (ustar) of `members`.
pub fn source_tar(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut tar = Vec::new();
    for (name, data) in members {
        tar.extend_from_slice(&ustar_header(name, data.len() as u64));
        tar.extend_from_slice(data);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.extend_from_slice(&[0u8; 1024]);
    gzip_repeat(b"", &tar, 1)
}

/// A gzip source tar with one member of `size` zero bytes (streamed: a few KB per GiB).
pub fn source_tar_of_zeros(size: u64) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&ustar_header("data.bin", size)).unwrap();
    let block = vec![0u8; 1 << 20];
    let mut left = size.div_ceil(512) * 512 + 1024;
    while left > 0 {
        let n = left.min(block.len() as u64) as usize;
        z.write_all(&block[..n]).unwrap();
        left -= n as u64;
    }
    z.finish().unwrap()
}

fn ustar_header(name: &str, size: u64) -> [u8; 512] {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..107].copy_from_slice(b"0000644");
    h[108..115].copy_from_slice(b"0000000");
    h[116..123].copy_from_slice(b"0000000");
    h[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
    h[136..147].copy_from_slice(b"00000000000");
    h[156] = b'0';
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    h
}

/// A one-page PDF whose page shows `content` with the font `font` (object 5) and the objects
/// `extra` after it (6, 7, …), streams compressed.
fn text_pdf(content: &[u8], font: &str, extra: &[Vec<u8>]) -> Vec<u8> {
    let mut objs: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
        flate_stream(content),
        font.as_bytes().to_vec(),
    ];
    objs.extend(extra.iter().cloned());
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let x = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{x}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn flate_stream(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(data).unwrap();
    let z = z.finish().unwrap();
    let mut s = format!("<< /Length {} /Filter /FlateDecode >>\nstream\n", z.len()).into_bytes();
    s.extend_from_slice(&z);
    s.extend_from_slice(b"\nendstream");
    s
}

const TYPE0: &str =
    "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 6 0 R >>";
const HELVETICA: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/// PDFs whose text is expensive to read for `pith refs`, at scale `k` (1: the sizes,
/// each under 40 KB on disk): a `ToUnicode` range of 65,536 codes to long strings, a code
/// mapped to a million characters shown thousands of times, a Type 1 encoding of 200,000
/// `dup` entries, 100,000 lines on one page, a DOI followed by 100,000 dots, a `TJ` array of
/// ten million glyphs.
pub fn text_pdfs(k: usize) -> Vec<Input> {
    let range = format!(
        "begincmap\n1 beginbfrange\n<0000> <FFFF> <{}>\nendbfrange\nendcmap",
        "0041".repeat(2000)
    );
    let big_code = format!(
        "begincmap\n1 beginbfchar\n<0001> <{}>\nendbfchar\nendcmap",
        "0041".repeat(1_000_000 * k)
    );
    let program = [
        &b"%!PS-AdobeFont-1.0: X\n/Encoding 256 array\n"[..],
        &b"dup x /A put\n".repeat(200_000 * k),
        b"readonly def\ncurrentfile eexec\n",
    ]
    .concat();
    let mut lines = b"BT /F1 10 Tf 72 700 Td\n".to_vec();
    lines.extend(b"(a line of text 10.1000/x) Tj 0 -12 Td\n".repeat(100_000 * k));
    lines.extend_from_slice(b"ET");
    let dots = format!(
        "BT /F1 10 Tf 72 700 Td (References) Tj 0 -12 Td (10.1000/abc{}) Tj ET",
        ".".repeat(100_000 * k)
    );
    let tj = [
        &b"BT /F1 10 Tf 72 700 Td ["[..],
        &b"(a)".repeat(10_000_000 * k),
        b"] TJ ET",
    ]
    .concat();
    vec![
        input(
            "cmap-range.pdf",
            text_pdf(
                b"BT /F1 10 Tf 72 700 Td <0001000200030004> Tj ET",
                TYPE0,
                &[flate_stream(range.as_bytes())],
            ),
        ),
        input(
            "cmap-long-code.pdf",
            text_pdf(
                format!("BT /F1 10 Tf 72 700 Td <{}> Tj ET", "0001".repeat(2000)).as_bytes(),
                TYPE0,
                &[flate_stream(big_code.as_bytes())],
            ),
        ),
        input(
            "type1-encoding.pdf",
            text_pdf(
                b"BT /F1 10 Tf 72 700 Td (abc) Tj ET",
                "<< /Type /Font /Subtype /Type1 /BaseFont /X /FontDescriptor 6 0 R >>",
                &[
                    b"<< /Type /FontDescriptor /FontFile 7 0 R >>".to_vec(),
                    flate_stream(&program),
                ],
            ),
        ),
        input("many-lines.pdf", text_pdf(&lines, HELVETICA, &[])),
        input("doi-dots.pdf", text_pdf(dots.as_bytes(), HELVETICA, &[])),
        input("long-tj.pdf", text_pdf(&tj, HELVETICA, &[])),
    ]
}
