//! What a request may cost, and how the server stops.
//!
//! This module owns the accept loops (one per worker thread, [`serve`]): every connection is
//! HTTP/1.1 from hyper with a bound on the request line and headers ([`Limits::max_header_bytes`],
//! answered 431 by hyper), a deadline for the request head ([`Limits::header_timeout`], against
//! clients that send it a byte at a time), an idle/stall timeout on reads and writes
//! ([`Limits::idle_timeout`], against clients that stop reading their answer), a bound on open
//! connections in all and per client address, the longest idle connection closed to make room when
//! all are open ([`serve`]), and a deadline for each answer ([`Limits::request_timeout`]).
//! Requests carrying a body larger than [`Limits::max_body_bytes`] are answered 413 before any
//! handler of the resolver's routes runs ([`body_limit`]), and an answer that takes longer than
//! [`Limits::request_timeout`] is a 503 ([`deadline`]).
//!
//! On SIGTERM or Ctrl-C ([`shutdown_signal`]) the server stops accepting, lets requests in
//! flight finish for [`Limits::grace`], then returns.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

mod settings;
pub use settings::{LimitSettings, SettingsError};

/// The default bound on a PDF sent to `/verify`: 100 MB.
pub const MAX_UPLOAD: u64 = 100_000_000;
use tokio::sync::{Notify, Semaphore};
use tower::ServiceExt;

/// The bounds a request and a connection must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of request line and headers (hyper answers 431 beyond).
    pub max_header_bytes: usize,
    /// Bytes of request body; a larger `Content-Length` is answered 413.
    pub max_body_bytes: u64,
    /// Time to receive a request head once the connection is waiting for one.
    pub header_timeout: Duration,
    /// Time a read or write may stall before the connection is closed.
    pub idle_timeout: Duration,
    /// Time a handler may take before 503 is answered.
    pub request_timeout: Duration,
    /// Connections open at once; when they are, the one idle the longest is closed for a new
    /// one (or the new one waits while every one is answering).
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold open; a further one is closed.
    pub max_connections_per_client: usize,
    /// Time requests in flight get to finish after SIGTERM.
    pub grace: Duration,
    /// Bytes of answers kept in memory ([`crate::cache`]; 0 keeps none).
    pub cache_bytes: u64,
    /// Uploads to `/verify` being received at once; one more is answered 503 at once.
    pub upload_slots: usize,
    /// Bytes the uploads being received or checked may hold in memory together; an upload
    /// that would pass it is answered 503.
    pub upload_memory: u64,
    /// Bytes per second an upload must keep up, on average, once [`Limits::upload_grace`] is
    /// over; a slower one is cut off (408).
    pub upload_rate: u64,
    /// Time an upload may take before [`Limits::upload_rate`] is asked of it.
    pub upload_grace: Duration,
    /// PDFs checked at once; the others wait their turn.
    pub checks: usize,
    /// Checks that may wait for a turn; one more is answered 503 at once.
    pub check_queue: usize,
    /// Time a check may wait for its turn before 503.
    pub check_wait: Duration,
    /// Time a check may take before 503; `None` for no bound (`--check-timeout 0`, as a file
    /// deadline of 0 means at every door).
    pub check_timeout: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_header_bytes: 16 * 1024,
            max_body_bytes: 64 * 1024,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(10),
            max_connections: 4096,
            max_connections_per_client: 256,
            grace: Duration::from_secs(10),
            cache_bytes: 64 << 20,
            upload_slots: 32,
            upload_memory: 128_000_000,
            upload_rate: 16 * 1024,
            upload_grace: Duration::from_secs(10),
            checks: 2,
            check_queue: 16,
            check_wait: Duration::from_secs(10),
            check_timeout: Some(Duration::from_secs(30)),
        }
    }
}

/// Middleware: answers 413 to a request whose declared body exceeds `max` bytes. The
/// resolver's routes take no body; a route that takes uploads sets its own bound.
pub async fn body_limit(
    axum::extract::State(max): axum::extract::State<u64>,
    req: Request,
    next: Next,
) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max) {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            [(header::CONNECTION, "close")],
            format!("request body over {max} bytes\n"),
        )
            .into_response();
    }
    next.run(req).await
}

/// Middleware: answers 503 to a request whose handler outlives `timeout`.
pub async fn deadline(
    axum::extract::State(timeout): axum::extract::State<Duration>,
    req: Request,
    next: Next,
) -> Response {
    match tokio::time::timeout(timeout, next.run(req)).await {
        Ok(r) => r,
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "1")],
            "the answer took too long\n",
        )
            .into_response(),
    }
}

/// Installs the handlers of SIGTERM and Ctrl-C (SIGINT) now and returns what resolves when
/// either arrives.
///
/// The handlers are in place when this returns, not when the future is first polled: called
/// before the address is announced, a SIGTERM that follows the announcement at once is a
/// graceful stop, never the default action that kills the process. Must be called inside the
/// runtime (it registers with its signal driver).
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, Signal, SignalKind};
        let term = signal(SignalKind::terminate()).ok();
        let int = signal(SignalKind::interrupt()).ok();
        // A handler that could not be installed never fires; the other still does.
        async fn first(s: Option<Signal>) {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        async move {
            tokio::select! {
                () = first(term) => {},
                () = first(int) => {},
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Whom a connection is counted against: its address, or for IPv6 its /64 (what one
/// subscriber holds).
fn client(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// One open connection, as the listener sees it: whether a request is being answered on it,
/// since when it is idle, and how to ask it to close.
struct Conn {
    /// Requests being answered (0: idle, waiting for a request head).
    busy: AtomicUsize,
    /// Milliseconds since [`Registry::epoch`] at which it last became idle.
    idle_since: AtomicU64,
    /// Already asked to close.
    closing: AtomicBool,
    close: Notify,
}

/// The connections open: per client, and each with its state, so that the longest idle one
/// can be closed to make room.
struct Registry {
    epoch: Instant,
    inner: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    clients: HashMap<IpAddr, usize>,
    conns: HashMap<u64, Arc<Conn>>,
    next: u64,
}

impl Registry {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a new connection of `who`, unless `who` holds `max` already.
    fn admit(&self, who: IpAddr, max: usize) -> Option<(u64, Arc<Conn>)> {
        let mut o = self.open();
        let n = o.clients.entry(who).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        o.next += 1;
        let id = o.next;
        let c = Arc::new(Conn {
            busy: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.now()),
            closing: AtomicBool::new(false),
            close: Notify::new(),
        });
        o.conns.insert(id, Arc::clone(&c));
        Some((id, c))
    }

    fn forget(&self, id: u64, who: IpAddr) {
        let mut o = self.open();
        o.conns.remove(&id);
        if let Some(n) = o.clients.get_mut(&who) {
            *n -= 1;
            if *n == 0 {
                o.clients.remove(&who);
            }
        }
    }

    /// Asks the connection idle the longest to close (a keep-alive waiting for its next
    /// request, or one that never sent its first); whether there was one.
    fn close_idle(&self) -> bool {
        let o = self.open();
        let oldest = o
            .conns
            .values()
            .filter(|c| c.busy.load(Ordering::Acquire) == 0 && !c.closing.load(Ordering::Acquire))
            .min_by_key(|c| c.idle_since.load(Ordering::Acquire));
        match oldest {
            Some(c) => {
                c.closing.store(true, Ordering::Release);
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// A request being answered on a connection: the connection is busy until it is dropped. It
/// holds the connection and the registry's epoch, not the registry, which every request of every
/// loop would otherwise count in and out of one shared place.
struct Busy(Arc<Conn>, Instant);

impl Busy {
    fn new(c: &Arc<Conn>, epoch: Instant) -> Busy {
        c.busy.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(c), epoch)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let idle = u64::try_from(self.1.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.0.idle_since.store(idle, Ordering::Release);
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Listeners on `addr` for `n` accept loops, one each: the same listening socket `n` times, so
/// that a new connection goes to a loop that is free to take it (the kernel wakes the loops
/// waiting on it), not to one the connection's address hashes to while it is busy or its
/// thread waits for a core. Port 0 picks one free port.
///
/// # Errors
/// When `addr` is not an address or cannot be listened on, another server's listener on it
/// included.
pub fn listeners(addr: &str, n: usize) -> std::io::Result<Vec<std::net::TcpListener>> {
    use socket2::{Domain, Protocol, Socket, Type};
    let at = std::net::ToSocketAddrs::to_socket_addrs(addr)?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address"))?;
    let s = Socket::new(Domain::for_address(at), Type::STREAM, Some(Protocol::TCP))?;
    // A restarted server takes its port back while the old one's connections wait to close.
    s.set_reuse_address(true)?;
    s.set_nonblocking(true)?;
    s.bind(&at.into())?;
    s.listen(1024)?;
    let first: std::net::TcpListener = s.into();
    let mut all = Vec::with_capacity(n.max(1));
    for _ in 1..n.max(1) {
        all.push(first.try_clone()?);
    }
    all.push(first);
    Ok(all)
}

/// What answers the requests of the accept loops ([`serve`]); each loop answers with a copy of
/// its own.
pub trait Answers: Clone + Send + Sync + 'static {
    /// The answer to `req`.
    fn answer(
        &self,
        req: hyper::Request<hyper::body::Incoming>,
    ) -> impl Future<Output = Response> + Send;
}

impl Answers for Router {
    async fn answer(&self, req: hyper::Request<hyper::body::Incoming>) -> Response {
        match self.clone().oneshot(req.map(axum::body::Body::new)).await {
            Ok(r) => r,
            Err(never) => match never {},
        }
    }
}

/// What the accept loops of one server share: the connection slots, the open connections by
/// client and by loop, and the word to stop.
struct Gate {
    http: hyper::server::conn::http1::Builder,
    limits: Limits,
    slots: Arc<Semaphore>,
    registry: Arc<Registry>,
    stopped: tokio::sync::watch::Receiver<bool>,
    /// The connections each loop answers.
    loads: Vec<AtomicUsize>,
    /// Told whenever a loop's connections change in number.
    moved: Notify,
}

impl Gate {
    /// Whether loop `i` may take a connection now: it answers no more than any other loop.
    /// The kernel wakes every loop waiting on the shared listener, and the first awake took
    /// every connection waiting, so that connections opened together (a client's pool, a
    /// load generator's) all landed on one loop and thread while the other idled, differently
    /// at each run; a loop over its share leaves them to the others.
    fn may_take(&self, i: usize) -> bool {
        let mine = self.loads[i].load(Ordering::Acquire);
        self.loads.iter().all(|l| mine <= l.load(Ordering::Acquire))
    }

    /// Loop `i` answers one more connection (`true`) or one fewer.
    fn count(&self, i: usize, more: bool) {
        if more {
            self.loads[i].fetch_add(1, Ordering::AcqRel);
        } else {
            self.loads[i].fetch_sub(1, Ordering::AcqRel);
        }
        self.moved.notify_waiters();
    }
}

/// Serves `app` on `listeners` within `limits` until `shutdown` resolves, then waits up to
/// [`Limits::grace`] for the connections still open.
///
/// Each listener ([`listeners`]) has a thread of its own running one event loop that accepts its
/// connections and answers them to their end, so that a request is read, answered and written
/// on one thread with no other to wake (as nginx's workers do). A loop takes a connection only
/// while it answers no more than any other (its gate), so the connections are shared
/// evenly among the threads; the bounds below hold for all the loops together.
///
/// Every client gets an answer while others hold connections: one address (an IPv6 /64) holds
/// at most [`Limits::max_connections_per_client`], a further one is closed at once; and when
/// [`Limits::max_connections`] are open, the connection idle the longest is closed to make room
/// for a new one (a connection answering a request is never closed for it).
///
/// # Errors
/// When a loop's thread or runtime cannot be started, or a loop cannot take its listener (its
/// runtime does not take the socket, or `accept` says it is no listening socket): the server
/// stops as on SIGTERM and returns that loop's error, rather than leave a loop idle. A failed
/// `accept` that passes (out of file descriptors, a connection reset before it was taken) is
/// waited out and retried.
pub async fn serve(
    listeners: Vec<std::net::TcpListener>,
    app: impl Answers,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    // At most 100 headers a request, hyper's default: left unset, since hyper then parses into
    // a fixed array on the stack, where a number set (even 100) costs it a loop filling one
    // per request (3 % of a hot badge's CPU).
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits.max_header_bytes)
        // The read buffer bounds the head too; hyper's minimum is 8 KiB.
        .max_buf_size((limits.max_header_bytes + 1024).max(8192))
        // A client that shuts its side down after sending a whole request still gets the answer.
        .half_close(true);
    let max = limits.max_connections.max(1);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (end, ended) = tokio::sync::watch::channel(false);
    let gate = Arc::new(Gate {
        http,
        limits,
        slots: Arc::new(Semaphore::new(max)),
        registry: Arc::new(Registry {
            epoch: Instant::now(),
            inner: Mutex::new(Open::default()),
        }),
        stopped,
        loads: (0..listeners.len()).map(|_| AtomicUsize::new(0)).collect(),
        moved: Notify::new(),
    });
    let mut loops = Vec::with_capacity(listeners.len());
    let mut failed = None;
    // A loop that cannot go on says so here, and the server stops.
    let (broken, mut broke) = tokio::sync::mpsc::unbounded_channel::<std::io::Error>();
    for (i, listener) in listeners.into_iter().enumerate() {
        // A copy per loop: what one loop's requests count in and out is its own.
        let (gate, app, mut ended) = (Arc::clone(&gate), Arc::new(app.clone()), ended.clone());
        let broken = broken.clone();
        let rt = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        let spawned = std::thread::Builder::new()
            .name(format!("pith-serve-{i}"))
            .spawn(move || {
                rt.block_on(async {
                    let served = match TcpListener::from_std(listener) {
                        Ok(listener) => accept(i, &listener, &app, &gate).await,
                        Err(e) => Err(e),
                    };
                    if let Err(e) = served {
                        let _ = broken.send(e);
                    }
                    // The connections of this loop are answered until every loop's are done
                    // or the grace period ends.
                    let _ = ended.wait_for(|e| *e).await;
                });
                rt.shutdown_timeout(Duration::from_millis(500));
            });
        match spawned {
            Ok(t) => loops.push(t),
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    drop(broken);
    if failed.is_none() {
        tokio::select! {
            () = shutdown => {}
            Some(e) = broke.recv() => failed = Some(e),
        }
    }
    let _ = stop.send(true);
    // Every connection gives its slot back when it ends.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(limits.grace, gate.slots.acquire_many(all)).await;
    let _ = end.send(true);
    let _ = tokio::task::spawn_blocking(move || {
        for t in loops {
            let _ = t.join();
        }
    })
    .await;
    failed.map_or(Ok(()), Err)
}

/// Whether a failed `accept` says that `listener` can give no connection at all (it is not a
/// listening socket), rather than something that passes: a want of descriptors or memory, or
/// an error of the connection being taken, which accept(2) says to retry.
fn listener_broken(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EBADF | libc::EINVAL | libc::ENOTSOCK | libc::EFAULT)
        )
    }
    #[cfg(not(unix))]
    {
        e.kind() == std::io::ErrorKind::InvalidInput
    }
}

/// Loop `i`: accepts on `listener` while it holds no more than its share of the connections
/// ([`Gate::may_take`]) and answers each on this thread until the gate says stop.
///
/// # Errors
/// When `listener` is no listening socket ([`listener_broken`]).
async fn accept<A: Answers>(
    i: usize,
    listener: &TcpListener,
    app: &Arc<A>,
    gate: &Arc<Gate>,
) -> std::io::Result<()> {
    let limits = gate.limits;
    let mut stopping = gate.stopped.clone();
    let mut shutdown = std::pin::pin!(async move {
        let _ = stopping.wait_for(|s| *s).await;
    });
    'accept: loop {
        loop {
            let moved = gate.moved.notified();
            let mut moved = std::pin::pin!(moved);
            moved.as_mut().enable();
            if gate.may_take(i) {
                break;
            }
            tokio::select! {
                () = moved => {},
                () = &mut shutdown => break 'accept,
            }
        }
        let (stream, peer): (_, SocketAddr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(s) => s,
                Err(e) if listener_broken(&e) => return Err(e),
                Err(_) => {
                    // Out of descriptors or a connection reset before accept: wait, go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let registry = &gate.registry;
        let who = client(peer.ip());
        let Some((id, conn)) = registry.admit(who, limits.max_connections_per_client.max(1)) else {
            // This client holds its share: the connection is closed unanswered.
            drop(stream);
            continue;
        };
        let permit = loop {
            if let Ok(p) = Arc::clone(&gate.slots).try_acquire_owned() {
                break p;
            }
            // Full: the longest idle connection makes room; while every one is answering,
            // look again as they finish.
            registry.close_idle();
            tokio::select! {
                p = Arc::clone(&gate.slots).acquire_owned() => match p {
                    Ok(p) => break p,
                    Err(_) => break 'accept,
                },
                () = tokio::time::sleep(Duration::from_millis(20)) => {},
                () = &mut shutdown => {
                    registry.forget(id, who);
                    break 'accept;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(crate::stall::Stall::new(stream, limits.idle_timeout));
        let (app, epoch, c) = (Arc::clone(app), registry.epoch, Arc::clone(&conn));
        let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
            let busy = Busy::new(&c, epoch);
            let app = Arc::clone(&app);
            async move {
                let r = app.answer(req).await;
                drop(busy);
                Ok::<_, std::convert::Infallible>(r)
            }
        });
        let mut stopped = gate.stopped.clone();
        let registry = Arc::clone(registry);
        let http = gate.http.clone();
        gate.count(i, true);
        let gate = Arc::clone(gate);
        tokio::spawn(async move {
            let served = http.serve_connection(io, service);
            let mut served = std::pin::pin!(served);
            tokio::select! {
                _ = served.as_mut() => {}
                () = conn.close.notified() => {
                    served.as_mut().graceful_shutdown();
                    let _ = served.as_mut().await;
                }
                () = async { let _ = stopped.wait_for(|s| *s).await; } => {
                    served.as_mut().graceful_shutdown();
                    let _ = served.as_mut().await;
                }
            }
            registry.forget(id, who);
            gate.count(i, false);
            drop(permit);
        });
    }
    Ok(())
}

#[cfg(test)]
mod listener_tests {
    use super::{listeners, serve, Limits};

    /// A socket that is bound but not listening, as a listener: every `accept` on it fails.
    fn not_listening() -> std::net::TcpListener {
        use socket2::{Domain, Socket, Type};
        let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
        s.bind(
            &"127.0.0.1:0"
                .parse::<std::net::SocketAddr>()
                .unwrap()
                .into(),
        )
        .unwrap();
        s.set_nonblocking(true).unwrap();
        s.into()
    }

    /// A loop whose listener gives no connection ends the server with its error, the other
    /// loops included, instead of leaving that loop idle while the server looks up.
    #[tokio::test]
    async fn a_loop_that_cannot_accept_ends_the_server_with_its_error() {
        let good = listeners("127.0.0.1:0", 1).unwrap().remove(0);
        let addr = good.local_addr().unwrap();
        let router = axum::Router::new();
        // Never stopped from outside: only the broken loop can end it.
        let served = serve(
            vec![good, not_listening()],
            router,
            Limits::default(),
            std::future::pending(),
        )
        .await;
        let e = served.unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        // The good loop stopped with it: its port no longer takes connections.
        assert!(std::net::TcpStream::connect(addr).is_err());
    }

    /// A second server on an address the first listens on is refused, as a plain listener
    /// would be, rather than sharing the port's connections with it.
    #[test]
    fn an_address_in_use_is_refused_not_shared() {
        let first = listeners("127.0.0.1:0", 2).unwrap();
        let addr = first[0].local_addr().unwrap();
        assert!(first.iter().all(|l| l.local_addr().unwrap() == addr));
        let second = listeners(&addr.to_string(), 2).unwrap_err();
        assert_eq!(second.kind(), std::io::ErrorKind::AddrInUse, "{second}");
    }
}
