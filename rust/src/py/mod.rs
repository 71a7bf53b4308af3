//! The Python bindings: thin wrappers that convert at the boundary and call the engine.
//! Every error that can reach Python is a typed `EcarteError`; no panic may cross over.

// PyO3 methods take `&self` whatever the size of the class.
#![allow(clippy::trivially_copy_pass_by_ref)]

use pyo3::prelude::*;

mod bank;
mod batch;
mod card;
mod duel;
pub mod errors;
mod solver;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    card::register(m)?;
    duel::register(m)?;
    bank::register(m)?;
    batch::register(m)?;
    solver::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
