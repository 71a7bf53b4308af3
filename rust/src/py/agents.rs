//! The built-in agents for Python: their registry, the one agent-spec grammar, the
//! heuristic's choice and the search agents' values.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::action::PyAction;
use super::deal::seed_or_fresh;
use super::errors::int_in;
use super::errors::{int_usize, EcarteError, IllegalActionError, MAX_SAMPLES};
use super::interrupt::decision;
use super::observe::PyObservation;
use super::rng::extract_seed;
use crate::control::Control;
use crate::duel::{Action, Observation};
use crate::play::agent::BuiltinAgent;
use crate::play::heuristic::{heuristic_action, heuristic_rollout, View};
use crate::play::policy::Policy;
use crate::play::registry::{self, AgentInfo, AGENTS};
use crate::rng;
use crate::solver::pimc;

/// The native policy an agent spec names (the one grammar: [`Policy::parse`]).
pub fn policy(spec: &Bound<'_, PyAny>) -> PyResult<Policy> {
    let text = super::errors::text(spec, "an agent spec").map_err(|_| {
        EcarteError::new_err(format!(
            "an agent spec is text, got {}: choose {}",
            super::errors::describe(spec),
            registry::spec_forms().join(", ")
        ))
    })?;
    Policy::parse(&text).map_err(|e| EcarteError::new_err(e.to_string()))
}

/// Parses an agent spec: `(name, worlds per decision or None)`; `EcarteError` for a
/// spec that names no agent.
#[pyfunction]
fn parse_agent(spec: &Bound<'_, PyAny>) -> PyResult<(&'static str, Option<u32>)> {
    let (row, worlds) = policy(spec)?.row();
    Ok((row.name, worlds.map(u32::from)))
}

/// One built-in agent of the registry (`ecarte.duel.AGENTS`): its name, its worlds, its
/// cost, its levels and what it does.
#[pyclass(name = "AgentInfo", module = "ecarte.duel", frozen)]
pub struct PyAgentInfo(&'static AgentInfo);

#[pymethods]
impl PyAgentInfo {
    /// The row of the agent that `spec` names (`"pimc:8"`: PIMC's).
    #[staticmethod]
    fn of(spec: &Bound<'_, PyAny>) -> PyResult<PyAgentInfo> {
        Ok(PyAgentInfo(policy(spec)?.row().0))
    }
    /// The name its specs begin with.
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }
    /// Whether it samples worlds (its specs then take `:N`).
    #[getter]
    fn searches(&self) -> bool {
        self.0.search.is_some()
    }
    /// Worlds per decision of the spec that names none; `None` if it does not search.
    #[getter]
    fn default_worlds(&self) -> Option<u16> {
        self.0.search.as_ref().map(|s| s.default_worlds)
    }
    /// The most worlds per decision a spec may name; `None` if it does not search.
    #[getter]
    fn max_worlds(&self) -> Option<u16> {
        self.0.search.as_ref().map(|s| s.max_worlds)
    }
    /// Single-thread CPU seconds of a deal against the heuristic: per world of its
    /// decisions if it searches, per deal otherwise.
    #[getter]
    fn deal_seconds(&self) -> f64 {
        self.0.deal_seconds
    }
    /// The forms of its specs (`("pimc", "pimc:N")`).
    #[getter]
    fn specs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.spec_forms())
    }
    /// The levels that play it, each with its spec, easiest first.
    #[getter]
    fn levels(&self) -> Vec<(&'static str, String)> {
        let row = self.0;
        row.levels
            .iter()
            .map(|l| (l.name, row.level_spec(l)))
            .collect()
    }
    /// What it does, in one line.
    #[getter]
    fn description(&self) -> &'static str {
        self.0.description
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyAgentInfo>()
            .is_ok_and(|o| o.get().0.name == self.0.name)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.0.name.hash(&mut hasher);
        hasher.finish()
    }
    /// Pickles as the spec of its agent.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (&'static str,))> {
        Ok((slf.get_type().getattr("of")?, (slf.get().0.name,)))
    }
    fn __repr__(&self) -> String {
        format!("AgentInfo.of({:?})", self.0.name)
    }
}

/// A built-in agent (see `ecarte.agents`): a policy named by an agent spec, with its own
/// seed and stream. Calling it with `(observation, legal_actions)` gives its action; the
/// engine's match runner calls it natively. Subclassed by the Python agent classes.
#[pyclass(name = "BuiltinAgent", module = "ecarte.duel", subclass)]
#[derive(Clone)]
pub struct PyAgent(pub BuiltinAgent);

#[pymethods]
impl PyAgent {
    /// The agent that `spec` names, seeded with `seed` (`None`: a fresh random seed).
    #[new]
    #[pyo3(signature = (spec, seed = None, drawn = None))]
    fn new(
        spec: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        drawn: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAgent> {
        let policy = policy(spec)?;
        let seed = seed_or_fresh(seed)?;
        let drawn = match drawn.filter(|d| !d.is_none()) {
            Some(d) => int_in(
                d,
                "drawn (words of the agent's stream)",
                0,
                i128::from(u64::MAX),
            )?,
            None => 0,
        };
        Ok(PyAgent(BuiltinAgent::resumed(policy, seed, drawn as u128)))
    }
    /// The agent spec, e.g. `"pimc:24"`.
    #[getter]
    fn spec(&self) -> String {
        self.0.policy().spec()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed()
    }
    /// Worlds per decision of a search agent; `None` for the others.
    #[getter]
    fn samples(&self) -> Option<u16> {
        self.0.policy().samples()
    }
    /// The action for the player of `observation`, one of `legal_actions`.
    fn __call__(
        &mut self,
        py: Python<'_>,
        observation: PyRef<'_, PyObservation>,
        legal_actions: Vec<PyAction>,
    ) -> PyResult<PyAction> {
        if legal_actions.is_empty() {
            return Err(IllegalActionError::new_err(
                "no legal action to choose from",
            ));
        }
        let legal: u128 = legal_actions.iter().fold(0, |m, a| m | 1u128 << a.0.id());
        let obs = observation.0.clone();
        let agent = &mut self.0;
        let action = if let Some(samples) = agent.policy().samples() {
            decision(py, usize::from(samples), |control| {
                agent.act_seen(&obs, legal, control)
            })?
        } else {
            agent.act_seen(&obs, legal, Control::NONE)
        };
        // Legal actions that are not the observation's own leave the choice to the list.
        Ok(if legal >> action.id() & 1 == 1 {
            PyAction(action)
        } else {
            legal_actions[0]
        })
    }
    /// Each legal action of `observation` with its value, for a search agent (mean
    /// double-dummy points, the expert's weighted mean), from this decision's worlds: those
    /// the agent samples when it acts. `EcarteError` for the other agents.
    fn values(
        &self,
        py: Python<'_>,
        observation: PyRef<'_, PyObservation>,
    ) -> PyResult<Vec<(PyAction, f64)>> {
        let (policy, seed) = (self.0.policy(), self.0.seed());
        let obs = observation.0.clone();
        let samples = usize::from(policy.samples().unwrap_or(0));
        let values = decision(py, samples, |control| policy.values(&obs, seed, control))?
            .ok_or_else(|| EcarteError::new_err(format!("{} values no actions", policy.spec())))?
            .map_err(|e| EcarteError::new_err(e.to_string()))?;
        Ok(values.into_iter().map(|(a, v)| (PyAction(a), v)).collect())
    }
    /// Pickles as its class, spec, seed and place in its stream: a copy plays on alike.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>, String, u64, u128))> {
        let me = slf.borrow();
        Ok((
            slf.py().import("ecarte.agents")?.getattr("_restore")?,
            (
                slf.get_type().into_any(),
                me.spec(),
                me.0.seed(),
                me.0.drawn(),
            ),
        ))
    }
    fn __repr__(&self) -> String {
        format!("BuiltinAgent({:?}, seed={})", self.spec(), self.0.seed())
    }
}

/// The native heuristic's choice for an observation and its legal actions.
#[pyfunction]
#[pyo3(name = "heuristic_action")]
fn duel_heuristic_action(
    observation: &PyObservation,
    legal_actions: Vec<PyAction>,
) -> PyResult<PyAction> {
    if legal_actions.is_empty() {
        return Err(IllegalActionError::new_err(
            "no legal action to choose from",
        ));
    }
    let legal: u128 = legal_actions.iter().map(|a| 1u128 << a.0.id()).sum();
    let action = heuristic_action(&View::of_observation(&observation.0, legal));
    Ok(if legal >> action.id() & 1 == 1 {
        PyAction(action)
    } else {
        legal_actions[0]
    })
}

/// Each legal action with the expert's value: mean double-dummy points, the talon drawn by
/// seat, over `samples` worlds resampled by the likelihood of the opponent's exchange
/// decisions.
#[pyfunction]
fn expert_values(
    py: Python<'_>,
    observation: PyRef<'_, PyObservation>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<(PyAction, f64)>> {
    sampled_values(
        py,
        &observation,
        samples,
        seed,
        crate::play::expert::expert_values,
    )
}

/// Each legal action with the master's value: mean double-dummy points, the talon drawn by
/// seat, over `samples` worlds resampled by the likelihood of the opponent's plays and
/// exchange decisions.
#[pyfunction]
fn master_values(
    py: Python<'_>,
    observation: PyRef<'_, PyObservation>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<(PyAction, f64)>> {
    sampled_values(
        py,
        &observation,
        samples,
        seed,
        crate::play::master::master_values,
    )
}

/// Each legal action with its mean double-dummy points over `samples` worlds sampled from
/// `observation` (exchange options: rest of the exchange by a fixed rule of thumb).
#[pyfunction]
fn pimc_values(
    py: Python<'_>,
    observation: PyRef<'_, PyObservation>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<(PyAction, f64)>> {
    sampled_values(py, &observation, samples, seed, |obs, n, seed, control| {
        pimc::pimc_values(obs, n, seed, heuristic_rollout, control)
    })
}

/// How the search agent `agent` (a spec) with seed `seed` weights the worlds it samples
/// for `observation`: the effective sample size of the weighted pool of candidate worlds
/// that its search resamples its worlds from at that decision, and the pool's size, or
/// `None` where it solves unweighted worlds.
#[pyfunction]
fn inference_spread(
    observation: PyRef<'_, PyObservation>,
    agent: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Option<(f64, usize)>> {
    let policy = policy(agent)?;
    let seed = extract_seed(seed, "seed")?;
    let Some(spread) = policy.inference_spread(&observation.0, seed) else {
        return Err(EcarteError::new_err(format!(
            "{} does not search: it samples no worlds",
            policy.spec()
        )));
    };
    spread.map_err(|e| EcarteError::new_err(e.to_string()))
}

/// The seed of the worlds a search agent with seed `seed` samples for `observation`.
#[pyfunction]
fn decision_seed(seed: &Bound<'_, PyAny>, observation: PyRef<'_, PyObservation>) -> PyResult<u64> {
    Ok(rng::decision_seed(
        extract_seed(seed, "seed")?,
        observation.0.key(),
    ))
}

/// The seed of the agent in `seat` (0 or 1; 2 and up for helpers) of the match with seed
/// `match_seed`.
#[pyfunction]
fn agent_seed(match_seed: &Bound<'_, PyAny>, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
    let seat = int_in(seat, "seat", 0, i128::from(u64::MAX - rng::AGENT_STREAM))?;
    Ok(rng::agent_seed(
        extract_seed(match_seed, "seed")?,
        seat as u64,
    ))
}

/// A sampling evaluator (PIMC's, the expert's) for Python: checks `samples` and `seed`,
/// runs `evaluate` without the GIL (Ctrl-C cancels it) and converts its values.
pub fn sampled_values<E: std::fmt::Display + Send>(
    py: Python<'_>,
    observation: &PyObservation,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    evaluate: impl FnOnce(&Observation, usize, u64, Control<'_>) -> Result<Vec<(Action, f64)>, E> + Send,
) -> PyResult<Vec<(PyAction, f64)>> {
    let samples = int_usize(samples, "samples", 1, MAX_SAMPLES)?;
    let seed = extract_seed(seed, "seed")?;
    let obs = observation.0.clone();
    let values = decision(py, samples, |control| {
        evaluate(&obs, samples, seed, control)
    })?
    .map_err(|e| EcarteError::new_err(e.to_string()))?;
    Ok(values.into_iter().map(|(a, v)| (PyAction(a), v)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(decision_seed, m)?)?;
    m.add_function(wrap_pyfunction!(agent_seed, m)?)?;
    m.add_function(wrap_pyfunction!(parse_agent, m)?)?;
    m.add_function(wrap_pyfunction!(expert_values, m)?)?;
    m.add_function(wrap_pyfunction!(master_values, m)?)?;
    m.add_function(wrap_pyfunction!(inference_spread, m)?)?;
    m.add_function(wrap_pyfunction!(pimc_values, m)?)?;
    m.add_function(wrap_pyfunction!(duel_heuristic_action, m)?)?;
    m.add(
        "DEFAULT_EXPERT_SAMPLES",
        crate::play::expert::DEFAULT_EXPERT_SAMPLES,
    )?;
    m.add(
        "DEFAULT_MASTER_SAMPLES",
        crate::play::master::DEFAULT_MASTER_SAMPLES,
    )?;
    m.add(
        "DEFAULT_GRANDMASTER_SAMPLES",
        crate::play::grandmaster::DEFAULT_GRANDMASTER_SAMPLES,
    )?;
    m.add_class::<PyAgentInfo>()?;
    let py = m.py();
    m.add("AGENT_SPECS", PyTuple::new(py, registry::spec_forms())?)?;
    let rows = AGENTS.iter().map(|row| PyAgentInfo(row));
    m.add("AGENTS", PyTuple::new(py, rows)?)?;
    let levels = PyDict::new(py);
    for (level, spec) in registry::levels() {
        levels.set_item(level, spec)?;
    }
    let read_only = py.import("types")?.getattr("MappingProxyType")?;
    m.add("LEVELS", read_only.call1((levels,))?)?;
    m.add("DEFAULT_LEVEL", registry::DEFAULT_LEVEL)?;
    m.add(
        "DEFAULT_PIMC_SAMPLES",
        crate::play::policy::DEFAULT_PIMC_SAMPLES,
    )?;
    Ok(())
}
