//! Why a deal, a match or an action was refused.

use std::fmt;

use super::refusal::Refusal;

/// Why a deal or an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DuelError {
    /// An action that is not legal now, and why ([`Refusal`]).
    IllegalAction(Box<Refusal>),
    /// A batch of actions whose length is not the number of envs.
    InvalidBatch {
        /// The actions given.
        actions: usize,
        /// The envs they were for.
        envs: usize,
    },
    /// A deck that is not the 32 cards 7 to A of each suit; the text says why.
    InvalidDeck(String),
    /// A dealer other than 0 or 1.
    InvalidDealer(i64),
    /// Rule options out of range; the text says why.
    InvalidRules(String),
    /// The whole message: the record's kind and what is wrong with it.
    InvalidRecord(String),
}

impl fmt::Display for DuelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DuelError::IllegalAction(refusal) => write!(f, "{refusal}"),
            DuelError::InvalidBatch { actions, envs } => {
                write!(f, "a batch of {actions} actions for {envs} envs")
            }
            DuelError::InvalidDeck(why) => write!(f, "invalid duel deck: {why}"),
            DuelError::InvalidDealer(d) => write!(f, "invalid dealer {d}: must be 0 or 1"),
            DuelError::InvalidRules(why) => write!(f, "invalid rules: {why}"),
            DuelError::InvalidRecord(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for DuelError {}
