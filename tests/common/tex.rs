//! What the TeX-side tests (`tests/latex.rs`, `tests/latexml.rs`) share: the parallel runner
//! of their matrices (two worker threads, CI has two cores, over a queue of cells, one
//! progress line per cell, the failures collected) and the runner of TeX-side tools (TeX
//! engines, dvips, ps2pdf, l3build, LaTeXML: time-limited, reproducible, at most two at a
//! time per test binary). Included with `#[path = "common/tex.rs"] mod tex;`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::process::{Command, Stdio};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// Fixed time for the TeX engines, Ghostscript and LaTeXML, so that reruns produce the same
/// files.
pub const EPOCH: &str = "1700000000";

/// Free tool slots: at most two tool runs at a time in one test binary (CI has two cores),
/// however many tests cargo runs in parallel.
static SLOTS: (Mutex<usize>, Condvar) = (Mutex::new(2), Condvar::new());

/// One of the two tool slots, held until dropped.
pub struct Slot;

impl Slot {
    /// Waits for a free slot and takes it.
    pub fn take() -> Slot {
        let mut free = SLOTS.0.lock().unwrap();
        while *free == 0 {
            free = SLOTS.1.wait(free).unwrap();
        }
        *free -= 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        *SLOTS.0.lock().unwrap() += 1;
        SLOTS.1.notify_one();
    }
}

/// A command that runs what is appended to it under coreutils' `timeout`: stopped after
/// `secs` seconds (exit 124), killed 10 s later if it ignores that. A run that waits or
/// loops must fail its test, not hang the suite.
pub fn timed(secs: u32) -> Command {
    let mut cmd = Command::new("timeout");
    cmd.args(["-k", "10", &secs.to_string()]);
    cmd
}

/// Runs `cmd` (built with [`timed`]`(secs)`, its program `program`) in a tool slot, with the
/// reproducibility environment (`SOURCE_DATE_EPOCH`, `FORCE_SOURCE_DATE`, no `TEXINPUTS`) and
/// no stdin; returns (ok, stdout+stderr), with a line saying so when it timed out.
pub fn run_tool(mut cmd: Command, program: &str, secs: u32) -> (bool, String) {
    let _slot = Slot::take();
    let out = cmd
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("FORCE_SOURCE_DATE", "1")
        .env_remove("TEXINPUTS")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(124) {
        text.push_str(&format!("\n{program} timed out after {secs} s"));
    }
    (out.status.success(), text)
}

/// Runs `f` over `items` in two threads. `f` returns the cell's name and its problems (none
/// when it passed); each cell prints `<label>: <name> <seconds>s ok|FAILED` to stderr. Returns
/// one `name:\n  problem…` entry per failed cell.
pub fn parallel<T: Send, F: Fn(&T) -> (String, Vec<String>) + Sync>(
    label: &str,
    items: Vec<T>,
    f: F,
) -> Vec<String> {
    let queue = Mutex::new(items.into_iter().collect::<VecDeque<_>>());
    let failures = Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(item) = queue.lock().unwrap().pop_front() else {
                    break;
                };
                let start = Instant::now();
                let (name, errs) = f(&item);
                eprintln!(
                    "{label}: {name} {:.1}s {}",
                    start.elapsed().as_secs_f64(),
                    if errs.is_empty() { "ok" } else { "FAILED" }
                );
                if !errs.is_empty() {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{name}:\n  {}", errs.join("\n  ")));
                }
            });
        }
    });
    failures.into_inner().unwrap()
}
