//! Thread counts for the native parallel calls.

use pyo3::prelude::*;

use super::errors::{int_usize, EcarteError, MAX_THREADS};

/// A thread count from 1 to `MAX_THREADS`, or `None` for all cores.
pub fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads
        .filter(|t| !t.is_none())
        .map(|t| int_usize(t, "threads", 1, MAX_THREADS))
        .transpose()
}

/// Runs `f` on a pool of `threads` threads, or on rayon's global pool when `None`.
pub fn with_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(f()),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map(|pool| pool.install(f))
            .map_err(|e| EcarteError::new_err(e.to_string())),
    }
}
