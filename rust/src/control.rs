//! The caller's hold on a long run: it can cancel the run and watch it advance. The run's
//! loops read a [`Control`] between pieces of work (deals, matches, worlds, positions,
//! chunks of deals), each a few milliseconds at most, and count what they finish; the
//! caller keeps the [`RunControl`] (the Python bindings cancel on Ctrl-C and show the
//! count in a progress bar). A cancelled run returns at once, with a result that is
//! incomplete: the caller who cancelled it discards it. The engine never cancels a run by
//! itself.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The caller's side.
#[derive(Debug, Default)]
pub struct RunControl {
    cancelled: AtomicBool,
    done: AtomicU64,
}

impl RunControl {
    /// A control that is not cancelled and has counted nothing.
    pub const fn new() -> RunControl {
        RunControl {
            cancelled: AtomicBool::new(false),
            done: AtomicU64::new(0),
        }
    }

    /// Asks every loop reading [`RunControl::control`] to return at its next check.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// The units of work the run has counted so far (deals, positions; see the run).
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// What the run reads and counts with.
    pub fn control(&self) -> Control<'_> {
        Control(Some(self))
    }
}

/// The run's side. Cheap to copy, to read and to count with.
#[derive(Clone, Copy, Debug)]
pub struct Control<'a>(Option<&'a RunControl>);

impl Control<'_> {
    /// A run nobody cancels or watches.
    pub const NONE: Control<'static> = Control(None);

    /// Whether the caller has cancelled the run.
    #[inline]
    pub fn cancelled(self) -> bool {
        self.0
            .is_some_and(|run| run.cancelled.load(Ordering::Relaxed))
    }

    /// Counts `units` more of finished work.
    #[inline]
    pub fn advance(self, units: u64) {
        if let Some(run) = self.0 {
            run.done.fetch_add(units, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caller_sees_what_the_run_counts_and_the_run_sees_a_cancel() {
        let run = RunControl::new();
        let control = run.control();
        assert!(!control.cancelled());
        control.advance(3);
        control.advance(4);
        assert_eq!(run.done(), 7);
        run.cancel();
        assert!(control.cancelled() && run.control().cancelled());
        Control::NONE.advance(1);
        assert!(!Control::NONE.cancelled());
    }
}
