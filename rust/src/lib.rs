//! ecarte: a fast, faithful engine for the card game écarté.
//!
//! Layers, each using only those above it: the CPU's optional instructions (`cpu`); the
//! random streams (`rng`), what every JSON record shares (`record`) and the caller's hold on
//! a long run (`control`); the rules (`card`, `duel`, `bank`); the search (`solver`); agents
//! and batch play (`play`); the analysis of deals played (`analysis`). The engine knows
//! nothing of Python; the bindings live in `py` behind the `python` feature, which maturin
//! turns on.

pub mod analysis;
pub mod bank;
pub mod card;
pub mod control;
pub mod cpu;
pub mod duel;
pub mod play;
#[cfg(feature = "python")]
mod py;
pub mod record;
pub mod rng;
pub mod solver;
