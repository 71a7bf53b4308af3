//! The built-in policies by name: uniform random, the rule-based heuristic, PIMC and the
//! expert. Each reads only what the player to move may know, never the hidden cards.

use crate::duel::action::Action;
use crate::duel::state::DealState;
use crate::rng::GameRng;
use crate::solver::pimc::pimc_values;

use super::expert::{expert_values, DEFAULT_EXPERT_SAMPLES};
use super::heuristic::{heuristic_action, heuristic_rollout, View};
use super::master::{master_values, DEFAULT_MASTER_SAMPLES};
use super::random::{nth_action, random_action};

/// Worlds per decision of the PIMC policy unless a count is given.
pub const DEFAULT_PIMC_SAMPLES: u16 = 24;

/// A native policy by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Random,
    Heuristic,
    /// Perfect-information Monte Carlo over this many sampled worlds per decision.
    Pimc(u16),
    /// PIMC over this many worlds, solved with the talon drawn by seat and resampled by the
    /// likelihood of the opponent's exchange decisions (see [`super::expert`]).
    Expert(u16),
    /// The expert's search over this many worlds, resampled by a model of the opponent's
    /// plays too (see [`super::master`]).
    Master(u16),
}

impl Policy {
    /// The agent specs [`Policy::parse`] reads, for help and error texts.
    pub const SPECS: &'static str = "'random', 'heuristic', 'pimc', 'pimc:N' (N worlds per decision, 1 to 65535), 'expert', 'expert:N', 'master' or 'master:N'";

    /// `"random"`, `"heuristic"`, `"pimc"`, `"pimc:N"` (N worlds per decision), `"expert"`,
    /// `"expert:N"`, `"master"` or `"master:N"`. This is
    /// the one grammar of agent specs: Python's agents, the arena and the CLI read it here.
    pub fn parse(name: &str) -> Option<Policy> {
        match name.split_once(':') {
            None => match name {
                "random" => Some(Policy::Random),
                "heuristic" => Some(Policy::Heuristic),
                "pimc" => Some(Policy::Pimc(DEFAULT_PIMC_SAMPLES)),
                "expert" => Some(Policy::Expert(DEFAULT_EXPERT_SAMPLES)),
                "master" => Some(Policy::Master(DEFAULT_MASTER_SAMPLES)),
                _ => None,
            },
            Some(("pimc", n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                n.parse().ok().filter(|&n| n > 0).map(Policy::Pimc)
            }
            Some(("expert", n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                n.parse().ok().filter(|&n| n > 0).map(Policy::Expert)
            }
            Some(("master", n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                n.parse().ok().filter(|&n| n > 0).map(Policy::Master)
            }
            Some(_) => None,
        }
    }

    /// The action for the player to move in `state`. Every policy reads only what that
    /// player may know: the view, or for PIMC the player's whole observation.
    // Into the playout loops, so that the random draw inlined here is compiled there
    // (with POPCNT and BMI2, see `with_bit_instructions`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn choose(self, state: &DealState, rng: &mut GameRng) -> Action {
        match self {
            Policy::Random => random_action(state.legal_mask(), rng),
            Policy::Heuristic => heuristic_action(&View::of_state(state)),
            Policy::Pimc(samples) => pimc_action(state, samples, rng, Search::Pimc),
            Policy::Expert(samples) => pimc_action(state, samples, rng, Search::Expert),
            Policy::Master(samples) => pimc_action(state, samples, rng, Search::Master),
        }
    }
}

/// The search players' evaluators.
#[derive(Clone, Copy)]
enum Search {
    Pimc,
    Expert,
    Master,
}

/// The PIMC choice: the best mean double-dummy value over sampled worlds, ties to the
/// lowest action id (as `PimcAgent` does); the heuristic's if no world can be sampled.
/// The expert's and the master's choices, by the same rule over their values.
fn pimc_action(state: &DealState, samples: u16, rng: &mut GameRng, search: Search) -> Action {
    use rand::Rng;
    let legal = state.legal_mask();
    if legal.is_power_of_two() {
        return nth_action(legal, 0);
    }
    let player = state.current_player().unwrap_or(0);
    let obs = state.observation(player, [0, 0]);
    let (samples, seed) = (usize::from(samples), rng.next_u64());
    let values = match search {
        Search::Pimc => pimc_values(&obs, samples, seed, heuristic_rollout),
        Search::Expert => expert_values(&obs, samples, seed),
        Search::Master => master_values(&obs, samples, seed),
    };
    match values {
        Ok(values) => values
            .iter()
            .rev()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or_else(|| heuristic_action(&View::of_state(state)), |(a, _)| *a),
        Err(_) => heuristic_action(&View::of_state(state)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::duel::Rules;
    use crate::rng::rng_from_seed;

    #[test]
    fn policies_only_choose_legal_actions() {
        let mut rng = rng_from_seed(1);
        for seed in 0..200 {
            for policy in [Policy::Random, Policy::Heuristic] {
                let mut s = DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).unwrap();
                while !s.is_over() {
                    let a = policy.choose(&s, &mut rng);
                    assert!(s.is_legal(a), "{a} in {:?}", s.legal_actions());
                    s.apply_unchecked(a);
                }
            }
        }
    }

    #[test]
    fn parses_policy_names() {
        assert_eq!(
            Policy::parse("pimc"),
            Some(Policy::Pimc(DEFAULT_PIMC_SAMPLES))
        );
        assert_eq!(Policy::parse("pimc:8"), Some(Policy::Pimc(8)));
        assert_eq!(
            Policy::parse("expert"),
            Some(Policy::Expert(DEFAULT_EXPERT_SAMPLES))
        );
        assert_eq!(Policy::parse("expert:12"), Some(Policy::Expert(12)));
        assert_eq!(
            Policy::parse("master"),
            Some(Policy::Master(DEFAULT_MASTER_SAMPLES))
        );
        assert_eq!(Policy::parse("master:30"), Some(Policy::Master(30)));
        for bad in [
            "pimc:0", "pimc:x", "oracle", "random:3", "", "expert:0", "expert:", "master:0",
            "masters",
        ] {
            assert_eq!(Policy::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn pimc_policy_plays_legal_actions() {
        let mut rng = rng_from_seed(2);
        let mut s = DealState::from_seed(4, 0, Rules::default()).unwrap();
        while !s.is_over() {
            let a = Policy::Pimc(4).choose(&s, &mut rng);
            assert!(s.is_legal(a));
            s.apply_unchecked(a);
        }
    }

    #[test]
    fn expert_policy_plays_legal_and_deterministic_actions() {
        // One deal, two worlds: the solver is slow in debug builds.
        let mut a = rng_from_seed(4);
        let mut b = rng_from_seed(4);
        let mut s = DealState::from_seed(4, 1, Rules::default()).unwrap();
        while !s.is_over() {
            let x = Policy::Expert(2).choose(&s, &mut a);
            assert_eq!(x, Policy::Expert(2).choose(&s, &mut b));
            assert!(s.is_legal(x), "{x} in {:?}", s.legal_actions());
            s.apply_unchecked(x);
        }
    }
}
