//! The double-dummy solver of the duel's play phase, and the sampler of worlds consistent
//! with one player's observation.
//!
//! Double-dummy: both sides see every card and the talon order, so the rest of the deal is
//! a deterministic two-player game. [`solve`] gives its exact value for the player to move,
//! every action that achieves it and the nodes searched; [`action_values`] gives every legal
//! action's exact value (what a Monte Carlo player averages).

mod bounded;
mod endgame;
pub(crate) mod packed;
pub(crate) mod pimc;
pub(crate) mod record;
pub(crate) mod sampler;
mod search;
mod table;
#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::state::{DealState, Phase};
use packed::{representative, set_to_internal, to_internal};
use search::Search;

pub use bounded::{solve_limited, test_bound, BoundTest, Limited};

/// The version of what [`Solution::nodes`] counts, so that counts are compared only between
/// builds that count alike. A node is one test of the trick's leader at a trick boundary
/// ("can the leader reach a metric of at least `k`?", see the search's notes) that its
/// arguments alone do not settle: answered by the transposition table, by the endgame
/// tables or by searching the leads. Replies within a trick, the root's own bookkeeping and
/// the one-time building of the endgame tables are not nodes. The same position gives the
/// same count on every machine and thread count, since a solve never reads the table left
/// by another; any change to the search that changes the count of some position (the move
/// order, the table's size or replacement, the endgame tables' reach) bumps this number, and
/// a test pins the counts of fixed positions so that such a change cannot go unnoticed.
pub const NODE_COUNT_VERSION: u32 = 1;

/// What the solver maximises for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Objective {
    /// Deal points: +2 (a vole won), +1, -1 or -2 (a vole lost).
    #[default]
    Points,
    /// Cards taken by the end of the deal, those already taken included.
    Cards,
}

impl Objective {
    /// The objective named `points` or `cards`.
    pub fn parse(text: &str) -> Option<Objective> {
        match text {
            "points" => Some(Objective::Points),
            "cards" => Some(Objective::Cards),
            _ => None,
        }
    }
}

/// The exact result of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Deal points (or cards, see [`Objective`]) for the player to move.
    pub value: i32,
    /// Every legal action that achieves `value`, in action-id order.
    pub best_actions: Vec<Action>,
    /// Search nodes visited (see [`NODE_COUNT_VERSION`] for what counts).
    pub nodes: u64,
}

/// Why the solver could not solve a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Only play-phase positions are solved.
    NotPlayPhase(Phase),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NotPlayPhase(phase) => write!(
                f,
                "the solver needs a play-phase position, this deal is in the {} phase",
                phase.name()
            ),
        }
    }
}

impl std::error::Error for SolveError {}

thread_local! {
    // One table per thread, reused: allocating and clearing it would dominate small solves.
    static SEARCH: RefCell<Search> = RefCell::new(Search::new());
}

/// The root of a solve, from the point of view of the player to move.
struct Root {
    /// The mover's hand and the other hand (internal indices).
    mine: u32,
    theirs: u32,
    /// The card the other side led to this trick, if any.
    lead: Option<u8>,
    /// Tricks left, the current one included.
    remaining: i32,
    /// Tricks the mover has taken, and tricks played, so far.
    taken: i32,
    played: i32,
    total: i32,
    cards_taken: i32,
    legal: Vec<Action>,
    /// The live cards: both hands, the undrawn talon and the card led, if any.
    live: u32,
    /// Tests already answered at the root: (representative card, threshold, result).
    answered: RefCell<Vec<(u8, i32, bool)>>,
}

impl Root {
    fn new(state: &DealState) -> Result<Root, SolveError> {
        if state.phase() != Phase::Play {
            return Err(SolveError::NotPlayPhase(state.phase()));
        }
        let order = state.rules().order;
        let me = state.current_player().unwrap_or(0);
        let mine = set_to_internal(state.hand_set(me), order);
        let theirs = set_to_internal(state.hand_set(1 - me), order);
        let lead = state.lead().map(|c| to_internal(c, order));
        let talon = state
            .talon()
            .iter()
            .fold(0u32, |set, &c| set | 1 << to_internal(c, order));
        Ok(Root {
            mine,
            theirs,
            lead,
            live: mine | theirs | talon | lead.map_or(0, |c| 1 << c),
            answered: RefCell::new(Vec::new()),
            remaining: (mine.count_ones() as usize + state.talon_size() / 2) as i32,
            taken: i32::from(state.tricks_taken()[me as usize]),
            played: state.trick_count() as i32,
            total: state.total_tricks() as i32,
            cards_taken: i32::from(state.cards_taken()[me as usize]),
            legal: state.legal_actions(),
        })
    }

    /// Can the mover reach a metric of at least `k` over the remaining tricks (this one
    /// included) after playing `card`?
    fn action_ge(&self, search: &mut Search, card: u8, k: i32) -> bool {
        // Equivalent cards (no live card between them) have the same value: answer once.
        let card = representative(card, self.mine, self.live);
        if let Some(&(_, _, result)) = self
            .answered
            .borrow()
            .iter()
            .find(|&&(c, threshold, _)| c == card && threshold == k)
        {
            return result;
        }
        let result = self.search_ge(search, card, k);
        self.answered.borrow_mut().push((card, k, result));
        result
    }

    fn search_ge(&self, search: &mut Search, card: u8, k: i32) -> bool {
        let mine = self.mine & !(1 << card);
        match self.lead {
            None => search.lead_card_ge(mine, self.theirs, card, 0, self.remaining, k),
            // The mover follows: the other side is the trick's leader, whose test is the
            // complement: leader's m >= 2r + 1 - (k - 1) fails iff mover's m >= k.
            Some(lead) => {
                let leader_k = 2 * self.remaining + 1 - k + 1;
                !search.reply_ge(self.theirs, mine, lead, card, 0, self.remaining, leader_k)
            }
        }
    }

    /// The smallest metric reaching each points level, best level first: vole won, won,
    /// lost, vole lost. `None` when the level is out of reach whatever happens.
    fn points_levels(&self) -> [(i32, Option<i32>); 4] {
        let vole = (self.taken == self.played).then_some(2 * self.remaining + 1);
        let win = (self.total - 2 * self.taken + 1).max(0);
        let not_voled = if self.taken == 0 { 2 } else { 0 };
        [
            (2, vole),
            (1, Some(win)),
            (-1, Some(not_voled)),
            (-2, Some(0)),
        ]
    }

    /// The legal actions with their cards (internal indices).
    fn cards(&self, state: &DealState) -> Vec<(Action, u8)> {
        let order = state.rules().order;
        self.legal
            .iter()
            .map(|&a| (a, a.card().map_or(0, |c| to_internal(c, order))))
            .collect()
    }

    /// The position's exact value and the metric threshold that reaches it.
    fn value(
        &self,
        search: &mut Search,
        cards: &[(Action, u8)],
        objective: Objective,
    ) -> (i32, i32) {
        match objective {
            Objective::Points => {
                let levels = self.points_levels();
                let reachable = |search: &mut Search, k: Option<i32>| {
                    k.is_some_and(|k| self.some_action_ge(search, cards, k))
                };
                let level = if reachable(search, levels[1].1) {
                    if reachable(search, levels[0].1) {
                        levels[0]
                    } else {
                        levels[1]
                    }
                } else if reachable(search, levels[2].1) {
                    levels[2]
                } else {
                    levels[3]
                };
                (level.0, level.1.unwrap_or(0))
            }
            Objective::Cards => {
                let (mut lo, mut hi) = (0, self.remaining);
                while lo < hi {
                    let mid = (lo + hi + 1) / 2;
                    if self.some_action_ge(search, cards, 2 * mid) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                (self.cards_taken + 2 * lo, 2 * lo)
            }
        }
    }

    /// Can the mover reach a metric of at least `k` by some action? When the mover leads,
    /// this is the search's own test at the root, which orders the leads (the table's best
    /// lead first, see `Search::order_leads`) where the actions one by one, in action-id
    /// order, would search a failing lead first as often as not.
    fn some_action_ge(&self, search: &mut Search, cards: &[(Action, u8)], k: i32) -> bool {
        match self.lead {
            None => search.lead_ge(self.mine, self.theirs, 0, k),
            Some(_) => cards.iter().any(|&(_, c)| self.action_ge(search, c, k)),
        }
    }

    /// The exact value of playing `card`.
    fn action_value(&self, search: &mut Search, card: u8, objective: Objective) -> i32 {
        match objective {
            Objective::Points => {
                let levels = self.points_levels();
                // Win or lose first, then vole or not.
                let won = self.action_ge(search, card, levels[1].1.unwrap_or(0));
                let (hi, lo) = if won {
                    (levels[0], levels[1])
                } else {
                    (levels[2], levels[3])
                };
                match hi.1 {
                    Some(k) if self.action_ge(search, card, k) => hi.0,
                    _ => lo.0,
                }
            }
            Objective::Cards => {
                // Binary search for the most tricks: metric >= 2t.
                let (mut lo, mut hi) = (0, self.remaining);
                while lo < hi {
                    let mid = (lo + hi + 1) / 2;
                    if self.action_ge(search, card, 2 * mid) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                self.cards_taken + 2 * lo
            }
        }
    }
}

/// How the undrawn talon reaches the hands in a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draws {
    /// By the rules: the trick's winner draws the top card, the loser the next.
    #[default]
    Rules,
    /// By seat: the player to move takes the 1st, 3rd, 5th... undrawn card and the other
    /// seat the 2nd, 4th... whoever wins each trick; the last pair (the turn-up's) goes by
    /// the rules. In a world sampled uniformly the two cards of a pair are exchangeable, so
    /// each seat's draws have the same distribution as under the rules, but the solver can
    /// no longer win or lose a trick for a card it knows is coming: a clairvoyance no real
    /// player has, and a source of strategy fusion in PIMC.
    BySeat,
}

/// Solves made in one scope share their transposition table, on each thread: the solves of
/// one decision (its worlds, its options) reuse each other's work wherever the talons to come
/// agree (see `table`). Values are exact either way; only the work differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope(u64);

impl Scope {
    /// A scope no solve has used.
    pub fn fresh() -> Scope {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Scope(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

fn with_search<T>(
    state: &DealState,
    draws: Draws,
    scope: Option<Scope>,
    f: impl FnOnce(&mut Search) -> T,
) -> T {
    let order = state.rules().order;
    let talon: Vec<u8> = state
        .talon()
        .iter()
        .map(|&c| to_internal(c, order))
        .collect();
    let trump = state.trump().index() as u8;
    let by_seat_mover = (draws == Draws::BySeat).then(|| {
        let mover = state.current_player().unwrap_or(0);
        set_to_internal(state.hand_set(mover), order)
    });
    SEARCH.with(|cell| {
        let mut search = cell.borrow_mut();
        search.reset(&talon, trump, by_seat_mover, scope.map(|s| s.0));
        f(&mut search)
    })
}

/// Every legal action with its exact value, in action-id order, and the nodes searched.
pub fn action_values(
    state: &DealState,
    objective: Objective,
) -> Result<(Vec<(Action, i32)>, u64), SolveError> {
    action_values_with(state, objective, Draws::Rules)
}

/// [`action_values`] with the talon drawn as `draws` says.
pub fn action_values_with(
    state: &DealState,
    objective: Objective,
    draws: Draws,
) -> Result<(Vec<(Action, i32)>, u64), SolveError> {
    action_values_in(state, objective, draws, None)
}

/// [`action_values_with`], sharing the table with the other solves of `scope`.
pub fn action_values_in(
    state: &DealState,
    objective: Objective,
    draws: Draws,
    scope: Option<Scope>,
) -> Result<(Vec<(Action, i32)>, u64), SolveError> {
    action_values_where(state, objective, draws, scope, |_| true)
}

/// [`action_values_in`] for the legal actions whose index `wanted` accepts (in action-id
/// order); the others are not searched and get 0.
pub fn action_values_where(
    state: &DealState,
    objective: Objective,
    draws: Draws,
    scope: Option<Scope>,
    wanted: impl Fn(usize) -> bool,
) -> Result<(Vec<(Action, i32)>, u64), SolveError> {
    let root = Root::new(state)?;
    let order = state.rules().order;
    Ok(with_search(state, draws, scope, |search| {
        let values = root
            .legal
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let card = a.card().map_or(0, |c| to_internal(c, order));
                let value = if wanted(i) {
                    root.action_value(search, card, objective)
                } else {
                    0
                };
                (a, value)
            })
            .collect();
        (values, search.nodes)
    }))
}

/// The exact double-dummy value of a play-phase position for the player to move.
pub fn solve(state: &DealState, objective: Objective) -> Result<Solution, SolveError> {
    solve_with(state, objective, Draws::Rules)
}

/// [`solve`] with the talon drawn as `draws` says.
pub fn solve_with(
    state: &DealState,
    objective: Objective,
    draws: Draws,
) -> Result<Solution, SolveError> {
    let root = Root::new(state)?;
    let cards = root.cards(state);
    Ok(with_search(state, draws, None, |search| {
        solution(&root, &cards, search, objective)
    }))
}

/// The value and every best action of `root` (whose legal actions are `cards`), searched
/// with `search`, already reset for its position.
fn solution(
    root: &Root,
    cards: &[(Action, u8)],
    search: &mut Search,
    objective: Objective,
) -> Solution {
    let (value, threshold) = root.value(search, cards, objective);
    let best_actions = cards
        .iter()
        .filter(|&&(_, c)| root.action_ge(search, c, threshold))
        .map(|&(a, _)| a)
        .collect();
    Solution {
        value,
        best_actions,
        nodes: search.nodes,
    }
}

/// The exact value of a play-phase position in deal points for the player to move, sharing
/// the table with the other solves of `scope`: [`solve_with`]'s value, without the search
/// for every best action.
pub fn points_in(state: &DealState, draws: Draws, scope: Scope) -> Result<i32, SolveError> {
    let root = Root::new(state)?;
    let cards = root.cards(state);
    Ok(with_search(state, draws, Some(scope), |search| {
        root.value(search, &cards, Objective::Points).0
    }))
}

/// Solves a batch in parallel on the rayon pool; results are in input order. Each solved
/// position counts one on `control`; once it is cancelled no further position is solved,
/// and the results are incomplete.
pub fn solve_many(
    states: &[DealState],
    objective: Objective,
    control: Control<'_>,
) -> Vec<Result<Solution, SolveError>> {
    states
        .par_iter()
        .map(|s| {
            (!control.cancelled()).then(|| {
                let solution = solve(s, objective);
                control.advance(1);
                solution
            })
        })
        .while_some()
        .collect()
}

/// Like [`solve_many`], with each solve's own time (on the thread that solved it): what
/// the solver benchmark reports. A thread's one-time table build ([`prepare`]) is done
/// before its first solve's clock starts, so no time includes it.
pub fn solve_many_timed(
    states: &[DealState],
    objective: Objective,
    control: Control<'_>,
) -> Vec<(Result<Solution, SolveError>, std::time::Duration)> {
    states
        .par_iter()
        .map(|s| {
            (!control.cancelled()).then(|| {
                prepare();
                let start = std::time::Instant::now();
                let result = solve(s, objective);
                let elapsed = start.elapsed();
                control.advance(1);
                (result, elapsed)
            })
        })
        .while_some()
        .collect()
}

/// The benchmark position of `seed` after `exchanges` exchanges: the deal of `seed` with
/// dealer 0, each discard the first legal one (lowest in pack order), then play starts.
/// `benches/` and the Python benchmark script use the same positions.
#[doc(hidden)]
pub fn bench_position(seed: u64, exchanges: u8) -> DealState {
    let mut state = DealState::from_seed(seed, 0, crate::duel::Rules::default())
        .unwrap_or_else(|_| unreachable!("seat 0 and default rules are valid"));
    let mut made = 0;
    while state.phase() != Phase::Play {
        let legal = state.legal_actions();
        let action = match legal[0] {
            Action::Propose if made == exchanges => Action::Decline,
            Action::Propose => {
                made += 1;
                Action::Propose
            }
            first => first,
        };
        state.apply_unchecked(action);
    }
    state
}

/// Builds what the first solve on this thread would otherwise build: the endgame tables all
/// threads share (once a process) and this thread's transposition table. Returns the time
/// it took, next to nothing once they are built: `ecarte bench solver` reports this
/// one-time cost apart from the solves.
pub fn prepare() -> std::time::Duration {
    let start = std::time::Instant::now();
    SEARCH.with(|_| ());
    start.elapsed()
}
