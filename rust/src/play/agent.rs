//! A built-in agent: a policy with its own seed and its own stream, the one way the engine's
//! agents act, whether the engine runs the match or an outside caller asks for a move.

use super::policy::Policy;
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::DealState;
use crate::rng::{rng_from_seed, GameRng};

/// A policy, the seed it was made with, and the stream it draws from (`rng_from_seed(seed)`,
/// see `crate::rng`). The random policy draws its moves from the stream; the search
/// policies seed each decision from the seed and the observation, so they need no stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinAgent {
    policy: Policy,
    seed: u64,
    stream: GameRng,
}

impl BuiltinAgent {
    /// The agent playing `policy`, its stream seeded with `seed`.
    pub fn new(policy: Policy, seed: u64) -> BuiltinAgent {
        BuiltinAgent {
            policy,
            seed,
            stream: rng_from_seed(seed),
        }
    }

    /// The agent's policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The seed the agent was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many words the agent has drawn from its stream (to copy an agent mid-game).
    pub fn drawn(&self) -> u128 {
        self.stream.get_word_pos()
    }

    /// The agent with `seed` after `drawn` words of its stream.
    pub fn resumed(policy: Policy, seed: u64, drawn: u128) -> BuiltinAgent {
        let mut agent = BuiltinAgent::new(policy, seed);
        agent.stream.set_word_pos(drawn);
        agent
    }

    /// The action for the player to move in `state`, a deal of a match whose score is
    /// `score`; the heuristic's, at once, when `control` is cancelled. It reads only what
    /// that player may know.
    #[inline]
    pub fn act(&mut self, state: &DealState, score: [u8; 2], control: Control<'_>) -> Action {
        self.policy
            .choose(state, score, &mut self.stream, self.seed, control)
    }

    /// The same action, from the player's observation and the legal actions' mask.
    pub fn act_seen(&mut self, obs: &Observation, legal: u128, control: Control<'_>) -> Action {
        self.policy
            .choose_seen(obs, legal, &mut self.stream, self.seed, control)
    }
}
