//! The library's [`Progress`] for Python callers: the lines gathered for the returned dict,
//! each also passed (as a dict) to the caller's callback, and the run stopped when the
//! callback returns ``False``, raises, or Ctrl-C raises ``KeyboardInterrupt``. The run calls
//! it on the thread that released the GIL, so it takes the GIL back only for the call.

use pyo3::prelude::*;
use serde::Serialize;

use pith::job::progress::Progress;

use crate::convert::value_to_py;

/// The lines of a run and the caller's callback.
pub struct Callback<L> {
    /// Every line, in the order the run reported them.
    pub lines: Vec<L>,
    f: Option<Py<PyAny>>,
    /// The callback said stop.
    asked: bool,
    /// What the callback or a signal handler raised; raised again when the run is over.
    err: Option<PyErr>,
}

impl<L> Callback<L> {
    /// Lines passed to `f` (when given) as they come.
    pub fn new(f: Option<Py<PyAny>>) -> Self {
        Callback {
            lines: Vec::new(),
            f,
            asked: false,
            err: None,
        }
    }

    /// The lines, or what was raised while the run went on (the callback's exception, a
    /// ``KeyboardInterrupt``), once the run has stopped.
    pub fn finish(self) -> PyResult<Vec<L>> {
        match self.err {
            Some(e) => Err(e),
            None => Ok(self.lines),
        }
    }
}

impl<L: Serialize + Clone> Progress<L> for Callback<L> {
    fn line(&mut self, line: &L) {
        self.lines.push(line.clone());
        let Some(f) = &self.f else { return };
        if self.err.is_some() {
            return;
        }
        Python::attach(|py| {
            let called = serde_json::to_value(line)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
                .and_then(|v| value_to_py(py, &v))
                .and_then(|d| f.bind(py).call1((d,)));
            match called {
                // Only False stops: a callback that returns nothing lets the run go on.
                Ok(r) => self.asked |= r.cast::<pyo3::types::PyBool>().is_ok_and(|b| !b.is_true()),
                Err(e) => self.err = Some(e),
            }
        });
    }

    fn stopped(&mut self) -> bool {
        if self.err.is_none() {
            // Ctrl-C while the GIL was released: Python's handler raises here, between files.
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                self.err = Some(e);
            }
        }
        self.asked || self.err.is_some()
    }
}
