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
use super::{action_values_where, points_in, Draws, Objective, Scope};
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

/// The values of one world: every legal action's points for the player to move, those of
/// the actions `wanted` rules out left at 0 and not searched.
fn world_values(
    world: &DealState,
    rollout: Rollout,
    draws: Draws,
    scope: Scope,
    wanted: &[bool],
) -> Vec<f64> {
    let me = world.current_player().unwrap_or(0);
    let wanted = |i: usize| wanted.get(i).copied().unwrap_or(true);
    if world.phase() == Phase::Play {
        return action_values_where(world, Objective::Points, draws, Some(scope), wanted)
            .map_or_else(
                |_| Vec::new(),
                |(values, _)| values.into_iter().map(|(_, v)| f64::from(v)).collect(),
            );
    }
    world
        .legal_actions()
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            if !wanted(i) {
                return 0.0;
            }
            let mut child = *world;
            child.apply_unchecked(a);
            rollout_value(child, me, rollout, draws, scope)
        })
        .collect()
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every legal action's mean value over all the worlds.
    Values,
    /// Only the best action, the one [`Goal::Values`]' values give (ties to the lowest
    /// action id): the worlds are solved a few at a time, and an action that those solved
    /// so far prove worse than another, whatever the worlds left give (a deal's points lie
    /// in -2..=2), is not solved in the worlds left. Its value comes back as -inf; once one
    /// action is left, the search stops, its value being its mean so far.
    Choice,
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
    pimc_search(obs, samples, seed, rollout, Goal::Values, control)
}

/// [`pimc_values`] for `goal`: all the values, or what the best action needs.
pub fn pimc_search(
    obs: &Observation,
    samples: usize,
    seed: u64,
    rollout: Rollout,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    if control.cancelled() {
        return Ok(Vec::new());
    }
    let worlds = sample_worlds(obs, samples.max(1), seed)?;
    let weights = vec![1.0; worlds.len()];
    let values = weighted_values(&worlds, &weights, rollout, Draws::Rules, goal, control);
    Ok(values.unwrap_or_default())
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

/// The worlds of positive weight, copies merged ([`merge_copies`]), with their total
/// weight; `None` when there is none.
fn chosen_worlds<'a>(
    worlds: &'a [DealState],
    weights: &[f64],
) -> Option<(Vec<(&'a DealState, f64)>, f64)> {
    let chosen: Vec<(&DealState, f64)> = worlds
        .iter()
        .zip(weights)
        .filter(|(_, &w)| w > 0.0)
        .map(|(s, &w)| (s, w))
        .collect();
    let total: f64 = chosen.iter().map(|(_, w)| w).sum();
    let chosen = merge_copies(chosen);
    (!chosen.is_empty() && total > 0.0).then_some((chosen, total))
}

/// Each legal action of `worlds` (all at the same information set) with its mean value
/// over the worlds, world `i` counting `weights[i]` times (a world of weight 0 is not
/// solved), in action-id order, the solves drawing as `draws` says, the values all there
/// or what `goal` needs. `None` when there is no world or no positive weight, or once
/// `control` is cancelled (no further world is solved).
pub fn weighted_values(
    worlds: &[DealState],
    weights: &[f64],
    rollout: Rollout,
    draws: Draws,
    goal: Goal,
    control: Control<'_>,
) -> Option<Vec<(Action, f64)>> {
    let (chosen, total) = chosen_worlds(worlds, weights)?;
    let legal = chosen[0].0.legal_actions();
    let scope = Scope::fresh();
    // The bounds of a choice hold for sums of whole numbers, which are exact.
    let whole = chosen.iter().all(|(_, w)| w.fract() == 0.0);
    // A world at a time where the worlds are solved one after the other: on one thread, or
    // inside a parallel run (an arena, a simulation), which keeps the cores busy with its
    // own items; a few per thread for a caller outside the pool, to keep its threads busy.
    let one_by_one = rayon::current_thread_index().is_some() || rayon::current_num_threads() == 1;
    let batch = match (goal, whole, one_by_one) {
        (Goal::Choice, true, true) => 1,
        (Goal::Choice, true, false) => 2 * rayon::current_num_threads(),
        _ => chosen.len(),
    };
    let mut wanted = vec![true; legal.len()];
    let mut sums = vec![0.0; legal.len()];
    let (mut left, mut counted) = (total, 0.0);
    for worlds in chosen.chunks(batch) {
        let per_world = solve_worlds(worlds, rollout, draws, scope, &wanted, control)?;
        for (values, (_, weight)) in per_world.iter().zip(worlds) {
            for (i, sum) in sums.iter_mut().enumerate() {
                *sum += weight * values.get(i).copied().unwrap_or(0.0);
            }
            left -= weight;
            counted += weight;
        }
        if batch < chosen.len() && rule_out(&sums, &mut wanted, left) {
            break;
        }
    }
    let denominator = if wanted.iter().filter(|&&w| w).count() == 1 {
        counted
    } else {
        total
    };
    Some(
        legal
            .into_iter()
            .zip(sums.iter().zip(&wanted))
            .map(|(a, (sum, &kept))| {
                (
                    a,
                    if kept {
                        sum / denominator
                    } else {
                        f64::NEG_INFINITY
                    },
                )
            })
            .collect(),
    )
}

/// A legal action's value over weighted worlds: its mean and the mean's standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub action: Action,
    /// The weighted mean, exactly as [`weighted_values`] gives it for [`Goal::Values`].
    pub mean: f64,
    /// The standard error of the mean, each world counting as many draws as its weight:
    /// `sqrt(sum w (v - mean)^2 / (n - 1) / n)` with `n` the total weight; 0 for one world.
    pub se: f64,
}

/// [`weighted_values`] for [`Goal::Values`], each mean with its standard error. `None` as
/// there.
pub fn weighted_spreads(
    worlds: &[DealState],
    weights: &[f64],
    rollout: Rollout,
    draws: Draws,
    control: Control<'_>,
) -> Option<Vec<Spread>> {
    let (chosen, total) = chosen_worlds(worlds, weights)?;
    let legal = chosen[0].0.legal_actions();
    let wanted = vec![true; legal.len()];
    let per_world = solve_worlds(&chosen, rollout, draws, Scope::fresh(), &wanted, control)?;
    let value = |values: &Vec<f64>, i: usize| values.get(i).copied().unwrap_or(0.0);
    Some(
        legal
            .into_iter()
            .enumerate()
            .map(|(i, action)| {
                // Summed in world order, as `weighted_values` sums, so the means agree.
                let sum = per_world
                    .iter()
                    .zip(&chosen)
                    .fold(0.0, |sum, (values, (_, w))| sum + w * value(values, i));
                let mean = sum / total;
                let squares: f64 = per_world
                    .iter()
                    .zip(&chosen)
                    .map(|(values, (_, w))| w * (value(values, i) - mean).powi(2))
                    .sum();
                let se = if total > 1.0 {
                    (squares / (total - 1.0) / total).sqrt()
                } else {
                    0.0
                };
                Spread { action, mean, se }
            })
            .collect(),
    )
}

/// Each world's values of the `wanted` actions; `None` once `control` is cancelled.
fn solve_worlds(
    worlds: &[(&DealState, f64)],
    rollout: Rollout,
    draws: Draws,
    scope: Scope,
    wanted: &[bool],
    control: Control<'_>,
) -> Option<Vec<Vec<f64>>> {
    let solve = |(w, _): &(&DealState, f64)| {
        (!control.cancelled()).then(|| world_values(w, rollout, draws, scope, wanted))
    };
    // Outside rayon's pool with a single thread in it, the worlds are solved here: handing
    // them to that thread would cost a wake-up each way and gain nothing.
    let per_world: Vec<Vec<f64>> =
        if rayon::current_thread_index().is_none() && rayon::current_num_threads() == 1 {
            worlds.iter().map_while(solve).collect()
        } else {
            worlds.par_iter().map(solve).while_some().collect()
        };
    (!control.cancelled()).then_some(per_world)
}

/// The most a deal's points of one action can exceed another's in one world: +2 and -2.
const SPREAD: f64 = 4.0;

/// Rules out each wanted action that some other one beats whatever the worlds left give
/// (`sums` of whole numbers, `left` weight to come): its sum falls short of the best by
/// more than the worlds left can make up. Whether one action is left.
fn rule_out(sums: &[f64], wanted: &mut [bool], left: f64) -> bool {
    let best = sums
        .iter()
        .zip(wanted.iter())
        .filter(|(_, &w)| w)
        .map(|(&s, _)| s)
        .fold(f64::NEG_INFINITY, f64::max);
    for (sum, w) in sums.iter().zip(wanted.iter_mut()) {
        if *w && best - sum > SPREAD * left {
            *w = false;
        }
    }
    wanted.iter().filter(|&&w| w).count() == 1
}

#[cfg(test)]
mod tests {
    use super::rule_out;

    /// An action goes only when the worlds left cannot make up its gap to the best, even by
    /// the widest margin (+2 for it, -2 for the best, in each): an equal final sum, which
    /// the tie-break could decide its way, keeps it.
    #[test]
    fn an_action_goes_only_when_it_cannot_catch_up() {
        let mut wanted = vec![true; 4];
        // Two worlds left: 8 points can still be made up.
        assert!(!rule_out(&[10.0, 2.0, 1.0, 10.0], &mut wanted, 2.0));
        assert_eq!(wanted, [true, true, false, true]);
        assert!(rule_out(&[10.0, 2.0, 1.0, 9.0], &mut wanted, 0.0));
        assert_eq!(wanted, [true, false, false, false]);
        // Nothing left to solve: only the best stay, ties among them kept.
        let mut wanted = vec![true; 3];
        assert!(!rule_out(&[-3.0, -3.0, -4.0], &mut wanted, 0.0));
        assert_eq!(wanted, [true, true, false]);
    }
}
