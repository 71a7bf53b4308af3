//! Duel actions and their results for Python: `Action`, `Trick` and `Outcome`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyString};

use super::card::PyCard;
use super::errors::{describe, int_in, parse_record, text, InvalidActionError, InvalidRecordError};
use crate::duel::{Action, DealState, Outcome, Trick, NUM_ACTIONS};

/// A duel action: `propose`, `decline`, `accept`, `refuse`, `discard QH`, or a played card
/// `QH`. `str()` gives exactly that text; `id` is its index in the fixed action space.
#[pyclass(
    name = "Action",
    module = "ecarte.duel",
    frozen,
    eq,
    ord,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyAction(pub Action);

/// The 68 `Action` objects, one per id, made once per interpreter: `legal_actions` hands
/// out new references to them instead of allocating.
static INTERNED_ACTIONS: PyOnceLock<Vec<Py<PyAction>>> = PyOnceLock::new();

pub(super) fn interned_actions(py: Python<'_>) -> PyResult<&[Py<PyAction>]> {
    INTERNED_ACTIONS
        .get_or_try_init(py, || {
            (0..NUM_ACTIONS)
                .map(|id| {
                    let action = Action::from_id(id).ok_or_else(|| {
                        InvalidActionError::new_err(format!("no action has id {id}"))
                    })?;
                    Py::new(py, PyAction(action))
                })
                .collect()
        })
        .map(Vec::as_slice)
}

/// The ids set in `mask`, ascending, in a fixed buffer (at most 32 actions are legal).
pub(super) fn mask_ids(mut mask: u128) -> ([u8; 32], usize) {
    let mut ids = [0u8; 32];
    let mut n = 0;
    while mask != 0 && n < ids.len() {
        ids[n] = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        n += 1;
    }
    (ids, n)
}

/// The action an exact `Action` or an exact `int` in range names; `None` for anything
/// else, which takes the general path of [`extract_action`].
#[inline]
pub(super) fn fast_action(obj: &Bound<'_, PyAny>) -> Option<Action> {
    if let Ok(a) = obj.cast_exact::<PyAction>() {
        return Some(a.get().0);
    }
    let id = obj.cast_exact::<PyInt>().ok()?.extract::<usize>().ok()?;
    Action::from_id(id)
}

fn parse_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    text(obj, "an action")?
        .parse::<Action>()
        .map_err(|e| InvalidActionError::new_err(e.to_string()))
}

fn action_from_id(id: &Bound<'_, PyAny>) -> PyResult<Action> {
    let id = int_in(id, "an action id", 0, NUM_ACTIONS as i128 - 1)
        .map_err(|e| InvalidActionError::new_err(e.value(id.py()).to_string()))?;
    Action::from_id(id as usize)
        .ok_or_else(|| InvalidActionError::new_err(format!("no action has id {id}")))
}

/// An `Action`, its text, or its id; `InvalidActionError` for anything else.
pub(super) fn extract_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    if let Ok(a) = obj.extract::<PyAction>() {
        return Ok(a.0);
    }
    if obj.is_instance_of::<PyString>() {
        return parse_action(obj);
    }
    if obj.is_instance_of::<PyInt>() {
        return action_from_id(obj);
    }
    Err(InvalidActionError::new_err(format!(
        "expected an Action, its text or its id, got {}",
        describe(obj)
    )))
}

/// The action `obj` names, or `InvalidActionError` listing the legal actions of `state`.
pub fn extract_action_or_list_legal(state: &DealState, obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    extract_action(obj).map_err(|e| {
        let legal: Vec<String> = state
            .legal_actions()
            .iter()
            .map(ToString::to_string)
            .collect();
        InvalidActionError::new_err(format!(
            "{}; legal actions: {}",
            e.value(obj.py()),
            legal.join(", ")
        ))
    })
}

#[pymethods]
impl PyAction {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        extract_action(text).map(PyAction)
    }
    /// Parses `propose`, `decline`, `accept`, `refuse`, `discard <card>` or `<card>`;
    /// `InvalidActionError` for other text.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        parse_action(text).map(PyAction)
    }
    /// The action at index `id` of the action space (0-67).
    #[staticmethod]
    fn from_id(id: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        action_from_id(id).map(PyAction)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String,)) {
        (slf.get_type().into_any(), (slf.get().0.to_string(),))
    }
    /// `"play"`, `"discard"`, `"propose"`, `"decline"`, `"accept"` or `"refuse"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            Action::Play(_) => "play",
            Action::Discard(_) => "discard",
            Action::Propose => "propose",
            Action::Decline => "decline",
            Action::Accept => "accept",
            Action::Refuse => "refuse",
        }
    }
    /// The card played or discarded, else `None`.
    #[getter]
    fn card(&self) -> Option<PyCard> {
        self.0.card().map(PyCard)
    }
    /// Index in the action space: plays 0-31, discards 32-63, then propose, decline,
    /// accept, refuse (64-67).
    #[getter]
    fn id(&self) -> usize {
        self.0.id()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Action('{}')", self.0)
    }
}

/// A finished trick: who led, the two cards (leader's first), who won.
#[pyclass(
    name = "Trick",
    module = "ecarte.duel",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyTrick(pub Trick);

#[pymethods]
impl PyTrick {
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader
    }
    /// The leader's card, then the follower's.
    #[getter]
    fn cards(&self) -> (PyCard, PyCard) {
        (PyCard(self.0.cards[0]), PyCard(self.0.cards[1]))
    }
    #[getter]
    fn winner(&self) -> u8 {
        self.0.winner
    }
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }
    /// Reads what `to_json` wrote; `InvalidRecordError` for anything else.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyTrick> {
        let value: Trick = parse_record(record, "trick")?;
        if !(value.leader <= 1 && value.winner <= 1 && value.cards[0] != value.cards[1]) {
            return Err(InvalidRecordError::new_err(format!(
                "invalid record: not a possible trick: {}",
                describe(record)
            )));
        }
        Ok(PyTrick(value))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    fn __repr__(&self) -> String {
        format!(
            "Trick(leader={}, cards=(Card('{}'), Card('{}')), winner={})",
            self.0.leader, self.0.cards[0], self.0.cards[1], self.0.winner
        )
    }
}

/// The result of a finished deal.
#[pyclass(
    name = "Outcome",
    module = "ecarte.duel",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyOutcome(pub Outcome);

#[pymethods]
impl PyOutcome {
    /// The seat that won the deal.
    #[getter]
    fn winner(&self) -> u8 {
        self.0.winner
    }
    /// 2 for a vole (every trick), otherwise 1.
    #[getter]
    fn points(&self) -> u8 {
        self.0.points
    }
    /// Cards taken by seat 0 and seat 1.
    #[getter]
    fn cards(&self) -> (u8, u8) {
        (self.0.cards[0], self.0.cards[1])
    }
    /// Tricks taken by seat 0 and seat 1.
    #[getter]
    fn tricks(&self) -> (u8, u8) {
        (self.0.tricks[0], self.0.tricks[1])
    }
    /// Whether the winner took every trick.
    #[getter]
    fn vole(&self) -> bool {
        self.0.points == 2
    }
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }
    /// Reads what `to_json` wrote; `InvalidRecordError` for anything else.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyOutcome> {
        let value: Outcome = parse_record(record, "outcome")?;
        if !value.is_possible() {
            return Err(InvalidRecordError::new_err(format!(
                "invalid record: not a possible outcome: {}",
                describe(record)
            )));
        }
        Ok(PyOutcome(value))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    fn __repr__(&self) -> String {
        let o = self.0;
        format!(
            "Outcome(winner={}, points={}, cards=({}, {}), tricks=({}, {}))",
            o.winner, o.points, o.cards[0], o.cards[1], o.tricks[0], o.tricks[1]
        )
    }
}
