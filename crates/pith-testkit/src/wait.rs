//! Waits on events, never on the clock: a test that needs something to have happened (a line
//! written, a file present, a count reached, a signal handled) looks for it until it is there.
//! The ceiling is generous and only fails the test when the event never comes; how long the
//! event took is never judged, so a busy machine cannot fail a test.

use std::time::{Duration, Instant};

/// How long [`until`] waits at most by default: far more than any event a test waits on takes
/// on a loaded machine.
pub const CEILING: Duration = Duration::from_secs(120);

/// Calls `ready` until it gives a value, and returns that value. Panics naming `what` when
/// `ceiling` passed without it.
pub fn until_within<T>(what: &str, ceiling: Duration, mut ready: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(v) = ready() {
            return v;
        }
        assert!(
            start.elapsed() < ceiling,
            "waited {ceiling:?} for {what}, and it never came"
        );
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// [`until_within`] with the default [`CEILING`], for a condition.
pub fn until(what: &str, mut ready: impl FnMut() -> bool) {
    until_within(what, CEILING, || ready().then_some(()))
}

/// The lines of the file at `path` once `ready` holds for them (a file not there yet has none).
pub fn lines_of(path: &std::path::Path, what: &str, ready: impl Fn(&str) -> bool) -> String {
    until_within(what, CEILING, || {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        ready(&text).then_some(text)
    })
}

/// Sends SIGINT to the process `pid` and returns once its Ctrl-C handler has run: the `ctrlc`
/// crate runs the handler on a thread named `ctrl-c` that sleeps on a pipe, so the handler has
/// run when that thread has woken and gone back to sleep (its count of voluntary context
/// switches went up). Linux only (`/proc`); panics if the process has no such thread.
pub fn interrupt_handled(pid: u32) {
    let task = handler_thread(pid).expect("the process has no `ctrl-c` thread (no handler)");
    let switches = || -> Option<u64> {
        let s = std::fs::read_to_string(task.join("status")).ok()?;
        let line = s
            .lines()
            .find(|l| l.starts_with("voluntary_ctxt_switches:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let before = switches().expect("the handler thread's status");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -INT {pid}");
    until("the Ctrl-C handler to run", || {
        switches().is_some_and(|now| now > before)
    });
}

/// `/proc/PID/task/TID` of the thread named `ctrl-c`.
fn handler_thread(pid: u32) -> Option<std::path::PathBuf> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()?
        .flatten()
        .map(|t| t.path())
        .find(|t| std::fs::read_to_string(t.join("comm")).is_ok_and(|c| c.trim() == "ctrl-c"))
}
