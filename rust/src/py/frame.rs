//! One step of a deal as a spectator who holds its record follows it, for Python: `Frame`.

use pyo3::prelude::*;

use super::action::{PyAction, PyOutcome, PyTrick};
use super::card::{to_py, PyCard};
use crate::card::Suit;
use crate::duel::Frame;

/// One step of a deal (`Deal.frames()`, `Match.frames()`): the state after `action`, taken
/// by `actor`, as a spectator who holds the record sees it: both hands and discards, never
/// the undrawn talon; the cards each seat drew in the step; the outcome once it ended the
/// deal; the deal's number and the match score after the step.
#[pyclass(name = "Frame", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyFrame(pub Frame);

/// A pair of card lists, one per seat.
fn seats(cards: &[Vec<crate::card::Card>; 2]) -> (Vec<PyCard>, Vec<PyCard>) {
    (
        to_py(cards[0].iter().copied()),
        to_py(cards[1].iter().copied()),
    )
}

#[pymethods]
impl PyFrame {
    /// The deal's number in its match, from 1 (1 for a lone deal).
    #[getter]
    fn deal_number(&self) -> u64 {
        self.0.deal_number
    }
    /// The action of this step; `None` for the first frame, the deal as dealt.
    #[getter]
    fn action(&self) -> Option<PyAction> {
        self.0.action.map(PyAction)
    }
    /// The seat that took the action.
    #[getter]
    fn actor(&self) -> Option<u8> {
        self.0.actor
    }
    /// `"proposal"`, `"response"`, `"discard"`, `"play"` or `"over"`, after the step.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.0.dealer
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
    /// The card led to the current trick, or `None`.
    #[getter]
    fn lead(&self) -> Option<PyCard> {
        self.0.lead.map(PyCard)
    }
    /// Seat 0's hand and seat 1's, each in suit-then-rank order.
    #[getter]
    fn hands(&self) -> (Vec<PyCard>, Vec<PyCard>) {
        seats(&self.0.hands)
    }
    /// Seat 0's discards and seat 1's.
    #[getter]
    fn discards(&self) -> (Vec<PyCard>, Vec<PyCard>) {
        seats(&self.0.discards)
    }
    /// The finished tricks, in order.
    #[getter]
    fn tricks(&self) -> Vec<PyTrick> {
        self.0.tricks.iter().copied().map(PyTrick).collect()
    }
    #[getter]
    fn tricks_taken(&self) -> (u8, u8) {
        (self.0.tricks_taken[0], self.0.tricks_taken[1])
    }
    #[getter]
    fn cards_taken(&self) -> (u8, u8) {
        (self.0.cards_taken[0], self.0.cards_taken[1])
    }
    /// The cards seat 0 and seat 1 drew from the talon in this step, in draw order.
    #[getter]
    fn drawn(&self) -> (Vec<PyCard>, Vec<PyCard>) {
        seats(&self.0.drawn)
    }
    /// The deal's outcome once this step ended it, else `None`.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.0.outcome.map(PyOutcome)
    }
    /// The match score after this step (zeros outside a match).
    #[getter]
    fn score(&self) -> (u8, u8) {
        (self.0.score[0], self.0.score[1])
    }
    /// The frame as a JSON object (the protocol's frames are these).
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    fn __repr__(&self) -> String {
        let action = self
            .0
            .action
            .map_or_else(|| "the deal".to_string(), |a| a.to_string());
        format!(
            "<Frame deal={} action={action} phase={} talon={}>",
            self.0.deal_number,
            self.0.phase.name(),
            self.0.talon_size
        )
    }
}
