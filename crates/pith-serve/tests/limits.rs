//! Methods, limits, slow clients, malformed paths and SIGTERM, against `pith serve`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::{code, vectors, Fixture, Server};

#[test]
fn only_get_and_head_within_the_limits() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let r = s.raw(
            format!("{method} /pith/{c}.json HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(r.status, 405, "{method}");
    }
    // Headers beyond 16 KiB.
    let big = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(s.raw(big.as_bytes()).status, 431);
    // More than 100 headers, each small; 99 besides Host and Connection pass.
    let many = |n: usize| {
        let h: String = (0..n).map(|i| format!("X-H{i}: v\r\n")).collect();
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{h}Connection: close\r\n\r\n")
    };
    assert_eq!(s.raw(many(150).as_bytes()).status, 431);
    assert_eq!(s.raw(many(98).as_bytes()).status, 200);
    // A body beyond the limit, even on GET.
    let r = s.raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n");
    assert_eq!(r.status, 413);
    // An overlong path.
    let long = format!("/pith/{}", "A".repeat(10_000));
    let r = s.get(&long, &[]);
    assert!(
        r.status == 404 || r.status == 414 || r.status == 431,
        "{}",
        r.status
    );
    assert_eq!(s.get("/healthz", &[]).status, 200);
}

#[test]
fn malformed_and_encoded_paths_are_400_or_404() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    let c = code(vectors()[0]["pith_number"].as_str().unwrap());
    for path in [
        "/pith/../../etc/passwd",
        "/pith/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/arxiv/..%2f..%2fetc%2fpasswd",
        "/badge/..%2fCargo.toml",
        "/pith/%FF%FE",
        "/arxiv/%FF",
        "/pith/%00",
        "/arxiv/2402.03791v0",
        "/arxiv/2402.03791v99999999999999999999",
        "/pith/7BMK4ZKT%2F",
        "/badge/%E2%80%AE.svg",
        "//pith//",
        "/pith/",
        "/arxiv/",
        "/pith/AAAAAAAA/bundle.json",
        "/Cargo.toml",
        "/etc/passwd",
    ] {
        let r = s.get(path, &[]);
        assert!(
            r.status == 400 || r.status == 404,
            "{path}: {} {}",
            r.status,
            r.text()
        );
    }
    let r = s.get(&format!("/badge/{c}.svg?full=%FF&style=%00"), &[]);
    assert_eq!(r.status, 400);
    // Not HTTP at all, and a request line cut short: an error answer or a closed connection.
    for junk in [
        &b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"[..],
        b"GET\r\n\r\n",
        b"GET /pith/ HTTP/9.9\r\n\r\n",
    ] {
        let r = s.raw(junk);
        assert!(
            r.status == 0 || (400..500).contains(&r.status),
            "{junk:?}: {}",
            r.status
        );
    }
    assert_eq!(s.get("/healthz", &[]).status, 200, "the server survived");
}

#[test]
fn slow_clients_are_cut_off() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &["--header-timeout", "1", "--idle-timeout", "2"]);
    // The server's closing is the event judged: the read ends because the server cut the
    // connection (end of file or a reset), not because the test's own read timeout, far
    // past the server's 1 s and 2 s, ran out.
    let cut = |c: &mut TcpStream| {
        c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut buf = Vec::new();
        match c.read_to_end(&mut buf) {
            Ok(_) => true,
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        }
    };
    // A head sent and never finished.
    let mut c = TcpStream::connect(&s.addr).unwrap();
    c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert!(cut(&mut c), "a head never finished was held past 60 s");
    // A connection that never says anything.
    let mut c = TcpStream::connect(&s.addr).unwrap();
    assert!(cut(&mut c), "a silent connection was held past 60 s");
    assert_eq!(s.get("/healthz", &[]).status, 200);
}

#[test]
fn sigterm_at_once_after_the_announcement_is_a_graceful_stop() {
    // The handlers are installed before "listening on" is printed: a SIGTERM sent the moment
    // the line is read stops the server with exit 0, never by the signal's default action
    // (no exit code). Several rounds, so that a handler installed late loses the race.
    let f = Fixture::new();
    for round in 0..5 {
        let s = Server::start(&f.index, &[]);
        assert_eq!(s.terminate(), Some(0), "round {round}");
    }
}

#[test]
fn sigterm_stops_the_server_gracefully() {
    let f = Fixture::new();
    let s = Server::start(&f.index, &[]);
    // A keep-alive connection open and idle does not hold the shutdown past the grace time.
    let mut idle = TcpStream::connect(&s.addr).unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut first = [0u8; 12];
    idle.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    // An idle connection that held the shutdown would hold it for the 30 s idle timeout,
    // past terminate()'s 20 s; the server closes it at once and exits 0.
    assert_eq!(s.terminate(), Some(0));
    drop(idle);
}
