//! Why an action was refused, for Python: `Reason`, and the `IllegalActionError` that
//! carries it.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::action::{extract_action, extract_action_or_list_legal, PyAction};
use super::card::{card_style, extract_cards, to_py, PyCard};
use super::errors::{
    describe, text, EcarteError, IllegalActionError, InvalidDeckError, InvalidRecordError,
    InvalidRulesError,
};
use crate::card::Suit;
use crate::duel::{Action, DealState, DuelError, Phase, Reason, ReasonCode, Refusal};

/// Why an action was refused: a stable `code` (`REASON_CODES`), the `action`, the `cards`
/// and `suit` involved, the `phase` it was refused in, and `text(style)`, the reason in one
/// line with its cards written in a card style.
#[pyclass(name = "Reason", module = "ecarte.duel", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyReason(pub Reason);

#[pymethods]
impl PyReason {
    /// A reason from its parts, as `__reduce__` gives them (the engine makes the reasons of
    /// its refusals itself): `code` one of `REASON_CODES`, `phase` a phase name.
    #[new]
    #[pyo3(signature = (code, action = None, cards = None, suit = None, phase = None))]
    fn new(
        code: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
        cards: Option<&Bound<'_, PyAny>>,
        suit: Option<Suit>,
        phase: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyReason> {
        let code = ReasonCode::from_name(&text(code, "code")?).ok_or_else(|| {
            EcarteError::new_err(format!(
                "code must be one of REASON_CODES, got {}",
                describe(code)
            ))
        })?;
        let action = action
            .filter(|a| !a.is_none())
            .map(extract_action)
            .transpose()?;
        let cards = cards
            .filter(|c| !c.is_none())
            .map(extract_cards)
            .transpose()?
            .unwrap_or_default();
        if cards.len() > 2 {
            return Err(EcarteError::new_err("a reason involves two cards at most"));
        }
        let phase = match phase.filter(|p| !p.is_none()) {
            None => None,
            Some(p) => Some(
                Phase::from_name(&text(p, "phase")?)
                    .ok_or_else(|| EcarteError::new_err(format!("not a phase: {}", describe(p))))?,
            ),
        };
        Ok(PyReason(Reason {
            code,
            action,
            cards,
            suit,
            phase,
        }))
    }
    /// The stable code, one of `REASON_CODES` (e.g. `"must_follow"`).
    #[getter]
    fn code(&self) -> &'static str {
        self.0.code.name()
    }
    /// The refused action; `None` for an id that names no action.
    #[getter]
    fn action(&self) -> Option<PyAction> {
        self.0.action.map(PyAction)
    }
    /// The cards involved: the card tried; for `must_follow` and `must_trump`, that card and
    /// the card led.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, to_py(self.0.cards.iter().copied()))
    }
    /// The suit involved: the suit to follow, the trump to play or to keep; else `None`.
    #[getter]
    fn suit(&self) -> Option<Suit> {
        self.0.suit
    }
    /// The phase of the deal when the action was refused, if one was looked at.
    #[getter]
    fn phase(&self) -> Option<&'static str> {
        self.0.phase.map(Phase::name)
    }
    /// The reason in one line, its cards written in `style`: `"symbols"` (the default: "you
    /// have no ♥, so you must trump (♦)"), `"ascii"` ("you hold no 10H") or `"code"`.
    #[pyo3(signature = (style = None))]
    fn text(&self, style: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        Ok(self.0.sentence(card_style(style)?))
    }
    fn __str__(&self) -> String {
        self.0.sentence(crate::card::CardStyle::Symbols)
    }
    fn __repr__(&self) -> String {
        format!("<Reason {}: {}>", self.0.code.name(), self.__str__())
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, ReasonParts) {
        let r = &slf.get().0;
        let cards = r.cards.iter().map(ToString::to_string).collect();
        let parts = (
            r.code.name(),
            r.action.map(|a| a.to_string()),
            cards,
            r.suit,
            r.phase.map(Phase::name),
        );
        (slf.get_type().into_any(), parts)
    }
}

/// A reason's constructor arguments: code, action, cards, suit and phase, as text.
type ReasonParts = (
    &'static str,
    Option<String>,
    Vec<String>,
    Option<Suit>,
    Option<&'static str>,
);

/// The `IllegalActionError` of a refusal: its message names the action, the reason and the
/// legal actions; its attributes are the reason's parts (`reason`, `code`, `action`,
/// `legal`, `cards`, `suit`).
pub fn illegal_action_error(refusal: &Refusal) -> PyErr {
    let err = IllegalActionError::new_err(refusal.to_string());
    Python::attach(|py| {
        let value = err.value(py).clone();
        let reason = &refusal.reason;
        let legal = refusal.legal.iter().copied().map(PyAction);
        let attached = (|| -> PyResult<()> {
            value.setattr("reason", PyReason(reason.clone()))?;
            value.setattr("code", reason.code.name())?;
            value.setattr("action", reason.action.map(PyAction))?;
            value.setattr("legal", PyTuple::new(py, legal)?)?;
            value.setattr(
                "cards",
                PyTuple::new(py, to_py(reason.cards.iter().copied()))?,
            )?;
            value.setattr("suit", reason.suit)
        })();
        match attached {
            Ok(()) => err,
            Err(failed) => failed,
        }
    })
}

/// A duel error as the Python exception of its kind: a refusal as `IllegalActionError`
/// with its reason's attributes ([`illegal_action_error`]).
impl From<DuelError> for PyErr {
    fn from(e: DuelError) -> PyErr {
        let msg = e.to_string();
        match e {
            DuelError::IllegalAction(refusal) => illegal_action_error(&refusal),
            DuelError::InvalidBatch { .. } => EcarteError::new_err(msg),
            DuelError::InvalidDeck(_) | DuelError::InvalidDealer(_) => {
                InvalidDeckError::new_err(msg)
            }
            DuelError::InvalidRules(_) => InvalidRulesError::new_err(msg),
            DuelError::InvalidRecord(_) => InvalidRecordError::new_err(msg),
        }
    }
}

/// The action `obj` names for `state`: `InvalidActionError` if it names none, and
/// `IllegalActionError` with its reason if it is not legal now.
pub fn extract_legal_action(state: &DealState, obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let action = extract_action_or_list_legal(state, obj)?;
    match state.refusal(None, action) {
        Some(refusal) => Err(illegal_action_error(&refusal)),
        None => Ok(action),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyReason>()?;
    let codes = ReasonCode::ALL.map(ReasonCode::name);
    m.add("REASON_CODES", PyTuple::new(m.py(), codes)?)?;
    Ok(())
}

/// `IllegalActionError`'s attributes where an error carries no reason (one raised from
/// Python, or an agent given no legal action): `None` and empty tuples.
pub fn register_error_defaults(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let error = py.get_type::<IllegalActionError>();
    for name in ["reason", "code", "action", "suit"] {
        error.setattr(name, py.None())?;
    }
    let empty: [PyCard; 0] = [];
    for name in ["legal", "cards"] {
        error.setattr(name, PyTuple::new(py, empty)?)?;
    }
    Ok(())
}
