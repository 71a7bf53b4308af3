//! The duel for Python: `Rules`, `Action`, `Deal` (with undo and records), `Observation`,
//! `Trick` and `Outcome`.

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::card::{extract_cards, to_py, PyCard, PySuit};
use super::errors::{
    extract_u64, EcarteError, IllegalActionError, InvalidDeckError, InvalidRulesError,
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
    #[pyo3(signature = (order = "ecarte", allow_trump_discard = false, max_exchanges = 11, target = 7))]
    fn new(
        order: &str,
        allow_trump_discard: bool,
        max_exchanges: i64,
        target: i64,
    ) -> PyResult<PyRules> {
        let order = Order::parse(order).ok_or_else(|| {
            InvalidRulesError::new_err(format!(
                "invalid rules: order must be 'ecarte' or 'traditional', got {order:?}"
            ))
        })?;
        let small = |name: &str, v: i64| {
            u8::try_from(v).map_err(|_| {
                InvalidRulesError::new_err(format!("invalid rules: {name} out of range: {v}"))
            })
        };
        let rules = Rules {
            order,
            allow_trump_discard,
            max_exchanges: small("max_exchanges", max_exchanges)?,
            target: small("target", target)?,
        };
        rules.validate().map_err(DuelError::InvalidRules)?;
        Ok(PyRules(rules))
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

fn parse_action(text: &str) -> PyResult<Action> {
    text.parse::<Action>()
        .map_err(|e| IllegalActionError::new_err(e.to_string()))
}

fn action_from_id(id: i64) -> PyResult<Action> {
    usize::try_from(id)
        .ok()
        .and_then(Action::from_id)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "action id must be 0-{}, got {id}",
                NUM_ACTIONS - 1
            ))
        })
}

/// An `Action`, its text, or its id.
fn extract_action(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    if let Ok(a) = obj.extract::<PyAction>() {
        return Ok(a.0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return parse_action(&s.to_cow()?);
    }
    if let Ok(id) = obj.extract::<i64>() {
        return action_from_id(id);
    }
    Err(IllegalActionError::new_err(format!(
        "expected an Action, its text or its id, got {}",
        super::errors::describe(obj)
    )))
}

#[pymethods]
impl PyAction {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        extract_action(text).map(PyAction)
    }
    /// Parses `propose`, `decline`, `accept`, `refuse`, `discard <card>` or `<card>`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyAction> {
        parse_action(text).map(PyAction)
    }
    /// The action at index `id` of the action space (0-67).
    #[staticmethod]
    fn from_id(id: i64) -> PyResult<PyAction> {
        action_from_id(id).map(PyAction)
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
#[pyclass(name = "Trick", module = "ecarte.duel", frozen, eq, hash)]
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
    fn __repr__(&self) -> String {
        format!(
            "Trick(leader={}, cards=('{}', '{}'), winner={})",
            self.0.leader, self.0.cards[0], self.0.cards[1], self.0.winner
        )
    }
}

/// The result of a finished deal.
#[pyclass(name = "Outcome", module = "ecarte.duel", frozen, eq, hash)]
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
#[pyclass(name = "Observation", module = "ecarte.duel", frozen, eq)]
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
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
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

fn seat(player: i64) -> PyResult<u8> {
    match player {
        0 | 1 => Ok(player as u8),
        _ => Err(EcarteError::new_err(format!(
            "invalid player {player}: seats are 0 and 1"
        ))),
    }
}

fn score_pair(score: Option<(i64, i64)>) -> PyResult<[u8; 2]> {
    let Some(score) = score else {
        return Ok([0, 0]);
    };
    let one = |v: i64| {
        u8::try_from(v)
            .map_err(|_| EcarteError::new_err(format!("invalid score {v}: must be 0-255")))
    };
    Ok([one(score.0)?, one(score.1)?])
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

fn dealer_seat(dealer: i64) -> PyResult<u8> {
    u8::try_from(dealer)
        .ok()
        .filter(|d| *d <= 1)
        .ok_or_else(|| InvalidDeckError::new_err(DuelError::InvalidDealer(dealer).to_string()))
}

/// A fresh seed from the process's hash randomness, for `Deal()` without a seed.
fn entropy_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    RandomState::new().build_hasher().finish()
}

#[pymethods]
impl PyDeal {
    /// A deal from the 32-card pack shuffled with `seed` (a fresh random seed if `None`;
    /// read it back from `.seed`).
    #[new]
    #[pyo3(signature = (seed = None, dealer = 0, rules = None))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        dealer: i64,
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
    #[pyo3(signature = (cards, dealer = 0, rules = None))]
    fn from_deck(
        cards: &Bound<'_, PyAny>,
        dealer: i64,
        rules: Option<PyRules>,
    ) -> PyResult<PyDeal> {
        let cards = extract_cards(cards)?;
        let state = DealState::from_deck(&cards, dealer_seat(dealer)?, rules_or_default(rules))?;
        Ok(PyDeal::from_state(&state, None))
    }

    /// Replays a record made by `to_json`; a malformed or tampered record raises
    /// `InvalidRecordError`.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyDeal> {
        let state = DealRecord::from_json(text)?.replay()?;
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
    fn hand(&self, player: i64) -> PyResult<Vec<PyCard>> {
        Ok(to_py(self.state.hand(seat(player)?)))
    }
    /// `player`'s discards.
    fn discards(&self, player: i64) -> PyResult<Vec<PyCard>> {
        Ok(to_py(crate::duel::action::cards_of(
            self.state.discard_set(seat(player)?),
        )))
    }
    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The legal actions in action-id order (empty once the deal is over).
    fn legal_actions(&self) -> Vec<PyAction> {
        self.state
            .legal_actions()
            .into_iter()
            .map(PyAction)
            .collect()
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
        let action = match extract_action(action) {
            Ok(a) => a,
            Err(e) => {
                let legal: Vec<String> = self
                    .state
                    .legal_actions()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                return Err(IllegalActionError::new_err(format!(
                    "{}; legal actions: {}",
                    e.value(action.py()),
                    legal.join(", ")
                )));
            }
        };
        self.state.apply(action)?;
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
    fn observation(&self, player: i64, score: Option<(i64, i64)>) -> PyResult<PyObservation> {
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
        player: i64,
        score: Option<(i64, i64)>,
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
    fn perft(&self, py: Python<'_>, depth: Option<u32>) -> u64 {
        let state = self.state;
        py.detach(move || state.perft(depth))
    }

    /// Every card is in exactly one place: a hand, the talon, a discard pile, or played.
    fn check_conservation(&self) -> bool {
        self.state.check_conservation()
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
    let py = m.py();
    m.add("DuelRules", py.get_type::<PyRules>())?;
    m.add("DuelAction", py.get_type::<PyAction>())?;
    m.add("DuelDeal", py.get_type::<PyDeal>())?;
    m.add("DuelObservation", py.get_type::<PyObservation>())?;
    m.add("DuelTrick", py.get_type::<PyTrick>())?;
    m.add("DuelOutcome", py.get_type::<PyOutcome>())?;
    m.add("DUEL_NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("DUEL_OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    Ok(())
}
