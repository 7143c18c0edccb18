//! What a request may cost, and how the server stops.
//!
//! This module owns the listener loop: every connection is HTTP/1.1 from hyper with a bound on
//! the request line and headers ([`Limits::max_header_bytes`], answered 431 by hyper), a
//! deadline for the request head ([`Limits::header_timeout`], against clients that send it a
//! byte at a time), an idle/stall timeout on reads and writes ([`Limits::idle_timeout`], against
//! clients that stop reading their answer), a bound on open connections, and a deadline for each
//! answer ([`Limits::request_timeout`]). Requests carrying a body larger than
//! [`Limits::max_body_bytes`] are answered 413 before any handler of the resolver's routes runs
//! ([`body_limit`]), and an answer that takes longer than [`Limits::request_timeout`] is a 503
//! ([`deadline`]).
//!
//! On SIGTERM or Ctrl-C ([`shutdown_signal`]) the server stops accepting, lets requests in
//! flight finish for [`Limits::grace`], then returns.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

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
    /// Connections open at once; further ones wait to be accepted.
    pub max_connections: usize,
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
    /// Time a check may take before 503.
    pub check_timeout: Duration,
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
            grace: Duration::from_secs(10),
            cache_bytes: 64 << 20,
            upload_slots: 32,
            upload_memory: 128_000_000,
            upload_rate: 16 * 1024,
            upload_grace: Duration::from_secs(10),
            checks: 2,
            check_queue: 16,
            check_wait: Duration::from_secs(10),
            check_timeout: Duration::from_secs(30),
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

/// Resolves on SIGTERM or Ctrl-C (SIGINT).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown` resolves, then waits up to
/// [`Limits::grace`] for the connections still open.
///
/// # Errors
/// None in practice: a failed `accept` (out of file descriptors) is waited out and retried.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits.max_header_bytes)
        // The read buffer bounds the head too; hyper's minimum is 8 KiB.
        .max_buf_size((limits.max_header_bytes + 1024).max(8192))
        .max_headers(100)
        // A client that shuts its side down after sending a whole request still gets the answer.
        .half_close(true);
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
            () = &mut shutdown => break,
        };
        let (stream, _peer): (_, SocketAddr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(s) => s,
                Err(_) => {
                    // Out of descriptors or a connection reset before accept: wait, go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let mut stream = TimeoutStream::new(stream);
        stream.set_read_timeout(Some(limits.idle_timeout));
        stream.set_write_timeout(Some(limits.idle_timeout));
        let io = TokioIo::new(Box::pin(stream));
        let service = TowerToHyperService::new(router.clone());
        let conn = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {},
        () = tokio::time::sleep(limits.grace) => {},
    }
    Ok(())
}
