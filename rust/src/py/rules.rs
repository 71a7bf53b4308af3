//! The duel's rule options for Python: `Rules`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::{int_u8, parse_record, text, InvalidRecordError, InvalidRulesError};
use crate::duel::{DuelError, Order, Rules};

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
    pub(crate) fn __repr__(&self) -> String {
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

pub(super) fn rules_or_default(rules: Option<PyRules>) -> Rules {
    rules.map_or_else(Rules::default, |r| r.0)
}
