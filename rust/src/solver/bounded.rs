//! Solves with a budget, and bound tests: "is the value at least `bound`?", answered by the
//! search's own null-window test without working out the exact value.

use super::search::Search;
use super::{solution, with_search, Draws, Objective, Root, Solution, SolveError};
use crate::duel::state::DealState;

/// A search that may give up: its answer, or the nodes it searched before it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limited<T> {
    /// The search ended within its budget.
    Done(T),
    /// The search needed more than `max_nodes` nodes; it searched `nodes` (at most
    /// `max_nodes`) and stopped, with no answer.
    GaveUp {
        /// The nodes searched before stopping.
        nodes: u64,
        /// The budget it was given.
        max_nodes: u64,
    },
}

/// The answer to a bound test: whether the value for the player to move is at least
/// `bound`, in the objective's unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundTest {
    /// The bound tested.
    pub bound: i32,
    /// Whether the exact value is at least `bound`.
    pub at_least: bool,
    /// Search nodes visited (see [`super::NODE_COUNT_VERSION`]).
    pub nodes: u64,
}

/// [`super::solve`] within `max_nodes` nodes (no limit with `None`): the solution, or
/// [`Limited::GaveUp`] when the value and every best action need more.
pub fn solve_limited(
    state: &DealState,
    objective: Objective,
    max_nodes: Option<u64>,
) -> Result<Limited<Solution>, SolveError> {
    let root = Root::new(state)?;
    let cards = root.cards(state);
    Ok(within(state, max_nodes, |search| {
        solution(&root, &cards, search, objective)
    }))
}

/// Whether the exact value of a play-phase position for the player to move is at least
/// `bound` (deal points or cards, as `objective` says), within `max_nodes` nodes (no limit
/// with `None`). One null-window test where the value takes up to three (points) or a binary
/// search (cards); a bound no result can fail or reach is answered without a search.
pub fn test_bound(
    state: &DealState,
    objective: Objective,
    bound: i32,
    max_nodes: Option<u64>,
) -> Result<Limited<BoundTest>, SolveError> {
    let root = Root::new(state)?;
    let cards = root.cards(state);
    Ok(within(state, max_nodes, |search| {
        let at_least = match metric_for(&root, objective, bound) {
            Ok(k) => root.some_action_ge(search, &cards, k),
            Err(settled) => settled,
        };
        BoundTest {
            bound,
            at_least,
            nodes: search.nodes,
        }
    }))
}

/// Runs `f` on the search of `state` with at most `max_nodes` nodes: its answer, or
/// [`Limited::GaveUp`] once the search stopped (whatever `f` made of it).
fn within<T>(
    state: &DealState,
    max_nodes: Option<u64>,
    f: impl FnOnce(&mut Search) -> T,
) -> Limited<T> {
    with_search(state, Draws::Rules, None, |search| {
        let limit = max_nodes.unwrap_or(u64::MAX);
        search.limit_nodes(limit);
        let answer = f(search);
        if search.stopped {
            Limited::GaveUp {
                nodes: search.nodes,
                max_nodes: limit,
            }
        } else {
            Limited::Done(answer)
        }
    })
}

/// The metric over the remaining tricks (see the search's notes) that the mover must reach
/// for a value of at least `bound`: `Ok(k)`, or `Err(answer)` when the bound is settled
/// whatever happens (below every result, or above every reachable one).
fn metric_for(root: &Root, objective: Objective, bound: i32) -> Result<i32, bool> {
    match objective {
        Objective::Points => {
            // The levels run best first; the value is at least `bound` iff the worst level
            // still at or above it is reached.
            let levels = root.points_levels();
            match levels.iter().rev().find(|(points, _)| *points >= bound) {
                None | Some((_, None)) => Err(false),
                Some((_, Some(k))) if *k <= 0 => Err(true),
                Some((_, Some(k))) => Ok(*k),
            }
        }
        Objective::Cards => {
            // cards = cards taken + 2 * tricks to come, and tricks >= t iff metric >= 2t.
            let tricks = (i64::from(bound) - i64::from(root.cards_taken) + 1).div_euclid(2);
            if tricks <= 0 {
                Err(true)
            } else if tricks > i64::from(root.remaining) {
                Err(false)
            } else {
                Ok(2 * tricks as i32)
            }
        }
    }
}
