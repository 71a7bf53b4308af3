//! Perfect-Information Monte Carlo: average each legal action's double-dummy value over
//! worlds sampled from the player's information set.
//!
//! Play-phase actions are valued by the solver directly. An exchange-phase option
//! (propose, decline, accept, refuse, a discard) is applied in each world, the rest of the
//! exchange phase is played by a [`Rollout`] policy that the caller passes in (agents live
//! in a layer above the solver), and the play phase that follows is solved double-dummy.
//! The solves draw the talon as the caller's [`Draws`] says: by the rules for plain PIMC,
//! by seat for the expert.

use rayon::prelude::*;

use super::sampler::{sample_worlds, SampleError};
use super::{action_values_with, solve_with, Draws, Objective};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase};

/// The exchange-phase policy of the rollouts, for both seats: the action for the player to
/// move in an exchange-phase state.
pub type Rollout = fn(&DealState) -> Action;

/// The points `player` gets from `state` when the exchange phase is played out by
/// `rollout` and the play phase double-dummy.
fn rollout_value(mut state: DealState, player: u8, rollout: Rollout, draws: Draws) -> f64 {
    while state.phase() != Phase::Play && !state.is_over() {
        state.apply_unchecked(rollout(&state));
    }
    let Ok(solution) = solve_with(&state, Objective::Points, draws) else {
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
fn world_values(world: &DealState, rollout: Rollout, draws: Draws) -> Vec<f64> {
    let me = world.current_player().unwrap_or(0);
    if world.phase() == Phase::Play {
        return action_values_with(world, Objective::Points, draws).map_or_else(
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
            rollout_value(child, me, rollout, draws)
        })
        .collect()
}

/// Each legal action with its mean value over `samples` worlds, in action-id order; the
/// exchange phase of each world is played out by `rollout`. Once `control` is cancelled it
/// returns at once, with no values.
pub fn pimc_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
    rollout: Rollout,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    if control.cancelled() {
        return Ok(Vec::new());
    }
    let worlds = sample_worlds(obs, samples.max(1), seed)?;
    let weights = vec![1.0; worlds.len()];
    Ok(weighted_values(&worlds, &weights, rollout, Draws::Rules, control).unwrap_or_default())
}

/// Each legal action of `worlds` (all at the same information set) with its mean value
/// over the worlds, world `i` counting `weights[i]` times (a world of weight 0 is not
/// solved), in action-id order, the solves drawing as `draws` says. `None` when there is
/// no world or no positive weight, or once `control` is cancelled (no further world is
/// solved).
pub fn weighted_values(
    worlds: &[DealState],
    weights: &[f64],
    rollout: Rollout,
    draws: Draws,
    control: Control<'_>,
) -> Option<Vec<(Action, f64)>> {
    let chosen: Vec<(&DealState, f64)> = worlds
        .iter()
        .zip(weights)
        .filter(|(_, &w)| w > 0.0)
        .map(|(s, &w)| (s, w))
        .collect();
    let total: f64 = chosen.iter().map(|(_, w)| w).sum();
    if chosen.is_empty() || total <= 0.0 {
        return None;
    }
    let legal = chosen[0].0.legal_actions();
    let per_world: Vec<Vec<f64>> = chosen
        .par_iter()
        .map(|(w, _)| (!control.cancelled()).then(|| world_values(w, rollout, draws)))
        .while_some()
        .collect();
    if control.cancelled() {
        return None;
    }
    Some(
        legal
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let sum: f64 = per_world
                    .iter()
                    .zip(&chosen)
                    .map(|(v, (_, w))| w * v.get(i).copied().unwrap_or(0.0))
                    .sum();
                (a, sum / total)
            })
            .collect(),
    )
}
