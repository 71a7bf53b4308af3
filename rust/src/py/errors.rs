//! The exception hierarchy: `EcarteError(ValueError)` and one subclass per kind of bad input.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::duel::DuelError;

create_exception!(
    ecarte,
    EcarteError,
    PyValueError,
    "Base of every error ecarte raises for bad input; a ValueError."
);
create_exception!(
    ecarte,
    InvalidCardError,
    EcarteError,
    "Text or value that is not a card."
);
create_exception!(
    ecarte,
    IllegalActionError,
    EcarteError,
    "An action that is not legal in the current state; the state is unchanged."
);
create_exception!(
    ecarte,
    InvalidRulesError,
    EcarteError,
    "Rule options out of range."
);
create_exception!(
    ecarte,
    InvalidDeckError,
    EcarteError,
    "A deck or shoe that is not a full, valid pack, or a bad dealer."
);
create_exception!(
    ecarte,
    InvalidRecordError,
    EcarteError,
    "A malformed or tampered JSON record."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("EcarteError", py.get_type::<EcarteError>())?;
    m.add("InvalidCardError", py.get_type::<InvalidCardError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("InvalidRulesError", py.get_type::<InvalidRulesError>())?;
    m.add("InvalidDeckError", py.get_type::<InvalidDeckError>())?;
    m.add("InvalidRecordError", py.get_type::<InvalidRecordError>())?;
    Ok(())
}

impl From<DuelError> for PyErr {
    fn from(e: DuelError) -> PyErr {
        let msg = e.to_string();
        match e {
            DuelError::IllegalAction { .. } => IllegalActionError::new_err(msg),
            DuelError::InvalidDeck(_) | DuelError::InvalidDealer(_) => {
                InvalidDeckError::new_err(msg)
            }
            DuelError::InvalidRules(_) => InvalidRulesError::new_err(msg),
            DuelError::InvalidRecord(_) => InvalidRecordError::new_err(msg),
        }
    }
}

/// A whole number in `0..=u64::MAX` (a seed, a count), or an `EcarteError` naming `what`
/// and the value: never an `OverflowError` or a silently truncated value.
pub fn extract_u64(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(EcarteError::new_err(format!(
            "{what} must be a whole number, got a bool"
        )));
    }
    obj.extract::<u64>().map_err(|_| {
        EcarteError::new_err(format!(
            "{what} must be a whole number from 0 to 2**64 - 1, got {}",
            describe(obj)
        ))
    })
}

/// `repr(obj)` for an error message (`?` if even that fails).
pub fn describe(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string())
}
