//! Ctrl-C and progress during long native calls. The work runs on one of rayon's threads
//! with the GIL released, and Python's thread wakes every [`POLL`] to check for a pending
//! signal (`Python::check_signals`) and to report progress, and at once when the work ends.
//! On a signal it cancels the work ([`crate::control`]), waits for it to return (its loops
//! check between pieces of a few milliseconds), drops its incomplete result and raises the
//! signal's exception, `KeyboardInterrupt`: never a panic, and nothing half-done reaches
//! Python.
//!
//! The work goes to rayon's pool rather than to a thread of its own: a new thread per call,
//! with the hand-over of its parallel loop to the pool, cost about 40 µs of CPU time a
//! call. A search agent's decision of a few worlds, a fraction of a millisecond, is not
//! handed over at all: [`decision`] runs it on the caller's thread and raises a signal that
//! arrived meanwhile as it returns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::Thread;
use std::time::Duration;

use pyo3::prelude::*;

use crate::control::{Control, RunControl};

/// How often a waiting call checks for a signal and reports progress.
const POLL: Duration = Duration::from_millis(20);

/// The most worlds of a search agent's decision that [`decision`] runs on the caller's
/// thread: at under a millisecond a world (17 ms for the slowest decision of 24 worlds in
/// the fixed decision set, one core; 15 ms for the grandmaster's 72), the call ends and
/// raises a pending signal well within a second. Every agent's default count is within it.
pub const INLINE_SAMPLES: usize = 80;

/// Marks the work finished and wakes the caller when dropped: when the work returns, and
/// when it panics too, so the caller never waits for work that is gone.
struct Finished<'a> {
    flag: &'a AtomicBool,
    caller: Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Release);
        self.caller.unpark();
    }
}

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
    let finished = AtomicBool::new(false);
    let result: Mutex<Option<T>> = Mutex::new(None);
    let caller = std::thread::current();
    let job = || {
        let _finished = Finished {
            flag: &finished,
            caller,
        };
        let value = work(run.control());
        if let Ok(mut slot) = result.lock() {
            *slot = Some(value);
        }
    };
    let stopped = if rayon::current_thread_index().is_some() {
        // Called from one of the pool's own threads (a Python callback inside a parallel
        // run): its job could wait behind this very thread, so it runs here, to its end.
        py.detach(job);
        Ok(())
    } else {
        // The scope ends once the job has returned, so it may borrow; a panic in the job is
        // resumed here, on the caller's thread, when the scope ends.
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| job());
            wait(py, &run, &finished, progress)
        })
    };
    stopped?;
    py.check_signals()?;
    let value = result.into_inner().ok().flatten();
    Ok(value.unwrap_or_else(|| unreachable!("the job stores its value before it finishes")))
}

/// A search agent's decision over `samples` worlds: with at most [`INLINE_SAMPLES`], on the
/// caller's thread with the GIL released (no hand-over to another thread, which costs more
/// than a small decision's own work on one core), a signal that arrived meanwhile being
/// raised once it returns; with more, as [`interruptible`] runs it.
pub fn decision<T: Send>(
    py: Python<'_>,
    samples: usize,
    work: impl FnOnce(Control<'_>) -> T + Send,
) -> PyResult<T> {
    if samples > INLINE_SAMPLES {
        return interruptible(py, None, work);
    }
    let value = py.detach(|| work(Control::NONE));
    py.check_signals()?;
    Ok(value)
}

/// Polls for signals and reports progress until the work has finished; on a signal (or an
/// exception from `progress`) cancels the work and waits for it to return.
fn wait(
    py: Python<'_>,
    run: &RunControl,
    finished: &AtomicBool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let mut reported = 0;
    while !finished.load(Ordering::Acquire) {
        py.detach(|| std::thread::park_timeout(POLL));
        let stopped = py.check_signals().and_then(|()| match progress {
            Some(callback) if run.done() != reported => {
                reported = run.done();
                callback.call1((reported,)).map(drop)
            }
            _ => Ok(()),
        });
        if stopped.is_err() {
            run.cancel();
            py.detach(|| {
                while !finished.load(Ordering::Acquire) {
                    std::thread::park_timeout(POLL);
                }
            });
            return stopped;
        }
    }
    Ok(())
}
