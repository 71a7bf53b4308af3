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
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid deal record: {why}"));
        let record: DealRecord = parse(text).map_err(bad)?;
        check_header(
            &record.format,
            record.version,
            RECORD_FORMAT,
            RECORD_VERSION,
        )
        .map_err(bad)?;
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

/// Parses JSON into a record type: exact field types, no unknown fields; the error in
/// words ([`json_error`]).
fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| json_error(text, &e))
}

/// What is wrong with the JSON `text` of a record, for a person: the field it is in, what
/// was expected in words, what was found, and neither the parser's position in the text
/// nor Rust's type names (`u8`, `u64`) or number kinds ("floating point").
pub fn json_error(text: &str, error: &serde_json::Error) -> String {
    let full = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let message = full
        .strip_suffix(&position)
        .unwrap_or(&full)
        .replace('`', "\"");
    let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.split_once(", expected "))
    else {
        return message;
    };
    let field = field_before(text, error.line(), error.column())
        .map_or_else(String::new, |name| format!("{name}: "));
    format!(
        "{field}expected {}, got {}",
        in_words(expected),
        found_in_words(found)
    )
}

/// Serde's names of what a record field holds, in words.
fn in_words(expected: &str) -> String {
    let words = match expected {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number from 0 to 2**64 - 1",
        "i64" => "a whole number",
        "a sequence" => "a list",
        "a map" => "an object",
        "a boolean" => "true or false",
        other if other.starts_with("struct ") => "an object",
        other => other,
    };
    words.to_string()
}

/// Serde's description of a value found, in words: `floating point "1e+30"` is `1e30, a
/// number too large` when it is whole, else `1.5, not a whole number`.
fn found_in_words(found: &str) -> String {
    let quoted = |kind: &str| {
        found
            .strip_prefix(kind)
            .map(|v| v.trim_matches('"').to_string())
    };
    if let Some(number) = quoted("floating point ") {
        let value: f64 = number.parse().unwrap_or(f64::NAN);
        return if value.fract() == 0.0 {
            format!("{value:e}, a number too large")
        } else {
            format!("{number}, not a whole number")
        };
    }
    if let Some(number) = quoted("integer ") {
        return number;
    }
    if let Some(flag) = quoted("boolean ") {
        return flag;
    }
    match found {
        "sequence" => "a list".into(),
        "map" => "an object".into(),
        "unit value" => "null".into(),
        _ => found.replacen("string ", "the text ", 1),
    }
}

/// The name of the field whose value ends at `line`, `column` (1-based) of `text`: the
/// last `"name":` before it.
fn field_before(text: &str, line: usize, column: usize) -> Option<&str> {
    let row = text.lines().nth(line.checked_sub(1)?)?;
    let upto = row.get(..column.min(row.len()))?;
    let end = upto.rfind("\":")?;
    let start = upto[..end].rfind('"')? + 1;
    Some(&upto[start..end])
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

fn check_header(format: &str, version: u32, expected: &str, supported: u32) -> Result<(), String> {
    if format != expected {
        return Err(format!("format is {format:?}, expected {expected:?}"));
    }
    if version != supported {
        return Err(format!(
            "version {version} is not supported (this build reads version {supported})"
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
    pub format: String,
    pub version: u32,
    pub seed: u64,
    pub first_dealer: u8,
    pub rules: Rules,
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

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<MatchRecord, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(format!("invalid match record: {why}"));
        let record: MatchRecord = parse(text).map_err(bad)?;
        check_header(&record.format, record.version, MATCH_FORMAT, MATCH_VERSION).map_err(bad)?;
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
            check_header(&deal.format, deal.version, RECORD_FORMAT, RECORD_VERSION)
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
}
