//! `OpponentVecEnv` for Python: one seat of `n` duel deals against a built-in agent that
//! acts inside Rust (`play::opponent`), the one stepper behind the Gymnasium environments
//! and `ecarte.sb3`. Its arrays are new at every call: a caller may keep or change them.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::action::PyOutcome;
use super::agents::policy;
use super::deal::PyDeal;
use super::errors::{describe, int_usize, EcarteError, InvalidSeedError, MAX_ENVS};
use super::interrupt::interruptible;
use super::rng::extract_seed;
use super::rules::PyRules;
use super::vecenv::{one_per_env, ActionIds, ResetResult};
use crate::control::Control;
use crate::duel::{DuelError, Rules, NUM_ACTIONS, OBSERVATION_SIZE};
use crate::play::opponent::{Autoreset, OpponentBuffers, OpponentVecEnv, Seeds, Setup};
use crate::play::opponent_record::OpponentEnvRecord;

/// `n` duel deals against a built-in opponent that acts inside Rust. See
/// `ecarte.duel.OpponentVecEnv`.
#[pyclass(name = "OpponentVecEnv", module = "ecarte.duel")]
pub struct PyOpponentVecEnv {
    env: OpponentVecEnv,
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
}

type OpponentResult<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// What `OpponentVecEnv.ended` returns: the envs, their final observations and masks, the
/// outcomes (`None` for a forfeited deal) and the match scores after the deals.
type EndedResult<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Vec<Option<PyOutcome>>,
    Bound<'py, PyArray2<u8>>,
);

impl PyOpponentVecEnv {
    fn with_buffers(env: OpponentVecEnv) -> PyOpponentVecEnv {
        let n = env.len();
        let mut this = PyOpponentVecEnv {
            env,
            obs: vec![0.0; n * OBSERVATION_SIZE],
            mask: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
        };
        let (env, mut out) = this.split();
        env.write(&mut out);
        this
    }

    /// The env and its output buffers, borrowed apart.
    fn split(&mut self) -> (&mut OpponentVecEnv, OpponentBuffers<'_>) {
        let PyOpponentVecEnv {
            env,
            obs,
            mask,
            rewards,
            terminated,
        } = self;
        let out = OpponentBuffers {
            obs,
            mask,
            rewards,
            terminated,
        };
        (env, out)
    }

    /// Runs `f` on the env and the buffers without the GIL; Ctrl-C cancels a search
    /// opponent's step (its searches give way to the heuristic, and `KeyboardInterrupt` is
    /// raised: reset the env before using it again).
    fn run(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(
                &mut OpponentVecEnv,
                &mut OpponentBuffers<'_>,
                Control<'_>,
            ) -> Result<(), DuelError>
            + Send,
    ) -> PyResult<()> {
        let searches = self.env.setup().opponent.samples().is_some();
        let (env, mut out) = self.split();
        let work = |control: Control<'_>| f(env, &mut out, control);
        let done = if searches {
            interruptible(py, None, work)?
        } else {
            py.detach(|| work(Control::NONE))
        };
        done.map_err(PyErr::from)
    }

    /// Fresh arrays holding the buffers, so that results kept by the caller stay valid.
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<OpponentResult<'py>> {
        let n = self.env.len();
        Ok((
            PyArray1::from_slice(py, &self.obs).reshape([n, OBSERVATION_SIZE])?,
            PyArray1::from_slice(py, &self.mask).reshape([n, NUM_ACTIONS])?,
            PyArray1::from_slice(py, &self.rewards),
            PyArray1::from_slice(py, &self.terminated),
        ))
    }

    fn env_index(&self, i: &Bound<'_, PyAny>) -> PyResult<usize> {
        int_usize(i, "env index", 0, self.env.len() - 1)
    }
}

/// The seeds of a reset: `None`, one whole number for the batch, or one per env.
fn reset_seeds(seed: Option<&Bound<'_, PyAny>>, envs: usize) -> PyResult<Option<ResetSeeds>> {
    let Some(seed) = seed.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    if seed.hasattr("__index__")? {
        return extract_seed(seed, "seed").map(|s| Some(ResetSeeds::Batch(s)));
    }
    let Some(items) = one_per_env(seed, envs) else {
        let message = format!(
            "seed must be a whole number from 0 to 2**64 - 1, or {envs} of them, one per env, got {}",
            describe(seed)
        );
        let wrong_type = seed.is_instance_of::<PyString>() || seed.try_iter().is_err();
        return Err(if wrong_type {
            PyTypeError::new_err(message)
        } else {
            InvalidSeedError::new_err(message)
        });
    };
    let seeds = items
        .iter()
        .enumerate()
        .map(|(i, s)| extract_seed(s, &format!("seed of env {i}")))
        .collect::<PyResult<Vec<u64>>>()?;
    Ok(Some(ResetSeeds::Each(seeds)))
}

enum ResetSeeds {
    Batch(u64),
    Each(Vec<u64>),
}

#[pymethods]
impl PyOpponentVecEnv {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::play::opponent_record::ENV_FORMAT;

    #[new]
    #[pyo3(signature = (n, seed, opponent, seat = None, rules = None, autoreset = None))]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        opponent: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
        autoreset: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyOpponentVecEnv> {
        let n = int_usize(n, "n (envs)", 1, MAX_ENVS)?;
        let seed = extract_seed(seed, "seed")?;
        let opponent = policy(opponent)?;
        let seat = seat.map_or(Ok(0), |s| int_usize(s, "seat", 0, 1))? as u8;
        let rules = rules.map_or_else(Rules::default, |r| r.0);
        let autoreset = match autoreset.filter(|a| !a.is_none()) {
            None => Autoreset::NextStep,
            Some(a) => {
                let name = super::errors::text(a, "autoreset")?;
                Autoreset::parse(&name).ok_or_else(|| {
                    EcarteError::new_err(format!(
                        "autoreset must be {}, got {name:?}",
                        Autoreset::NAMES
                    ))
                })?
            }
        };
        let setup = Setup {
            rules,
            opponent,
            seat,
            autoreset,
        };
        let mut this = PyOpponentVecEnv::with_buffers(OpponentVecEnv::new(n, seed, setup)?);
        this.run(py, |env, out, control| env.reset(Seeds::Keep, out, control))?;
        Ok(this)
    }

    /// Number of envs.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<OpponentVecEnv n={} seat={} opponent={} autoreset={} {}>",
            self.env.len(),
            self.seat(),
            self.opponent(),
            self.autoreset(),
            self.rules().__repr__()
        )
    }

    /// The learner's seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.env.setup().seat
    }

    /// The opponent's agent spec.
    #[getter]
    fn opponent(&self) -> String {
        self.env.setup().opponent.spec()
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.env.setup().rules)
    }

    /// `"next_step"` or `"same_step"`.
    #[getter]
    fn autoreset(&self) -> &'static str {
        self.env.setup().autoreset.name()
    }

    /// Restarts every env on the first match of its run and lets the opponent act; returns
    /// the learner's `(observations, masks)`. `seed`: `None` (each env keeps its seed and
    /// plays its run again), a whole number `s` (env `i` gets `derive_seed(s, i)`), or one
    /// whole number per env.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<ResetResult<'py>> {
        let seeds = reset_seeds(seed, self.env.len())?;
        self.run(py, |env, out, control| {
            let seeds = match &seeds {
                None => Seeds::Keep,
                Some(ResetSeeds::Batch(s)) => Seeds::Batch(*s),
                Some(ResetSeeds::Each(seeds)) => Seeds::Each(seeds),
            };
            env.reset(seeds, out, control)
        })?;
        let (obs, mask, _, _) = self.outputs(py)?;
        Ok((obs.into_any(), mask.into_any()))
    }

    /// Applies the learner's action id in every env and the opponent's replies, up to the
    /// learner's next decision; returns `(observations, masks, rewards, terminated)`. An env
    /// waiting to go on (next-step mode) ignores its action. An illegal action raises
    /// `IllegalActionError` with no env changed, unless `illegal_reward` is given: it then
    /// ends that env's deal with that reward, and the env goes on with its next match.
    #[pyo3(signature = (actions, illegal_reward = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        illegal_reward: Option<f64>,
    ) -> PyResult<OpponentResult<'py>> {
        let actions = ActionIds::extract(actions, self.env.len())?;
        let forfeit = illegal_reward.map(|r| r as f32);
        if forfeit.is_none() {
            actions.refuse_wide(|_| true, |i| self.env.awaiting_action(i))?;
        }
        self.run(py, |env, out, control| {
            env.step(&actions.ids, forfeit, out, control)
        })?;
        self.outputs(py)
    }

    /// Every env abandons its deal and goes on with the next match of its run; returns the
    /// learner's `(observations, masks)`.
    fn next_match<'py>(&mut self, py: Python<'py>) -> PyResult<ResetResult<'py>> {
        self.run(py, |env, out, control| env.reset(Seeds::Next, out, control))?;
        let (obs, mask, _, _) = self.outputs(py)?;
        Ok((obs.into_any(), mask.into_any()))
    }

    /// The learner's action mask in every env, as the last step returned it (a copy).
    fn masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        PyArray1::from_slice(py, &self.mask).reshape([self.env.len(), NUM_ACTIONS])
    }

    /// The envs whose deal ended at the last step: `(envs, final observations, final
    /// masks, outcomes, scores)`, one row per such env, in env order. An outcome is `None`
    /// for a deal forfeited by an illegal action; a score is the match score after the deal.
    fn ended<'py>(&self, py: Python<'py>) -> PyResult<EndedResult<'py>> {
        let envs: Vec<usize> = (0..self.env.len())
            .filter(|&i| self.env.ended(i).is_some())
            .collect();
        let k = envs.len();
        let mut obs = vec![0.0; k * OBSERVATION_SIZE];
        let mut mask = vec![false; k * NUM_ACTIONS];
        let mut outcomes = Vec::with_capacity(k);
        let mut scores = Vec::with_capacity(2 * k);
        for ((&i, obs), mask) in envs
            .iter()
            .zip(obs.chunks_mut(OBSERVATION_SIZE))
            .zip(mask.chunks_mut(NUM_ACTIONS))
        {
            self.env.write_final(i, obs, mask);
            let ended = self.env.ended(i);
            outcomes.push(ended.and_then(|e| e.deal.outcome()).map(PyOutcome));
            scores.extend(ended.map_or([0, 0], |e| e.score));
        }
        Ok((
            PyArray1::from_vec(py, envs.iter().map(|&i| i as i64).collect()),
            PyArray1::from_vec(py, obs).reshape([k, OBSERVATION_SIZE])?,
            PyArray1::from_vec(py, mask).reshape([k, NUM_ACTIONS])?,
            outcomes,
            PyArray1::from_vec(py, scores).reshape([k, 2])?,
        ))
    }

    /// A copy of the deal env `i` shows (the one that ended, while the env waits to go
    /// on), with its whole history.
    fn deal(&self, i: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let i = self.env_index(i)?;
        let state = self
            .env
            .state(i)
            .ok_or_else(|| EcarteError::new_err("no such env"))?;
        Ok(PyDeal::from_state(state, None))
    }

    /// The match score env `i` shows, as its observation does.
    fn score(&self, i: &Bound<'_, PyAny>) -> PyResult<(u8, u8)> {
        let i = self.env_index(i)?;
        let [a, b] = self
            .env
            .score(i)
            .ok_or_else(|| EcarteError::new_err("no such env"))?;
        Ok((a, b))
    }

    /// The env's versioned JSON record, from which `from_json` rebuilds it to play on
    /// identically.
    fn to_json(&self) -> String {
        OpponentEnvRecord::of(&self.env).to_json()
    }

    /// Rebuilds an env from `to_json`'s record, replaying every action (checked);
    /// `InvalidRecordError` for anything else.
    #[staticmethod]
    fn from_json(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<PyOpponentVecEnv> {
        let text = super::errors::record_text(record, "an OpponentVecEnv record")?;
        let env = py
            .detach(|| OpponentEnvRecord::load(&text))
            .map_err(|e| super::errors::with_reader(e.into(), &text, Self::RECORD_FORMAT))?;
        if env.len() > MAX_ENVS {
            return Err(EcarteError::new_err(format!(
                "the record holds {} envs, more than {MAX_ENVS}",
                env.len()
            )));
        }
        Ok(PyOpponentVecEnv::with_buffers(env))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (slf.borrow().to_json(),),
        ))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyOpponentVecEnv>()
}
