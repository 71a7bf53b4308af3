//! Perfect-Information Monte Carlo: average each legal action's double-dummy value over
//! worlds sampled from the player's information set.
//!
//! Play-phase actions are valued by the solver directly. An exchange-phase option
//! (propose, decline, accept, refuse, a discard) is applied in each world, the rest of the
//! exchange phase is played by a [`Rollout`] policy that the caller passes in (agents live
//! in a layer above the solver), and the play phase that follows is solved double-dummy.
//! The solves draw the talon as the caller's [`Draws`] says: by the rules for plain PIMC,
//! by seat for the expert.

use std::collections::hash_map::{Entry, HashMap};

use rayon::prelude::*;

use super::sampler::{sample_worlds, SampleError};
use super::{action_values_in, points_in, Draws, Objective, Scope};
use crate::control::Control;
use crate::duel::action::{pack_index, Action};
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase};

/// The exchange-phase policy of the rollouts, for both seats: the action for the player to
/// move in an exchange-phase state.
pub type Rollout = fn(&DealState) -> Action;

/// The points `player` gets from `state` when the exchange phase is played out by
/// `rollout` and the play phase double-dummy.
fn rollout_value(
    mut state: DealState,
    player: u8,
    rollout: Rollout,
    draws: Draws,
    scope: Scope,
) -> f64 {
    while state.phase() != Phase::Play && !state.is_over() {
        state.apply_unchecked(rollout(&state));
    }
    let Ok(value) = points_in(&state, draws, scope) else {
        return 0.0;
    };
    let v = f64::from(value);
    if state.current_player() == Some(player) {
        v
    } else {
        -v
    }
}

/// The values of one world: every legal action's points for the player to move.
fn world_values(world: &DealState, rollout: Rollout, draws: Draws, scope: Scope) -> Vec<f64> {
    let me = world.current_player().unwrap_or(0);
    if world.phase() == Phase::Play {
        return action_values_in(world, Objective::Points, draws, Some(scope)).map_or_else(
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
            rollout_value(child, me, rollout, draws, scope)
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

/// What a world's values depend on: both hands and the talon in draw order (the hidden
/// discards and the past are the same for every world of one observation, or do not count).
fn future(world: &DealState) -> (u32, u32, u128) {
    let talon = world.talon().iter().fold(1u128, |key, &c| {
        key << 5 | pack_index(c).map_or(0, |i| i as u128)
    });
    (world.hand_set(0), world.hand_set(1), talon)
}

/// The worlds with different futures, each weighing what its copies weighed together, in
/// order of first appearance. Weights that are whole numbers (every caller's: counts)
/// make every mean the same as over the copies, exactly (the sums are of small integers);
/// other weights are left as they are.
fn merge_copies(chosen: Vec<(&DealState, f64)>) -> Vec<(&DealState, f64)> {
    if chosen.iter().any(|(_, w)| w.fract() != 0.0) {
        return chosen;
    }
    let mut first: HashMap<(u32, u32, u128), usize> = HashMap::new();
    let mut merged: Vec<(&DealState, f64)> = Vec::with_capacity(chosen.len());
    for (world, weight) in chosen {
        match first.entry(future(world)) {
            Entry::Occupied(i) => merged[*i.get()].1 += weight,
            Entry::Vacant(slot) => {
                slot.insert(merged.len());
                merged.push((world, weight));
            }
        }
    }
    merged
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
    let chosen = merge_copies(chosen);
    if chosen.is_empty() || total <= 0.0 {
        return None;
    }
    let legal = chosen[0].0.legal_actions();
    let scope = Scope::fresh();
    let solve = |(w, _): &(&DealState, f64)| {
        (!control.cancelled()).then(|| world_values(w, rollout, draws, scope))
    };
    // Outside rayon's pool with a single thread in it, the worlds are solved here: handing
    // them to that thread would cost a wake-up each way and gain nothing.
    let per_world: Vec<Vec<f64>> =
        if rayon::current_thread_index().is_none() && rayon::current_num_threads() == 1 {
            chosen.iter().map_while(solve).collect()
        } else {
            chosen.par_iter().map(solve).while_some().collect()
        };
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
