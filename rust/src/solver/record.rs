//! The versioned JSON record of a [`Solution`], read strictly and checked.

use serde::{Deserialize, Serialize};

use super::Solution;
use crate::duel::action::Action;
use crate::duel::record::{check_header, parse};
use crate::duel::state::{DuelError, HAND_SIZE};
use crate::duel::PACK_SIZE;

pub const SOLUTION_FORMAT: &str = "ecarte.duel.solution";
pub const SOLUTION_VERSION: u32 = 1;

/// `{"format": "ecarte.duel.solution", "version": 1, "value": v, "best_actions": [...],
/// "nodes": n}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolutionRecord {
    format: String,
    version: u32,
    value: i32,
    best_actions: Vec<Action>,
    nodes: u64,
}

impl Solution {
    /// A solution some play-phase position can have, checked: the value deal points
    /// (±1, ±2) or cards taken (0 to 32), and the best actions one to five cards played,
    /// in action-id order without repeats.
    pub fn new(value: i32, best_actions: Vec<Action>, nodes: u64) -> Result<Solution, String> {
        let cards = i32::try_from(PACK_SIZE).unwrap_or(i32::MAX);
        if !(-2..=cards).contains(&value) {
            return Err(format!(
                "a value is deal points (-2 to 2) or cards (0 to {cards}), got {value}"
            ));
        }
        let plays = best_actions.iter().all(|a| matches!(a, Action::Play(_)));
        let ordered = best_actions.windows(2).all(|w| w[0].id() < w[1].id());
        if best_actions.is_empty() || best_actions.len() > HAND_SIZE || !plays || !ordered {
            return Err(format!(
                "the best actions are 1 to {HAND_SIZE} cards played, in action-id order, got {}",
                best_actions
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(Solution {
            value,
            best_actions,
            nodes,
        })
    }

    /// The solution as a JSON record.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&SolutionRecord {
            format: SOLUTION_FORMAT.to_string(),
            version: SOLUTION_VERSION,
            value: self.value,
            best_actions: self.best_actions.clone(),
            nodes: self.nodes,
        })
        .unwrap_or_default()
    }

    /// Reads what [`Solution::to_json`] writes, checked as by [`Solution::new`].
    pub fn from_json(text: &str) -> Result<Solution, DuelError> {
        let record: SolutionRecord = parse(text)?;
        check_header(
            &record.format,
            record.version,
            SOLUTION_FORMAT,
            SOLUTION_VERSION,
        )?;
        Solution::new(record.value, record.best_actions, record.nodes)
            .map_err(DuelError::InvalidRecord)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{DealState, Phase, Rules};
    use crate::solver::{solve, Objective};

    /// A play-phase position: deal `seed` with the exchange declined.
    fn position(seed: u64) -> DealState {
        let mut deal = DealState::from_seed(seed, 0, Rules::default()).unwrap();
        deal.apply(Action::Decline).unwrap();
        assert_eq!(deal.phase(), Phase::Play);
        deal
    }

    #[test]
    fn solutions_round_trip() {
        for seed in 0..4 {
            for objective in [Objective::Points, Objective::Cards] {
                let solution = solve(&position(seed), objective).unwrap();
                assert_eq!(Solution::from_json(&solution.to_json()).unwrap(), solution);
            }
        }
    }

    #[test]
    fn an_impossible_solution_is_refused() {
        let solution = solve(&position(1), Objective::Points).unwrap();
        let play = |text: &str| Action::Play(text.parse().unwrap());
        for (value, best) in [
            (33, solution.best_actions.clone()),
            (-3, solution.best_actions.clone()),
            (1, Vec::new()),
            (1, vec![Action::Propose]),
            (1, vec![play("AS"), play("7C")]),
            (1, vec![play("7C"), play("7C")]),
            (1, ["7C", "8C", "9C", "TC", "JC", "QC"].map(play).to_vec()),
        ] {
            assert!(Solution::new(value, best.clone(), 1).is_err());
            let text = Solution {
                value,
                best_actions: best,
                nodes: 1,
            }
            .to_json();
            assert!(matches!(
                Solution::from_json(&text),
                Err(DuelError::InvalidRecord(_))
            ));
        }
        let text = solution.to_json();
        for bad in [
            text.replace("ecarte.duel.solution", "ecarte.duel.deal"),
            text.replace("\"version\":1", "\"version\":0"),
            text.replace("\"nodes\":", "\"nodes\":-"),
            text.replace("\"value\"", "\"extra\":0,\"value\""),
            "{}".to_string(),
        ] {
            assert!(Solution::from_json(&bad).is_err(), "{bad}");
        }
    }
}
