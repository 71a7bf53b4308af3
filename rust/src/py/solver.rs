//! The double-dummy solver, the world sampler and the PIMC evaluator for Python. Every
//! search runs with the GIL released.

use pyo3::prelude::*;

use super::action::PyAction;
use super::deal::PyDeal;
use super::errors::{extract_u64, int_in, int_usize, text, EcarteError, MAX_SAMPLES};
use super::interrupt::interruptible;
use super::observe::PyObservation;
use super::rng::extract_seed;
use super::threads::with_threads;
use crate::duel::DealState;
use crate::solver::{self, sampler, Objective, Solution};

/// The exact double-dummy result of a play-phase position, for the player to move.
#[pyclass(name = "Solution", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PySolution(Solution);

#[pymethods]
impl PySolution {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::solver::record::SOLUTION_FORMAT;

    /// The solution with these parts, which some play-phase position must be able to have
    /// (see `solver::Solution::new`); `EcarteError` otherwise.
    #[new]
    fn new(value: i32, best_actions: Vec<PyAction>, nodes: u64) -> PyResult<PySolution> {
        let best_actions = best_actions.into_iter().map(|a| a.0).collect();
        Solution::new(value, best_actions, nodes)
            .map(PySolution)
            .map_err(|e| EcarteError::new_err(format!("impossible solution: {e}")))
    }
    /// The versioned record: value, best actions and nodes.
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    /// Reads what `to_json` wrote: a value of deal points or cards, and one to five cards
    /// played in action-id order; anything else raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PySolution> {
        let record = super::errors::record_text(text, "a solution record")?;
        let solution = Solution::from_json(&record)
            .map_err(|e| super::errors::with_reader(e.into(), &record, Self::RECORD_FORMAT))?;
        Ok(PySolution(solution))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
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

fn objective(name: Option<&Bound<'_, PyAny>>) -> PyResult<Objective> {
    let Some(name) = name else {
        return Ok(Objective::Points);
    };
    let name = text(name, "objective")?;
    Objective::parse(&name).ok_or_else(|| {
        EcarteError::new_err(format!(
            "objective must be 'points' or 'cards', got {name:?}"
        ))
    })
}

fn solve_error(e: &solver::SolveError) -> PyErr {
    EcarteError::new_err(e.to_string())
}

/// The answer to a bound test (`solve(deal, bound=b)`): whether the exact value for the
/// player to move is at least `bound`.
#[pyclass(name = "BoundTest", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyBoundTest(solver::BoundTest);

#[pymethods]
impl PyBoundTest {
    /// The bound tested, in the objective's unit.
    #[getter]
    fn bound(&self) -> i32 {
        self.0.bound
    }
    /// Whether the exact value is at least `bound`.
    #[getter]
    fn at_least(&self) -> bool {
        self.0.at_least
    }
    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    fn __repr__(&self) -> String {
        let at_least = if self.0.at_least { "True" } else { "False" };
        format!(
            "BoundTest(bound={}, at_least={at_least}, nodes={})",
            self.0.bound, self.0.nodes
        )
    }
}

/// A solve that gave up (`solve(deal, max_nodes=n)`): it needed more than `max_nodes`
/// search nodes, searched `nodes` of them and stopped, with no answer.
#[pyclass(name = "GaveUp", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyGaveUp {
    nodes: u64,
    max_nodes: u64,
}

#[pymethods]
impl PyGaveUp {
    /// The nodes searched before giving up (at most `max_nodes`).
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }
    /// The budget the solve was given.
    #[getter]
    fn max_nodes(&self) -> u64 {
        self.max_nodes
    }
    fn __repr__(&self) -> String {
        format!("GaveUp(nodes={}, max_nodes={})", self.nodes, self.max_nodes)
    }
}

/// A search's answer as Python sees it, or a `GaveUp`.
fn limited<T, P: pyo3::PyClass + Into<pyo3::PyClassInitializer<P>>>(
    py: Python<'_>,
    result: solver::Limited<T>,
    wrap: impl FnOnce(T) -> P,
) -> PyResult<Py<PyAny>> {
    match result {
        solver::Limited::Done(answer) => Ok(Py::new(py, wrap(answer))?.into_any()),
        solver::Limited::GaveUp { nodes, max_nodes } => {
            Ok(Py::new(py, PyGaveUp { nodes, max_nodes })?.into_any())
        }
    }
}

/// Solves a play-phase position double-dummy (every card and the talon order known); with
/// `bound`, tests whether the value is at least `bound` instead; with `max_nodes`, gives up
/// (a `GaveUp`) past that many search nodes.
#[pyfunction]
#[pyo3(signature = (deal, objective = None, *, bound = None, max_nodes = None))]
fn solve(
    py: Python<'_>,
    deal: PyRef<'_, PyDeal>,
    objective: Option<&Bound<'_, PyAny>>,
    bound: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let objective = self::objective(objective)?;
    let bound = bound
        .filter(|b| !b.is_none())
        .map(|b| int_in(b, "bound", i32::MIN.into(), i32::MAX.into()).map(|v| v as i32))
        .transpose()?;
    let max_nodes = max_nodes
        .filter(|n| !n.is_none())
        .map(|n| extract_u64(n, "max_nodes"))
        .transpose()?;
    let state = *deal.state();
    if let Some(bound) = bound {
        let answer = py
            .detach(move || solver::test_bound(&state, objective, bound, max_nodes))
            .map_err(|e| solve_error(&e))?;
        limited(py, answer, PyBoundTest)
    } else {
        let answer = py
            .detach(move || solver::solve_limited(&state, objective, max_nodes))
            .map_err(|e| solve_error(&e))?;
        limited(py, answer, PySolution)
    }
}

/// Builds the solver's one-time tables if they are not built yet (the endgame tables all
/// threads share, and this thread's transposition table) and returns the seconds it took.
#[pyfunction]
fn prepare_solver(py: Python<'_>) -> f64 {
    py.detach(solver::prepare).as_secs_f64()
}

/// The checked arguments both `solve_many` and `solve_many_timed` take: the positions, the
/// objective and the thread count.
fn batch_args(
    deals: &[PyRef<'_, PyDeal>],
    objective: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<DealState>, Objective, Option<usize>)> {
    Ok((
        deals.iter().map(|d| *d.state()).collect(),
        self::objective(objective)?,
        super::threads::threads_arg(threads)?,
    ))
}

/// Solves many positions in parallel on `threads` threads (default: rayon's pool); results
/// in input order. `on_progress(solved)` is told the positions solved so far while it runs.
#[pyfunction]
#[pyo3(signature = (deals, objective = None, threads = None, on_progress = None))]
fn solve_many(
    py: Python<'_>,
    deals: Vec<PyRef<'_, PyDeal>>,
    objective: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    on_progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PySolution>> {
    let (states, objective, threads) = batch_args(&deals, objective, threads)?;
    let results = interruptible(py, on_progress, |control| {
        with_threads(threads, || solver::solve_many(&states, objective, control))
    })??;
    results
        .into_iter()
        .map(|r| r.map(PySolution).map_err(|e| solve_error(&e)))
        .collect()
}

/// `solve_many`, each solution with its own solve time in seconds.
#[pyfunction]
#[pyo3(signature = (deals, objective = None, threads = None, on_progress = None))]
fn solve_many_timed(
    py: Python<'_>,
    deals: Vec<PyRef<'_, PyDeal>>,
    objective: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    on_progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(PySolution, f64)>> {
    let (states, objective, threads) = batch_args(&deals, objective, threads)?;
    let results = interruptible(py, on_progress, |control| {
        with_threads(threads, || {
            solver::solve_many_timed(&states, objective, control)
        })
    })??;
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
#[pyo3(signature = (deal, objective = None))]
fn action_values(
    py: Python<'_>,
    deal: PyRef<'_, PyDeal>,
    objective: Option<&Bound<'_, PyAny>>,
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
    n: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<Py<PyDeal>>> {
    let n = int_usize(n, "n (worlds)", 0, MAX_SAMPLES)?;
    let seed = extract_seed(seed, "seed")?;
    let obs = observation.0.clone();
    let worlds = py
        .detach(move || sampler::sample_worlds(&obs, n, seed))
        .map_err(|e| EcarteError::new_err(e.to_string()))?;
    worlds
        .iter()
        .map(|w| Py::new(py, PyDeal::from_state(w, None)))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolution>()?;
    m.add_class::<PyBoundTest>()?;
    m.add_class::<PyGaveUp>()?;
    m.add("NODE_COUNT_VERSION", solver::NODE_COUNT_VERSION)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(prepare_solver, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(action_values, m)?)?;
    m.add_function(wrap_pyfunction!(sample_worlds, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many_timed, m)?)?;
    Ok(())
}
