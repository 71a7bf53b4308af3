//! The versioned JSON record of a deal: initial deck, dealer, rules and actions.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::matches::Match;
use super::rules::Rules;
use super::state::{DealState, DuelError};
use crate::card::Card;

pub const RECORD_FORMAT: &str = "ecarte.duel.deal";
pub const RECORD_VERSION: u32 = 1;

/// The JSON record of one deal: its deck, dealer, rules and actions, enough to replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    /// The record's kind.
    pub format: String,
    /// The record format's version.
    pub version: u32,
    /// The 32 cards, top first.
    pub deck: Vec<Card>,
    /// The dealer's seat.
    pub dealer: u8,
    /// The rules of the deal.
    pub rules: Rules,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// The seed the deck was shuffled with, when the deal has one: the record then replays
    /// to a deal that still knows its seed. A record whose deck is not that seed's shuffle
    /// is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
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
            seed: None,
        }
    }

    /// The record of `state`, which was shuffled with `seed` (if known).
    pub fn seeded(state: &DealState, seed: Option<u64>) -> DealRecord {
        DealRecord {
            seed,
            ..DealRecord::of(state)
        }
    }

    /// The record as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses and checks a record; every step of the replay must be legal.
    pub fn from_json(text: &str) -> Result<DealRecord, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid deal record: {why}"));
        crate::record::check_named_format(text, RECORD_FORMAT).map_err(bad)?;
        let record: DealRecord = crate::record::parse(text).map_err(bad)?;
        crate::record::check_header(
            &record.format,
            record.version,
            RECORD_FORMAT,
            RECORD_VERSION,
        )
        .map_err(bad)?;
        if let Some(seed) = record.seed {
            let shuffled = DealState::from_seed(seed, record.dealer, record.rules)
                .map_err(|e| bad(e.to_string()))?;
            if shuffled.deck().as_slice() != record.deck.as_slice() {
                return Err(bad(format!("the deck is not the shuffle of seed {seed}")));
            }
        }
        Ok(record)
    }

    /// The state after every action, each checked (its log is the record's actions).
    pub fn replay(&self) -> Result<DealState, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid deal record: {why}"));
        let mut state = DealState::from_deck(&self.deck, self.dealer, self.rules)
            .map_err(|e| bad(e.to_string()))?;
        for (i, &action) in self.actions.iter().enumerate() {
            state
                .apply(action)
                .map_err(|e| bad(format!("action {}: {e}", i + 1)))?;
        }
        Ok(state)
    }
}

/// Parses JSON into a record type (exact field types, no unknown fields), for the records
/// that have no kind of their own to name.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, DuelError> {
    crate::record::parse(text)
        .map_err(|why| DuelError::InvalidRecord(format!("invalid record: {why}")))
}

/// Refuses a record of another format or version.
pub(crate) fn check_header(
    format: &str,
    version: u32,
    expected: &str,
    supported: u32,
) -> Result<(), DuelError> {
    crate::record::check_header(format, version, expected, supported)
        .map_err(|why| DuelError::InvalidRecord(format!("invalid record: {why}")))
}

/// The longest player name a match record holds.
pub const MAX_PLAYER_NAME: usize = 40;

/// A player's name for a match record: 1 to [`MAX_PLAYER_NAME`] characters, none of them a
/// control character (a name is shown on one line).
pub fn check_player_name(name: &str) -> Result<(), String> {
    let length = name.chars().count();
    if !(1..=MAX_PLAYER_NAME).contains(&length) || name.chars().any(char::is_control) {
        return Err(format!(
            "a player's name is 1 to {MAX_PLAYER_NAME} characters on one line, got {name:?}"
        ));
    }
    Ok(())
}

pub const MATCH_FORMAT: &str = "ecarte.duel.match";
pub const MATCH_VERSION: u32 = 1;

/// The versioned JSON record of a match: its seed, first dealer, rules and every deal's
/// record, the last one possibly unfinished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    /// The record's kind.
    pub format: String,
    /// The record format's version.
    pub version: u32,
    /// The match's seed.
    pub seed: u64,
    /// The dealer of the first deal.
    pub first_dealer: u8,
    /// The rules of every deal.
    pub rules: Rules,
    /// Every deal played, in order.
    pub deals: Vec<DealRecord>,
    /// The names of the players in seat 0 and seat 1, when the record has them (`replay`
    /// shows them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[String; 2]>,
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
            players: None,
        }
    }

    /// The record as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a record that [`MatchRecord::to_json`] wrote, checking its format, version and every action.
    pub fn from_json(text: &str) -> Result<MatchRecord, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid match record: {why}"));
        crate::record::check_named_format(text, MATCH_FORMAT).map_err(bad)?;
        let record: MatchRecord = crate::record::parse(text).map_err(bad)?;
        crate::record::check_header(&record.format, record.version, MATCH_FORMAT, MATCH_VERSION)
            .map_err(bad)?;
        if let Some(names) = &record.players {
            names
                .iter()
                .try_for_each(|name| check_player_name(name))
                .map_err(bad)?;
        }
        Ok(record)
    }

    /// Replays the record: every deal must be the match's seeded deal under the match's
    /// rules, every action legal, and only the last deal unfinished.
    pub fn replay(&self) -> Result<Match, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid match record: {why}"));
        let mut game =
            Match::new(self.seed, self.first_dealer, self.rules).map_err(|e| bad(e.to_string()))?;
        if self.deals.is_empty() {
            return Err(bad("a match record holds at least one deal".into()));
        }
        for (i, deal) in self.deals.iter().enumerate() {
            let number = i + 1;
            crate::record::check_header(&deal.format, deal.version, RECORD_FORMAT, RECORD_VERSION)
                .map_err(|why| bad(format!("deal {number}: {why}")))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        match DealRecord::from_json(text).and_then(|r| r.replay()) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text} is accepted"),
        }
    }

    #[test]
    fn record_errors_name_the_field_in_words() {
        let good = DealRecord::of(&DealState::from_seed(1, 0, Rules::default()).unwrap());
        let text = good.to_json();
        let with = |field: &str, value: &str| {
            let start = text.find(&format!("\"{field}\":")).unwrap() + field.len() + 3;
            let end = start + text[start..].find([',', '}']).unwrap();
            format!("{}{value}{}", &text[..start], &text[end..])
        };
        assert_eq!(
            error_of(&with("dealer", "300")),
            "invalid deal record: dealer: expected a whole number from 0 to 255, got 300"
        );
        assert_eq!(
            error_of(&with("version", "1000000000000000000000000000000")),
            "invalid deal record: version: expected a whole number from 0 to 4294967295, \
             got 1e30, a number too large"
        );
        assert_eq!(
            error_of(&with("dealer", "1.5")),
            "invalid deal record: dealer: expected a whole number from 0 to 255, got 1.5, \
             not a whole number"
        );
        assert_eq!(
            error_of(&with("dealer", "2")),
            "invalid deal record: invalid dealer 2: must be 0 or 1"
        );
        let missing = error_of("{}");
        assert!(missing.starts_with("invalid deal record: missing field \"format\""));
        for message in [missing, error_of(&with("dealer", "\"x\""))] {
            assert!(
                !message.contains(" at line ") && !message.contains('`'),
                "{message}"
            );
        }
    }

    #[test]
    fn a_record_of_another_kind_is_refused_for_its_format() {
        let game = Match::new(3, 0, Rules::default()).unwrap();
        assert_eq!(
            error_of(&MatchRecord::of(&game).to_json()),
            "invalid deal record: format is \"ecarte.duel.match\", expected \"ecarte.duel.deal\""
        );
        let deal = DealRecord::of(&game.deal).to_json();
        let refused = MatchRecord::from_json(&deal).unwrap_err().to_string();
        assert!(
            refused.contains("format is \"ecarte.duel.deal\""),
            "{refused}"
        );
    }

    #[test]
    fn a_seeded_record_keeps_its_seed_and_must_be_its_shuffle() {
        let state = DealState::from_seed(42, 1, Rules::default()).unwrap();
        let text = DealRecord::seeded(&state, Some(42)).to_json();
        assert!(text.ends_with(",\"seed\":42}"), "{text}");
        assert_eq!(DealRecord::from_json(&text).unwrap().seed, Some(42));
        assert!(!DealRecord::of(&state).to_json().contains("seed"));
        assert_eq!(
            error_of(&text.replace("\"seed\":42", "\"seed\":43")),
            "invalid deal record: the deck is not the shuffle of seed 43"
        );
    }
}
