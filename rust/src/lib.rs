//! ecarte: a fast, faithful engine for the card game écarté.
//!
//! The engine modules know nothing of Python; the bindings live in `py` behind the
//! `python` feature, which maturin turns on.

pub mod bank;
pub mod card;
pub mod duel;
#[cfg(feature = "python")]
mod py;
pub mod solver;
