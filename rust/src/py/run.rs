//! Match `i` of a run for Python: the one layout that the arena, `PettingZoo` and Python code
//! playing runs of matches follow, as the engine's own runs do.

use pyo3::prelude::*;

use super::errors::{extract_u64, int_in};
use super::matches::PyMatch;
use super::rules::PyRules;
use crate::play::run::RunMatch;
use crate::rng;

/// Match `index` of the run with seed `run_seed`: its `seed` (`derive_seed(run_seed,
/// index)`), its `first_dealer` (`index % 2`) and the seeds of the agents in its seats.
#[pyclass(name = "RunMatch", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyRunMatch {
    run_seed: u64,
    index: u64,
    game: RunMatch,
}

#[pymethods]
impl PyRunMatch {
    #[new]
    fn new(run_seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<PyRunMatch> {
        let (run_seed, index) = (extract_u64(run_seed, "seed")?, extract_u64(index, "index")?);
        Ok(PyRunMatch {
            run_seed,
            index,
            game: RunMatch::of(run_seed, index),
        })
    }
    #[getter]
    fn run_seed(&self) -> u64 {
        self.run_seed
    }
    #[getter]
    fn index(&self) -> u64 {
        self.index
    }
    /// The match's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed
    }
    /// The seat that deals its first deal.
    #[getter]
    fn first_dealer(&self) -> u8 {
        self.game.first_dealer
    }
    /// The seed of the agent in `seat` (0 or 1; 2 and up for helpers such as a hint agent).
    fn agent_seed(&self, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
        let seat = int_in(seat, "seat", 0, i128::from(u64::MAX - rng::AGENT_STREAM))?;
        Ok(self.game.agent_seed(seat as u64))
    }
    /// The match, dealt and ready to play.
    #[pyo3(signature = (rules = None))]
    fn start(&self, rules: Option<PyRules>) -> PyResult<PyMatch> {
        let rules = rules.map(|r| r.0).unwrap_or_default();
        Ok(PyMatch::from_match(self.game.start(rules)?))
    }
    fn __hash__(&self) -> u64 {
        self.game.seed
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (u64, u64)) {
        let me = slf.get();
        (slf.get_type().into_any(), (me.run_seed, me.index))
    }
    fn __repr__(&self) -> String {
        format!("RunMatch({}, {})", self.run_seed, self.index)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRunMatch>()
}
