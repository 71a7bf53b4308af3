//! The engine's random streams for Python (`rust/src/rng`): derived seeds, shuffles and a
//! generator, so that Python derives no seed and draws no number of its own.

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use super::card::{extract_cards, to_py, PyCard};
use super::errors::{describe, extract_u64, int_in, EcarteError, InvalidSeedError};
use crate::rng::{self, rng_from_seed, GameRng};

/// The one check of a seed argument named `what` (`"seed"`, `"seed of env 3"`), wherever a
/// seed comes from (a binding's argument, `ecarte.seeding.check_seed`, the protocol, the
/// command line): a whole number from 0 to 2**64 - 1 (an `int`, or any integer type with
/// `__index__` but `bool`). A value of another type raises `TypeError`, a whole number out
/// of range `InvalidSeedError`; both messages say the range.
pub fn extract_seed(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let message = || {
        format!(
            "{what} must be a whole number from 0 to 2**64 - 1, got {}",
            describe(obj)
        )
    };
    // An `int` first: looking up `__index__` costs more than the rest of a new `Deal`.
    if obj.is_exact_instance_of::<PyInt>() {
        return obj
            .extract::<u64>()
            .map_err(|_| InvalidSeedError::new_err(message()));
    }
    if obj.is_instance_of::<PyBool>() || !obj.hasattr(intern!(obj.py(), "__index__"))? {
        return Err(PyTypeError::new_err(message()));
    }
    obj.extract::<u64>()
        .map_err(|_| InvalidSeedError::new_err(message()))
}

/// `seed` checked as every seed is ([`extract_seed`]), as an `int`.
#[pyfunction]
fn check_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    extract_seed(seed, "seed")
}

/// `cards` shuffled with `seed` (`ChaCha8Rng`, see the docs); a new list.
#[pyfunction]
fn shuffled(cards: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    let seed = extract_seed(seed, "seed")?;
    let mut cards = extract_cards(cards)?;
    rng::shuffle_with_seed(&mut cards, seed);
    Ok(to_py(cards))
}

/// The seed of child `index` of `seed` (`ChaCha8Rng` stream `index`, first output): how a
/// match seeds its deals.
#[pyfunction]
fn derive_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(rng::derive_seed(
        extract_seed(seed, "seed")?,
        extract_u64(index, "index")?,
    ))
}

/// The engine's generator (`ChaCha8`, seeded as every ecarte stream is): for the few draws
/// Python makes itself, such as a simulated punter's choices.
#[pyclass(name = "Stream", module = "ecarte")]
#[derive(Clone)]
pub struct PyStream {
    seed: u64,
    rng: GameRng,
}

#[pymethods]
impl PyStream {
    /// The stream of `seed`, `drawn` words in.
    #[new]
    #[pyo3(signature = (seed, drawn = None))]
    fn new(seed: &Bound<'_, PyAny>, drawn: Option<&Bound<'_, PyAny>>) -> PyResult<PyStream> {
        let seed = extract_seed(seed, "seed")?;
        let mut rng = rng_from_seed(seed);
        if let Some(drawn) = drawn.filter(|d| !d.is_none()) {
            let words = int_in(drawn, "drawn (words)", 0, i128::from(u64::MAX))?;
            rng.set_word_pos(words as u128);
        }
        Ok(PyStream { seed, rng })
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// A whole number from 0 to `n - 1` (`n` from 1 to 2**32 - 1), as the engine draws.
    fn below(&mut self, n: &Bound<'_, PyAny>) -> PyResult<u32> {
        let n = int_in(n, "n", 1, i128::from(u32::MAX))?;
        Ok(self.rng.below(n as u32))
    }
    /// The next 64-bit word.
    fn next_u64(&mut self) -> u64 {
        use rand::Rng;
        self.rng.next_u64()
    }
    /// An item of `items` (a sequence), uniformly.
    fn choice<'py>(&mut self, items: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let n = items.len()?;
        if n == 0 || n > u32::MAX as usize {
            return Err(EcarteError::new_err(format!(
                "choice needs from 1 to {} items, got {n}",
                u32::MAX
            )));
        }
        items.get_item(self.rng.below(n as u32))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (u64, u128)) {
        let me = slf.borrow();
        (slf.get_type().into_any(), (me.seed, me.rng.get_word_pos()))
    }
    fn __repr__(&self) -> String {
        format!("Stream(seed={})", self.seed)
    }
}

/// The seed of a punter's shuffle that names none, after `deals` deals at the bank table
/// with seed `table_seed`.
#[pyfunction]
fn punter_shuffle_seed(table_seed: &Bound<'_, PyAny>, deals: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(rng::punter_shuffle_seed(
        extract_seed(table_seed, "seed")?,
        extract_u64(deals, "deals")?,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStream>()?;
    m.add_function(wrap_pyfunction!(check_seed, m)?)?;
    m.add_function(wrap_pyfunction!(shuffled, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(punter_shuffle_seed, m)?)?;
    Ok(())
}
