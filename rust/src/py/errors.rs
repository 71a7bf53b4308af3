//! The exception hierarchy: `EcarteError(ValueError)` and one subclass per kind of bad input.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::record::json_error;

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
    InvalidActionError,
    EcarteError,
    "Text, an id or a value that names no action (not legal or illegal: not an action)."
);
create_exception!(
    ecarte,
    IllegalActionError,
    EcarteError,
    "A well-formed action that is not legal in the current state; the state is unchanged."
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

create_exception!(
    ecarte,
    InvalidSeedError,
    EcarteError,
    "A seed that is a whole number out of range: seeds are from 0 to 2**64 - 1."
);

create_exception!(
    ecarte,
    InvalidStakeError,
    EcarteError,
    "A stake that is zero, negative, fractional, over a limit, on T1 or beyond the player's chips."
);
create_exception!(
    ecarte,
    TableError,
    EcarteError,
    "An action out of turn or in the wrong phase, or an unknown player; the table is unchanged."
);
create_exception!(
    ecarte,
    InvalidShoeError,
    EcarteError,
    "An impossible shoe state: a card more than twice, a removed card not in the shoe, too few cards."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("EcarteError", py.get_type::<EcarteError>())?;
    m.add("InvalidCardError", py.get_type::<InvalidCardError>())?;
    m.add("InvalidActionError", py.get_type::<InvalidActionError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("InvalidRulesError", py.get_type::<InvalidRulesError>())?;
    m.add("InvalidDeckError", py.get_type::<InvalidDeckError>())?;
    m.add("InvalidRecordError", py.get_type::<InvalidRecordError>())?;
    m.add("InvalidSeedError", py.get_type::<InvalidSeedError>())?;
    m.add("InvalidStakeError", py.get_type::<InvalidStakeError>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("InvalidShoeError", py.get_type::<InvalidShoeError>())?;
    Ok(())
}

/// A whole number in `0..=u64::MAX` (a count or an index; a seed is
/// [`super::rng::extract_seed`]'s), or an `EcarteError` naming `what` and the value: never an
/// `OverflowError` or a silently truncated value.
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

/// The largest batch one `simulate` call runs (deals or matches): its columns then take
/// under 200 MB. Longer runs go in pieces with `start`.
pub const MAX_BATCH: usize = 10_000_000;
/// The most envs in a `VecEnv`: its float32 observations then take under 1 GiB.
pub const MAX_ENVS: usize = 1 << 20;
/// The most worlds per call of the sampler or per search decision (the one limit,
/// [`crate::play::policy::MAX_SAMPLES`]).
pub const MAX_SAMPLES: usize = crate::play::policy::MAX_SAMPLES as usize;
/// The most threads a call may ask for.
pub const MAX_THREADS: usize = 256;

/// The limits above, for `ecarte` to export and document.
pub fn register_limits(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_BATCH", MAX_BATCH)?;
    m.add("MAX_ENVS", MAX_ENVS)?;
    m.add("MAX_SAMPLES", MAX_SAMPLES)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}

/// A whole number in `lo..=hi` named `what`, or an `EcarteError` that shows the value:
/// never an `OverflowError`, whatever the size of the int passed.
pub fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let out_of_range = || {
        EcarteError::new_err(format!(
            "{what} must be a whole number from {lo} to {hi}, got {}",
            describe(obj)
        ))
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(out_of_range());
    }
    obj.extract::<i128>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(out_of_range)
}

/// [`int_in`] for a `u8`.
pub fn int_u8(obj: &Bound<'_, PyAny>, what: &str, lo: u8, hi: u8) -> PyResult<u8> {
    int_in(obj, what, lo.into(), hi.into()).map(|v| v as u8)
}

/// [`int_in`] for a count or size (`n`, `threads`, `samples`) of at most `hi`.
pub fn int_usize(obj: &Bound<'_, PyAny>, what: &str, lo: usize, hi: usize) -> PyResult<usize> {
    int_in(obj, what, lo as i128, hi as i128).map(|v| v as usize)
}

/// The text of a `str` argument named `what`; an `EcarteError` for anything else,
/// including a string that is not valid Unicode (a lone surrogate).
pub fn text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<pyo3::types::PyString>().map_err(|_| {
        EcarteError::new_err(format!("{what} must be a str, got {}", describe(obj)))
    })?;
    s.to_str().map(str::to_owned).map_err(|_| {
        EcarteError::new_err(format!(
            "{what} is not valid Unicode text: {}",
            describe(obj)
        ))
    })
}

/// The two items of a pair argument (a tuple, a list, any iterable of two) named `what`.
pub fn pair<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<[Bound<'py, PyAny>; 2]> {
    let items: Option<Vec<Bound<'py, PyAny>>> = obj
        .try_iter()
        .and_then(Iterator::collect::<PyResult<Vec<_>>>)
        .ok();
    match items.map(<[_; 2]>::try_from) {
        Some(Ok(two)) => Ok(two),
        _ => Err(EcarteError::new_err(format!(
            "{what} must be a pair, got {}",
            describe(obj)
        ))),
    }
}

/// The text of a JSON record argument named `what` ("a deal record"): `TypeError` for
/// anything but a `str`, `InvalidRecordError` for a `str` that is not valid Unicode (a lone
/// surrogate).
pub fn record_text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let text = obj.cast::<pyo3::types::PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} is JSON text (a str), got {}",
            describe(obj)
        ))
    })?;
    text.to_str().map(str::to_owned).map_err(|_| {
        InvalidRecordError::new_err(format!(
            "{what} is not valid Unicode text: it holds a lone surrogate"
        ))
    })
}

/// One record format: the record's `format` field, the variant it belongs to (`None`: every
/// variant's), what a record of it is in words, and the class whose `from_json` reads it.
pub struct RecordFormat {
    /// The record's `format` field.
    pub format: &'static str,
    /// The variant whose record it is; `None` for every variant's.
    pub variant: Option<&'static str>,
    /// What a record of this format is: "a duel deal record".
    pub description: &'static str,
    /// The public Python class whose `from_json` reads it: `ecarte.duel.Deal`.
    pub reader: &'static str,
}

/// The one table of record formats, the engine's and those Python writes (an arena's
/// result, a bank session, a simulation's result): `ecarte.registry` reads it as
/// `ecarte._core.RECORD_FORMATS`, and a reader given a record of another format names the
/// one to use from it ([`with_reader`]).
pub const RECORD_FORMATS: [RecordFormat; 9] = [
    RecordFormat {
        format: crate::duel::record::RECORD_FORMAT,
        variant: Some("duel"),
        description: "a duel deal record",
        reader: "ecarte.duel.Deal",
    },
    RecordFormat {
        format: crate::duel::record::MATCH_FORMAT,
        variant: Some("duel"),
        description: "a duel match record",
        reader: "ecarte.duel.Match",
    },
    RecordFormat {
        format: crate::duel::result::RESULT_FORMAT,
        variant: Some("duel"),
        description: "a duel match's result",
        reader: "ecarte.duel.MatchResult",
    },
    RecordFormat {
        format: crate::solver::record::SOLUTION_FORMAT,
        variant: Some("duel"),
        description: "a solver's solution",
        reader: "ecarte.duel.Solution",
    },
    RecordFormat {
        format: crate::play::opponent_record::ENV_FORMAT,
        variant: Some("duel"),
        description: "a vector env against an agent",
        reader: "ecarte.duel.OpponentVecEnv",
    },
    RecordFormat {
        format: "ecarte.arena.result",
        variant: Some("duel"),
        description: "an arena's result",
        reader: "ecarte.arena.ArenaResult",
    },
    RecordFormat {
        format: crate::bank::record::DEAL_FORMAT,
        variant: Some("bank"),
        description: "a bank deal record",
        reader: "ecarte.bank.Deal",
    },
    RecordFormat {
        format: "ecarte.bank.session",
        variant: Some("bank"),
        description: "a banking session record",
        reader: "ecarte.bank.Table",
    },
    RecordFormat {
        format: "ecarte.simulation",
        variant: None,
        description: "a simulation's result",
        reader: "ecarte.results.SimulationResult",
    },
];

/// What a record of `format` is and the call that reads it, from [`RECORD_FORMATS`]:
/// `this is a duel match record: read it with ecarte.duel.Match.from_json`; `None` for a
/// format that is not in the table.
#[pyfunction]
pub fn reader_hint(format: &str) -> Option<String> {
    RECORD_FORMATS
        .iter()
        .find(|row| row.format == format)
        .map(|row| {
            format!(
                "this is {}: read it with {}.from_json",
                row.description, row.reader
            )
        })
}

/// `err`, a record refused by the reader of `expected`, with what the record `text` is and
/// the call that reads it when it names another format of [`RECORD_FORMATS`]: `...; this is
/// a duel match record: read it with ecarte.duel.Match.from_json`.
pub fn with_reader(err: PyErr, text: &str, expected: &str) -> PyErr {
    let Some(hint) = crate::record::named_format(text)
        .filter(|named| named != expected)
        .and_then(|named| reader_hint(&named))
    else {
        return err;
    };
    Python::attach(|py| {
        let message = err.value(py).to_string();
        InvalidRecordError::new_err(format!("{message}; {hint}"))
    })
}

/// The table of record formats as `ecarte._core.RECORD_FORMATS`, rows of `(format, variant,
/// description, reader)`, and [`reader_hint`].
pub fn register_formats(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let rows: Vec<_> = RECORD_FORMATS
        .iter()
        .map(|row| (row.format, row.variant, row.description, row.reader))
        .collect();
    m.add("RECORD_FORMATS", pyo3::types::PyTuple::new(m.py(), rows)?)?;
    m.add_function(wrap_pyfunction!(reader_hint, m)?)?;
    Ok(())
}

/// Parses a JSON record of a value; `InvalidRecordError` if it is not one.
pub fn parse_record<T: serde::de::DeserializeOwned>(
    record: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    let text = record_text(record, &format!("a {what} record"))?;
    serde_json::from_str(&text).map_err(|e| {
        InvalidRecordError::new_err(format!("invalid {what} record: {}", json_error(&text, &e)))
    })
}
