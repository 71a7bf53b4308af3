//! Why a deal, a match or an action was refused.

use std::fmt;

use super::action::Action;

/// Why a deal or an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DuelError {
    IllegalAction {
        action: String,
        legal: Vec<Action>,
    },
    InvalidDeck(String),
    InvalidDealer(i64),
    InvalidRules(String),
    /// The whole message: the record's kind and what is wrong with it.
    InvalidRecord(String),
}

impl fmt::Display for DuelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DuelError::IllegalAction { action, legal } => {
                let names: Vec<String> = legal.iter().map(ToString::to_string).collect();
                if names.is_empty() {
                    write!(f, "illegal action {action}: the deal is over")
                } else {
                    write!(
                        f,
                        "illegal action {action}; legal actions: {}",
                        names.join(", ")
                    )
                }
            }
            DuelError::InvalidDeck(why) => write!(f, "invalid duel deck: {why}"),
            DuelError::InvalidDealer(d) => write!(f, "invalid dealer {d}: must be 0 or 1"),
            DuelError::InvalidRules(why) => write!(f, "invalid rules: {why}"),
            DuelError::InvalidRecord(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for DuelError {}
