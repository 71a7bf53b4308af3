//! The two-player game with exchanges and a drawing talon (RULES.md, "Variant 1 — duel").

pub mod action;
pub mod observe;
pub mod policy;
pub mod record;
pub mod rules;
pub mod scoring;
pub mod simulate;
pub mod state;
#[cfg(test)]
mod tests;
pub mod vecenv;

pub use action::{Action, NUM_ACTIONS, PACK_SIZE};
pub use observe::{Observation, OBSERVATION_SIZE};
pub use record::DealRecord;
pub use rules::{Order, Rules};
pub use scoring::MatchScore;
pub use state::{DealState, DuelError, Outcome, Phase, Trick};
