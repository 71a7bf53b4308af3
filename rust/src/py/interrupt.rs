//! Ctrl-C and progress during long native calls. The work runs on a helper thread with the
//! GIL released, and Python's thread wakes every [`POLL`] to check for a pending signal
//! (`Python::check_signals`) and to report progress. On a signal it cancels the work
//! ([`crate::control`]), waits for it to return (its loops check between pieces of a few
//! milliseconds), drops its incomplete result and raises the signal's exception,
//! `KeyboardInterrupt`: never a panic, and nothing half-done reaches Python.

use std::time::Duration;

use pyo3::prelude::*;

use crate::control::{Control, RunControl};

/// How often a waiting call checks for a signal and reports progress.
const POLL: Duration = Duration::from_millis(20);

/// `work` run with the GIL released, cancelled on Ctrl-C (or any signal whose handler
/// raises); `progress(done)`, if given, is called with the units the work has counted
/// whenever the count changes (an exception it raises cancels the work too). A signal
/// that arrives as the work ends is raised as well, before the caller turns the result
/// into Python objects.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Control<'_>) -> T + Send,
) -> PyResult<T> {
    let run = RunControl::new();
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let value = work(run.control());
            caller.unpark();
            value
        });
        let mut stopped = Ok(());
        let mut reported = 0;
        while !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(POLL));
            stopped = py.check_signals().and_then(|()| match progress {
                Some(callback) if run.done() != reported => {
                    reported = run.done();
                    callback.call1((reported,)).map(drop)
                }
                _ => Ok(()),
            });
            if stopped.is_err() {
                run.cancel();
                break;
            }
        }
        let value = py
            .detach(|| worker.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        stopped?;
        py.check_signals()?;
        Ok(value)
    })
}
