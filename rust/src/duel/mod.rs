//! The two-player game with exchanges and a drawing talon (docs/rules.md, "Duel").

pub(crate) mod action;
pub(crate) mod deck;
pub(crate) mod error;
pub(crate) mod frame;
pub(crate) mod matches;
pub(crate) mod observe;
pub(crate) mod record;
#[cfg(test)]
mod referee;
pub(crate) mod refusal;
pub(crate) mod result;
pub(crate) mod rules;
pub(crate) mod state;
#[cfg(test)]
mod tests;
pub(crate) mod turn;

pub use action::{Action, ParseActionError, NUM_ACTIONS, PACK_SIZE};
pub use error::DuelError;
pub use frame::Frame;
pub use matches::Match;
pub use matches::MatchScore;
pub use observe::{
    compact_in_range, expand_compact, Compact, Observation, COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE, PRIVATE_ENTRIES,
};
pub use record::{DealRecord, MatchRecord};
pub use refusal::{Reason, ReasonCode, Refusal};
pub use result::MatchResult;
pub use rules::{Order, Rules};
pub use state::{DealState, Outcome, Trick};
pub use turn::{Phase, Turn};
