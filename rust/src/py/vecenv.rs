//! The vector environment for Python in which the caller steps both seats, `VecEnv`,
//! stepped in lockstep inside Rust (the one against a built-in agent is in `opponent.rs`),
//! and what both take from Python: the batch of action ids.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::arrays::VecEnvOutputs;
use super::deal::PyDeal;
use super::errors::{describe, int_usize, EcarteError, MAX_ENVS};
use super::rng::extract_seed;
use super::rules::PyRules;
use crate::duel::{
    compact_in_range, expand_compact, Compact, DealState, DuelError, Rules,
    COMPACT_OBSERVATION_SIZE, OBSERVATION_SIZE,
};
use crate::play::vecenv::{illegal_action_in_env, ObsLayout, StepBuffers, VecEnv};

/// `n` duel deals stepped in lockstep inside Rust. See `ecarte.duel.VecEnv`.
#[pyclass(name = "VecEnv", module = "ecarte.duel")]
pub struct PyVecEnv {
    env: VecEnv,
    /// The memory the env writes and the arrays over it that it returns: every step
    /// rewrites every entry, so a caller may change their values in place (not their
    /// dtype, shape or flags: a step then raises `EcarteError`).
    outputs: VecEnvOutputs,
}

pub(super) type ResetResult<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

impl PyVecEnv {
    /// Runs `f` on the env and its output buffers, once the arrays handed out are checked.
    fn run(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, &mut StepBuffers<'_>) -> Result<(), DuelError>,
    ) -> PyResult<()> {
        self.outputs.check(py)?;
        // SAFETY: these are this env's outputs; it holds the GIL, and neither `f` (the
        // engine's reset or step) nor the rest of this call runs Python code while the
        // buffers live.
        let mut buffers = unsafe { self.outputs.buffers() };
        f(&mut self.env, &mut buffers).map_err(PyErr::from)
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
        let seed = extract_seed(seed, "seed")?;
        let layout = observation
            .filter(|o| !o.is_none())
            .map(|o| super::errors::text(o, "observation"))
            .transpose()?;
        let layout = match layout.as_deref() {
            None | Some("float32") => ObsLayout::Float32,
            Some("compact") => ObsLayout::Compact,
            Some(other) => {
                return Err(EcarteError::new_err(format!(
                    "observation must be 'float32' or 'compact', got {other:?}"
                )))
            }
        };
        let env = VecEnv::new(n, seed, rules.map_or_else(Rules::default, |r| r.0))?;
        let mut this = PyVecEnv {
            env,
            outputs: VecEnvOutputs::new(py, n, layout)?,
        };
        this.run(py, VecEnv::reset)?;
        Ok(this)
    }

    /// The observation layout: `"float32"` or `"compact"`.
    #[getter]
    fn observation(&self) -> &'static str {
        match self.outputs.layout() {
            ObsLayout::Float32 => "float32",
            ObsLayout::Compact => "compact",
        }
    }

    /// Number of envs.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<VecEnv n={} observation={} {}>",
            self.env.len(),
            self.observation(),
            PyRules(self.env.rules()).__repr__()
        )
    }

    /// Restarts every env on its first deal; returns `(observations, masks)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<ResetResult<'py>> {
        self.run(py, VecEnv::reset)?;
        let [obs, mask, ..] = self.outputs.arrays(py);
        Ok((obs.into_any(), mask.into_any()))
    }

    /// Applies one action id per env; returns `(observations, masks, rewards,
    /// terminated, current_players)`. The arrays are reused by the next call.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let actions = ActionIds::extract(actions, self.env.len())?;
        // Every env takes its action: an id too wide for the engine is refused here.
        actions.refuse_wide(|_| true, |i| self.env.state(i))?;
        self.run(py, |env, out| env.step(&actions.ids, out))?;
        let [obs, mask, rewards, terminated, players] = self.outputs.arrays(py);
        Ok((
            obs.into_any(),
            mask.into_any(),
            rewards.into_any(),
            terminated.into_any(),
            players.into_any(),
        ))
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
        let i = int_usize(i, "env index", 0, self.env.len().saturating_sub(1))?;
        let state = self
            .env
            .state(i)
            .ok_or_else(|| EcarteError::new_err("no such env"))?;
        Ok(PyDeal::from_state(state, None))
    }
}

type StepResult<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// The action ids of one batch, one per env, from any integer array-like (a `NumPy` array
/// of any integer dtype or layout, a list).
pub(super) struct ActionIds {
    /// The ids; an id that does not fit in an `i64` is `i64::MIN` here (no action's id).
    pub(super) ids: Vec<i64>,
    /// The envs whose ids do not fit in an `i64`, with each id as the caller wrote it.
    wide: Vec<(usize, String)>,
}

impl ActionIds {
    /// `EcarteError` for a wrong length or a non-integer.
    pub(super) fn extract(actions: &Bound<'_, PyAny>, envs: usize) -> PyResult<ActionIds> {
        let bad = || {
            EcarteError::new_err(format!(
                "actions must be {envs} integer action ids, one per env, got {}",
                describe(actions)
            ))
        };
        if let Ok(array) = actions.cast::<PyArray1<i64>>() {
            if let Ok(view) = array.try_readonly() {
                if let Ok(slice) = view.as_slice() {
                    if slice.len() != envs {
                        return Err(bad());
                    }
                    let ids = slice.to_vec();
                    return Ok(ActionIds { ids, wide: vec![] });
                }
            }
        }
        let items = one_per_env(actions, envs).ok_or_else(bad)?;
        let mut wide = vec![];
        let mut ids = Vec::with_capacity(envs);
        for (i, item) in items.iter().enumerate() {
            let index = item.call_method0("__index__").map_err(|_| bad())?;
            ids.push(index.extract::<i64>().unwrap_or_else(|_| {
                wide.push((i, index.to_string()));
                i64::MIN
            }));
        }
        Ok(ActionIds { ids, wide })
    }

    /// `IllegalActionError` for the first id too wide for an `i64` in an env that `takes`
    /// its action (whose deal `state_of` gives), with the id as the caller wrote it.
    pub(super) fn refuse_wide<'a>(
        &self,
        takes: impl Fn(&DealState) -> bool,
        state_of: impl Fn(usize) -> Option<&'a DealState>,
    ) -> PyResult<()> {
        for (i, id) in &self.wide {
            if let Some(state) = state_of(*i).filter(|s| takes(s)) {
                return Err(illegal_action_in_env(id, None, *i, state).into());
            }
        }
        Ok(())
    }
}

/// The items of `obj`, an iterable of exactly `envs` items (one per env); `None` for
/// anything else. At most one item past `envs` is read: an endless iterator is refused, not
/// drained.
pub(super) fn one_per_env<'py>(
    obj: &Bound<'py, PyAny>,
    envs: usize,
) -> Option<Vec<Bound<'py, PyAny>>> {
    obj.try_iter()
        .and_then(|items| items.take(envs + 1).collect::<PyResult<Vec<_>>>())
        .ok()
        .filter(|items| items.len() == envs)
}

/// The float32 tensors of compact observations (`n` rows of `COMPACT_OBSERVATION_SIZE`
/// bytes), by the engine's own expansion. `ecarte.duel.decode_observations` checks the
/// array's type and shape and calls this.
#[pyfunction]
fn decode_compact_rows<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let refuse = |got: String| {
        EcarteError::new_err(format!(
            "compact observations must be a 2-D uint8 array of rows of \
             {COMPACT_OBSERVATION_SIZE} bytes, got {got}"
        ))
    };
    let array = rows
        .cast::<PyArray2<u8>>()
        .map_err(|_| match rows.cast::<PyUntypedArray>() {
            Ok(a) => refuse(format!("dtype {} and shape {:?}", a.dtype(), a.shape())),
            Err(_) => refuse(describe(rows)),
        })?;
    let view = array
        .try_readonly()
        .map_err(|e| EcarteError::new_err(format!("compact observations: {e}")))?;
    let rows = view.as_array();
    if rows.ncols() != COMPACT_OBSERVATION_SIZE {
        return Err(refuse(format!("rows of {} bytes", rows.ncols())));
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode_compact_rows, m)?)?;
    m.add_class::<PyVecEnv>()?;
    Ok(())
}
