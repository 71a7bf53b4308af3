//! The bank variant for Python: `resolve`, `odds`, `simulate`, `deal_from_shoe` and `Shoe`.
//! The classes live in `_core` under `Bank`-prefixed names; `ecarte.bank` re-exports them.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::IntoPyObjectExt;

use super::card::{extract_cards, to_py, PyCard, PySuit};
use super::errors::{EcarteError, InvalidShoeError};
use crate::bank::{self, BankError, Composition, Outcome};
use crate::card::{Card, Suit};


impl From<BankError> for PyErr {
    fn from(e: BankError) -> PyErr {
        match e {
            BankError::InvalidArgument(msg) => EcarteError::new_err(msg),
            other => InvalidShoeError::new_err(other.to_string()),
        }
    }
}

/// A trump given as a `Suit`, a suit letter or symbol, or a `Card` (its suit). Returns the
/// suit and the card if one was given.
fn extract_trump(obj: &Bound<'_, PyAny>) -> PyResult<(Suit, Option<Card>)> {
    if let Ok(s) = obj.extract::<PySuit>() {
        return Ok((s.into(), None));
    }
    if let Ok(c) = obj.extract::<PyCard>() {
        return Ok((c.0.suit(), Some(c.0)));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
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
    fn trump(&self) -> PySuit {
        self.0.trump().into()
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
fn bank_deal_from_shoe(cards: &Bound<'_, PyAny>) -> PyResult<PyBankDeal> {
    Ok(PyBankDeal(bank::Deal::from_order(&cards_of(cards)?)?))
}

/// Resolves the banker's tableau against a punter's (only trumps count).
#[pyfunction]
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

/// Exact probabilities of one punter tableau against the banker's.
#[pyclass(name = "Odds", module = "ecarte.bank", frozen)]
pub struct PyBankOdds(bank::Odds);

fn fraction(py: Python<'_>, (num, den): (u128, u128)) -> PyResult<Bound<'_, PyAny>> {
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((num, den))
}

#[pymethods]
impl PyBankOdds {
    /// Probability that the banker wins.
    #[getter]
    fn banker(&self) -> f64 {
        self.0.probability(Outcome::Banker)
    }
    /// Probability of en carte (equal tricks).
    #[getter]
    fn en_carte(&self) -> f64 {
        self.0.probability(Outcome::EnCarte)
    }
    /// Probability that the punter wins.
    #[getter]
    fn punter(&self) -> f64 {
        self.0.probability(Outcome::Punter)
    }
    #[getter]
    fn banker_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.0.exact(Outcome::Banker))
    }
    #[getter]
    fn en_carte_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.0.exact(Outcome::EnCarte))
    }
    #[getter]
    fn punter_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.0.exact(Outcome::Punter))
    }
    /// `{"banker": Fraction, "en_carte": Fraction, "punter": Fraction}`.
    #[getter]
    fn exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in Outcome::ALL {
            d.set_item(o.name(), fraction(py, self.0.exact(o))?)?;
        }
        Ok(d)
    }
    /// `{(banker_tricks, punter_tricks): probability}` for every possible score.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (score, (num, den)) in self.0.score_list() {
            d.set_item(score, num as f64 / den as f64)?;
        }
        Ok(d)
    }
    /// `{(banker_tricks, punter_tricks): Fraction}` for every possible score.
    #[getter]
    fn scores_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (score, exact) in self.0.score_list() {
            d.set_item(score, fraction(py, exact)?)?;
        }
        Ok(d)
    }
    /// `C(N, 4)·C(N − 4, 4)`: the number of ordered pairs of tableaux (unreduced).
    #[getter]
    fn denominator(&self) -> u128 {
        self.0.denominator
    }
    /// Cards left in the shoe the tableaux are drawn from.
    #[getter]
    fn cards_left(&self) -> usize {
        self.0.cards_left
    }
    /// Trumps among them.
    #[getter]
    fn trumps_left(&self) -> usize {
        self.0.trumps_left
    }
    fn __repr__(&self) -> String {
        format!(
            "Odds(banker={:.6}, en_carte={:.6}, punter={:.6}, cards_left={})",
            self.banker(),
            self.en_carte(),
            self.punter(),
            self.0.cards_left
        )
    }
}

/// Exact odds for one punter tableau. The cards left are `shoe` (default: the full 104-card
/// shoe) minus `removed`. A `Card` as trump is the turned-up card and is removed too.
#[pyfunction]
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
    Ok(PyBankOdds(odds))
}

/// Outcome counts of simulated deals, with 95% Wilson intervals.
#[pyclass(name = "Simulation", module = "ecarte.bank", frozen)]
pub struct PyBankSimulation(bank::Simulation);

#[pymethods]
impl PyBankSimulation {
    /// Deals simulated.
    #[getter]
    fn n(&self) -> u64 {
        self.0.n
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed
    }
    /// `{2: {"banker": k, "en_carte": k, "punter": k}, 3: …, 4: …}`.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.per_tableau(py, |k, _| k.into_bound_py_any(py))
    }
    /// Estimated probabilities, same shape as `counts`.
    #[getter]
    fn probabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.per_tableau(py, |k, n| {
            (k as f64 / n.max(1) as f64).into_bound_py_any(py)
        })
    }
    /// 95% Wilson score intervals `(low, high)`, same shape as `counts`.
    #[getter]
    fn intervals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.per_tableau(py, |k, n| {
            bank::simulate::wilson(k, n).into_bound_py_any(py)
        })
    }
    /// Joint counts as a `(3, 3, 3)` uint64 array indexed `[T2, T3, T4]` with outcomes
    /// 0 = banker, 1 = en carte, 2 = punter.
    #[getter]
    fn joint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyArray1::from_slice(py, &self.0.joint)
            .reshape([3, 3, 3])?
            .into_any())
    }
    /// 95% Wilson intervals of the joint cells, a `(3, 3, 3, 2)` float array.
    #[getter]
    fn joint_intervals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<f64> = self
            .0
            .joint
            .iter()
            .flat_map(|&k| {
                let (lo, hi) = bank::simulate::wilson(k, self.0.n);
                [lo, hi]
            })
            .collect();
        Ok(PyArray1::from_vec(py, flat)
            .reshape([3, 3, 3, 2])?
            .into_any())
    }
    fn __repr__(&self) -> String {
        format!("Simulation(n={}, seed={})", self.0.n, self.0.seed)
    }
}

impl PyBankSimulation {
    fn per_tableau<'py>(
        &self,
        py: Python<'py>,
        value: impl Fn(u64, u64) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (t, counts) in self.0.counts.iter().enumerate() {
            let d = PyDict::new(py);
            for o in Outcome::ALL {
                d.set_item(o.name(), value(counts[o.index()], self.0.n)?)?;
            }
            out.set_item(t + 2, d)?;
        }
        Ok(out)
    }
}

/// Simulates `n` whole deals (T2, T3, T4 against T1) from a freshly shuffled `shoe`
/// (the cards left, default the full shoe). The GIL is released; the result is the same for
/// any `threads`.
#[pyfunction]
#[pyo3(signature = (n, seed = None, shoe = None, threads = None))]
fn bank_simulate(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    shoe: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyBankSimulation> {
    let n = super::errors::extract_u64(n, "n")?;
    let seed = seed.map_or(Ok(0), |s| super::errors::extract_u64(s, "seed"))?;
    let threads = match threads {
        Some(t) => Some(
            usize::try_from(super::errors::extract_u64(t, "threads")?)
                .map_err(|_| EcarteError::new_err("threads is too large".to_string()))?,
        ),
        None => None,
    };
    let cards = shoe.map(cards_of).transpose()?;
    let sim = py.detach(|| bank::simulate(n, seed, cards.as_deref(), threads))?;
    Ok(PyBankSimulation(sim))
}

/// The shoe across deals: undealt cards, the current deal on the table, the discard pile
/// and the run-out count.
#[pyclass(name = "Shoe", module = "ecarte.bank")]
pub struct PyBankShoe(bank::Shoe);

#[pymethods]
impl PyBankShoe {
    /// A full 104-card shoe shuffled with `seed`.
    #[new]
    #[pyo3(signature = (seed = None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyBankShoe> {
        let seed = seed.map_or(Ok(0), |s| super::errors::extract_u64(s, "seed"))?;
        Ok(PyBankShoe(bank::Shoe::new(seed)))
    }
    /// A shoe in the exact order `cards` (index 0 = top): the 104 cards of two packs.
    /// `seed` drives later run-out reshuffles.
    #[staticmethod]
    #[pyo3(signature = (cards, seed = None))]
    fn from_order(
        cards: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBankShoe> {
        let seed = seed.map_or(Ok(0), |s| super::errors::extract_u64(s, "seed"))?;
        Ok(PyBankShoe(bank::Shoe::from_order(cards_of(cards)?, seed)?))
    }
    /// Deals the next hand; the previous deal goes to the discard pile first, and if fewer
    /// than 17 cards are left, the pile is shuffled under the rest (a run-out).
    fn deal(&mut self) -> PyBankDeal {
        PyBankDeal(self.0.deal())
    }
    /// Shuffles the undealt rest with `seed`; the discard pile stays aside.
    fn shuffle_rest(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0
            .shuffle_rest(super::errors::extract_u64(seed, "seed")?);
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
    m.add_class::<PyBankSimulation>()?;
    m.add_class::<PyBankShoe>()?;
    m.add("deal_from_shoe", wrap_pyfunction!(bank_deal_from_shoe, m)?)?;
    m.add("resolve", wrap_pyfunction!(bank_resolve, m)?)?;
    m.add("odds", wrap_pyfunction!(bank_odds, m)?)?;
    m.add("simulate", wrap_pyfunction!(bank_simulate, m)?)?;
    Ok(())
}
