//! The versioned JSON record of a deal: initial deck, dealer, rules and actions.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::matches::Match;
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
        let record: DealRecord = parse(text)?;
        check_header(
            &record.format,
            record.version,
            RECORD_FORMAT,
            RECORD_VERSION,
        )?;
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

/// Parses JSON into a record type: exact field types, no unknown fields.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, DuelError> {
    crate::record::parse(text).map_err(DuelError::InvalidRecord)
}

/// Refuses a record of another format or version.
pub(crate) fn check_header(
    format: &str,
    version: u32,
    expected: &str,
    supported: u32,
) -> Result<(), DuelError> {
    crate::record::check_header(format, version, expected, supported)
        .map_err(DuelError::InvalidRecord)
}

pub const MATCH_FORMAT: &str = "ecarte.duel.match";
pub const MATCH_VERSION: u32 = 1;

/// The versioned JSON record of a match: its seed, first dealer, rules and every deal's
/// record, the last one possibly unfinished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    pub format: String,
    pub version: u32,
    pub seed: u64,
    pub first_dealer: u8,
    pub rules: Rules,
    pub deals: Vec<DealRecord>,
}

impl MatchRecord {
    /// The record of `game`: every deal so far.
    pub fn of(game: &Match) -> MatchRecord {
        MatchRecord {
            format: MATCH_FORMAT.to_string(),
            version: MATCH_VERSION,
            seed: game.seed,
            first_dealer: game.score.first_dealer,
            rules: game.rules,
            deals: game.deals().map(DealRecord::of).collect(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<MatchRecord, DuelError> {
        let record: MatchRecord = parse(text)?;
        check_header(&record.format, record.version, MATCH_FORMAT, MATCH_VERSION)?;
        Ok(record)
    }

    /// Replays the record: every deal must be the match's seeded deal under the match's
    /// rules, every action legal, and only the last deal unfinished.
    pub fn replay(&self) -> Result<Match, DuelError> {
        let bad = |text: String| DuelError::InvalidRecord(text);
        let mut game =
            Match::new(self.seed, self.first_dealer, self.rules).map_err(|e| bad(e.to_string()))?;
        if self.deals.is_empty() {
            return Err(bad("a match record holds at least one deal".into()));
        }
        for (i, deal) in self.deals.iter().enumerate() {
            let number = i + 1;
            check_header(&deal.format, deal.version, RECORD_FORMAT, RECORD_VERSION)?;
            if i > 0 && game.is_over() {
                return Err(bad(format!("deal {number} comes after the match ended")));
            }
            if deal.rules != self.rules {
                return Err(bad(format!(
                    "deal {number} has rules other than the match's"
                )));
            }
            if deal.deck.as_slice() != game.deal.deck().as_slice()
                || deal.dealer != game.deal.dealer()
            {
                return Err(bad(format!(
                    "deal {number} is not the deal of seed {} with dealer {}",
                    self.seed,
                    game.deal.dealer()
                )));
            }
            for (j, &action) in deal.actions.iter().enumerate() {
                let ended = game
                    .apply(action)
                    .map_err(|e| bad(format!("deal {number}, action {}: {e}", j + 1)))?;
                if ended.is_some() && j + 1 != deal.actions.len() {
                    return Err(bad(format!("deal {number} goes on after it ended")));
                }
            }
            let finished = game.is_over() || game.deal_index() > i as u64;
            if i + 1 < self.deals.len() && !finished {
                return Err(bad(format!("deal {number} is unfinished")));
            }
            if i + 1 == self.deals.len() && finished && !game.is_over() {
                // `to_json` always writes the deal in progress, if only its deck.
                return Err(bad(format!("deal {} is missing", number + 1)));
            }
        }
        Ok(game)
    }
}
