//! OpenTimestamps proofs built to be expensive, and a stand-in for a calendar or a Bitcoin API.
//!
//! The shapes are the ones seen to cost minutes or gigabytes: a proof full of Bitcoin
//! attestations, one claiming tens of thousands of blocks, calendar answers that are deep, big
//! or fan out, files of the same header repeated a million times. Each is written byte by byte
//! from the format (OpenTimestamps' `.ots`: a header, the file's digest, a tree of operations
//! and attestations), so that the tests check pith's reader from outside; nothing here says
//! what pith should answer.
//!
//! [`StandIn`] serves answers on 127.0.0.1 and counts the requests it answered: the tests
//! count what a proof makes pith ask, never how long it took.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The first bytes of every proof file.
pub const MAGIC: &[u8] = b"\x00OpenTimestamps\x00\x00Proof\x00\xbf\x89\xe2\xe8\x84\xe8\x92\x94";
/// The tag of a Bitcoin attestation.
pub const BITCOIN: [u8; 8] = [0x05, 0x88, 0x96, 0x0d, 0x73, 0xd7, 0x19, 0x01];
/// The tag of a pending attestation.
pub const PENDING: [u8; 8] = [0x83, 0xdf, 0xe3, 0x0d, 0x2e, 0xf9, 0x0c, 0x8e];
/// A tag no one defines: an attestation a reader keeps and never checks.
pub const UNKNOWN: [u8; 8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08];
/// The SHA-256 operation.
pub const SHA256: u8 = 0x08;
/// The append operation (its argument follows).
pub const APPEND: u8 = 0xf0;
/// The byte before every item of a node but its last.
pub const FORK: u8 = 0xff;

/// `v` as LEB128, as the format writes numbers.
pub fn varuint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// `b` with its length before it.
pub fn varbytes(b: &[u8]) -> Vec<u8> {
    let mut out = varuint(b.len() as u64);
    out.extend_from_slice(b);
    out
}

/// An attestation item: tag 0x00, the attestation's tag, its payload.
pub fn attestation(tag: [u8; 8], payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x00];
    out.extend(tag);
    out.extend(varbytes(payload));
    out
}

/// A Bitcoin attestation of block `height`.
pub fn bitcoin(height: u64) -> Vec<u8> {
    attestation(BITCOIN, &varuint(height))
}

/// A pending attestation naming calendar `uri`.
pub fn pending(uri: &str) -> Vec<u8> {
    attestation(PENDING, &varbytes(uri.as_bytes()))
}

/// An append of `arg`, followed by the node it leads to (`next`, a tree).
pub fn append(arg: &[u8], next: &[u8]) -> Vec<u8> {
    let mut out = vec![APPEND];
    out.extend(varbytes(arg));
    out.extend_from_slice(next);
    out
}

/// A SHA-256, followed by the node it leads to.
pub fn sha256(next: &[u8]) -> Vec<u8> {
    let mut out = vec![SHA256];
    out.extend_from_slice(next);
    out
}

/// One node holding `items` (attestations or operations with their nodes): a fork byte before
/// each but the last.
pub fn node(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if i + 1 < items.len() {
            out.push(FORK);
        }
        out.extend_from_slice(item);
    }
    out
}

/// A proof file: the header, version 1, SHA-256 as the file's hash, `digest`, then `tree`.
pub fn proof(digest: &[u8; 32], tree: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend([0x01, SHA256]);
    out.extend(digest);
    out.extend_from_slice(tree);
    out
}

/// A proof of `digest` about `bytes` long, every item a Bitcoin attestation of block
/// `height` right on the digest (none arrives at a merkle root): the shape that made a
/// reader compare every attestation with every header. 1 MiB holds 87,000 of them.
pub fn many_attestations(digest: &[u8; 32], height: u64, bytes: usize) -> Vec<u8> {
    let one = bitcoin(height);
    let n = (bytes.saturating_sub(MAGIC.len() + 34) / (one.len() + 1)).max(1);
    proof(digest, &node(&vec![one; n]))
}

/// A proof of `digest` claiming `n` different blocks, `from` on, each attestation right on
/// the digest: with a Bitcoin API set, a reader that fetches every block claimed asks for
/// `n` headers.
pub fn many_heights(digest: &[u8; 32], from: u64, n: usize) -> Vec<u8> {
    let items: Vec<Vec<u8>> = (0..n as u64).map(|i| bitcoin(from + i)).collect();
    proof(digest, &node(&items))
}

/// A tree of `depth` SHA-256 operations in a row, then `end` (an attestation): as deep as
/// the format allows at 256, and deeper once merged under another proof's operations.
pub fn deep(depth: usize, end: &[u8]) -> Vec<u8> {
    let mut out = vec![SHA256; depth];
    out.extend_from_slice(end);
    out
}

/// A node of `n` appends of different arguments, each leading to `end`: merged naively (each
/// operation compared with every one already there), `n` operations cost `n²/2` comparisons.
pub fn fan_out(n: usize, end: &[u8]) -> Vec<u8> {
    let items: Vec<Vec<u8>> = (0..n as u64)
        .map(|i| append(&i.to_be_bytes(), end))
        .collect();
    node(&items)
}

/// A node of attestations no one defines, their payloads filling the tree to `bytes` (give
/// or take a few), then `end`: an answer as big as a proof may be, which merged into any
/// proof makes it bigger than that.
pub fn filled(bytes: usize, end: &[u8]) -> Vec<u8> {
    let mut items = Vec::new();
    let mut len = end.len();
    // Each item: the fork byte, 0x00, the tag, two bytes of length, the payload.
    const OVERHEAD: usize = 1 + 1 + 8 + 2;
    while len + OVERHEAD + 128 <= bytes {
        let payload = (bytes - len - OVERHEAD).min(8192);
        // Payloads differ, so that no reader may keep one for many.
        let item = attestation(UNKNOWN, &vec![(items.len() % 251) as u8; payload]);
        len += item.len() + 1;
        items.push(item);
    }
    items.push(end.to_vec());
    node(&items)
}

/// `header` (80 bytes) `n` times over, into `out`: a headers file as long as the chain, every
/// header carrying its proof of work, whose merkle root only the first need be compared.
pub fn repeat_header(header: &[u8], n: usize, out: &mut impl Write) -> std::io::Result<()> {
    let chunk: Vec<u8> = header.repeat(4096);
    let mut left = n;
    while left > 0 {
        let k = left.min(4096);
        out.write_all(&chunk[..k * header.len()])?;
        left -= k;
    }
    out.flush()
}

/// What [`StandIn`] answers a request: an HTTP status and a body.
pub type Answer = (u16, Vec<u8>);

/// A calendar or a Bitcoin API on 127.0.0.1, answering each request with the handler's
/// answer to its method and target (`/timestamp/…`), one connection per request, and counting
/// what it answered. Stopped when dropped.
pub struct StandIn {
    addr: String,
    answered: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl StandIn {
    /// Starts it on a free port.
    pub fn start(handler: impl Fn(&str, &str) -> Answer + Send + Sync + 'static) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().unwrap().to_string();
        let answered = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, halt) = (answered.clone(), stop.clone());
        let handler = Arc::new(handler);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(mut conn) = conn else { continue };
                let (log, handler) = (log.clone(), handler.clone());
                std::thread::spawn(move || {
                    let mut r = BufReader::new(conn.try_clone().unwrap());
                    let mut line = String::new();
                    if r.read_line(&mut line).is_err() {
                        return;
                    }
                    let mut parts = line.split_whitespace();
                    let method = parts.next().unwrap_or("").to_owned();
                    let target = parts.next().unwrap_or("").to_owned();
                    let mut length = 0usize;
                    loop {
                        let mut h = String::new();
                        if r.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.split_once(':') {
                            if k.eq_ignore_ascii_case("content-length") {
                                length = v.trim().parse().unwrap_or(0);
                            }
                        }
                    }
                    let mut body = vec![0u8; length];
                    let _ = std::io::Read::read_exact(&mut r, &mut body);
                    let (status, answer) = handler(&method, &target);
                    log.lock().unwrap().push(format!("{method} {target}"));
                    let head = format!(
                        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        answer.len()
                    );
                    let _ = conn.write_all(head.as_bytes());
                    let _ = conn.write_all(&answer);
                    let _ = conn.flush();
                });
            }
        });
        StandIn {
            addr,
            answered,
            stop,
        }
    }

    /// Its base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests answered so far, `METHOD TARGET` each.
    pub fn answered(&self) -> Vec<String> {
        self.answered.lock().unwrap().clone()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accepting thread so that it sees the flag and ends.
        let _ = std::net::TcpStream::connect(&self.addr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_the_sizes_they_claim() {
        let d = [7u8; 32];
        let p = many_attestations(&d, 358391, 1 << 20);
        assert!(
            p.len() <= 1 << 20 && p.len() > (1 << 20) - 20,
            "{}",
            p.len()
        );
        assert_eq!(many_heights(&d, 1, 3).len(), MAGIC.len() + 34 + 3 * 11 + 2);
        let f = filled(1 << 20, &bitcoin(1));
        assert!(
            f.len() <= 1 << 20 && f.len() > (1 << 20) - 200,
            "{}",
            f.len()
        );
        let mut out = Vec::new();
        repeat_header(&[1; 80], 5000, &mut out).unwrap();
        assert_eq!(out.len(), 400_000);
    }
}
