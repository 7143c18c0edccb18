//! The accept loops: a kept answer read, made and written on the thread of its connection,
//! counted in system calls under strace.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use crate::common::{code, have_tool, vectors, Fixture, Server};

/// Asks `path` `n` times on one keep-alive connection, reading each answer whole before the next.
fn ask(addr: &str, path: &str, n: usize) {
    let mut c = BufReader::new(TcpStream::connect(addr).unwrap());
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    for _ in 0..n {
        c.get_mut().write_all(request.as_bytes()).unwrap();
        let mut length = None;
        let mut status = String::new();
        c.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        loop {
            let mut line = String::new();
            c.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            if name.eq_ignore_ascii_case("content-length") {
                length = Some(value.trim().parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("content-length")];
        c.read_exact(&mut body).unwrap();
    }
}

/// The calls of `name` in `strace -c`'s table.
fn calls(table: &str, name: &str) -> u64 {
    table
        .lines()
        .find(|l| l.split_whitespace().last() == Some(name))
        .and_then(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // % time, seconds, usecs/call, calls[, errors], syscall
            f.get(3)?.parse().ok()
        })
        .unwrap_or(0)
}

#[test]
#[ignore = "full tier (system calls counted under strace)"]
fn a_kept_answer_is_one_write_and_wakes_no_other_thread() {
    let t = "loops::a_kept_answer_is_one_write_and_wakes_no_other_thread";
    if !have_tool("strace", t) {
        return;
    }
    let f = Fixture::new();
    let s = Server::start(&f.index, &["--jobs", "2"]);
    let path = format!(
        "/badge/{}.svg",
        code(vectors()[0]["pith_number"].as_str().unwrap())
    );
    // Kept by the first answer.
    assert_eq!(s.get(&path, &[]).status, 200);
    let out = f.dir.path().join("strace.txt");
    let mut strace = Command::new("strace")
        .args(["-f", "-c", "-e", "trace=futex,writev,sendto,sendmsg", "-o"])
        .arg(&out)
        .args(["-p", &s.pid().to_string()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // strace says on standard error when it has attached to every thread.
    let mut said = String::new();
    BufReader::new(strace.stderr.take().unwrap())
        .read_line(&mut said)
        .unwrap();
    assert!(said.contains("attached"), "{said}");
    // Four clients at once, so that both loops answer.
    let (clients, each) = (4, 400);
    std::thread::scope(|scope| {
        for _ in 0..clients {
            scope.spawn(|| ask(&s.addr, &path, each));
        }
    });
    let pid = strace.id().to_string();
    Command::new("kill").args(["-INT", &pid]).status().unwrap();
    strace.wait().unwrap();
    let table = std::fs::read_to_string(&out).unwrap();
    let n = u64::try_from(clients * each).unwrap();
    // One vectored write per answer, headers and body together.
    let writes = calls(&table, "writev") + calls(&table, "sendto") + calls(&table, "sendmsg");
    assert!(
        (n..n + 8).contains(&writes),
        "{n} answers, {writes} writes:\n{table}"
    );
    // A thread woken by another is a futex call; the index watcher's look once a second makes
    // a few. Answers handed between the threads of one pool made one every few requests.
    let futex = calls(&table, "futex");
    assert!(futex * 50 < n, "{n} answers, {futex} futex calls:\n{table}");
    drop(s);
}
