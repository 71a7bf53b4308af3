//! Whole duel deals or matches between built-in agents, simulated natively in parallel.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use super::agents::policy;
use super::errors::{extract_u64, int_usize, EcarteError, MAX_BATCH};
use super::interrupt::interruptible;
use super::rng::extract_seed;
use super::rules::PyRules;
use super::threads::{threads_arg, with_threads};
use crate::duel::action::write_mask;
use crate::duel::observe::{expand_compact, OBSERVATION_SIZE};
use crate::duel::{Rules, NUM_ACTIONS};
use crate::play::decisions::{self_play_decisions as self_play_decisions_native, DecisionKind};
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

/// The decisions with a choice of `matches` self-play matches between built-in agents,
/// match `i` of the run played by `agents[i % len(agents)]` (a pair of specs); returns
/// columns of arrays. See `ecarte.duel.self_play_decisions`.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the Python keyword signature
#[pyo3(signature = (matches, seed, agents, rules = None, start = None, threads = None, on_progress = None))]
fn self_play_decisions<'py>(
    py: Python<'py>,
    matches: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    rules: Option<PyRules>,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    on_progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    // A match holds about 290 decisions with a choice, each about 1 KB of arrays: the cap
    // keeps one call within about 1.5 GB (more matches: several calls, with `start`).
    let n = int_usize(matches, "matches", 0, MAX_DECISION_MATCHES)?;
    let seed = extract_seed(seed, "seed")?;
    let start = start.map_or(Ok(0), |s| extract_u64(s, "start"))?;
    if start.checked_add(n as u64).is_none() {
        return Err(EcarteError::new_err(format!(
            "start + matches must be at most 2**64 - 1, got start={start}, matches={n}"
        )));
    }
    let items: Vec<Bound<'py, PyAny>> = agents
        .try_iter()
        .and_then(Iterator::collect::<PyResult<Vec<_>>>)
        .map_err(|_| {
            EcarteError::new_err(format!(
                "agents must be a list of pairs of agent specs, got {}",
                super::errors::describe(agents)
            ))
        })?;
    if items.is_empty() || items.len() > MAX_PAIRS {
        return Err(EcarteError::new_err(format!(
            "agents must hold 1 to {MAX_PAIRS} pairs of agent specs, got {}",
            items.len()
        )));
    }
    let pairs = items
        .iter()
        .map(|item| {
            let specs = super::errors::pair(item, "each item of agents (seat 0's spec, seat 1's)")?;
            Ok([policy(&specs[0])?, policy(&specs[1])?])
        })
        .collect::<PyResult<Vec<_>>>()?;
    let threads = threads_arg(threads)?;
    let rules = rules.map_or_else(Rules::default, |r| r.0);
    let decisions = interruptible(py, on_progress, |control| {
        with_threads(threads, || {
            self_play_decisions_native(start, n, seed, rules, &pairs, control)
        })
    })???;
    let rows = decisions.len();
    let mut observation = vec![0.0f32; rows * OBSERVATION_SIZE];
    let mut mask = vec![false; rows * NUM_ACTIONS];
    for (d, (obs, legal)) in decisions.iter().zip(
        observation
            .chunks_exact_mut(OBSERVATION_SIZE)
            .zip(mask.chunks_exact_mut(NUM_ACTIONS)),
    ) {
        expand_compact(&d.observation, obs);
        write_mask(d.legal, legal);
    }
    let action: Vec<i64> = decisions.iter().map(|d| d.action.id() as i64).collect();
    let game: Vec<u64> = decisions.iter().map(|d| d.game).collect();
    let seat: Vec<u8> = decisions.iter().map(|d| d.seat).collect();
    let kind: Vec<u8> = decisions.iter().map(|d| d.kind as u8).collect();
    let master_log: Vec<f64> = decisions.iter().map(|d| d.master_model.0).collect();
    let master_choice: Vec<i64> = decisions
        .iter()
        .map(|d| d.master_model.1.map_or(-1, |a| a.id() as i64))
        .collect();
    Ok(vec![
        (
            "observation",
            PyArray1::from_vec(py, observation)
                .reshape([rows, OBSERVATION_SIZE])?
                .into_any(),
        ),
        (
            "mask",
            PyArray1::from_vec(py, mask)
                .reshape([rows, NUM_ACTIONS])?
                .into_any(),
        ),
        ("action", PyArray1::from_vec(py, action).into_any()),
        ("match", PyArray1::from_vec(py, game).into_any()),
        ("seat", PyArray1::from_vec(py, seat).into_any()),
        ("kind", PyArray1::from_vec(py, kind).into_any()),
        (
            "master_log_probability",
            PyArray1::from_vec(py, master_log).into_any(),
        ),
        (
            "master_choice",
            PyArray1::from_vec(py, master_choice).into_any(),
        ),
    ])
}

/// The most matches one call of `self_play_decisions` plays.
const MAX_DECISION_MATCHES: usize = 5_000;
/// The most pairs of agents one call of `self_play_decisions` takes.
const MAX_PAIRS: usize = 64;

fn pairs<'py>(py: Python<'py>, rows: &[[u8; 2]]) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    Ok(PyArray1::from_vec(py, flat)
        .reshape([rows.len(), 2])?
        .into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(duel_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(self_play_decisions, m)?)?;
    let kinds = DecisionKind::ALL.map(DecisionKind::name);
    m.add("DECISION_KINDS", pyo3::types::PyTuple::new(m.py(), kinds)?)?;
    Ok(())
}
