//! The analysis of deals played, for Python: `ecarte.duel.analyse` reads its JSON into
//! typed results (python/ecarte/analysis.py). The work runs with the GIL released.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::deal::PyDeal;
use super::errors::{describe, int_usize, record_text, EcarteError};
use super::interrupt::interruptible;
use super::matches::PyMatch;
use super::rng::extract_seed;
use super::threads::{threads_arg, with_threads};
use crate::analysis::{self, AnalysisError, Options, Played};

fn analysis_error(e: AnalysisError) -> PyErr {
    match e {
        AnalysisError::Record(e) => e.into(),
        other => EcarteError::new_err(other.to_string()),
    }
}

/// The deals of `target` (`finished` ones only, if asked): a `Deal`, a `Match`, or the JSON
/// text of a deal or match record.
fn deals_of(target: &Bound<'_, PyAny>, finished: bool) -> PyResult<Vec<Played>> {
    let mut deals = all_deals_of(target)?;
    if finished {
        deals.retain(|p| p.state.outcome().is_some());
    }
    Ok(deals)
}

fn all_deals_of(target: &Bound<'_, PyAny>) -> PyResult<Vec<Played>> {
    if let Ok(deal) = target.cast::<PyDeal>() {
        return Ok(vec![Played::deal(*deal.borrow().state())]);
    }
    let text = if target.cast::<PyMatch>().is_ok() {
        target.call_method0("to_json")?.extract::<String>()?
    } else if target.is_instance_of::<pyo3::types::PyString>() {
        record_text(target, "a deal or match record")?
    } else {
        return Err(PyTypeError::new_err(format!(
            "analyse takes a Deal, a Match or the JSON text of a deal or match record, got {}",
            describe(target)
        )));
    };
    Played::of_record(&text).map_err(analysis_error)
}

/// A threshold in points: a finite number of at least 0.
fn threshold_arg(threshold: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
    let Some(threshold) = threshold.filter(|t| !t.is_none()) else {
        return Ok(analysis::DEFAULT_THRESHOLD);
    };
    let bad = || {
        EcarteError::new_err(format!(
            "threshold must be a number of points of at least 0, got {}",
            describe(threshold)
        ))
    };
    if threshold.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    threshold
        .extract::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(bad)
}

/// The analysis of every decision of `target` as JSON (see `crate::analysis`), with the
/// worlds of `seed`; of its finished deals only with `finished` (a seat facing an agent
/// may see no more).
#[pyfunction]
#[pyo3(signature = (target, *, seed, worlds = None, threshold = None, threads = None, on_progress = None, finished = false))]
#[allow(clippy::too_many_arguments)]
fn analyse_json(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    worlds: Option<&Bound<'_, PyAny>>,
    threshold: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    on_progress: Option<&Bound<'_, PyAny>>,
    finished: bool,
) -> PyResult<String> {
    let worlds = match worlds.filter(|w| !w.is_none()) {
        Some(w) => int_usize(w, "worlds", 1, usize::from(analysis::MAX_WORLDS))? as u16,
        None => analysis::DEFAULT_WORLDS,
    };
    let seed = extract_seed(seed, "seed")?;
    let options = Options {
        worlds,
        seed,
        threshold: threshold_arg(threshold)?,
    };
    analysis::check_options(&options).map_err(analysis_error)?;
    let threads = threads_arg(threads)?;
    let deals = deals_of(target, finished)?;
    let result = interruptible(py, on_progress, |control| {
        with_threads(threads, || analysis::analyse(&deals, &options, control))
    })??;
    result.map(|a| a.to_json()).map_err(analysis_error)
}

/// The decisions an analysis of `target` makes (one per action): the total of its
/// progress.
#[pyfunction]
#[pyo3(signature = (target, *, finished = false))]
fn analysis_size(target: &Bound<'_, PyAny>, finished: bool) -> PyResult<usize> {
    Ok(analysis::decision_count(&deals_of(target, finished)?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse_json, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_size, m)?)?;
    m.add("DEFAULT_ANALYSIS_WORLDS", analysis::DEFAULT_WORLDS)?;
    m.add("DEFAULT_ANALYSIS_THRESHOLD", analysis::DEFAULT_THRESHOLD)?;
    Ok(())
}
