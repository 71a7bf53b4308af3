//! The built-in policies by name: uniform random, the rule-based heuristic, PIMC, the
//! expert, the master and the grandmaster (each with its row in [`super::registry`]). Each reads only what
//! the player to move may know, never the hidden cards.

use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::DealState;
use crate::rng::{self, GameRng};
use crate::solver::pimc::Goal;
use crate::solver::sampler::SampleError;

use super::heuristic::{heuristic_action, View};
use super::random::{nth_action, random_action};

/// Worlds per decision of the PIMC policy unless a count is given.
pub const DEFAULT_PIMC_SAMPLES: u16 = 24;

/// A native policy by name: each variant has its row in the engine's agent registry,
/// which names it, costs it and, for a search policy, searches for it. [`Policy::parse`]
/// reads a spec (`"heuristic"`, `"pimc:8"`) and [`Policy::spec`] writes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A uniformly random legal action.
    Random,
    /// The rule-based heuristic.
    Heuristic,
    /// Perfect-information Monte Carlo over this many sampled worlds per decision.
    Pimc(u16),
    /// PIMC over this many worlds, solved with the talon drawn by seat and resampled by the
    /// likelihood of the opponent's exchange decisions (see `super::expert`).
    Expert(u16),
    /// The expert's search over this many worlds, resampled by a model of the opponent's
    /// plays too (see `super::master`).
    Master(u16),
    /// The expert's search resampled by a learned model of the opponent's play, over this
    /// many worlds in the play while the talon lasts and fewer elsewhere (see
    /// `super::grandmaster`).
    Grandmaster(u16),
}

/// The most worlds a search policy may sample per decision: the bound of every agent's
/// `max_worlds` in the registry, the arena's `--samples` and the Python agents.
pub const MAX_SAMPLES: u16 = 10_000;

impl Policy {
    /// The spec that names this policy (`"pimc:24"`); [`Policy::parse`] reads it back.
    pub fn spec(self) -> String {
        match self.row() {
            (row, Some(n)) => format!("{}:{n}", row.name),
            (row, None) => row.name.to_string(),
        }
    }

    /// Worlds per decision of a search policy; `None` for the others.
    pub fn samples(self) -> Option<u16> {
        self.row().1
    }

    /// The action for the player to move in `state`, a deal of a match whose score is
    /// `score`, for an agent with seed `seed` that draws from `stream`. Every policy reads
    /// only what that player may know: the cheap ones the state's view, the search ones the
    /// player's observation (see [`Policy::choose_seen`], the same choice). Once `control` is
    /// cancelled, the search policies choose as the heuristic does, at once.
    // Into the playout loops, so that the random draw inlined here is compiled there
    // (with POPCNT and BMI2, see `with_bit_instructions`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn choose(
        self,
        state: &DealState,
        score: [u8; 2],
        stream: &mut GameRng,
        seed: u64,
        control: Control<'_>,
    ) -> Action {
        match self {
            Policy::Random => random_action(state.legal_mask(), stream),
            Policy::Heuristic => heuristic_action(&View::of_state(state)),
            _ => {
                let legal = state.legal_mask();
                if legal.is_power_of_two() {
                    return nth_action(legal, 0);
                }
                let player = state.current_player().unwrap_or(0);
                self.search(&state.observation(player, score), legal, seed, control)
            }
        }
    }

    /// [`Policy::choose`] from the player's observation and the legal actions' mask, as an
    /// agent called from outside the engine sees the game.
    pub(crate) fn choose_seen(
        self,
        obs: &Observation,
        legal: u128,
        stream: &mut GameRng,
        seed: u64,
        control: Control<'_>,
    ) -> Action {
        match self {
            Policy::Random => random_action(legal, stream),
            Policy::Heuristic => heuristic_action(&View::of_observation(obs, legal)),
            _ if legal.is_power_of_two() => nth_action(legal, 0),
            _ => self.search(obs, legal, seed, control),
        }
    }

    /// Each legal action with its value for a search policy (PIMC's mean double-dummy
    /// points, the expert's weighted mean), the worlds drawn from the decision's seed
    /// (`rng::decision_seed`); `None` for the other policies. Once `control` is cancelled,
    /// no values.
    pub(crate) fn values(
        self,
        obs: &Observation,
        seed: u64,
        control: Control<'_>,
    ) -> Option<Result<Vec<(Action, f64)>, SampleError>> {
        self.search_for(obs, seed, Goal::Values, control)
    }

    /// How the policy weights the worlds it samples for `obs`: the effective sample size of
    /// the weighted pool of candidate worlds that its search ([`Policy::values`], the same
    /// decision seed) resamples its worlds from, and the pool's size; `Ok(None)` where it
    /// solves unweighted worlds (PIMC always; the others while the opponent's decisions say
    /// nothing); `None` for a policy that does not search.
    pub(crate) fn inference_spread(
        self,
        obs: &Observation,
        seed: u64,
    ) -> Option<Result<Option<(f64, usize)>, SampleError>> {
        let (row, worlds) = self.row();
        let (search, worlds) = (row.search.as_ref()?, usize::from(worlds?));
        Some((search.spread)(
            obs,
            worlds,
            rng::decision_seed(seed, obs.key()),
        ))
    }

    /// [`Policy::values`] for `goal`: all of them, or what the best action needs.
    fn search_for(
        self,
        obs: &Observation,
        seed: u64,
        goal: Goal,
        control: Control<'_>,
    ) -> Option<Result<Vec<(Action, f64)>, SampleError>> {
        let (row, worlds) = self.row();
        let (search, worlds) = (row.search.as_ref()?, worlds?);
        let decision = rng::decision_seed(seed, obs.key());
        Some((search.run)(
            obs,
            usize::from(worlds),
            decision,
            goal,
            control,
        ))
    }

    /// The search policies' choice: the best value ([`best_action`]), searched for that
    /// alone ([`Goal::Choice`]: the same action as [`Policy::values`] gives); the
    /// heuristic's if no world can be sampled (or the search was stopped).
    fn search(self, obs: &Observation, legal: u128, seed: u64, control: Control<'_>) -> Action {
        match self.search_for(obs, seed, Goal::Choice, control) {
            Some(Ok(values)) => best_action(&values),
            _ => None,
        }
        .unwrap_or_else(|| heuristic_action(&View::of_observation(obs, legal)))
    }
}

/// The action with the best value, ties to the lowest action id: the one tie-break of every
/// search agent. `values` are in action-id order.
pub fn best_action(values: &[(Action, f64)]) -> Option<Action> {
    values
        .iter()
        .rev()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| *a)
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
                    let a = policy.choose(&s, [0, 0], &mut rng, 1, Control::NONE);
                    assert!(s.is_legal(a), "{a} in {:?}", s.legal_actions());
                    s.apply_unchecked(a);
                }
            }
        }
    }

    #[test]
    fn pimc_policy_plays_legal_actions() {
        let mut rng = rng_from_seed(2);
        let mut s = DealState::from_seed(4, 0, Rules::default()).unwrap();
        while !s.is_over() {
            let a = Policy::Pimc(4).choose(&s, [0, 0], &mut rng, 2, Control::NONE);
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
            let x = Policy::Expert(2).choose(&s, [0, 0], &mut a, 4, Control::NONE);
            assert_eq!(
                x,
                Policy::Expert(2).choose(&s, [0, 0], &mut b, 4, Control::NONE)
            );
            assert!(s.is_legal(x), "{x} in {:?}", s.legal_actions());
            s.apply_unchecked(x);
        }
    }

    /// The choice from the state and the choice from the observation are one choice: the
    /// engine's agents and the agents Python calls draw and decide alike.
    #[test]
    fn choosing_from_the_state_or_the_observation_is_the_same() {
        for policy in [
            Policy::Random,
            Policy::Heuristic,
            Policy::Pimc(2),
            Policy::Expert(2),
        ] {
            let (mut a, mut b) = (rng_from_seed(8), rng_from_seed(8));
            let mut s = DealState::from_seed(11, 1, Rules::default()).unwrap();
            while !s.is_over() {
                let player = s.current_player().unwrap();
                let x = policy.choose(&s, [3, 5], &mut a, 21, Control::NONE);
                let seen = s.observation(player, [3, 5]);
                assert_eq!(
                    x,
                    policy.choose_seen(&seen, s.legal_mask(), &mut b, 21, Control::NONE),
                    "{policy:?}"
                );
                s.apply_unchecked(x);
            }
            assert_eq!(a, b);
        }
    }

    #[test]
    fn ties_go_to_the_lowest_action_id() {
        let values = [
            (Action::Propose, 0.5),
            (Action::Decline, 1.0),
            (Action::Accept, 1.0),
            (Action::Refuse, -1.0),
        ];
        assert_eq!(best_action(&values), Some(Action::Decline));
        assert_eq!(best_action(&[]), None);
    }
}
