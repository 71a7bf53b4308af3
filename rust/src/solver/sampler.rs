//! Sampling complete worlds consistent with one player's observation.
//!
//! A world is a full deck (the opponent's hand, the talon order) plus the opponent's hidden
//! discards. The sampler targets this distribution: the deck uniform over the 32! orders,
//! each hidden discard uniform among the opponent's legal discards at that moment, the
//! whole conditioned on reproducing the observation exactly. Every rule inference (failing
//! to follow or to trump shows a void then, discards are non-trumps unless the hand was all
//! trumps, a played card was in hand when played, a card drawn later may end a void) follows
//! from the final check: the visible history must replay legally on the sampled deck.
//!
//! It is rejection sampling with a smarter proposal, corrected so the target is exact:
//! - cards the opponent played are placed first, in play order, each uniformly among the
//!   still free opponent positions that held a card by its play time. Those position sets
//!   only grow with time, so the number of choices at each step does not depend on the
//!   earlier choices, and the placement is uniform over all valid placements;
//! - the other unknown cards are shuffled uniformly into the remaining positions;
//! - each hidden discard is drawn among the legal discards the opponent does not play
//!   later, and kept with probability `allowed / legal`, so it is uniform among the legal
//!   ones given that the world stays consistent;
//! - the visible history is replayed with full legality checks; any failure rejects.
//!
//! Known bias, by design: the opponent's *plays* are treated as carrying no information
//! beyond the rules (they are not weighted by how likely the opponent was to make them),
//! as in every Perfect-Information Monte Carlo player. Relative to "uniform over
//! (deck, discards)", worlds where the opponent had more discard choices weigh less,
//! because the model has them discard at random.

use std::fmt;

use rand::seq::SliceRandom;
use rand::RngExt;

use crate::card::{rng_from_seed, Card, GameRng};
use crate::duel::action::{bit, pack_card, Action, PACK_SIZE};
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase, TALON_SIZE};

/// Attempts allowed per requested world before giving up.
const ATTEMPTS_PER_WORLD: usize = 100_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError {
    /// The observation is not one a deal can produce.
    Inconsistent(String),
    /// No consistent world was found within the attempt budget.
    Exhausted { found: usize, wanted: usize },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Inconsistent(why) => write!(f, "inconsistent observation: {why}"),
            SampleError::Exhausted { found, wanted } => write!(
                f,
                "found only {found} of {wanted} consistent worlds within the attempt budget"
            ),
        }
    }
}

impl std::error::Error for SampleError {}

/// A deck position the player cannot see, and from when its card was in the opponent's
/// hand (`None` for the undrawn talon).
#[derive(Clone, Copy)]
struct Slot {
    position: usize,
    opponent_from: Option<usize>,
}

/// Everything fixed across attempts.
struct Setup {
    deck: [Option<Card>; PACK_SIZE],
    slots: Vec<Slot>,
    /// Unknown cards the opponent was not seen to play.
    free_cards: Vec<Card>,
    /// The opponent's plays: card and action index, in order.
    opponent_plays: Vec<(Card, usize)>,
    opponent_played: u32,
}

/// The deck position of talon card `i` (the turn-up is drawn last).
fn talon_position(i: usize) -> usize {
    if i == TALON_SIZE - 1 {
        10
    } else {
        11 + i
    }
}

impl Setup {
    fn new(obs: &Observation) -> Result<Setup, SampleError> {
        let bad = |why: &str| SampleError::Inconsistent(why.to_string());
        let me = obs.player;
        let elder = 1 - obs.dealer;
        let mut deck: [Option<Card>; PACK_SIZE] = [None; PACK_SIZE];
        let (mine, theirs) = if me == elder {
            (0..5, 5..10)
        } else {
            (5..10, 0..5)
        };
        if obs.initial_hand.len() != 5 {
            return Err(bad("the initial hand must have five cards"));
        }
        for (pos, &card) in mine.zip(&obs.initial_hand) {
            deck[pos] = Some(card);
        }
        deck[10] = Some(obs.turn_up);
        let mut own_draws = obs.draws.iter();
        let mut talon_times = [usize::MAX; TALON_SIZE];
        Self::draw_times(obs, &mut talon_times);
        let mut slots: Vec<Slot> = theirs
            .map(|position| Slot {
                position,
                opponent_from: Some(0),
            })
            .collect();
        for (i, &drawn_at) in talon_times.iter().enumerate() {
            let position = talon_position(i);
            match obs.talon_drawers.get(i) {
                Some(&who) if who == me => {
                    let card = *own_draws.next().ok_or_else(|| bad("missing own draw"))?;
                    if deck[position].is_some_and(|c| c != card) {
                        return Err(bad("the turn-up was drawn as another card"));
                    }
                    deck[position] = Some(card);
                }
                Some(_) if position != 10 => slots.push(Slot {
                    position,
                    opponent_from: Some(drawn_at),
                }),
                None if position != 10 => slots.push(Slot {
                    position,
                    opponent_from: None,
                }),
                _ => {}
            }
        }
        let mut known = 0u32;
        for card in deck.iter().flatten() {
            if known & bit(*card) != 0 {
                return Err(bad("a card appears twice"));
            }
            known |= bit(*card);
        }
        let mut opponent_plays = Self::opponent_plays(obs);
        let mut opponent_played = 0u32;
        for &(card, _) in &opponent_plays {
            let turn_up = card == obs.turn_up && obs.turn_up_holder == Some(1 - me);
            if (known & bit(card) != 0 && !turn_up) || opponent_played & bit(card) != 0 {
                return Err(bad("the opponent played a card they cannot hold"));
            }
            opponent_played |= bit(card);
        }
        // The turn-up's place is known: only hidden cards need placing.
        opponent_plays.retain(|&(card, _)| known & bit(card) == 0);
        let free_cards: Vec<Card> = (0..PACK_SIZE)
            .map(pack_card)
            .filter(|&c| (known | opponent_played) & bit(c) == 0)
            .collect();
        if free_cards.len() + opponent_plays.len() != slots.len() {
            return Err(bad("card counts do not add up"));
        }
        Ok(Setup {
            deck,
            slots,
            free_cards,
            opponent_plays,
            opponent_played,
        })
    }

    /// The action index at which each talon card was drawn.
    fn draw_times(obs: &Observation, times: &mut [usize; TALON_SIZE]) {
        let mut next = 0;
        let mut plays = 0;
        for (j, action) in obs.history.iter().enumerate() {
            let draws = match action {
                Some(Action::Accept) => true,
                Some(Action::Play(_)) => {
                    plays += 1;
                    plays % 2 == 0
                }
                _ => false,
            };
            if draws && next < TALON_SIZE {
                times[next] = j;
                times[next + 1] = j;
                next += 2;
            }
        }
    }

    /// The opponent's plays with their action index: tricks alternate leader and
    /// follower, and the observation names each trick's leader.
    fn opponent_plays(obs: &Observation) -> Vec<(Card, usize)> {
        let opponent = 1 - obs.player;
        let mut out = Vec::new();
        let mut play = 0usize;
        for (j, action) in obs.history.iter().enumerate() {
            if let Some(Action::Play(card)) = action {
                let trick = play / 2;
                let leader = obs.tricks.get(trick).map_or_else(
                    || obs.tricks.last().map_or(1 - obs.dealer, |t| t.winner),
                    |t| t.leader,
                );
                let player = if play % 2 == 0 { leader } else { 1 - leader };
                if player == opponent {
                    out.push((*card, j));
                }
                play += 1;
            }
        }
        out
    }

    /// One proposal; `None` when rejected.
    fn attempt(&self, obs: &Observation, rng: &mut GameRng) -> Option<DealState> {
        let mut deck = self.deck;
        let mut taken = vec![false; self.slots.len()];
        for &(card, time) in &self.opponent_plays {
            let eligible = |s: &Slot| s.opponent_from.is_some_and(|from| from < time);
            let free: Vec<usize> = (0..self.slots.len())
                .filter(|&i| !taken[i] && eligible(&self.slots[i]))
                .collect();
            if free.is_empty() {
                return None;
            }
            let pick = free[rng.random_range(0..free.len())];
            taken[pick] = true;
            deck[self.slots[pick].position] = Some(card);
        }
        let mut rest = self.free_cards.clone();
        rest.shuffle(rng);
        let mut rest = rest.into_iter();
        for (i, slot) in self.slots.iter().enumerate() {
            if !taken[i] {
                deck[slot.position] = rest.next();
            }
        }
        let deck: Vec<Card> = deck.iter().map(|c| c.unwrap_or(obs.turn_up)).collect();
        let mut state = DealState::from_deck(&deck, obs.dealer, obs.rules).ok()?;
        let mut plays_left = self.opponent_played;
        for action in &obs.history {
            let action = if let Some(a) = action {
                *a
            } else {
                Action::Discard(Self::hidden_discard(&state, plays_left, rng)?)
            };
            if let Action::Play(card) = action {
                plays_left &= !bit(card);
            }
            state.apply(action).ok()?;
        }
        Some(state)
    }
}

impl Setup {
    /// The opponent's hidden discard: uniform among the legal discards, given that it is
    /// not a card they play later (drawn from those, kept with probability
    /// `allowed / legal`).
    fn hidden_discard(state: &DealState, plays_left: u32, rng: &mut GameRng) -> Option<Card> {
        let legal = (state.legal_mask() >> PACK_SIZE) as u32;
        let allowed = legal & !plays_left;
        if state.phase() != Phase::Discard || allowed == 0 {
            return None;
        }
        let n = allowed.count_ones();
        if rng.random::<f64>() >= f64::from(n) / f64::from(legal.count_ones()) {
            return None;
        }
        let mut set = allowed;
        for _ in 0..rng.random_range(0..n) {
            set &= set - 1;
        }
        Some(pack_card(set.trailing_zeros() as usize))
    }
}

/// `n` worlds consistent with `obs`, reproducible for a `seed`. Each world is the deal
/// state at the observation's moment, with the whole history applied.
pub fn sample_worlds(
    obs: &Observation,
    n: usize,
    seed: u64,
) -> Result<Vec<DealState>, SampleError> {
    let setup = Setup::new(obs)?;
    let mut rng = rng_from_seed(seed);
    let mut worlds = Vec::with_capacity(n);
    let budget = n.saturating_mul(ATTEMPTS_PER_WORLD);
    for _ in 0..budget {
        if worlds.len() == n {
            break;
        }
        if let Some(world) = setup.attempt(obs, &mut rng) {
            worlds.push(world);
        }
    }
    if worlds.len() < n {
        return Err(SampleError::Exhausted {
            found: worlds.len(),
            wanted: n,
        });
    }
    Ok(worlds)
}
