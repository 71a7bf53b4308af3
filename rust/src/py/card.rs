//! `Card`, `Suit` and `Rank` for Python, and the conversions other bindings use.

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::errors::{EcarteError, InvalidCardError};
use crate::card::{self, Card, CardStyle, Rank, Suit};

/// A playing card: frozen, hashable, ordered by suit (C, D, H, S) then rank (2 to A).
#[pyclass(
    name = "Card",
    module = "ecarte",
    frozen,
    eq,
    ord,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyCard(pub Card);

type VariantReduce<'py> = (Bound<'py, PyAny>, (Bound<'py, PyAny>, String));

/// Pickles an enum member as `getattr(its class, its name)`.
fn reduce_variant<'py>(member: &Bound<'py, PyAny>) -> PyResult<VariantReduce<'py>> {
    let repr = member.repr()?.to_string();
    let name = repr.rsplit('.').next().unwrap_or_default().to_string();
    let getattr = member.py().import("builtins")?.getattr("getattr")?;
    Ok((getattr, (member.get_type().into_any(), name)))
}

#[pymethods]
impl Suit {
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<VariantReduce<'py>> {
        reduce_variant(slf.as_any())
    }
    /// The suit's letter: C, D, H or S.
    #[getter(letter)]
    fn py_letter(&self) -> char {
        self.letter()
    }
    /// The suit's symbol: ♣ ♦ ♥ ♠.
    #[getter(symbol)]
    fn py_symbol(&self) -> char {
        self.symbol()
    }
    /// Parses a letter (either case) or a symbol.
    #[staticmethod]
    #[pyo3(name = "parse")]
    fn py_parse(text: &Bound<'_, PyAny>) -> PyResult<Suit> {
        let text = card_text(text)?;
        let mut chars = text.trim().chars();
        match (chars.next().and_then(Suit::from_char), chars.next()) {
            (Some(s), None) => Ok(s),
            _ => Err(InvalidCardError::new_err(format!(
                "invalid suit {text:?}: expected C, D, H, S or ♣ ♦ ♥ ♠"
            ))),
        }
    }
    /// The suit written in `style`: `"symbols"` (♥), `"ascii"` or `"code"` (H).
    #[pyo3(name = "text", signature = (style = None))]
    fn py_text(&self, style: Option<&Bound<'_, PyAny>>) -> PyResult<&'static str> {
        Ok(self.text(card_style(style)?))
    }
    fn __str__(&self) -> String {
        self.letter().to_string()
    }
}

#[pymethods]
impl Rank {
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<VariantReduce<'py>> {
        reduce_variant(slf.as_any())
    }
    /// The rank's letter: 2-9, T, J, Q, K or A.
    #[getter(letter)]
    fn py_letter(&self) -> char {
        self.letter()
    }
    /// Parses 2-9, T or 10, J, Q, K, A in either case.
    #[staticmethod]
    #[pyo3(name = "parse")]
    fn py_parse(text: &Bound<'_, PyAny>) -> PyResult<Rank> {
        let text = card_text(text)?;
        Rank::from_text(text.trim()).ok_or_else(|| {
            InvalidCardError::new_err(format!(
                "invalid rank {text:?}: expected 2-9, T or 10, J, Q, K, A"
            ))
        })
    }
    fn __str__(&self) -> String {
        self.letter().to_string()
    }
}

/// A card style argument: `"code"`, `"symbols"` (`None`) or `"ascii"`; `EcarteError` for
/// anything else.
pub fn card_style(style: Option<&Bound<'_, PyAny>>) -> PyResult<CardStyle> {
    let Some(style) = style.filter(|s| !s.is_none()) else {
        return Ok(CardStyle::Symbols);
    };
    let name = super::errors::text(style, "style")?;
    CardStyle::from_name(&name).ok_or_else(|| {
        EcarteError::new_err(format!(
            "style must be 'code', 'symbols' or 'ascii', got {}",
            super::errors::describe(style)
        ))
    })
}

/// The text of a card, suit or rank argument; `InvalidCardError` for anything else.
fn card_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    super::errors::text(obj, "a card's text")
        .map_err(|e| InvalidCardError::new_err(e.value(obj.py()).to_string()))
}

pub fn parse_card(text: &str) -> PyResult<Card> {
    text.parse::<Card>()
        .map_err(|e| InvalidCardError::new_err(e.to_string()))
}

/// A `Card` or the text of one.
pub fn extract_card(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.extract::<PyCard>() {
        return Ok(c.0);
    }
    if obj.is_instance_of::<PyString>() {
        return parse_card(&card_text(obj)?);
    }
    Err(InvalidCardError::new_err(format!(
        "expected a Card or a card's text such as 'QH', got {}",
        super::errors::describe(obj)
    )))
}

/// A list of cards from any iterable of `Card`s or texts.
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(extract_card(&item?)?);
    }
    Ok(out)
}

pub fn to_py(cards: impl IntoIterator<Item = Card>) -> Vec<PyCard> {
    cards.into_iter().map(PyCard).collect()
}

#[pymethods]
impl PyCard {
    /// `Card("QH")`, `Card("q♥")`, `Card("10S")`, or `Card(rank, suit)`.
    #[new]
    #[pyo3(signature = (text_or_rank, suit = None))]
    fn new(text_or_rank: &Bound<'_, PyAny>, suit: Option<Suit>) -> PyResult<PyCard> {
        match suit {
            None => extract_card(text_or_rank).map(PyCard),
            Some(s) => {
                let rank = match text_or_rank.extract::<Rank>() {
                    Ok(r) => r,
                    Err(_) => Rank::py_parse(text_or_rank)?,
                };
                Ok(PyCard(Card::new(rank, s)))
            }
        }
    }

    /// Parses any accepted text form: rank (2-9, T or 10, J, Q, K, A) then suit
    /// (C, D, H, S or ♣ ♦ ♥ ♠), in either case.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<PyCard> {
        parse_card(&card_text(text)?).map(PyCard)
    }

    /// The card with id `suit * 13 + rank` (0-51).
    #[staticmethod]
    fn from_id(id: &Bound<'_, PyAny>) -> PyResult<PyCard> {
        super::errors::int_in(id, "a card id", 0, 51)
            .ok()
            .and_then(|id| Card::from_id(id as usize))
            .map(PyCard)
            .ok_or_else(|| {
                InvalidCardError::new_err(format!(
                    "card id must be 0-51, got {}",
                    super::errors::describe(id)
                ))
            })
    }

    #[getter]
    fn rank(&self) -> Rank {
        self.0.rank()
    }
    #[getter]
    fn suit(&self) -> Suit {
        self.0.suit()
    }
    /// `suit * 13 + rank`, 0-51.
    #[getter]
    fn id(&self) -> usize {
        self.0.id()
    }
    /// The card with its suit symbol, the ten written 10: `Q♥`, `10♠` (`text("symbols")`).
    fn pretty(&self) -> String {
        self.0.pretty()
    }
    /// The card written in `style`: `"symbols"` for people (`10♥`, the default), `"ascii"`
    /// for people without the symbols (`10H`), `"code"` for programs (`TH`, as `str()`).
    #[pyo3(signature = (style = None))]
    fn text(&self, style: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        Ok(self.0.text(card_style(style)?))
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String,)) {
        (slf.get_type().into_any(), (slf.get().0.to_string(),))
    }
}

/// The 32-card duel pack (7 to A of each suit) in suit-then-rank order.
#[pyfunction]
fn duel_pack() -> Vec<PyCard> {
    to_py(card::piquet_pack())
}

/// The 52-card pack in suit-then-rank order.
#[pyfunction]
fn full_pack() -> Vec<PyCard> {
    to_py(card::full_pack())
}

/// The 104-card bank shoe: the 52-card pack twice.
#[pyfunction]
fn shoe_pack() -> Vec<PyCard> {
    to_py(card::shoe_pack())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_class::<Suit>()?;
    m.add_class::<Rank>()?;
    m.add_function(wrap_pyfunction!(duel_pack, m)?)?;
    m.add_function(wrap_pyfunction!(full_pack, m)?)?;
    m.add_function(wrap_pyfunction!(shoe_pack, m)?)?;
    Ok(())
}
