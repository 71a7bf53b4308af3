//! The result of a finished match and its versioned JSON record.

use serde::{Deserialize, Serialize};

use super::matches::Match;
use super::record::{check_header, parse};
use super::rules::Rules;
use super::state::{DuelError, Outcome};

pub const RESULT_FORMAT: &str = "ecarte.duel.match_result";
pub const RESULT_VERSION: u32 = 1;

/// The end of a match: the winner, the final score and every deal's outcome, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The seat that won.
    pub winner: u8,
    /// Final points of seat 0 and seat 1.
    pub score: [u8; 2],
    /// Each deal's outcome, in order.
    pub outcomes: Vec<Outcome>,
}

/// `{"format": "ecarte.duel.match_result", "version": 1, "winner": w, "score": [a, b],
/// "outcomes": [outcome records]}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultRecord {
    format: String,
    version: u32,
    winner: u8,
    score: [u8; 2],
    outcomes: Vec<Outcome>,
}

impl MatchResult {
    /// The result of `game`; `None` while it goes on.
    pub fn of(game: &Match) -> Option<MatchResult> {
        Some(MatchResult {
            winner: game.winner()?,
            score: game.score.score,
            outcomes: game.outcomes().collect(),
        })
    }

    /// A result some match can end with, checked: every outcome possible, each seat's score
    /// the points of the deals it won, and the winner a seat ahead that won the last deal,
    /// so that some target (1 to [`Rules::MAX_TARGET`]) ends the match there and not before.
    pub fn new(winner: u8, score: [u8; 2], outcomes: Vec<Outcome>) -> Result<MatchResult, String> {
        if winner > 1 {
            return Err(format!("the winner is a seat, 0 or 1, got {winner}"));
        }
        if let Some(bad) = outcomes.iter().find(|o| !o.is_possible()) {
            return Err(format!("not a possible outcome: {bad:?}"));
        }
        let last = outcomes
            .last()
            .ok_or("a finished match has at least one deal")?;
        let mut won = [0u32; 2];
        for o in &outcomes {
            won[usize::from(o.winner)] += u32::from(o.points);
        }
        if won != score.map(u32::from) {
            return Err(format!(
                "the score {score:?} is not the points the outcomes give, {won:?}"
            ));
        }
        let (ahead, behind) = (
            u32::from(score[usize::from(winner)]),
            won[usize::from(1 - winner)],
        );
        let before_last = ahead - u32::from(last.points);
        if last.winner != winner
            || behind >= ahead
            || before_last.max(behind) >= u32::from(Rules::MAX_TARGET)
        {
            return Err(format!(
                "seat {winner} cannot have won a match that ends {} to {} with that last deal",
                score[0], score[1]
            ));
        }
        Ok(MatchResult {
            winner,
            score,
            outcomes,
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&ResultRecord {
            format: RESULT_FORMAT.to_string(),
            version: RESULT_VERSION,
            winner: self.winner,
            score: self.score,
            outcomes: self.outcomes.clone(),
        })
        .unwrap_or_default()
    }

    /// Reads what [`MatchResult::to_json`] writes, checked as by [`MatchResult::new`].
    pub fn from_json(text: &str) -> Result<MatchResult, DuelError> {
        let record: ResultRecord = parse(text)?;
        check_header(
            &record.format,
            record.version,
            RESULT_FORMAT,
            RESULT_VERSION,
        )?;
        MatchResult::new(record.winner, record.score, record.outcomes)
            .map_err(DuelError::InvalidRecord)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match with `seed` to `target`, every player taking its first legal action.
    fn played(seed: u64, target: u8) -> Match {
        let rules = Rules {
            target,
            ..Rules::default()
        };
        let mut game = Match::new(seed, 0, rules).unwrap();
        // Every deal scores a point at least, so the match ends within `2 * target - 1` deals
        // of `MAX_ACTIONS` actions at most: a match that runs on fails here, not by hanging.
        let most = (2 * usize::from(target) - 1) * crate::duel::state::MAX_ACTIONS;
        for _ in 0..most {
            if game.is_over() {
                break;
            }
            let first = game.deal.legal_actions()[0];
            game.apply(first).unwrap();
        }
        assert!(game.is_over(), "match {seed} to {target} did not end");
        game
    }

    #[test]
    fn a_played_result_round_trips() {
        for (seed, target) in [(1, 1), (2, 7), (3, 100)] {
            let game = played(seed, target);
            let result = MatchResult::of(&game).unwrap();
            assert_eq!(MatchResult::from_json(&result.to_json()).unwrap(), result);
        }
        assert!(MatchResult::of(&Match::new(1, 0, Rules::default()).unwrap()).is_none());
    }

    #[test]
    fn an_impossible_result_is_refused() {
        let result = MatchResult::of(&played(4, 7)).unwrap();
        let (w, score, outcomes) = (result.winner, result.score, result.outcomes.clone());
        let mut swapped = score;
        swapped.swap(0, 1);
        let mut impossible = outcomes.clone();
        impossible[0].points = 3;
        let mut lost_last = outcomes.clone();
        let n = lost_last.len() - 1;
        lost_last[n].winner = 1 - w;
        for (winner, score, outcomes) in [
            (1 - w, score, outcomes.clone()),
            (2, score, outcomes.clone()),
            (w, swapped, outcomes.clone()),
            (w, score, Vec::new()),
            (w, score, impossible),
            (w, score, lost_last),
        ] {
            assert!(MatchResult::new(winner, score, outcomes.clone()).is_err());
            let text = MatchResult {
                winner,
                score,
                outcomes,
            }
            .to_json();
            assert!(matches!(
                MatchResult::from_json(&text),
                Err(DuelError::InvalidRecord(_))
            ));
        }
        let text = result.to_json();
        for bad in [
            text.replace("match_result", "match"),
            text.replace("\"version\":1", "\"version\":2"),
            text.replace("\"winner\"", "\"extra\":1,\"winner\""),
            text.replace("\"score\":[", "\"score\":[0,"),
        ] {
            assert!(MatchResult::from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_score_beyond_every_target_is_refused() {
        let win = Outcome {
            winner: 0,
            points: 1,
            cards: [10, 0],
            tricks: [5, 0],
        };
        let outcomes = vec![win; 101];
        assert!(MatchResult::new(0, [100, 0], outcomes[..100].to_vec()).is_ok());
        assert!(MatchResult::new(0, [101, 0], outcomes).is_err());
    }
}
