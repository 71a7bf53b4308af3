//! The Russian banking game (docs/rules.md, "Bank").
//!
//! - [`resolve`]: one punter tableau against the banker's (only trumps count).
//! - `shoe`: the 104-card shoe, its discard pile, the punter's shuffle and run-outs.
//! - [`odds`]: exact outcome probabilities by a dynamic programme over trump-rank counts.
//! - [`simulate`]: Monte Carlo of whole deals, parallel and deterministic.
//! - `record`: a deal's and a resolution's JSON records.

pub(crate) mod error;
pub(crate) mod odds;
pub(crate) mod record;
pub(crate) mod resolve;
pub(crate) mod shoe;
pub(crate) mod simulate;

#[cfg(test)]
mod tests;

pub use error::BankError;
pub use odds::{odds, Composition, Odds};
pub use resolve::{resolve, resolve_counts, Outcome, Resolution, TABLEAU_SIZE};
pub use shoe::{Deal, Shoe, DEAL_SIZE, SHOE_SIZE};
pub use simulate::{simulate, Simulation};
