//! The parallel runner of the TeX-side test matrices (`tests/latex.rs`, `tests/latexml.rs`):
//! two worker threads (CI has two cores) over a queue of cells, one progress line per cell,
//! the failures collected. Included with `#[path = "common/tex.rs"] mod tex;`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Instant;

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
