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
    /// The record of `state`: its deck, dealer and rules, and the actions in its log.
    pub fn of(state: &DealState) -> DealRecord {
        DealRecord {
            format: RECORD_FORMAT.to_string(),
            version: RECORD_VERSION,
            deck: state.deck().to_vec(),
            dealer: state.dealer(),
            rules: state.rules(),
            actions: state.actions().collect(),
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

    /// The state after every action, each checked (its log is the record's actions).
    pub fn replay(&self) -> Result<DealState, DuelError> {
        let wrap = |e: DuelError| DuelError::InvalidRecord(e.to_string());
        let mut state = DealState::from_deck(&self.deck, self.dealer, self.rules).map_err(wrap)?;
        for (i, &action) in self.actions.iter().enumerate() {
            state
                .apply(action)
                .map_err(|e| DuelError::InvalidRecord(format!("action {i}: {e}")))?;
        }
        Ok(state)
    }
}
