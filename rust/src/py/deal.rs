//! The duel deal for Python: `Deal`, with undo, records and observations.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::action::{
    extract_action, extract_action_or_list_legal, fast_action, interned_actions, mask_ids,
    PyAction, PyOutcome, PyTrick,
};
use super::arrays::float32_out;
use super::card::{extract_cards, to_py, PyCard};
use super::errors::{int_in, int_u8, record_text, with_reader, EcarteError, InvalidDeckError};
use super::frame::PyFrame;
use super::observe::{optional_seat, score_pair, seat, PyObservation};
use super::refusal::illegal_action_error;
use super::rng::extract_seed;
use super::rules::{rules_or_default, PyRules};
use crate::card::Suit;
use crate::duel::{DealRecord, DealState, NUM_ACTIONS, OBSERVATION_SIZE};

/// One duel deal: a state machine over the exchange and play phases, with undo and a
/// JSON record. `Deal(seed=...)` shuffles; `Deal.from_deck(cards)` lays out an exact deck.
#[pyclass(name = "Deal", module = "ecarte.duel")]
#[derive(Clone)]
pub struct PyDeal {
    /// The whole deal: its deck and its action log are the record, history and undo.
    state: DealState,
    seed: Option<u64>,
}

impl PyDeal {
    pub fn from_state(state: &DealState, seed: Option<u64>) -> PyDeal {
        PyDeal {
            state: *state,
            seed,
        }
    }

    pub fn state(&self) -> &DealState {
        &self.state
    }
}

/// The dealer's seat; `None` is seat 0.
fn dealer_seat(dealer: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    match dealer.filter(|d| !d.is_none()) {
        None => Ok(0),
        Some(d) => int_u8(d, "dealer", 0, 1)
            .map_err(|e| InvalidDeckError::new_err(e.value(d.py()).to_string())),
    }
}

/// A fresh seed from the process's hash randomness, for `Deal()` without a seed.
pub fn entropy_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    RandomState::new().build_hasher().finish()
}

/// What `seed=None` means on a constructor (docs/api.md, "Seeds"): the seed given, checked,
/// or a fresh one, which the object keeps.
pub fn seed_or_fresh(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match seed {
        Some(s) if !s.is_none() => extract_seed(s, "seed"),
        _ => Ok(entropy_seed()),
    }
}

#[pymethods]
impl PyDeal {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::duel::record::RECORD_FORMAT;

    /// A deal from the 32-card pack shuffled with `seed` (a fresh random seed if `None`;
    /// read it back from `.seed`).
    #[new]
    #[pyo3(signature = (seed = None, dealer = None, rules = None))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        dealer: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
    ) -> PyResult<PyDeal> {
        let seed = seed_or_fresh(seed)?;
        let state = DealState::from_seed(seed, dealer_seat(dealer)?, rules_or_default(rules))?;
        Ok(PyDeal::from_state(&state, Some(seed)))
    }

    /// The deal laid out from `cards` (32 `Card`s or texts, card 0 on top): cards 0-4 to
    /// the elder, 5-9 to the dealer, card 10 turned up, 11-31 the talon (11 drawn first).
    #[staticmethod]
    #[pyo3(signature = (cards, dealer = None, rules = None))]
    fn from_deck(
        cards: &Bound<'_, PyAny>,
        dealer: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
    ) -> PyResult<PyDeal> {
        let cards = extract_cards(cards)?;
        let state = DealState::from_deck(&cards, dealer_seat(dealer)?, rules_or_default(rules))?;
        Ok(PyDeal::from_state(&state, None))
    }

    /// Replays a record made by `to_json`; a malformed or tampered record raises
    /// `InvalidRecordError`, anything but text `TypeError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let text = record_text(record, "a deal record")?;
        let record = DealRecord::from_json(&text)
            .map_err(|e| with_reader(e.into(), &text, Self::RECORD_FORMAT))?;
        Ok(PyDeal::from_state(&record.replay()?, record.seed))
    }

    /// The versioned JSON record: initial deck, dealer, rules and actions, and the seed the
    /// deck was shuffled with, when the deal has one.
    fn to_json(&self) -> String {
        DealRecord::seeded(&self.state, self.seed).to_json()
    }

    /// The seed this deal was shuffled with, or `None` for a deal from a deck or record.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.state.rules())
    }
    /// The initial deck, card 0 on top.
    #[getter]
    fn deck(&self) -> Vec<PyCard> {
        to_py(self.state.deck().iter().copied())
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.state.dealer()
    }
    #[getter]
    fn elder(&self) -> u8 {
        self.state.elder()
    }
    /// The seat to act, `None` once the deal is over.
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }
    /// `"proposal"`, `"response"`, `"discard"`, `"play"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.state.phase().name()
    }
    #[getter]
    fn trump(&self) -> Suit {
        self.state.trump()
    }
    #[getter]
    fn turn_up(&self) -> PyCard {
        PyCard(self.state.turn_up())
    }
    /// Who drew the turn-up, or `None` while it is in the talon.
    #[getter]
    fn turn_up_holder(&self) -> Option<u8> {
        self.state.turn_up_holder()
    }
    #[getter]
    fn talon_size(&self) -> usize {
        self.state.talon_size()
    }
    /// The undrawn talon in draw order, the turn-up last (hidden from the players).
    #[getter]
    fn talon(&self) -> Vec<PyCard> {
        to_py(self.state.talon().iter().copied())
    }
    #[getter]
    fn exchanges(&self) -> u8 {
        self.state.exchanges()
    }
    /// The card led to the current trick, or `None`.
    #[getter]
    fn lead(&self) -> Option<PyCard> {
        self.state.lead().map(PyCard)
    }
    /// The finished tricks, in order.
    #[getter]
    fn tricks(&self) -> Vec<PyTrick> {
        self.state.tricks().map(PyTrick).collect()
    }
    #[getter]
    fn cards_taken(&self) -> (u8, u8) {
        let c = self.state.cards_taken();
        (c[0], c[1])
    }
    #[getter]
    fn tricks_taken(&self) -> (u8, u8) {
        let t = self.state.tricks_taken();
        (t[0], t[1])
    }
    /// Tricks in this deal: 16 less one per exchange.
    #[getter]
    fn total_tricks(&self) -> usize {
        self.state.total_tricks()
    }
    /// The actions applied so far, oldest first.
    #[getter]
    fn history(&self) -> Vec<PyAction> {
        self.state.actions().map(PyAction).collect()
    }

    /// Each action of the history with the seat that took it: `(player, action)`.
    #[getter]
    fn moves(&self) -> Vec<(u8, PyAction)> {
        self.state
            .moves()
            .into_iter()
            .map(|(p, a)| (p, PyAction(a)))
            .collect()
    }
    /// `player`'s hand in suit-then-rank order.
    fn hand(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        Ok(to_py(self.state.hand(seat(player)?)))
    }
    /// `player`'s discards.
    fn discards(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        Ok(to_py(crate::duel::action::cards_of(
            self.state.discard_set(seat(player)?),
        )))
    }
    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The legal actions in action-id order (empty once the deal is over). The `Action`
    /// objects are shared, one per id, so the call allocates only the list.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let table = interned_actions(py)?;
        let (ids, n) = mask_ids(self.state.legal_mask());
        // SAFETY: `PyList_New(n)` gives a list of `n` empty slots (or null with an error
        // set, checked by `from_owned_ptr_or_err`); each slot is filled exactly once with a
        // new strong reference, which `PyList_SET_ITEM` steals.
        unsafe {
            let list = pyo3::ffi::PyList_New(n as pyo3::ffi::Py_ssize_t);
            let list = Bound::from_owned_ptr_or_err(py, list)?;
            for (i, &id) in ids[..n].iter().enumerate() {
                let item = table[id as usize].clone_ref(py).into_ptr();
                #[cfg(not(feature = "abi3"))]
                pyo3::ffi::PyList_SET_ITEM(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, item);
                // The limited API has no macro form; the function checks the index too.
                #[cfg(feature = "abi3")]
                if pyo3::ffi::PyList_SetItem(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, item) != 0 {
                    return Err(PyErr::fetch(py));
                }
            }
            Ok(list.cast_into_unchecked())
        }
    }

    /// The ids of the legal actions, ascending (see `Action.id`): `legal_actions()` as
    /// plain ints.
    fn legal_action_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (ids, n) = mask_ids(self.state.legal_mask());
        PyList::new(py, &ids[..n])
    }

    /// A boolean mask over the 68-action space (see `Action.id`).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut v = vec![false; NUM_ACTIONS];
        crate::duel::action::write_mask(self.state.legal_mask(), &mut v);
        PyArray1::from_vec(py, v)
    }

    fn is_legal(&self, action: &Bound<'_, PyAny>) -> bool {
        extract_action(action).is_ok_and(|a| self.state.is_legal(a))
    }

    /// Applies an `Action`, its text or its id. An illegal action raises
    /// `IllegalActionError` (its reason, the legal actions), and changes nothing. With
    /// `player`, the action is that seat's: refused as `not_your_turn` unless it is to move.
    #[pyo3(signature = (action, player = None))]
    fn apply(
        &mut self,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        // The fast path: an `Action` or an id, legal now, for whoever is to move.
        if let (Some(a), None) = (fast_action(action), player) {
            if self.state.is_legal(a) {
                self.state.apply_unchecked(a);
                return Ok(());
            }
        }
        let player = optional_seat(player)?;
        let action = extract_action_or_list_legal(&self.state, action)?;
        Ok(self.state.apply_by(player, action)?)
    }

    /// Raises what `apply(action, player)` would raise, and changes nothing: an
    /// `IllegalActionError` with the reason the action is refused; `None` when it is legal.
    #[pyo3(signature = (action, player = None))]
    fn check(&self, action: &Bound<'_, PyAny>, player: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let player = optional_seat(player)?;
        let action = extract_action_or_list_legal(&self.state, action)?;
        match self.state.refusal(player, action) {
            Some(refusal) => Err(illegal_action_error(&refusal)),
            None => Ok(()),
        }
    }

    /// Every step of the deal so far, as a spectator who holds its record follows it: the
    /// deal as dealt, then the state after each action (`Frame`).
    fn frames(&self) -> Vec<PyFrame> {
        self.state
            .frames(1, None)
            .into_iter()
            .map(PyFrame)
            .collect()
    }

    /// Takes back the last action and returns it.
    fn undo(&mut self) -> PyResult<PyAction> {
        let (before, action) = self
            .state
            .before_last()
            .ok_or_else(|| EcarteError::new_err("nothing to undo: no action has been applied"))?;
        self.state = before;
        Ok(PyAction(action))
    }

    /// `None` until the deal is over, then the `Outcome`.
    fn outcome(&self) -> Option<PyOutcome> {
        self.state.outcome().map(PyOutcome)
    }

    /// What `player` may know, with the match `score` (zeros outside a match).
    #[pyo3(signature = (player, score = None))]
    fn observation(
        &self,
        player: &Bound<'_, PyAny>,
        score: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObservation> {
        Ok(PyObservation(
            self.state.observation(seat(player)?, score_pair(score)?),
        ))
    }

    /// `player`'s observation as a float32 vector of length 214 (layout in the docs).
    /// With `out` (a writeable, contiguous float32 array of that length) it is written
    /// there and `out` is returned, with no allocation; any other `out` raises
    /// `EcarteError`.
    #[pyo3(signature = (player, score = None, out = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
        score: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let player = seat(player)?;
        let score = score_pair(score)?;
        let array = match out.filter(|o| !o.is_none()) {
            Some(out) => float32_out(out, OBSERVATION_SIZE)?,
            None => PyArray1::<f32>::zeros(py, OBSERVATION_SIZE, false),
        };
        {
            let error = |e: &dyn std::fmt::Display| EcarteError::new_err(format!("out: {e}"));
            let mut view = array.try_readwrite().map_err(|e| error(&e))?;
            let out = view.as_slice_mut().map_err(|e| error(&e))?;
            self.state.encode_observation(player, score, out);
        }
        Ok(array)
    }

    /// Leaf count of the game tree below this state, `depth` actions deep (to the end when
    /// `None`). Runs without the GIL.
    #[pyo3(signature = (depth = None))]
    fn perft(&self, py: Python<'_>, depth: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        // A deal has at most `MAX_ACTIONS` actions: a deeper depth counts the same leaves.
        let max = crate::duel::state::MAX_ACTIONS as i128;
        let depth = depth
            .filter(|d| !d.is_none())
            .map(|d| int_in(d, "depth", 0, max).map(|v| v as u32))
            .transpose()?;
        let state = self.state;
        Ok(py.detach(move || state.perft(depth)))
    }

    /// Every card is in exactly one place: a hand, the talon, a discard pile, or played.
    fn check_conservation(&self) -> bool {
        self.state.check_conservation()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String,), Option<u64>)> {
        let me = slf.borrow();
        Ok((
            slf.get_type().getattr("from_json")?,
            (me.to_json(),),
            me.seed,
        ))
    }
    /// Sets the seed after unpickling.
    fn __setstate__(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }
    fn copy(&self) -> PyDeal {
        self.clone()
    }
    fn __copy__(&self) -> PyDeal {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyDeal {
        self.clone()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyDeal>>()
            .is_ok_and(|o| o.state == self.state)
    }
    fn __repr__(&self) -> String {
        format!(
            "<Deal dealer={} phase={} trump={} turn_up={} talon={} exchanges={} tricks={}>",
            self.state.dealer(),
            self.state.phase().name(),
            self.state.trump(),
            self.state.turn_up(),
            self.state.talon_size(),
            self.state.exchanges(),
            self.state.trick_count()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_class::<PyAction>()?;
    m.add_class::<PyDeal>()?;
    m.add_class::<PyObservation>()?;
    m.add_class::<PyFrame>()?;
    m.add_class::<PyTrick>()?;
    m.add_class::<PyOutcome>()?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add(
        "COMPACT_OBSERVATION_SIZE",
        crate::duel::COMPACT_OBSERVATION_SIZE,
    )?;
    Ok(())
}
