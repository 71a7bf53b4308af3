//! Whole duel deals or matches between built-in agents, simulated natively in parallel.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use super::agents::policy;
use super::errors::{extract_u64, int_usize, EcarteError, MAX_BATCH};
use super::interrupt::interruptible;
use super::rng::extract_seed;
use super::rules::PyRules;
use super::threads::{threads_arg, with_threads};
use crate::duel::Rules;
use crate::play::simulate::{simulate_deals, simulate_matches};

type Columns<'py> = Vec<(&'static str, Bound<'py, PyAny>)>;

/// Plays `n` deals (or matches) natively between two built-in agents; returns columns of
/// arrays. `on_progress(deals)` is told the deals played so far while it runs. See
/// `ecarte.duel.simulate`.
#[pyfunction]
#[pyo3(name = "simulate")]
#[allow(clippy::too_many_arguments)] // the Python keyword signature
#[pyo3(signature = (n, seed, agents, rules = None, matches = false, start = None, threads = None, on_progress = None))]
fn duel_simulate<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    rules: Option<PyRules>,
    matches: bool,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    on_progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    let n = int_usize(n, "n", 0, MAX_BATCH)?;
    let seed = extract_seed(seed, "seed")?;
    let start = start.map_or(Ok(0), |s| extract_u64(s, "start"))?;
    if start.checked_add(n as u64).is_none() {
        return Err(EcarteError::new_err(format!(
            "start + n must be at most 2**64 - 1, got start={start}, n={n}"
        )));
    }
    let specs = super::errors::pair(agents, "agents (the specs of seat 0 and seat 1)")?;
    let policies = [policy(&specs[0])?, policy(&specs[1])?];
    let threads = threads_arg(threads)?;
    let rules = rules.map_or_else(Rules::default, |r| r.0);
    if matches {
        let result = interruptible(py, on_progress, |control| {
            with_threads(threads, || {
                simulate_matches(start, n, seed, rules, policies, control)
            })
        })???;
        let winner: Vec<u8> = result.iter().map(|m| m.winner).collect();
        let score: Vec<[u8; 2]> = result.iter().map(|m| m.score).collect();
        let deals: Vec<u32> = result.iter().map(|m| m.deals).collect();
        let deals_won: Vec<u32> = result.iter().flat_map(|m| m.deals_won).collect();
        return Ok(vec![
            ("winner", PyArray1::from_vec(py, winner).into_any()),
            ("score", pairs(py, &score)?),
            ("deals", PyArray1::from_vec(py, deals).into_any()),
            (
                "deals_won",
                PyArray1::from_vec(py, deals_won)
                    .reshape([result.len(), 2])?
                    .into_any(),
            ),
        ]);
    }
    let result = interruptible(py, on_progress, |control| {
        with_threads(threads, || {
            simulate_deals(start, n, seed, rules, policies, control)
        })
    })???;
    let column = |f: fn(&crate::play::simulate::DealSummary) -> u8| -> Vec<u8> {
        result.iter().map(f).collect()
    };
    let cards: Vec<[u8; 2]> = result.iter().map(|d| d.cards).collect();
    let tricks: Vec<[u8; 2]> = result.iter().map(|d| d.tricks).collect();
    Ok(vec![
        (
            "dealer",
            PyArray1::from_vec(py, column(|d| d.dealer)).into_any(),
        ),
        (
            "winner",
            PyArray1::from_vec(py, column(|d| d.winner)).into_any(),
        ),
        (
            "points",
            PyArray1::from_vec(py, column(|d| d.points)).into_any(),
        ),
        ("cards", pairs(py, &cards)?),
        ("tricks", pairs(py, &tricks)?),
        (
            "exchanges",
            PyArray1::from_vec(py, column(|d| d.exchanges)).into_any(),
        ),
    ])
}

fn pairs<'py>(py: Python<'py>, rows: &[[u8; 2]]) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([rows.len(), 2])?
        .into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(duel_simulate, m)?)?;
    Ok(())
}
