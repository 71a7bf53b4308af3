//! The Python bindings: thin wrappers that convert at the boundary and call the engine.
//! Every error that can reach Python is a typed `EcarteError`; no panic may cross over.

// PyO3 methods take `&self` whatever the size of the class.
#![allow(clippy::trivially_copy_pass_by_ref)]
// Python's names: `to_json(self)` on frozen values, whatever their Rust size.
#![allow(clippy::wrong_self_convention)]

use pyo3::prelude::*;

mod action;
mod agents;
mod analysis;
mod arrays;
mod bank;
mod card;
mod deal;
pub mod errors;
mod frame;
mod interrupt;
mod matches;
mod observe;
mod opponent;
mod platform;
mod refusal;
mod rng;
mod rules;
mod run;
mod simulate;
mod solver;
mod threads;
mod vecenv;

/// `ecarte._core`: cards, seeds and errors; the variants in the submodules `duel` and
/// `bank`, whose names are those of the public `ecarte.duel` and `ecarte.bank`.
///
/// `gil_used`: some calls write `NumPy` memory that other Python threads can reach
/// (`VecEnv` steps, `observation_tensor(out=)`) or read arrays they could be writing (the
/// decoders), safe only while the GIL serialises them; a free-threaded interpreter keeps
/// the GIL on when it imports this module (docs/api.md, "Threads").
#[pymodule(gil_used = true)]
#[pyo3(name = "_core")]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // First, so that no later call loads it while a signal is pending.
    arrays::load_numpy_api(m.py())?;
    errors::register(m)?;
    refusal::register_error_defaults(m)?;
    errors::register_limits(m)?;
    errors::register_formats(m)?;
    card::register(m)?;
    rng::register(m)?;
    platform::register(m)?;
    let duel = submodule(m, "duel")?;
    deal::register(&duel)?;
    refusal::register(&duel)?;
    matches::register(&duel)?;
    agents::register(&duel)?;
    simulate::register(&duel)?;
    vecenv::register(&duel)?;
    opponent::register(&duel)?;
    run::register(&duel)?;
    solver::register(&duel)?;
    analysis::register(&duel)?;
    bank::register(&submodule(m, "bank")?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// A submodule importable as `ecarte._core.<name>`.
fn submodule<'py>(parent: &Bound<'py, PyModule>, name: &str) -> PyResult<Bound<'py, PyModule>> {
    let py = parent.py();
    let full = format!("ecarte._core.{name}");
    let module = PyModule::new(py, &full)?;
    parent.add(name, &module)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item(full, &module)?;
    Ok(module)
}
