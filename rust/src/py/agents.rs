//! The built-in agents for Python: the one agent-spec grammar, the heuristic's choice and
//! the search agents' values.

use pyo3::prelude::*;

use super::action::PyAction;
use super::errors::{extract_u64, int_usize, EcarteError, IllegalActionError, MAX_SAMPLES};
use super::observe::PyObservation;
use crate::duel::{Action, Observation};
use crate::play::heuristic::{heuristic_action, heuristic_rollout, View};
use crate::play::policy::Policy;
use crate::solver::pimc;

/// The native policy an agent spec names (the one grammar: [`Policy::parse`]).
pub fn policy(spec: &Bound<'_, PyAny>) -> PyResult<Policy> {
    super::errors::text(spec, "an agent spec")
        .ok()
        .and_then(|name| Policy::parse(&name))
        .ok_or_else(|| {
            EcarteError::new_err(format!(
                "unknown agent {}: choose {}",
                super::errors::describe(spec),
                Policy::SPECS
            ))
        })
}

/// Parses an agent spec: `(name, worlds per decision or None)`; `EcarteError` for a
/// spec that names no agent.
#[pyfunction]
fn parse_agent(spec: &Bound<'_, PyAny>) -> PyResult<(&'static str, Option<u32>)> {
    Ok(match policy(spec)? {
        Policy::Random => ("random", None),
        Policy::Heuristic => ("heuristic", None),
        Policy::Pimc(n) => ("pimc", Some(u32::from(n))),
        Policy::Expert(n) => ("expert", Some(u32::from(n))),
        Policy::Master(n) => ("master", Some(u32::from(n))),
    })
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
    sampled_values(py, &observation, samples, seed, |obs, n, seed| {
        pimc::pimc_values(obs, n, seed, heuristic_rollout)
    })
}

/// A sampling evaluator (PIMC's, the expert's) for Python: checks `samples` and `seed`,
/// runs `evaluate` without the GIL and converts its values.
pub fn sampled_values<E: std::fmt::Display + Send>(
    py: Python<'_>,
    observation: &PyObservation,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    evaluate: impl FnOnce(&Observation, usize, u64) -> Result<Vec<(Action, f64)>, E> + Send,
) -> PyResult<Vec<(PyAction, f64)>> {
    let samples = int_usize(samples, "samples", 1, MAX_SAMPLES)?;
    let seed = extract_u64(seed, "seed")?;
    let obs = observation.0.clone();
    let values = py
        .detach(move || evaluate(&obs, samples, seed))
        .map_err(|e| EcarteError::new_err(e.to_string()))?;
    Ok(values.into_iter().map(|(a, v)| (PyAction(a), v)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_agent, m)?)?;
    m.add_function(wrap_pyfunction!(expert_values, m)?)?;
    m.add_function(wrap_pyfunction!(master_values, m)?)?;
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
    m.add("AGENT_SPECS", Policy::SPECS)?;
    m.add(
        "DEFAULT_PIMC_SAMPLES",
        crate::play::policy::DEFAULT_PIMC_SAMPLES,
    )?;
    Ok(())
}
