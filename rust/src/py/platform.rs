//! What a benchmark reports about the build and the machine: the git commit the engine was
//! built from and the instruction sets its fast paths use.

use pyo3::prelude::*;

use crate::cpu;

/// The instruction sets the engine's fast paths use in this process (none under
/// `ECARTE_PORTABLE=1`), or with `available=True` those the CPU has, whatever
/// `ECARTE_PORTABLE` says.
#[pyfunction]
#[pyo3(signature = (*, available = false))]
fn cpu_features(available: bool) -> Vec<&'static str> {
    let features = if available {
        cpu::on_this_cpu()
    } else {
        cpu::features()
    };
    features.names()
}

/// Whether `ECARTE_PORTABLE=1` is set, which turns every fast path off.
#[pyfunction]
fn portable_mode() -> bool {
    cpu::portable_requested()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BUILD_COMMIT", option_env!("ECARTE_GIT_COMMIT"))?;
    m.add(
        "BUILD_DIRTY",
        option_env!("ECARTE_GIT_DIRTY").map(|flag| flag == "1"),
    )?;
    m.add_function(wrap_pyfunction!(cpu_features, m)?)?;
    m.add_function(wrap_pyfunction!(portable_mode, m)?)?;
    Ok(())
}
