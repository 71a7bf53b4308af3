//! Perfect-Information Monte Carlo: average each legal action's double-dummy value over
//! worlds sampled from the player's information set.
//!
//! Play-phase actions are valued by the solver directly. An exchange-phase option
//! (propose, decline, accept, refuse, a discard) is applied in each world, the rest of the
//! exchange phase is played by [`rollout_action`] (a fixed rule of thumb for both seats),
//! and the play phase that follows is solved double-dummy.

use rayon::prelude::*;

use super::sampler::{sample_worlds, SampleError};
use super::{action_values, solve, Objective};
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::policy::{heuristic_action, View};
use crate::duel::state::{DealState, Phase};

/// The fixed exchange policy of the rollouts, for both seats: the native heuristic's
/// (exchange while the hand is weak, discard the weakest card, trumps last).
pub fn rollout_action(state: &DealState) -> Option<Action> {
    match state.phase() {
        Phase::Play | Phase::Over => None,
        _ => Some(heuristic_action(&View::of_state(state))),
    }
}

/// The points `player` gets from `state` when the exchange phase is played out by the
/// rollout policy and the play phase double-dummy.
fn rollout_value(mut state: DealState, player: u8) -> f64 {
    while state.phase() != Phase::Play && !state.is_over() {
        match rollout_action(&state) {
            Some(a) => state.apply_unchecked(a),
            None => break,
        }
    }
    let Ok(solution) = solve(&state, Objective::Points) else {
        return 0.0;
    };
    let v = f64::from(solution.value);
    if state.current_player() == Some(player) {
        v
    } else {
        -v
    }
}

/// The values of one world: every legal action's points for the player to move.
fn world_values(world: &DealState) -> Vec<f64> {
    let me = world.current_player().unwrap_or(0);
    if world.phase() == Phase::Play {
        return action_values(world, Objective::Points).map_or_else(
            |_| Vec::new(),
            |(values, _)| values.into_iter().map(|(_, v)| f64::from(v)).collect(),
        );
    }
    world
        .legal_actions()
        .into_iter()
        .map(|a| {
            let mut child = *world;
            child.apply_unchecked(a);
            rollout_value(child, me)
        })
        .collect()
}

/// Each legal action with its mean value over `samples` worlds, in action-id order.
pub fn pimc_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
) -> Result<Vec<(Action, f64)>, SampleError> {
    let worlds = sample_worlds(obs, samples.max(1), seed)?;
    let legal = worlds[0].legal_actions();
    let per_world: Vec<Vec<f64>> = worlds.par_iter().map(world_values).collect();
    let n = per_world.len() as f64;
    Ok(legal
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            let total: f64 = per_world
                .iter()
                .map(|v| v.get(i).copied().unwrap_or(0.0))
                .sum();
            (a, total / n)
        })
        .collect())
}
