//! The master: the expert's search over worlds weighted by the likelihood of the opponent's
//! plays as well as its exchange decisions.
//!
//! The expert reads only the opponent's proposals, declines, acceptances and refusals. The
//! master also reads how the opponent followed each trick it did not lead: in a world where
//! the heuristic, holding the opponent's hand there, would have played the card the opponent
//! played, the follow is likely; elsewhere it is less so. The model: the opponent follows
//! as the heuristic would with probability [`FOLLOW_AGREEMENT`] (the rate at which the
//! expert's own follows agree with the heuristic's, `benches/master_calibration.py`), and
//! otherwise plays any other legal card alike. Each candidate world of the pool is weighted
//! by the product of both models' probabilities, and the pool resampled down to the worlds
//! solved, as the expert does ([`super::expert`]). Leads are not read: the expert's leads
//! are rarely the heuristic's card, and the model predicts them no better than a uniform
//! choice (docs/agents.md, "master, master:N").

use super::expert::{
    decision_probability, exchange_log_probability, inference_spread, inferred_values,
    inferred_worlds, opponent_decided, opponent_log_sum, Inference, LogLikelihood,
};
use super::heuristic::{hand_value, heuristic_action, View};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase};
use crate::solver::pimc::Goal;
use crate::solver::sampler::{Draft, SampleError};

/// Worlds solved per decision of the master unless a count is given.
pub const DEFAULT_MASTER_SAMPLES: u16 = 40;

/// The modelled probability that the opponent follows a lead with the heuristic's card
/// (where it has more than one legal card): the rate measured on the expert's follows when
/// the model was fitted (0.74 on the build that shipped it, `benches/master_calibration.py`).
pub const FOLLOW_AGREEMENT: f64 = 0.76;

/// The log-probability of the follow `action` by the player to move in `state` under the
/// follow model; 0 where the play was forced.
fn follow_log_probability(state: &DealState, action: Action) -> f64 {
    let legal = state.legal_mask().count_ones();
    if legal < 2 {
        return 0.0;
    }
    if heuristic_action(&View::of_state(state)) == action {
        FOLLOW_AGREEMENT.ln()
    } else {
        ((1.0 - FOLLOW_AGREEMENT) / f64::from(legal - 1)).ln()
    }
}

/// The master's model of one decision, as a predictor of play: the log-probability it gives
/// to `action` by the player to move in `state`, and the action it finds likeliest. Exchange
/// decisions and follows are modelled as the master reads them; the decisions it does not
/// read (discards and leads) are uniform over the legal actions, with no likeliest.
pub(crate) fn modelled_decision(state: &DealState, action: Action) -> (f64, Option<Action>) {
    let legal = state.legal_mask();
    let uniform = -f64::from(legal.count_ones()).ln();
    match state.phase() {
        Phase::Proposal | Phase::Response => {
            let value = f64::from(hand_value(&View::of_state(state)));
            let (change, keep) = match state.phase() {
                Phase::Proposal => (Action::Propose, Action::Decline),
                _ => (Action::Accept, Action::Refuse),
            };
            let likeliest = if decision_probability(change, value) > 0.5 {
                change
            } else {
                keep
            };
            (exchange_log_probability(state, action), Some(likeliest))
        }
        Phase::Play if state.lead().is_some() => (
            follow_log_probability(state, action),
            Some(heuristic_action(&View::of_state(state))),
        ),
        _ => (uniform, None),
    }
}

/// The log-likelihood of the opponent's exchange decisions and follows in the world
/// `draft` of `obs`.
fn log_likelihood(draft: &Draft, obs: &Observation) -> f64 {
    opponent_log_sum(draft, obs, true, |state, action| match state.phase() {
        Phase::Proposal | Phase::Response => exchange_log_probability(state, action),
        Phase::Play if state.lead().is_some() => follow_log_probability(state, action),
        _ => 0.0,
    })
}

/// Each legal action of the observing player with its value: the mean double-dummy points,
/// the talon drawn by seat, over `samples` worlds resampled by the likelihood of the
/// opponent's exchange decisions and follows. Reproducible for a `seed`. Once `control` is
/// cancelled it returns at once, with no values.
pub fn master_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    master_search(obs, samples, seed, Goal::Values, control)
}

/// [`master_values`] for `goal`: all the values, or what the best action needs.
pub fn master_search(
    obs: &Observation,
    samples: usize,
    seed: u64,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    inferred_values(obs, samples, seed, master_inference(obs), goal, control)
}

/// How the master reads the opponent's decisions in `obs`.
fn master_inference(obs: &Observation) -> Inference<LogLikelihood> {
    // A finished trick holds a follow of the opponent's or of the observer's; either way
    // the pool is weighted (by the exchange decisions alone if the follows were all ours).
    Inference {
        informative: opponent_decided(obs) || !obs.tricks.is_empty(),
        log_likelihood,
        distinct: false,
    }
}

/// How the master weights its worlds for `obs`: the spread of the pool its search
/// resamples (see `expert::inference_spread`).
pub fn master_spread(
    obs: &Observation,
    samples: usize,
    seed: u64,
) -> Result<Option<(f64, usize)>, SampleError> {
    inference_spread(obs, samples, seed, master_inference(obs))
}

/// The worlds [`master_values`] solves for `obs`, each with how many times it counts: the
/// worlds of an analysis that values actions as the master does, with their spread.
pub fn master_worlds(
    obs: &Observation,
    samples: usize,
    seed: u64,
) -> Result<(Vec<DealState>, Vec<f64>), SampleError> {
    let worlds = inferred_worlds(obs, samples, seed, master_inference(obs))?;
    Ok((worlds.states, worlds.counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Rules;
    use crate::play::expert::expert_values;
    use crate::play::expert::tests::{checked_spreads, EVERYWHERE};
    use crate::play::heuristic::heuristic_rollout;
    use crate::play::policy::Policy;
    use crate::play::random::nth_action;

    /// Before the opponent has decided anything and before any trick, the master solves
    /// the expert's worlds.
    #[test]
    fn with_nothing_to_read_the_master_is_the_expert() {
        let state = DealState::from_seed(7, 0, Rules::default()).expect("a deal");
        let player = state.current_player().expect("a player to move");
        let obs = state.observation(player, [0, 0]);
        assert_eq!(
            master_values(&obs, 6, 11, Control::NONE),
            expert_values(&obs, 6, 11, Control::NONE)
        );
    }

    /// The master's reported spread is that of the pool its search resamples.
    #[test]
    fn the_masters_spread_is_its_searchs_pool() {
        let weighted = checked_spreads(
            Policy::Master(3),
            master_inference,
            heuristic_rollout,
            EVERYWHERE,
            4,
        )
        .len();
        assert!(weighted > 10, "{weighted} weighted");
    }

    /// The follow model is a distribution over the legal follows, the heuristic's card
    /// the likeliest.
    #[test]
    fn the_follow_model_sums_to_one() {
        let mut followed = 0;
        for seed in 0..40 {
            let mut state = DealState::from_seed(seed, 0, Rules::default()).expect("a deal");
            while state.current_player().is_some() {
                let legal = state.legal_mask();
                if state.phase() == Phase::Play && state.lead().is_some() && legal.count_ones() > 1
                {
                    let n = legal.count_ones();
                    let probabilities: Vec<f64> = (0..n)
                        .map(|i| follow_log_probability(&state, nth_action(legal, i)).exp())
                        .collect();
                    assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                    let heuristic = heuristic_action(&View::of_state(&state));
                    let top = (0..n).find(|&i| nth_action(legal, i) == heuristic);
                    let top = top.map_or(0.0, |i| probabilities[i as usize]);
                    assert!((top - FOLLOW_AGREEMENT).abs() < 1e-9, "{top}");
                    followed += 1;
                }
                state.apply_unchecked(heuristic_action(&View::of_state(&state)));
            }
        }
        assert!(followed > 20, "{followed} follows with a choice");
    }
}
