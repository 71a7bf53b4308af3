//! The duel for Python: `Rules`, `Action`, `Deal` (with undo and records), `Observation`,
//! `Trick` and `Outcome`.

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

use super::card::{extract_cards, to_py, PyCard, PySuit};
use super::errors::{
    describe, extract_u64, int_in, int_u8, text, EcarteError, InvalidActionError, InvalidDeckError,
    InvalidRecordError, InvalidRulesError,
};
use crate::duel::{
    Action, DealRecord, DealState, DuelError, Observation, Order, Outcome, Rules, Trick,
    NUM_ACTIONS, OBSERVATION_SIZE,
};

/// The options of a duel: rank order, trump discards, exchange limit, match target.
#[pyclass(
    name = "Rules",
    module = "ecarte.duel",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (order = None, allow_trump_discard = false, max_exchanges = None, target = None))]
    fn new(
        order: Option<&Bound<'_, PyAny>>,
        allow_trump_discard: bool,
        max_exchanges: Option<&Bound<'_, PyAny>>,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyRules> {
        let default = Rules::default();
        let rules = Rules {
            order: order.map_or(Ok(default.order), parse_order)?,
            allow_trump_discard,
            max_exchanges: max_exchanges
                .map_or(Ok(default.max_exchanges), |v| rules_u8(v, "max_exchanges"))?,
            target: target.map_or(Ok(default.target), |v| rules_u8(v, "target"))?,
        };
        rules.validate().map_err(DuelError::InvalidRules)?;
        Ok(PyRules(rules))
    }
    /// A copy with the named options changed: `rules.replace(target=5)`.
    #[pyo3(signature = (**changes))]
    fn replace(&self, changes: Option<&Bound<'_, PyDict>>) -> PyResult<PyRules> {
        let mut r = self.0;
        for (key, value) in changes.into_iter().flatten() {
            let key = text(&key, "option name")?;
            match key.as_str() {
                "order" => r.order = parse_order(&value)?,
                "allow_trump_discard" => r.allow_trump_discard = value.extract()?,
                "max_exchanges" => r.max_exchanges = rules_u8(&value, "max_exchanges")?,
                "target" => r.target = rules_u8(&value, "target")?,
                _ => {
                    return Err(InvalidRulesError::new_err(format!(
                        "invalid rules: no option {key:?}; the options are order, \
                         allow_trump_discard, max_exchanges and target"
                    )))
                }
            }
        }
        r.validate().map_err(DuelError::InvalidRules)?;
        Ok(PyRules(r))
    }
    /// The rules as the JSON object a record holds.
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyRules> {
        let rules: Rules = parse_record(record, "rules")?;
        rules
            .validate()
            .map_err(|e| InvalidRecordError::new_err(format!("invalid rules record: {e}")))?;
        Ok(PyRules(rules))
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (&'static str, bool, u8, u8)) {
        let r = slf.get().0;
        (
            slf.get_type().into_any(),
            (
                r.order.name(),
                r.allow_trump_discard,
                r.max_exchanges,
                r.target,
            ),
        )
    }
    /// `"ecarte"` (7 8 9 T A J Q K) or `"traditional"` (7 8 9 T J Q K A).
    #[getter]
    fn order(&self) -> &'static str {
        self.0.order.name()
    }
    #[getter]
    fn allow_trump_discard(&self) -> bool {
        self.0.allow_trump_discard
    }
    #[getter]
    fn max_exchanges(&self) -> u8 {
        self.0.max_exchanges
    }
    #[getter]
    fn target(&self) -> u8 {
        self.0.target
    }
    fn __repr__(&self) -> String {
        let r = self.0;
        format!(
            "Rules(order='{}', allow_trump_discard={}, max_exchanges={}, target={})",
            r.order.name(),
            if r.allow_trump_discard {
                "True"
            } else {
                "False"
            },
            r.max_exchanges,
            r.target
        )
    }
}

fn parse_order(order: &Bound<'_, PyAny>) -> PyResult<Order> {
    let name = text(order, "order")?;
    Order::parse(&name).ok_or_else(|| {
        InvalidRulesError::new_err(format!(
            "invalid rules: order must be 'ecarte' or 'traditional', got {name:?}"
        ))
    })
}

fn rules_u8(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u8> {
    int_u8(value, name, 0, u8::MAX)
        .map_err(|e| InvalidRulesError::new_err(format!("invalid rules: {}", e.value(value.py()))))
}

impl PyRules {
    /// `rules` with `target` changed (a `Match`'s `target=` argument).
    pub fn with_target(rules: Rules, target: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let rules = Rules {
            target: rules_u8(target, "target")?,
            ..rules
        };
        rules.validate().map_err(DuelError::InvalidRules)?;
        Ok(rules)
    }
}

fn rules_or_default(rules: Option<PyRules>) -> Rules {
    rules.map_or_else(Rules::default, |r| r.0)
}

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
/// out new references to them instead of allocating (issue 14).
static INTERNED_ACTIONS: PyOnceLock<Vec<Py<PyAction>>> = PyOnceLock::new();

fn interned_actions(py: Python<'_>) -> PyResult<&[Py<PyAction>]> {
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
fn mask_ids(mut mask: u128) -> ([u8; 32], usize) {
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
fn fast_action(obj: &Bound<'_, PyAny>) -> Option<Action> {
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
fn extract_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
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

/// The action `obj` names for `state`: `InvalidActionError` if it names none, and
/// `IllegalActionError` listing the legal actions if it is not legal now.
pub fn extract_action_or_list_legal(state: &DealState, obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let action = extract_action(obj).map_err(|e| {
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
    })?;
    if !state.is_legal(action) {
        let mut probe = *state;
        probe.apply(action)?;
    }
    Ok(action)
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
            "Trick(leader={}, cards=('{}', '{}'), winner={})",
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
        if !(value.winner <= 1
            && (1..=2).contains(&value.points)
            && value.cards.iter().map(|&c| u32::from(c)).sum::<u32>() <= 32
            && value.tricks.iter().map(|&t| u32::from(t)).sum::<u32>() <= 16)
        {
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
    fn trump(&self) -> PySuit {
        self.0.trump.into()
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
    /// The observation as JSON, for logging and tools.
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }
    /// Reads what `to_json` wrote. The observation must be one that some deal gives
    /// (checked by drawing a consistent world and observing it again); anything else
    /// raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
        let obs: Observation = parse_record(record, "observation")?;
        if !observation_is_possible(&obs) {
            return Err(InvalidRecordError::new_err(
                "invalid record: no deal gives this observation",
            ));
        }
        Ok(PyObservation(obs))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
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

/// Parses a JSON record of a value; `InvalidRecordError` if it is not one.
fn parse_record<T: serde::de::DeserializeOwned>(
    record: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    serde_json::from_str(&text(record, "a record")?)
        .map_err(|e| InvalidRecordError::new_err(format!("invalid {what} record: {e}")))
}

/// Whether some deal gives `obs`: the counts are in range, and a world sampled from it
/// gives it back exactly.
fn observation_is_possible(obs: &Observation) -> bool {
    let small = obs.player <= 1
        && obs.dealer <= 1
        && obs.current_player.is_none_or(|p| p <= 1)
        && obs.rules.validate().is_ok()
        && obs.hand.len() <= 5
        && obs.initial_hand.len() == 5
        && obs.discards.len() <= 22
        && obs.draws.len() <= 22
        && obs.talon_drawers.len() <= 22
        && obs.talon_size <= 22
        && obs.tricks.len() <= 16
        && obs.history.len() <= crate::duel::state::MAX_ACTIONS;
    if !small {
        return false;
    }
    // The sampler trusts its input; a malformed one must not take the interpreter down.
    let sampled = std::panic::catch_unwind(|| crate::solver::sampler::sample_worlds(obs, 1, 0));
    matches!(sampled, Ok(Ok(worlds)) if worlds.first().is_some_and(|w| w.observation(obs.player, obs.score) == *obs))
}

/// A seat, 0 or 1.
pub fn seat(player: &Bound<'_, PyAny>) -> PyResult<u8> {
    int_u8(player, "player (a seat)", 0, 1)
}

/// A match score: two points totals from 0 to 255, or zeros for `None`.
fn score_pair(score: Option<&Bound<'_, PyAny>>) -> PyResult<[u8; 2]> {
    let Some(score) = score.filter(|s| !s.is_none()) else {
        return Ok([0, 0]);
    };
    let pair = super::errors::pair(score, "score (points of seat 0 and seat 1)")?;
    Ok([
        int_u8(&pair[0], "score", 0, u8::MAX)?,
        int_u8(&pair[1], "score", 0, u8::MAX)?,
    ])
}

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

#[pymethods]
impl PyDeal {
    /// A deal from the 32-card pack shuffled with `seed` (a fresh random seed if `None`;
    /// read it back from `.seed`).
    #[new]
    #[pyo3(signature = (seed = None, dealer = None, rules = None))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        dealer: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
    ) -> PyResult<PyDeal> {
        let seed = match seed {
            Some(s) if !s.is_none() => extract_u64(s, "seed")?,
            _ => entropy_seed(),
        };
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
    /// `InvalidRecordError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let state = DealRecord::from_json(&text(record, "a deal record")?)?.replay()?;
        Ok(PyDeal::from_state(&state, None))
    }

    /// The versioned JSON record: initial deck, dealer, rules and actions.
    fn to_json(&self) -> String {
        DealRecord::of(&self.state).to_json()
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
    fn trump(&self) -> PySuit {
        self.state.trump().into()
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
                pyo3::ffi::PyList_SET_ITEM(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, item);
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
    /// `IllegalActionError` naming the legal ones, and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        // The fast path: an `Action` or an id, legal now.
        if let Some(a) = fast_action(action) {
            if self.state.is_legal(a) {
                self.state.apply_unchecked(a);
                return Ok(());
            }
        }
        let action = extract_action_or_list_legal(&self.state, action)?;
        self.state.apply_unchecked(action);
        Ok(())
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
    /// With `out` (a contiguous float32 array of that length) it is written there and `out`
    /// is returned, with no allocation.
    #[pyo3(signature = (player, score = None, out = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
        score: Option<&Bound<'_, PyAny>>,
        out: Option<Bound<'py, PyArray1<f32>>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let player = seat(player)?;
        let score = score_pair(score)?;
        let array = match out {
            Some(array) if PyUntypedArrayMethods::len(&array) == OBSERVATION_SIZE => array,
            Some(array) => {
                return Err(EcarteError::new_err(format!(
                    "out must hold {OBSERVATION_SIZE} float32 values, got {}",
                    PyUntypedArrayMethods::len(&array)
                )))
            }
            None => PyArray1::<f32>::zeros(py, OBSERVATION_SIZE, false),
        };
        {
            let mut view = array.try_readwrite()?;
            let out = view
                .as_slice_mut()
                .map_err(|e| EcarteError::new_err(e.to_string()))?;
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
    /// Restores the seed after unpickling (the record does not hold it).
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
