//! The versioned JSON record of a deal: initial deck, dealer, rules and actions.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::rules::Rules;
use super::state::{DealState, DuelError};
use crate::card::Card;

pub const RECORD_FORMAT: &str = "ecarte.duel.deal";
pub const RECORD_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    pub format: String,
    pub version: u32,
    pub deck: Vec<Card>,
    pub dealer: u8,
    pub rules: Rules,
    pub actions: Vec<Action>,
}

impl DealRecord {
    pub fn new(initial: &DealState, actions: Vec<Action>) -> DealRecord {
        DealRecord {
            format: RECORD_FORMAT.to_string(),
            version: RECORD_VERSION,
            deck: initial.deck().to_vec(),
            dealer: initial.dealer(),
            rules: initial.rules(),
            actions,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses and checks a record; every step of the replay must be legal.
    pub fn from_json(text: &str) -> Result<DealRecord, DuelError> {
        let record: DealRecord =
            serde_json::from_str(text).map_err(|e| DuelError::InvalidRecord(e.to_string()))?;
        if record.format != RECORD_FORMAT {
            return Err(DuelError::InvalidRecord(format!(
                "format is {:?}, expected {RECORD_FORMAT:?}",
                record.format
            )));
        }
        if record.version != RECORD_VERSION {
            return Err(DuelError::InvalidRecord(format!(
                "version {} is not supported (this build reads version {RECORD_VERSION})",
                record.version
            )));
        }
        Ok(record)
    }

    /// The initial state and every state after each action, in order.
    pub fn replay(&self) -> Result<Vec<DealState>, DuelError> {
        let wrap = |e: DuelError| DuelError::InvalidRecord(e.to_string());
        let mut state = DealState::from_deck(&self.deck, self.dealer, self.rules).map_err(wrap)?;
        let mut states = Vec::with_capacity(self.actions.len() + 1);
        states.push(state);
        for (i, &action) in self.actions.iter().enumerate() {
            state
                .apply(action)
                .map_err(|e| DuelError::InvalidRecord(format!("action {i}: {e}")))?;
            states.push(state);
        }
        Ok(states)
    }
}
