//! Match `i` of a run: the one layout of a run of matches under one seed, which every path
//! that plays one follows: `simulate`'s matches, both paths of the arena (native and through
//! Python's agents), the opponent env's run of matches, and `PettingZoo`'s.

use super::agent::BuiltinAgent;
use super::policy::Policy;
use crate::duel::matches::Match;
use crate::duel::rules::Rules;
use crate::duel::state::DuelError;
use crate::rng::{self, SeedDeriver};

/// A run of matches under one seed (see [`RunMatch`]).
pub struct Run {
    deriver: SeedDeriver,
}

impl Run {
    pub fn new(seed: u64) -> Run {
        Run {
            deriver: SeedDeriver::new(seed),
        }
    }

    /// Match `index` of the run.
    #[inline]
    pub fn game(&self, index: u64) -> RunMatch {
        RunMatch {
            seed: self.deriver.derive(index),
            first_dealer: (index % 2) as u8,
        }
    }
}

/// Match `index` of the run with seed `s`: its seed is [`rng::item_seed`]`(s, index)`, its
/// first dealer seat `index % 2` (the seats deal first in turn over the run), and the agent
/// in seat `t` draws from [`rng::agent_seed`]`(its seed, t)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunMatch {
    pub seed: u64,
    pub first_dealer: u8,
}

impl RunMatch {
    /// Match `index` of the run with seed `run_seed`.
    pub fn of(run_seed: u64, index: u64) -> RunMatch {
        Run::new(run_seed).game(index)
    }

    /// The seed of the agent in `seat` (0 or 1; 2 and up for helpers such as a hint agent).
    pub fn agent_seed(self, seat: u64) -> u64 {
        rng::agent_seed(self.seed, seat)
    }

    /// The built-in agent with `policy` in `seat`.
    pub fn agent(self, seat: u8, policy: Policy) -> BuiltinAgent {
        BuiltinAgent::new(policy, self.agent_seed(u64::from(seat)))
    }

    /// The match, dealt and ready to play.
    pub fn start(self, rules: Rules) -> Result<Match, DuelError> {
        Match::new(self.seed, self.first_dealer, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_i_of_a_run_is_laid_out_by_the_seed_and_i_alone() {
        let run = Run::new(9);
        for i in [0, 1, 2, 7, u64::MAX] {
            let game = run.game(i);
            assert_eq!(game, RunMatch::of(9, i));
            assert_eq!(game.seed, rng::derive_seed(9, i));
            assert_eq!(game.first_dealer, (i % 2) as u8);
            assert_eq!(game.agent_seed(1), rng::agent_seed(game.seed, 1));
            let agent = game.agent(1, Policy::Heuristic);
            assert_eq!(agent.seed(), game.agent_seed(1));
        }
    }
}
