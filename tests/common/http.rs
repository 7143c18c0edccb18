//! The HTTP stand-in for arXiv and the resolver: a small HTTP/1.1 server on 127.0.0.1, started
//! and stopped by the test, serving scripted replies and recording every request's time,
//! path and headers. Connections are kept alive (as a real server would) and served one
//! thread each.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
    cut: Option<usize>,
}

impl Reply {
    /// 200 with `body`.
    pub fn ok(body: impl Into<Vec<u8>>) -> Self {
        Reply {
            status: 200,
            headers: vec![],
            body: body.into(),
            delay: Duration::ZERO,
            cut: None,
        }
    }

    /// `status` with a short text body.
    pub fn status(status: u16) -> Self {
        Reply {
            status,
            body: format!("status {status}\n").into_bytes(),
            ..Reply::ok("")
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Waits `d` before answering.
    pub fn delay(mut self, d: Duration) -> Self {
        self.delay = d;
        self
    }

    /// Announces the whole body's length but sends only its first `n` bytes, then closes.
    pub fn truncated(mut self, n: usize) -> Self {
        self.cut = Some(n);
        self
    }
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    /// When its head was read.
    pub at: Instant,
    /// The request line's target (`/oai2?verb=…`, or an absolute URL through a proxy).
    pub target: String,
    /// The method.
    pub method: String,
    /// Headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body its `Content-Length` announced (a `POST`'s), else empty.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

type Route = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// A running server; dropped, it stops.
pub struct Server {
    port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server answering each request with `route(request, n)`, where `n` counts the
    /// requests so far (0 for the first).
    pub fn start(route: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let route: Arc<Route> = Arc::new(route);
        let (reqs, stopped) = (requests.clone(), stop.clone());
        let accept = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (reqs, route) = (reqs.clone(), route.clone());
                std::thread::spawn(move || serve(conn, &reqs, &*route));
            }
        });
        Server {
            port,
            requests,
            stop,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

fn serve(conn: TcpStream, reqs: &Mutex<Vec<Request>>, route: &Route) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut out = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_owned();
        let target = parts.next().unwrap_or("").to_owned();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
        let length = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .unwrap_or(0);
        let mut body = vec![0; length.min(1 << 20)];
        if std::io::Read::read_exact(&mut reader, &mut body).is_err() {
            return;
        }
        let req = Request {
            at: Instant::now(),
            target,
            method,
            headers,
            body,
        };
        let n = {
            let mut r = reqs.lock().unwrap();
            r.push(req.clone());
            r.len() - 1
        };
        let reply = route(&req, n);
        std::thread::sleep(reply.delay);
        let reason = match reply.status {
            200 => "OK",
            404 => "Not Found",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "Status",
        };
        let mut head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Length: {}\r\n",
            reply.status,
            reply.body.len()
        );
        for (k, v) in &reply.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let body = match reply.cut {
            Some(n) => &reply.body[..n.min(reply.body.len())],
            None => &reply.body[..],
        };
        if out.write_all(head.as_bytes()).is_err() || out.write_all(body).is_err() {
            return;
        }
        let _ = out.flush();
        if reply.cut.is_some() {
            let _ = out.shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

/// A recorded GetRecord answer.
pub fn recorded(name: &str) -> Vec<u8> {
    std::fs::read(super::data("net/getrecord").join(format!("{name}.xml"))).unwrap()
}

/// The arXiv id a GetRecord request asks for.
pub fn asked_id(r: &Request) -> String {
    let t = &r.target;
    let start = t.find("identifier=oai:arXiv.org:").expect("identifier") + 25;
    t[start..].split('&').next().unwrap().to_owned()
}

/// arXiv as recorded: the paper's answer when there is one, else idDoesNotExist.
pub fn arxiv_route(r: &Request, _: usize) -> Reply {
    let id = asked_id(r).replace('/', "_");
    let path = super::data("net/getrecord").join(format!("{id}.xml"));
    match std::fs::read(&path) {
        Ok(b) => Reply::ok(b),
        Err(_) if id == "0704.0002" => Reply::ok(recorded("deleted-0704.0002")),
        Err(_) => Reply::ok(recorded("error-idDoesNotExist")),
    }
}
