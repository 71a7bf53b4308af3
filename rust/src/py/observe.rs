//! What one player may know of a deal, for Python: `Observation`.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::action::extract_action;
use super::action::{PyAction, PyTrick};
use super::card::{to_py, PyCard};
use super::errors::{int_u8, record_text, EcarteError, InvalidRecordError};
use super::refusal::PyReason;
use super::rules::PyRules;
use crate::card::Suit;
use crate::duel::{Observation, OBSERVATION_SIZE};

/// What one player may know of a deal: their hand and discards, the turn-up and who drew
/// it, every card played, the talon count, exchanges, the score and whose turn it is.
#[pyclass(
    name = "Observation",
    module = "ecarte.duel",
    frozen,
    eq,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyObservation(pub Observation);

#[pymethods]
impl PyObservation {
    /// The seat this view belongs to.
    #[getter]
    fn player(&self) -> u8 {
        self.0.player
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
    }
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules)
    }
    /// `"proposal"`, `"response"`, `"discard"`, `"play"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player
    }
    /// The player's hand in suit-then-rank order.
    #[getter]
    fn hand(&self) -> Vec<PyCard> {
        to_py(self.0.hand.iter().copied())
    }
    /// The player's own discards.
    #[getter]
    fn discards(&self) -> Vec<PyCard> {
        to_py(self.0.discards.iter().copied())
    }
    #[getter]
    fn trump(&self) -> Suit {
        self.0.trump
    }
    #[getter]
    fn turn_up(&self) -> PyCard {
        PyCard(self.0.turn_up)
    }
    /// Who drew the turn-up, or `None` while it is in the talon.
    #[getter]
    fn turn_up_holder(&self) -> Option<u8> {
        self.0.turn_up_holder
    }
    #[getter]
    fn talon_size(&self) -> usize {
        self.0.talon_size
    }
    #[getter]
    fn exchanges(&self) -> u8 {
        self.0.exchanges
    }
    /// The finished tricks, in order.
    #[getter]
    fn tricks(&self) -> Vec<PyTrick> {
        self.0.tricks.iter().copied().map(PyTrick).collect()
    }
    /// The card led to the current trick, or `None`.
    #[getter]
    fn lead(&self) -> Option<PyCard> {
        self.0.lead.map(PyCard)
    }
    #[getter]
    fn cards_taken(&self) -> (u8, u8) {
        (self.0.cards_taken[0], self.0.cards_taken[1])
    }
    #[getter]
    fn tricks_taken(&self) -> (u8, u8) {
        (self.0.tricks_taken[0], self.0.tricks_taken[1])
    }
    /// Match points of seat 0 and seat 1.
    #[getter]
    fn score(&self) -> (u8, u8) {
        (self.0.score[0], self.0.score[1])
    }
    /// The player's five dealt cards.
    #[getter]
    fn initial_hand(&self) -> Vec<PyCard> {
        to_py(self.0.initial_hand.iter().copied())
    }
    /// The cards the player drew from the talon, in order.
    #[getter]
    fn draws(&self) -> Vec<PyCard> {
        to_py(self.0.draws.iter().copied())
    }
    /// Who drew each talon card so far, in draw order (public).
    #[getter]
    fn talon_drawers(&self) -> Vec<u32> {
        // As a list of ints (a `Vec<u8>` would become `bytes`).
        self.0.talon_drawers.iter().map(|&p| u32::from(p)).collect()
    }
    /// Every action so far as the player saw it; the opponent's discards are `None`.
    #[getter]
    fn history(&self) -> Vec<Option<PyAction>> {
        self.0.history.iter().map(|a| a.map(PyAction)).collect()
    }
    /// How many cards seat 0 and seat 1 hold (the opponent's count is public: their
    /// dealt cards and draws less their discards and plays).
    #[getter]
    fn hand_sizes(&self) -> (u8, u8) {
        let [a, b] = self.0.hand_sizes();
        (a, b)
    }
    /// Why this player may not take `action` (an `Action`, its text or its id) now: the
    /// engine's `Reason`, the same a deal gives; `None` when the action is legal.
    fn refusal(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<PyReason>> {
        let action = extract_action(action)?;
        Ok(self.0.refusal(action).map(|r| PyReason(r.reason)))
    }
    /// The observation as JSON, for logging and tools.
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    /// A stable 64-bit key of the observation (a hash of its JSON record): the same
    /// observation has the same key on every platform and run.
    #[getter]
    fn key(&self) -> u64 {
        self.0.key()
    }
    /// Reads what `to_json` wrote. The observation must be one that some deal gives
    /// (checked by drawing a consistent world and observing it again); anything else
    /// raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
        let text = record_text(record, "an observation record")?;
        let obs = Observation::from_json(&text).map_err(|why| {
            InvalidRecordError::new_err(format!("invalid observation record: {why}"))
        })?;
        if !crate::solver::sampler::observation_is_possible(&obs) {
            return Err(InvalidRecordError::new_err(
                "invalid record: no deal gives this observation",
            ));
        }
        Ok(PyObservation(obs))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    /// The 214-entry float32 observation tensor of this view (docs/api.md), with its
    /// score: the tensor of every deal that gives this observation, read off one of them
    /// (an agent that learned on the environments' tensors reads its input here).
    fn tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let obs = &self.0;
        let world = crate::solver::sampler::sample_worlds(obs, 1, 0)
            .ok()
            .and_then(|worlds| worlds.into_iter().next())
            .ok_or_else(|| EcarteError::new_err("no deal gives this observation"))?;
        let mut out = vec![0.0; OBSERVATION_SIZE];
        world.encode_observation(obs.player, obs.score, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }
    fn __repr__(&self) -> String {
        let hand: Vec<String> = self.0.hand.iter().map(ToString::to_string).collect();
        format!(
            "<Observation player={} phase={} hand=[{}] trump={} talon={}>",
            self.0.player,
            self.0.phase.name(),
            hand.join(" "),
            self.0.trump,
            self.0.talon_size
        )
    }
}

/// A seat, 0 or 1.
pub fn seat(player: &Bound<'_, PyAny>) -> PyResult<u8> {
    int_u8(player, "player (a seat)", 0, 1)
}

/// A seat, or `None`.
pub fn optional_seat(player: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    player.filter(|p| !p.is_none()).map(seat).transpose()
}

/// A match score: two points totals from 0 to 255, or zeros for `None`.
pub(super) fn score_pair(score: Option<&Bound<'_, PyAny>>) -> PyResult<[u8; 2]> {
    let Some(score) = score.filter(|s| !s.is_none()) else {
        return Ok([0, 0]);
    };
    let pair = super::errors::pair(score, "score (points of seat 0 and seat 1)")?;
    Ok([
        int_u8(&pair[0], "score", 0, u8::MAX)?,
        int_u8(&pair[1], "score", 0, u8::MAX)?,
    ])
}
