//! The two-player game with exchanges and a drawing talon (docs/rules.md, "Duel").

pub mod action;
pub mod deck;
pub mod error;
pub mod frame;
pub mod matches;
pub mod observe;
pub mod record;
#[cfg(test)]
mod referee;
pub mod refusal;
pub mod result;
pub mod rules;
pub mod state;
#[cfg(test)]
mod tests;
pub mod turn;

pub use action::{Action, NUM_ACTIONS, PACK_SIZE};
pub use error::DuelError;
pub use frame::Frame;
pub use matches::Match;
pub use matches::MatchScore;
pub use observe::{
    compact_in_range, expand_compact, Compact, Observation, COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE,
};
pub use record::{DealRecord, MatchRecord};
pub use refusal::{Reason, ReasonCode, Refusal};
pub use result::MatchResult;
pub use rules::{Order, Rules};
pub use state::{DealState, Outcome, Trick};
pub use turn::{Phase, Turn};
