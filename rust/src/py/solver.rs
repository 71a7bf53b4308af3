//! The double-dummy solver, the world sampler and the PIMC evaluator for Python. Every
//! search runs with the GIL released.

use pyo3::prelude::*;
use pyo3::types::PyType;

use super::batch::with_threads;
use super::duel::{PyAction, PyDeal, PyObservation};
use super::errors::{extract_u64, EcarteError};
use crate::duel::{DealRecord, DealState};
use crate::solver::{self, pimc, sampler, Objective, Solution};

/// The exact double-dummy result of a play-phase position, for the player to move.
#[pyclass(name = "Solution", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PySolution(Solution);

#[pymethods]
impl PySolution {
    /// Deal points (+2, +1, -1, -2), or cards with `objective="cards"`.
    #[getter]
    fn value(&self) -> i32 {
        self.0.value
    }
    /// Every legal action that achieves `value`, in action-id order.
    #[getter]
    fn best_actions(&self) -> Vec<PyAction> {
        self.0.best_actions.iter().copied().map(PyAction).collect()
    }
    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    fn __repr__(&self) -> String {
        let best: Vec<String> = self
            .0
            .best_actions
            .iter()
            .map(|a| format!("'{a}'"))
            .collect();
        format!(
            "Solution(value={}, best_actions=[{}], nodes={})",
            self.0.value,
            best.join(", "),
            self.0.nodes
        )
    }
}

fn objective(text: &str) -> PyResult<Objective> {
    Objective::parse(text).ok_or_else(|| {
        EcarteError::new_err(format!(
            "objective must be 'points' or 'cards', got {text:?}"
        ))
    })
}

fn solve_error(e: &solver::SolveError) -> PyErr {
    EcarteError::new_err(e.to_string())
}

/// Solves a play-phase position double-dummy (every card and the talon order known).
#[pyfunction]
#[pyo3(signature = (deal, objective = "points"))]
fn solve(py: Python<'_>, deal: PyRef<'_, PyDeal>, objective: &str) -> PyResult<PySolution> {
    let objective = self::objective(objective)?;
    let state = *deal.state();
    py.detach(move || solver::solve(&state, objective))
        .map(PySolution)
        .map_err(|e| solve_error(&e))
}

/// Solves many positions in parallel; results in input order.
#[pyfunction]
#[pyo3(signature = (deals, objective = "points"))]
fn solve_many(
    py: Python<'_>,
    deals: Vec<PyRef<'_, PyDeal>>,
    objective: &str,
) -> PyResult<Vec<PySolution>> {
    let objective = self::objective(objective)?;
    let states: Vec<DealState> = deals.iter().map(|d| *d.state()).collect();
    let results = py.detach(move || solver::solve_many(&states, objective));
    results
        .into_iter()
        .map(|r| r.map(PySolution).map_err(|e| solve_error(&e)))
        .collect()
}

/// Solves many positions in parallel on `threads` threads (default: rayon's pool), each
/// with its own solve time in seconds; results in input order.
#[pyfunction]
#[pyo3(signature = (deals, objective = "points", threads = None))]
fn solve_many_timed(
    py: Python<'_>,
    deals: Vec<PyRef<'_, PyDeal>>,
    objective: &str,
    threads: Option<usize>,
) -> PyResult<Vec<(PySolution, f64)>> {
    let objective = self::objective(objective)?;
    let states: Vec<DealState> = deals.iter().map(|d| *d.state()).collect();
    let results = py
        .detach(move || with_threads(threads, || solver::solve_many_timed(&states, objective)))
        .map_err(EcarteError::new_err)?;
    results
        .into_iter()
        .map(|(r, time)| {
            r.map(|s| (PySolution(s), time.as_secs_f64()))
                .map_err(|e| solve_error(&e))
        })
        .collect()
}

/// Every legal action with its exact double-dummy value, in action-id order.
#[pyfunction]
#[pyo3(signature = (deal, objective = "points"))]
fn action_values(
    py: Python<'_>,
    deal: PyRef<'_, PyDeal>,
    objective: &str,
) -> PyResult<Vec<(PyAction, i32)>> {
    let objective = self::objective(objective)?;
    let state = *deal.state();
    let (values, _) = py
        .detach(move || solver::action_values(&state, objective))
        .map_err(|e| solve_error(&e))?;
    Ok(values.into_iter().map(|(a, v)| (PyAction(a), v)).collect())
}

/// `n` deals consistent with `observation`, reproducible for `seed`.
#[pyfunction]
fn sample_worlds(
    py: Python<'_>,
    observation: PyRef<'_, PyObservation>,
    n: usize,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<Py<PyDeal>>> {
    let seed = extract_u64(seed, "seed")?;
    let obs = observation.0.clone();
    let worlds = py
        .detach(move || sampler::sample_worlds(&obs, n, seed))
        .map_err(|e| EcarteError::new_err(e.to_string()))?;
    // Rebuilt through the deal record, so each world carries its history (and undo).
    let deal_type = py.get_type::<PyDeal>();
    worlds.iter().map(|w| world_deal(&deal_type, w)).collect()
}

fn world_deal(deal_type: &Bound<'_, PyType>, world: &DealState) -> PyResult<Py<PyDeal>> {
    let initial = DealState::from_deck(world.deck(), world.dealer(), world.rules())?;
    let record = DealRecord::new(&initial, world.actions().collect()).to_json();
    Ok(deal_type
        .call_method1("from_json", (record,))?
        .cast_into::<PyDeal>()?
        .unbind())
}

/// Each legal action with its mean double-dummy points over `samples` worlds sampled from
/// `observation` (exchange options: rest of the exchange by a fixed rule of thumb).
#[pyfunction]
fn pimc_values(
    py: Python<'_>,
    observation: PyRef<'_, PyObservation>,
    samples: usize,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<(PyAction, f64)>> {
    let seed = extract_u64(seed, "seed")?;
    let obs = observation.0.clone();
    let values = py
        .detach(move || pimc::pimc_values(&obs, samples, seed))
        .map_err(|e| EcarteError::new_err(e.to_string()))?;
    Ok(values.into_iter().map(|(a, v)| (PyAction(a), v)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DuelSolution", py.get_type::<PySolution>())?;
    m.add("duel_solve", wrap_pyfunction!(solve, m)?)?;
    m.add("duel_solve_many", wrap_pyfunction!(solve_many, m)?)?;
    m.add(
        "duel_solve_many_timed",
        wrap_pyfunction!(solve_many_timed, m)?,
    )?;
    m.add("duel_action_values", wrap_pyfunction!(action_values, m)?)?;
    m.add("duel_sample_worlds", wrap_pyfunction!(sample_worlds, m)?)?;
    m.add("duel_pimc_values", wrap_pyfunction!(pimc_values, m)?)?;
    Ok(())
}
