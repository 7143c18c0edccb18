//! The worker pool of a batch and its group commit of new outputs:
//! see the [module docs](super) for what a group is and when it is committed.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{Item, Line, Run};
use crate::output;

/// At most this many staged outputs per worker before its group is committed: each commit
/// waits for the disk twice, so a batch of a few hundred small files is one commit per worker.
/// (An outcome is reported when its group is committed.)
pub const GROUP_FILES: usize = 256;

/// At most about this many staged bytes per worker before its group is committed.
pub const GROUP_BYTES: u64 = 64 << 20;

/// Open temporary files allowed across all workers' groups, well under the usual limit of
/// 1024 open files: a staged output holds one until its group commits where each file is
/// synced alone ([`output::Group::open_files`]); elsewhere a group holds one per file system.
const STAGED_FDS: usize = 256;

/// How often the calling thread asks `done` whether to stop while no outcome comes.
const POLL: Duration = Duration::from_millis(100);

/// Runs `work` over `jobs` on `threads` workers and hands every outcome to `done` on the
/// calling thread, in completion order, as `done(Some(outcome))`; before the first and while
/// none comes, `done(None)` (about every tenth of a second). When `done` returns true the run stops: no new job starts,
/// jobs in flight finish and the rest are reported as [`Line::not_started`].
///
/// `work` may stage its outputs in the worker's [`output::Group`]. The pool commits the group
/// (see the module docs) before it reports that outcome; a job one of whose files fails at
/// the commit is reported [`Line::commit_failed`] with the reason. [`Line::set_ms`] gets the
/// time of `work`, without the commit.
pub fn run<L, W, D>(jobs: &[Item], threads: usize, work: W, mut done: D) -> Run
where
    L: Line,
    W: Fn(&Item, &mut output::Group) -> L + Sync,
    D: FnMut(Option<&L>) -> bool,
{
    let started = Instant::now();
    // A stop asked before the run (while the lines decided before it were reported) starts
    // no job.
    let stop = &AtomicBool::new(done(None));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, L)>();
    let mut attempted = vec![false; jobs.len()];
    let workers = threads.max(1).min(jobs.len().max(1));
    let group_fds = (STAGED_FDS / workers).max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            s.spawn(move || {
                let mut group = output::Group::new();
                // Outcomes of jobs that staged files (and how many), waiting for the commit.
                let mut waiting: Vec<(usize, L, usize)> = Vec::new();
                let commit = |group: &mut output::Group, waiting: &mut Vec<(usize, L, usize)>| {
                    let mut results = std::mem::take(group).commit().into_iter();
                    let mut ok = true;
                    for (i, mut o, staged) in waiting.drain(..) {
                        // All of this job's results are taken, whichever fails.
                        let mine: Vec<_> = results.by_ref().take(staged).collect();
                        if let Some(Err(e)) = mine.into_iter().find(Result::is_err) {
                            o.commit_failed(crate::pdf::chain(&e));
                        }
                        ok &= tx.send((i, o)).is_ok();
                    }
                    ok
                };
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let t = Instant::now();
                    let staged = group.len();
                    let mut o = work(job, &mut group);
                    o.set_ms(t.elapsed().as_millis() as u64);
                    if group.len() == staged {
                        if tx.send((i, o)).is_err() {
                            break;
                        }
                        continue;
                    }
                    waiting.push((i, o, group.len() - staged));
                    if (group.len() >= GROUP_FILES
                        || group.open_files() >= group_fds
                        || group.bytes() >= GROUP_BYTES)
                        && !commit(&mut group, &mut waiting)
                    {
                        break;
                    }
                }
                // Out of jobs, stopped, or the receiver is gone: what was staged lands.
                commit(&mut group, &mut waiting);
            });
        }
        drop(tx);
        loop {
            let asks_stop = match rx.recv_timeout(POLL) {
                Ok((i, o)) => {
                    attempted[i] = true;
                    done(Some(&o))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => done(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if asks_stop {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    for (job, seen) in jobs.iter().zip(&attempted) {
        if !seen {
            done(Some(&L::not_started(job)));
        }
    }
    Run {
        interrupted: stop.load(Ordering::SeqCst),
        ms: started.elapsed().as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::LocalSource;
    use std::path::{Path, PathBuf};

    /// A report line of the tests' own: the pool knows lines only through [`Line`].
    #[derive(Debug, Clone, PartialEq)]
    struct Seen {
        pdf: PathBuf,
        out: Option<PathBuf>,
        /// "done", "failed: …" or "not started".
        what: String,
    }

    impl Line for Seen {
        fn not_started(job: &Item) -> Self {
            Seen {
                pdf: job.pdf.clone(),
                out: None,
                what: "not started".into(),
            }
        }
        fn commit_failed(&mut self, reason: String) {
            self.what = format!("failed: {reason}");
        }
        fn set_ms(&mut self, _: u64) {}
    }

    /// `n` jobs on files that do not exist, with outputs `I.out` under `out_dir` if given.
    fn jobs(n: usize, out_dir: Option<&Path>) -> Vec<Item> {
        (0..n)
            .map(|i| Item {
                index: i,
                pdf: format!("/nonexistent/{i}.pdf").into(),
                relative: format!("{i}.pdf").into(),
                source: LocalSource::Number("x".into()),
                also: Vec::new(),
                out: out_dir.map(|d| d.join(format!("{i}.out"))),
                details: None,
            })
            .collect()
    }

    fn done(job: &Item, out: Option<PathBuf>) -> Seen {
        Seen {
            pdf: job.pdf.clone(),
            out,
            what: "done".into(),
        }
    }

    #[test]
    fn run_commits_staged_outputs_before_reporting_them() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        // Item 7's output path is a non-empty directory: its rename fails at the commit.
        std::fs::create_dir_all(dir.path().join("7.out/x")).unwrap();
        let jobs = jobs(100, Some(dir.path()));
        let work = |j: &Item, group: &mut output::Group| {
            let out = j.out.clone().unwrap();
            let extra = out.with_extension("extra");
            // Every third job stages two files, the others one.
            let files = if j.index.is_multiple_of(3) {
                vec![&out, &extra]
            } else {
                vec![&out]
            };
            for f in files {
                group.stage(f, None, |w| w.write_all(b"done")).unwrap();
            }
            done(j, Some(out))
        };
        let mut seen = Vec::new();
        let r = run(&jobs, 3, work, |o: Option<&Seen>| {
            // Reported only once committed: the output is in place, or the job failed.
            if let Some(o) = o {
                let out = o.out.as_ref().unwrap();
                assert_eq!(o.what == "done", out.is_file(), "{o:?}");
                seen.push(o.clone());
            }
            false
        });
        assert!(!r.interrupted);
        let failed: Vec<_> = seen.iter().filter(|o| o.what != "done").collect();
        assert_eq!((seen.len(), failed.len()), (100, 1));
        assert!(failed[0].out.as_ref().unwrap().ends_with("7.out"));
        assert!(failed[0].what.contains("cannot replace"), "{:?}", failed[0]);
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with(".pith-tmp")),
            "{names:?}"
        );
        assert_eq!(names.len(), 100 + 34, "{names:?}");
    }

    #[test]
    fn run_reports_every_job_once_and_stops() {
        let jobs = jobs(50, None);
        let mut seen = Vec::new();
        // The jobs past the tenth wait until the stop is asked, so that the four threads
        // have started at most four of them then, however they are scheduled.
        let asked = std::sync::atomic::AtomicBool::new(false);
        let work = |j: &Item, _: &mut output::Group| {
            if j.index >= 10 {
                while !asked.load(std::sync::atomic::Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            done(j, None)
        };
        // Asked to stop at the tenth outcome: the pool reports every job all the same.
        let r = run(&jobs, 4, work, |o: Option<&Seen>| {
            seen.extend(o.cloned());
            let stop = seen.len() >= 10;
            asked.fetch_or(stop, std::sync::atomic::Ordering::SeqCst);
            stop
        });
        assert_eq!(seen.len(), 50);
        let skipped = seen.iter().filter(|o| o.what == "not started").count();
        assert!(r.interrupted && skipped > 0);
        let mut pdfs: Vec<_> = seen.iter().map(|o| o.pdf.clone()).collect();
        pdfs.sort();
        pdfs.dedup();
        assert_eq!(pdfs.len(), 50);
    }
}
