//! The bank variant for Python: `resolve`, `odds`, `simulate`, `deal_from_shoe` and `Shoe`.
//! The classes live in `_core` under `Bank`-prefixed names; `ecarte.bank` re-exports them.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::card::{extract_cards, to_py, PyCard};
use super::deal::seed_or_fresh;
use super::errors::{EcarteError, InvalidRecordError, InvalidShoeError};
use crate::bank::{self, BankError, Composition, Outcome};
use crate::card::{Card, Suit};

impl From<BankError> for PyErr {
    fn from(e: BankError) -> PyErr {
        match e {
            BankError::InvalidArgument(msg) => EcarteError::new_err(msg),
            BankError::InvalidRecord(_) => InvalidRecordError::new_err(e.to_string()),
            other => InvalidShoeError::new_err(other.to_string()),
        }
    }
}

/// A trump given as a `Suit`, a suit letter or symbol, or a `Card` (its suit). Returns the
/// suit and the card if one was given.
fn extract_trump(obj: &Bound<'_, PyAny>) -> PyResult<(Suit, Option<Card>)> {
    if let Ok(s) = obj.extract::<Suit>() {
        return Ok((s, None));
    }
    if let Ok(c) = obj.extract::<PyCard>() {
        return Ok((c.0.suit(), Some(c.0)));
    }
    if obj.is_instance_of::<PyString>() {
        let text = super::errors::text(obj, "a trump")
            .map_err(|e| super::errors::InvalidCardError::new_err(e.value(obj.py()).to_string()))?;
        let mut chars = text.trim().chars();
        if let (Some(s), None) = (chars.next().and_then(Suit::from_char), chars.next()) {
            return Ok((s, None));
        }
        if let Ok(c) = text.parse::<Card>() {
            return Ok((c.suit(), Some(c)));
        }
    }
    Err(super::errors::InvalidCardError::new_err(format!(
        "invalid trump {}: expected a Suit, a suit letter (C, D, H, S) or symbol, or a Card",
        super::errors::describe(obj)
    )))
}

/// A list of cards from any iterable of `Card`s or texts; a non-iterable is an
/// `InvalidCardError` (not a bare `TypeError`).
fn cards_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if obj.try_iter().is_err() {
        return Err(super::errors::InvalidCardError::new_err(format!(
            "expected an iterable of cards, got {}",
            super::errors::describe(obj)
        )));
    }
    extract_cards(obj)
}

/// The result of one punter tableau against the banker's.
#[pyclass(
    name = "Resolution",
    module = "ecarte.bank",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBankResolution(bank::Resolution);

#[pymethods]
impl PyBankResolution {
    /// The resolution with these trick counts (the outcome follows from them).
    #[new]
    fn new(banker_tricks: &Bound<'_, PyAny>, punter_tricks: &Bound<'_, PyAny>) -> PyResult<Self> {
        let banker = super::errors::int_u8(banker_tricks, "banker_tricks", 0, 4)?;
        let punter = super::errors::int_u8(punter_tricks, "punter_tricks", 0, 4)?;
        Ok(PyBankResolution(bank::Resolution::from_tricks(
            banker, punter,
        )?))
    }
    /// `{"banker_tricks": b, "punter_tricks": p, "outcome": ...}`, as a table record holds it.
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    /// Reads what `to_json` wrote: tricks that fit a 4-card tableau and the outcome they
    /// give; anything else raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyBankResolution> {
        let text = super::errors::record_text(record, "a resolution record")?;
        Ok(PyBankResolution(bank::Resolution::from_json(&text)?))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    /// Tricks taken by the banker's tableau.
    #[getter]
    fn banker_tricks(&self) -> u8 {
        self.0.banker_tricks
    }
    /// Tricks taken by the punter's tableau.
    #[getter]
    fn punter_tricks(&self) -> u8 {
        self.0.punter_tricks
    }
    /// `"banker"`, `"en_carte"` or `"punter"`.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.0.outcome.name()
    }
    fn __repr__(&self) -> String {
        format!(
            "Resolution(banker_tricks={}, punter_tricks={}, outcome='{}')",
            self.0.banker_tricks, self.0.punter_tricks, self.0.outcome
        )
    }
}

/// One deal: four tableaux (T1 the banker's) and the turned-up trump card.
#[pyclass(name = "Deal", module = "ecarte.bank", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyBankDeal(bank::Deal);

#[pymethods]
impl PyBankDeal {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::bank::record::DEAL_FORMAT;

    /// The versioned record: the four tableaux and the trump card.
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    /// Reads what `to_json` wrote: 4 tableaux of 4 cards and a trump card, no card more
    /// than twice; anything else raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(record: &Bound<'_, PyAny>) -> PyResult<PyBankDeal> {
        let text = super::errors::record_text(record, "a bank deal record")?;
        let deal = bank::Deal::from_json(&text)
            .map_err(|e| super::errors::with_reader(e.into(), &text, Self::RECORD_FORMAT))?;
        Ok(PyBankDeal(deal))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    /// The four tableaux, T1 (the banker's) first, each 4 cards in dealing order.
    #[getter]
    fn tableaux(&self) -> Vec<Vec<PyCard>> {
        self.0
            .tableaux
            .iter()
            .map(|t| to_py(t.iter().copied()))
            .collect()
    }
    /// The 17th card, turned up.
    #[getter]
    fn trump_card(&self) -> PyCard {
        PyCard(self.0.trump_card)
    }
    /// The trump suit: the trump card's suit.
    #[getter]
    fn trump(&self) -> Suit {
        self.0.trump()
    }
    /// T2, T3 and T4 each resolved against T1.
    fn results(&self) -> Vec<PyBankResolution> {
        self.0.results().into_iter().map(PyBankResolution).collect()
    }
    /// The 17 cards in dealing order.
    fn cards(&self) -> Vec<PyCard> {
        to_py(self.0.cards())
    }
    fn __repr__(&self) -> String {
        let tabs: Vec<String> = self
            .0
            .tableaux
            .iter()
            .map(|t| {
                t.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!(
            "Deal(tableaux=[{}], trump_card='{}')",
            tabs.join(" | "),
            self.0.trump_card
        )
    }
}

/// The deal the top 17 of `cards` give (index 0 = top): one card at a time to T1, T2, T3,
/// T4, T1, … until each holds 4; the 17th card is the trump card.
#[pyfunction]
#[pyo3(name = "deal_from_shoe")]
fn bank_deal_from_shoe(cards: &Bound<'_, PyAny>) -> PyResult<PyBankDeal> {
    Ok(PyBankDeal(bank::Deal::from_order(&cards_of(cards)?)?))
}

/// Resolves the banker's tableau against a punter's (only trumps count).
#[pyfunction]
#[pyo3(name = "resolve")]
fn bank_resolve(
    banker: &Bound<'_, PyAny>,
    punter: &Bound<'_, PyAny>,
    trump: &Bound<'_, PyAny>,
) -> PyResult<PyBankResolution> {
    let (suit, _) = extract_trump(trump)?;
    let (banker, punter) = (cards_of(banker)?, cards_of(punter)?);
    // Trump counts are u8: refuse sides larger than a whole shoe rather than overflow.
    for (side, cards) in [("banker", &banker), ("punter", &punter)] {
        if cards.len() > bank::SHOE_SIZE {
            return Err(InvalidShoeError::new_err(format!(
                "the {side}'s side holds {} cards, more than a {}-card shoe",
                cards.len(),
                bank::SHOE_SIZE
            )));
        }
    }
    Ok(PyBankResolution(bank::resolve(&banker, &punter, suit)))
}

/// Exact probabilities of one punter tableau against the banker's. It keeps what it was
/// computed from (the trump suit, the cards left), so that a copy or a pickle computes it
/// again; two odds are equal when their figures are.
#[pyclass(name = "Odds", module = "ecarte.bank", frozen, eq)]
#[derive(Clone)]
pub struct PyBankOdds {
    odds: bank::Odds,
    trump: Suit,
    left: Composition,
}

/// `odds`'s arguments that compute an `Odds` again: the trump suit, nothing removed, the
/// cards left.
type OddsArgs = (Suit, Option<()>, Vec<String>);

impl PartialEq for PyBankOdds {
    fn eq(&self, other: &Self) -> bool {
        self.odds == other.odds
    }
}

fn fraction(py: Python<'_>, (num, den): (u128, u128)) -> PyResult<Bound<'_, PyAny>> {
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((num, den))
}

#[pymethods]
impl PyBankOdds {
    /// Pickles as the call that computes it: `odds(trump, None, cards left)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, OddsArgs)> {
        let me = slf.get();
        let cards = me.left.cards().iter().map(ToString::to_string).collect();
        let odds = slf.py().import("ecarte._core.bank")?.getattr("odds")?;
        Ok((odds, (me.trump, None, cards)))
    }
    fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
        slf.clone().unbind()
    }
    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf.clone().unbind()
    }
    /// Probability that the banker wins.
    #[getter]
    fn banker(&self) -> f64 {
        self.odds.probability(Outcome::Banker)
    }
    /// Probability of en carte (equal tricks).
    #[getter]
    fn en_carte(&self) -> f64 {
        self.odds.probability(Outcome::EnCarte)
    }
    /// Probability that the punter wins.
    #[getter]
    fn punter(&self) -> f64 {
        self.odds.probability(Outcome::Punter)
    }
    #[getter]
    fn banker_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.odds.exact(Outcome::Banker))
    }
    #[getter]
    fn en_carte_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.odds.exact(Outcome::EnCarte))
    }
    #[getter]
    fn punter_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.odds.exact(Outcome::Punter))
    }
    /// `{"banker": Fraction, "en_carte": Fraction, "punter": Fraction}`.
    #[getter]
    fn exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in Outcome::ALL {
            d.set_item(o.name(), fraction(py, self.odds.exact(o))?)?;
        }
        Ok(d)
    }
    /// `{(banker_tricks, punter_tricks): probability}` for every possible score.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (score, (num, den)) in self.odds.score_list() {
            d.set_item(score, num as f64 / den as f64)?;
        }
        Ok(d)
    }
    /// `{(banker_tricks, punter_tricks): Fraction}` for every possible score.
    #[getter]
    fn scores_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (score, exact) in self.odds.score_list() {
            d.set_item(score, fraction(py, exact)?)?;
        }
        Ok(d)
    }
    /// `C(N, 4)·C(N − 4, 4)`: the number of ordered pairs of tableaux (unreduced).
    #[getter]
    fn denominator(&self) -> u128 {
        self.odds.denominator
    }
    /// Cards left in the shoe the tableaux are drawn from.
    #[getter]
    fn cards_left(&self) -> usize {
        self.odds.cards_left
    }
    /// Trumps among them.
    #[getter]
    fn trumps_left(&self) -> usize {
        self.odds.trumps_left
    }
    fn __repr__(&self) -> String {
        format!(
            "Odds(banker={:.6}, en_carte={:.6}, punter={:.6}, cards_left={})",
            self.banker(),
            self.en_carte(),
            self.punter(),
            self.odds.cards_left
        )
    }
}

/// Exact odds for one punter tableau. The cards left are `shoe` (default: the full 104-card
/// shoe) minus `removed`. A `Card` as trump is the turned-up card and is removed too.
#[pyfunction]
#[pyo3(name = "odds")]
#[pyo3(signature = (trump, removed = None, shoe = None))]
fn bank_odds(
    py: Python<'_>,
    trump: &Bound<'_, PyAny>,
    removed: Option<&Bound<'_, PyAny>>,
    shoe: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyBankOdds> {
    let (suit, turn_up) = extract_trump(trump)?;
    let mut removed = match removed {
        Some(r) => cards_of(r)?,
        None => Vec::new(),
    };
    removed.extend(turn_up);
    let mut remaining = match shoe {
        Some(s) => Composition::from_cards(&cards_of(s)?)?,
        None => Composition::full(),
    };
    remaining.remove(&removed)?;
    let odds = py.detach(|| bank::odds(suit, &remaining))?;
    Ok(PyBankOdds {
        odds,
        trump: suit,
        left: remaining,
    })
}

/// Simulates deals `start .. start + n` (T2, T3, T4 against T1) from a freshly shuffled
/// `shoe` (the cards left, default the full shoe): `(counts, joint)` as uint64 arrays. The
/// GIL is released; the result is the same for any `threads`. `on_progress(deals)` is
/// told the deals simulated so far while it runs. See `ecarte.bank.simulate`.
#[pyfunction]
#[pyo3(name = "simulate")]
#[pyo3(signature = (n, seed, shoe = None, start = None, threads = None, on_progress = None))]
fn bank_simulate<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    shoe: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    on_progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let n = super::errors::int_in(n, "n", 0, i128::from(MAX_BANK_DEALS))? as u64;
    let seed = super::rng::extract_seed(seed, "seed")?;
    let start = start.map_or(Ok(0), |s| super::errors::extract_u64(s, "start"))?;
    let threads = super::threads::threads_arg(threads)?;
    let cards = shoe.map(cards_of).transpose()?;
    let sim = super::interrupt::interruptible(py, on_progress, |control| {
        super::threads::with_threads(threads, || {
            bank::simulate(n, seed, cards.as_deref(), start, control)
        })
    })???;
    let counts: Vec<u64> = sim.counts.iter().flatten().copied().collect();
    Ok((
        PyArray1::from_vec(py, counts).reshape([3, 3])?.into_any(),
        PyArray1::from_slice(py, &sim.joint)
            .reshape([3, 3, 3])?
            .into_any(),
    ))
}

/// The most deals one `bank.simulate` call runs (split longer runs with `start`).
pub const MAX_BANK_DEALS: u64 = 1_000_000_000;

/// The shoe across deals: undealt cards, the current deal on the table, the discard pile
/// and the run-out count. A copy or a pickle carries the whole state, so it deals the same
/// cards next.
#[pyclass(name = "Shoe", module = "ecarte.bank")]
#[derive(Clone)]
pub struct PyBankShoe(bank::Shoe);

/// A shoe's state as `__reduce__` gives it: undealt, on the table, discards (card texts),
/// run-outs and seed.
type ShoeState = (Vec<String>, Vec<String>, Vec<String>, u32, u64);

fn texts(cards: &[Card]) -> Vec<String> {
    cards.iter().map(ToString::to_string).collect()
}

#[pymethods]
impl PyBankShoe {
    /// A full 104-card shoe shuffled with `seed` (`None`: a fresh seed, read back from
    /// `.seed`).
    #[new]
    #[pyo3(signature = (seed = None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyBankShoe> {
        Ok(PyBankShoe(bank::Shoe::new(seed_or_fresh(seed)?)))
    }
    /// A shoe in the exact order `cards` (index 0 = top): the 104 cards of two packs.
    /// `seed` drives later run-out reshuffles (`None`: a fresh seed).
    #[staticmethod]
    #[pyo3(signature = (cards, seed = None))]
    fn from_order(
        cards: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBankShoe> {
        let seed = seed_or_fresh(seed)?;
        Ok(PyBankShoe(bank::Shoe::from_order(cards_of(cards)?, seed)?))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (u64,), ShoeState) {
        let shoe = &slf.borrow().0;
        let state = (
            texts(shoe.undealt()),
            texts(shoe.on_table()),
            texts(shoe.discards()),
            shoe.run_outs(),
            shoe.seed(),
        );
        (slf.get_type().into_any(), (shoe.seed(),), state)
    }
    /// Restores the state `__reduce__` gave, checked by the engine: the undealt cards, the
    /// table and the discards must hold the whole shoe (`InvalidShoeError` otherwise).
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let [undealt, on_table, discards, run_outs, seed]: [Bound<'_, PyAny>; 5] =
            state.extract().map_err(|_| {
                InvalidShoeError::new_err(format!(
                    "a shoe's state is (undealt, on_table, discards, run_outs, seed), got {}",
                    super::errors::describe(state)
                ))
            })?;
        let run_outs = super::errors::int_in(&run_outs, "run_outs", 0, i128::from(u32::MAX))?;
        self.0 = bank::Shoe::from_state(
            cards_of(&undealt)?,
            cards_of(&on_table)?,
            cards_of(&discards)?,
            run_outs as u32,
            super::rng::extract_seed(&seed, "seed")?,
        )?;
        Ok(())
    }
    fn __copy__(&self) -> PyBankShoe {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBankShoe {
        self.clone()
    }
    /// Deals the next hand; the previous deal goes to the discard pile first, and if fewer
    /// than 17 cards are left, the pile is shuffled under the rest (a run-out).
    fn deal(&mut self) -> PyBankDeal {
        PyBankDeal(self.0.deal())
    }
    /// Shuffles the undealt rest with `seed`; the discard pile stays aside.
    fn shuffle_rest(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.shuffle_rest(super::rng::extract_seed(seed, "seed")?);
        Ok(())
    }
    /// Moves the cards on the table to the discard pile.
    fn clear_table(&mut self) {
        self.0.clear_table();
    }
    /// Undealt cards, top first.
    #[getter]
    fn undealt(&self) -> Vec<PyCard> {
        to_py(self.0.undealt().iter().copied())
    }
    #[getter]
    fn discards(&self) -> Vec<PyCard> {
        to_py(self.0.discards().iter().copied())
    }
    /// The current deal's 17 cards (empty before the first deal).
    #[getter]
    fn on_table(&self) -> Vec<PyCard> {
        to_py(self.0.on_table().iter().copied())
    }
    /// How many times the shoe has run out.
    #[getter]
    fn run_outs(&self) -> u32 {
        self.0.run_outs()
    }
    /// Undealt cards left.
    #[getter]
    fn remaining(&self) -> usize {
        self.0.remaining()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed()
    }
    fn __len__(&self) -> usize {
        self.0.remaining()
    }
    fn __repr__(&self) -> String {
        format!(
            "Shoe(remaining={}, discards={}, on_table={}, run_outs={})",
            self.0.remaining(),
            self.0.discards().len(),
            self.0.on_table().len(),
            self.0.run_outs()
        )
    }
}

/// The `ecarte._core.bank` module: the names of `ecarte.bank`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBankDeal>()?;
    m.add_class::<PyBankResolution>()?;
    m.add_class::<PyBankOdds>()?;
    m.add("MAX_DEALS", MAX_BANK_DEALS)?;
    m.add("CHUNK", bank::simulate::CHUNK)?;
    m.add_class::<PyBankShoe>()?;
    m.add_function(wrap_pyfunction!(bank_deal_from_shoe, m)?)?;
    m.add_function(wrap_pyfunction!(bank_resolve, m)?)?;
    m.add_function(wrap_pyfunction!(bank_odds, m)?)?;
    m.add_function(wrap_pyfunction!(bank_simulate, m)?)?;
    Ok(())
}
