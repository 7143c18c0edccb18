//! How a long job tells its caller what it is doing, and how the caller asks it to stop: one
//! interface for the batch run ([`super::run`], lines are [`super::ItemReport`]s), the run of
//! one tar ([`super::tar::run::run_one`], lines are [`super::tar::MemberReport`]s) and the run
//! of a directory of tars ([`super::tar::run::run_dir`], lines are
//! [`super::tar::run::TarLine`]s).
//!
//! The front ends implement it: the CLI writes each line to the report and draws the bar, and
//! turns Ctrl-C into [`Progress::stopped`]; Python calls the caller's callback and honours
//! `KeyboardInterrupt` there. Every method is called on the thread that called the run, so
//! an implementation needs no locking and may take the GIL.

/// Something a run reports beside its lines: a note of the arXiv metadata pass (a deleted
/// entry, an unusable line, more OAI pages to fetch).
pub type Notice = crate::record::arxiv::bulk::Report;

/// What a long job tells its caller while it runs; also how it is asked to stop.
pub trait Progress<L: ?Sized> {
    /// The run starts: this many lines will come (when known before the run).
    fn start(&mut self, _total: usize) {}
    /// One line, as its file (or member, or tar) is done.
    fn line(&mut self, line: &L);
    /// A notice of the metadata pass; it is not a line of the report.
    fn note(&mut self, _note: &Notice) {}
    /// Whether the caller asks the run to stop. Asked after every line and, while none
    /// comes, about every tenth of a second; once it says yes, what is in flight finishes
    /// and nothing else starts (a batch run reports the rest `skipped`; a tar run fails as
    /// interrupted and writes no output file).
    fn stopped(&mut self) -> bool {
        false
    }
    /// Whether the lines are kept anywhere. A caller that discards them (a report written to
    /// the null device) saves what only they need: a tar member's SHA-1, a fifth of a tar
    /// run's CPU.
    fn keeps_lines(&self) -> bool {
        true
    }
}

/// Lines gathered into a list, for a caller that wants the report at the end and has no
/// reason to stop the run.
impl<L: Clone> Progress<L> for Vec<L> {
    fn line(&mut self, line: &L) {
        self.push(line.clone());
    }
}
