//! A connection's bound on stalls (the idle timeout of the limits): a read or a write
//! that waits longer than the bound ends the connection with [`std::io::ErrorKind::TimedOut`]
//! (a client that sends nothing more, or stops reading its answer).
//!
//! One timer per connection, moved only when it fires: a wait notes when it began, and the timer,
//! once set for the first wait, is set again for the oldest wait still going only when it goes
//! off. A request read and answered at once touches no timer and wakes nothing; a timer moved
//! at every read and write cost each request two moves, one of them to the present, which woke
//! the loop's thread and the connection once more for nothing.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `S` with its reads and writes bounded in how long each may wait.
#[derive(Debug)]
pub struct Stall<S> {
    inner: S,
    bound: Duration,
    timer: Pin<Box<Sleep>>,
    /// The timer is set for a moment not yet past (at or before the oldest wait's end).
    armed: bool,
    reading: Option<Instant>,
    writing: Option<Instant>,
}

impl<S> Stall<S> {
    /// `inner`, a read or write of which may wait at most `bound`.
    pub fn new(inner: S, bound: Duration) -> Self {
        Stall {
            inner,
            bound,
            timer: Box::pin(tokio::time::sleep_until(Instant::now() + bound)),
            armed: false,
            reading: None,
            writing: None,
        }
    }

    /// When the oldest wait going on runs out, if one is.
    fn due(&self) -> Option<Instant> {
        let since = match (self.reading, self.writing) {
            (Some(r), Some(w)) => r.min(w),
            (r, w) => r.or(w)?,
        };
        Some(since + self.bound)
    }

    /// A wait goes on: `TimedOut` once the oldest has lasted the bound, else the timer is
    /// (still) set to wake the connection no later than that.
    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        while let Some(due) = self.due() {
            if !self.armed {
                self.timer.as_mut().reset(due);
                self.armed = true;
            }
            match self.timer.as_mut().poll(cx) {
                Poll::Pending => return Ok(()),
                Poll::Ready(()) => {
                    self.armed = false;
                    if Instant::now() >= due {
                        return Err(io::ErrorKind::TimedOut.into());
                    }
                    // Set for a wait that has ended since: set again for this one.
                }
            }
        }
        Ok(())
    }

    fn waits_to_read(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        self.reading.get_or_insert_with(Instant::now);
        self.check(cx)
    }

    fn waits_to_write(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        self.writing.get_or_insert_with(Instant::now);
        self.check(cx)
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Stall<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Pending => {
                this.waits_to_read(cx)?;
                Poll::Pending
            }
            done => {
                this.reading = None;
                done
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> Stall<S> {
    /// `done` for a write, flush or shutdown: a wait noted while it is pending, ended when not.
    fn wrote<T>(&mut self, cx: &mut Context<'_>, done: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match done {
            Poll::Pending => {
                self.waits_to_write(cx)?;
                Poll::Pending
            }
            done => {
                self.writing = None;
                done
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Stall<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.wrote(cx, done)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.wrote(cx, done)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_flush(cx);
        this.wrote(cx, done)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let done = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.wrote(cx, done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A read waiting past the bound fails; reads that keep arriving within it do not, however
    /// long the connection lives.
    #[tokio::test(start_paused = true)]
    async fn a_read_that_waits_past_the_bound_fails() {
        let (mut client, server) = tokio::io::duplex(64);
        let mut s = Stall::new(server, Duration::from_secs(2));
        let mut buf = [0; 8];
        for _ in 0..5 {
            let read = s.read(&mut buf);
            let send = async {
                tokio::time::sleep(Duration::from_millis(1500)).await;
                client.write_all(b"x").await.unwrap();
            };
            let (n, ()) = tokio::join!(read, send);
            assert_eq!(n.unwrap(), 1);
        }
        let started = Instant::now();
        let e = s.read(&mut buf).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(2));
    }

    /// A write the client does not take fails once it has waited the bound.
    #[tokio::test(start_paused = true)]
    async fn a_write_nobody_reads_fails() {
        let (_client, server) = tokio::io::duplex(16);
        let mut s = Stall::new(server, Duration::from_secs(3));
        let started = Instant::now();
        let e = s.write_all(&[0; 64]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(3));
    }
}
