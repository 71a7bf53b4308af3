//! The vector environments for Python: `VecEnv` (both seats stepped by the caller) and
//! `OpponentVecEnv` (one seat against a built-in agent), stepped in lockstep inside Rust.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;

use super::agents::policy;
use super::deal::PyDeal;
use super::errors::{extract_u64, int_in, int_usize, EcarteError, MAX_ENVS};
use super::rules::PyRules;
use crate::duel::{
    compact_in_range, expand_compact, Compact, DuelError, Rules, COMPACT_OBSERVATION_SIZE,
    NUM_ACTIONS, OBSERVATION_SIZE,
};
use crate::play::opponent::{OpponentBuffers, OpponentVecEnv};
use crate::play::vecenv::{ObsBuffer, StepBuffers, VecEnv};

/// `n` duel deals stepped in lockstep inside Rust. See `ecarte.duel.VecEnv`.
#[pyclass(name = "VecEnv", module = "ecarte.duel")]
pub struct PyVecEnv {
    env: VecEnv,
    obs: ObsArray,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    players: Py<PyArray1<i64>>,
}

/// The observation array of a `VecEnv`, in the layout chosen at construction.
enum ObsArray {
    /// Read-only to Python: a step rewrites only the entries that changed.
    Float32(Py<PyArray2<f32>>),
    Compact(Py<PyArray2<u8>>),
}

impl ObsArray {
    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            ObsArray::Float32(a) => a.bind(py).clone().into_any(),
            ObsArray::Compact(a) => a.bind(py).clone().into_any(),
        }
    }
}

type ResetResult<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray2<bool>>);

type StepResult<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
);

impl PyVecEnv {
    /// Runs `f` on the env and the output arrays.
    fn run(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, &mut StepBuffers<'_>) -> Result<(), DuelError>,
    ) -> PyResult<()> {
        let err = |e: numpy::AsSliceError| EcarteError::new_err(e.to_string());
        let borrow = |e: numpy::BorrowError| EcarteError::new_err(e.to_string());
        let mut float_obs;
        let mut compact_obs;
        let obs = match &self.obs {
            ObsArray::Float32(a) => {
                float_obs = a.bind(py).try_readwrite().map_err(borrow)?;
                ObsBuffer::Float32(float_obs.as_slice_mut().map_err(err)?)
            }
            ObsArray::Compact(a) => {
                compact_obs = a.bind(py).try_readwrite().map_err(borrow)?;
                ObsBuffer::Compact(compact_obs.as_slice_mut().map_err(err)?)
            }
        };
        let mut mask = self.mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut players = self.players.bind(py).readwrite();
        let mut buffers = StepBuffers {
            obs,
            mask: mask.as_slice_mut().map_err(err)?,
            rewards: rewards.as_slice_mut().map_err(err)?,
            terminated: terminated.as_slice_mut().map_err(err)?,
            players: players.as_slice_mut().map_err(err)?,
        };
        f(&mut self.env, &mut buffers).map_err(PyErr::from)
    }

    fn outputs<'py>(&self, py: Python<'py>) -> StepResult<'py> {
        (
            self.obs.bind(py),
            self.mask.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.players.bind(py).clone(),
        )
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (n, seed, rules = None, observation = None))]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        rules: Option<PyRules>,
        observation: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyVecEnv> {
        let n = int_usize(n, "n (envs)", 1, MAX_ENVS)?;
        let seed = extract_u64(seed, "seed")?;
        let layout = observation
            .filter(|o| !o.is_none())
            .map(|o| super::errors::text(o, "observation"))
            .transpose()?;
        let obs = match layout.as_deref() {
            None | Some("float32") => {
                ObsArray::Float32(PyArray2::zeros(py, [n, OBSERVATION_SIZE], false).unbind())
            }
            Some("compact") => ObsArray::Compact(
                PyArray2::zeros(py, [n, COMPACT_OBSERVATION_SIZE], false).unbind(),
            ),
            Some(other) => {
                return Err(EcarteError::new_err(format!(
                    "observation must be 'float32' or 'compact', got {other:?}"
                )))
            }
        };
        let env = VecEnv::new(n, seed, rules.map_or_else(Rules::default, |r| r.0))?;
        let mut this = PyVecEnv {
            env,
            obs,
            mask: PyArray2::zeros(py, [n, NUM_ACTIONS], false).unbind(),
            rewards: PyArray2::zeros(py, [n, 2], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            players: PyArray1::zeros(py, n, false).unbind(),
        };
        this.run(py, VecEnv::reset)?;
        Ok(this)
    }

    /// The observation layout: `"float32"` or `"compact"`.
    #[getter]
    fn observation(&self) -> &'static str {
        match self.obs {
            ObsArray::Float32(_) => "float32",
            ObsArray::Compact(_) => "compact",
        }
    }

    /// Number of envs.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// Restarts every env on its first deal; returns `(observations, masks)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<ResetResult<'py>> {
        self.run(py, VecEnv::reset)?;
        Ok((self.obs.bind(py), self.mask.bind(py).clone()))
    }

    /// Applies one action id per env; returns `(observations, masks, rewards,
    /// terminated, current_players)`. The arrays are reused by the next call.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let actions = action_ids(actions, self.env.len())?;
        self.run(py, |env, out| env.step(&actions, out))?;
        Ok(self.outputs(py))
    }

    /// One uniformly random legal action id per env (for baselines and benchmarks), from
    /// a generator seeded with the env's seed.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.env.len()];
        self.env.random_actions(&mut out);
        PyArray1::from_vec(py, out)
    }

    /// A copy of env `i`'s current deal, with its whole history.
    fn deal(&self, i: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let i = int_usize(i, "env index", 0, self.env.len() - 1)?;
        Ok(PyDeal::from_state(&self.env.states()[i], None))
    }
}

/// One action id per env from any integer array-like (a `NumPy` array of any integer
/// dtype or layout, a list); `EcarteError` for a wrong length or a non-integer.
fn action_ids(actions: &Bound<'_, PyAny>, envs: usize) -> PyResult<Vec<i64>> {
    let bad = || {
        EcarteError::new_err(format!(
            "actions must be {envs} integer action ids, one per env, got {}",
            super::errors::describe(actions)
        ))
    };
    if let Ok(array) = actions.cast::<PyArray1<i64>>() {
        if let Ok(view) = array.try_readonly() {
            if let Ok(slice) = view.as_slice() {
                return check_len(slice.to_vec(), envs).ok_or_else(bad);
            }
        }
    }
    // At most one item past `envs` is read: an endless iterator is refused, not drained.
    let items: Vec<Bound<'_, PyAny>> = actions
        .try_iter()
        .and_then(|items| items.take(envs + 1).collect::<PyResult<Vec<_>>>())
        .map_err(|_| bad())?;
    let ids = items
        .iter()
        .map(|item| {
            let index = item.call_method0("__index__").map_err(|_| bad())?;
            Ok(int_in(
                &index,
                "an action id",
                i128::from(i64::MIN),
                i128::from(i64::MAX),
            )
            .map_or(-1, |v| v as i64))
        })
        .collect::<PyResult<Vec<i64>>>()?;
    check_len(ids, envs).ok_or_else(bad)
}

fn check_len(ids: Vec<i64>, envs: usize) -> Option<Vec<i64>> {
    (ids.len() == envs).then_some(ids)
}

/// The float32 tensors of compact observations (`n` rows of `COMPACT_OBSERVATION_SIZE`
/// bytes), by the engine's own expansion. `ecarte.duel.decode_observations` checks the
/// array's type and shape and calls this.
#[pyfunction]
fn decode_compact_rows<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, u8>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let rows = rows.as_array();
    if rows.ncols() != COMPACT_OBSERVATION_SIZE {
        return Err(EcarteError::new_err(format!(
            "compact observations must be rows of {COMPACT_OBSERVATION_SIZE} bytes, got {}",
            rows.ncols()
        )));
    }
    let n = rows.nrows();
    let mut out = vec![0f32; n * OBSERVATION_SIZE];
    // One pass: each row is checked, then expanded into its slot.
    for (i, (row, tensor)) in rows
        .rows()
        .into_iter()
        .zip(out.chunks_exact_mut(OBSERVATION_SIZE))
        .enumerate()
    {
        let mut bytes: Compact = [0; COMPACT_OBSERVATION_SIZE];
        for (byte, &value) in bytes.iter_mut().zip(row.iter()) {
            *byte = value;
        }
        if !compact_in_range(&bytes) {
            return Err(EcarteError::new_err(format!(
                "compact observation row {i} holds out-of-range values (offsets 24 to 37 are \
                 the trump, turn-up, phase, flags, counts and a match target of at least 1)"
            )));
        }
        expand_compact(&bytes, tensor);
    }
    PyArray1::from_vec(py, out).reshape([n, OBSERVATION_SIZE])
}

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

impl PyOpponentVecEnv {
    /// Runs `f` on the env and the buffers without the GIL (a PIMC opponent searches).
    fn run(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut OpponentVecEnv, &mut OpponentBuffers<'_>) -> Result<(), DuelError> + Send,
    ) -> PyResult<()> {
        let PyOpponentVecEnv {
            env,
            obs,
            mask,
            rewards,
            terminated,
        } = self;
        py.detach(|| {
            f(
                env,
                &mut OpponentBuffers {
                    obs,
                    mask,
                    rewards,
                    terminated,
                },
            )
        })
        .map_err(PyErr::from)
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
}

#[pymethods]
impl PyOpponentVecEnv {
    #[new]
    #[pyo3(signature = (n, seed, opponent, seat = None, rules = None))]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        opponent: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
    ) -> PyResult<PyOpponentVecEnv> {
        let n = int_usize(n, "n (envs)", 1, MAX_ENVS)?;
        let seed = extract_u64(seed, "seed")?;
        let opponent = policy(opponent)?;
        let seat = seat.map_or(Ok(0), |s| int_usize(s, "seat", 0, 1))? as u8;
        let rules = rules.map_or_else(Rules::default, |r| r.0);
        let env = OpponentVecEnv::new(n, seed, rules, opponent, seat)?;
        let mut this = PyOpponentVecEnv {
            env,
            obs: vec![0.0; n * OBSERVATION_SIZE],
            mask: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
        };
        this.run(py, |env, out| env.reset(None, out))?;
        Ok(this)
    }

    /// Number of envs.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// The learner's seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.env.seat()
    }

    /// Restarts every env on its first deal (with a new `seed` if given) and lets the
    /// opponent act; returns the learner's `(observations, masks)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<ResetResult<'py>> {
        let seed = seed
            .filter(|s| !s.is_none())
            .map(|s| extract_u64(s, "seed"))
            .transpose()?;
        self.run(py, |env, out| env.reset(seed, out))?;
        let (obs, mask, _, _) = self.outputs(py)?;
        Ok((obs.into_any(), mask))
    }

    /// Applies the learner's action id in every env and the opponent's replies, up to the
    /// learner's next decision; returns `(observations, masks, rewards, terminated)`. An env
    /// whose deal ended at the last step ignores its action and starts the next deal.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<OpponentResult<'py>> {
        let actions = action_ids(actions, self.env.len())?;
        self.run(py, |env, out| env.step(&actions, out))?;
        self.outputs(py)
    }

    /// A copy of env `i`'s current deal, with its whole history.
    fn deal(&self, i: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let i = int_usize(i, "env index", 0, self.env.len() - 1)?;
        let state = self
            .env
            .state(i)
            .ok_or_else(|| EcarteError::new_err("no such env"))?;
        Ok(PyDeal::from_state(state, None))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode_compact_rows, m)?)?;
    m.add_class::<PyVecEnv>()?;
    m.add_class::<PyOpponentVecEnv>()?;
    Ok(())
}
