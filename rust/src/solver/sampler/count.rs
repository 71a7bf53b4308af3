//! The sampler's dynamic program: the weighted number of worlds that complete each
//! reachable hand of the opponent, and the card-by-card draw of a world from it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rand::seq::SliceRandom;
use rand::RngExt;

use super::{Event, Hand, Kids, Model, SampleError, Step};
use crate::card::Card;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::DealState;
use crate::rng::GameRng;

/// A multiplicative hash of the packed hand keys (the std hasher dominated the count).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 << 8 | u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Memo = HashMap<u64, f64, BuildHasherDefault<KeyHasher>>;

/// The weighted count of completions of every reachable hand, per event.
pub(super) struct Counts<'a> {
    model: &'a Model,
    pub(super) memo: Vec<Memo>,
}

impl<'a> Counts<'a> {
    pub(super) fn new(model: &'a Model) -> Counts<'a> {
        Counts {
            model,
            memo: (0..model.events.len()).map(|_| Memo::default()).collect(),
        }
    }

    /// The weighted number of worlds completing `hand` from event `e` on.
    pub(super) fn value(&mut self, e: usize, hand: Hand) -> f64 {
        if e == self.model.events.len() {
            return if self.model.complete(&hand) { 1.0 } else { 0.0 };
        }
        let key = hand.key();
        if let Some(&v) = self.memo[e].get(&key) {
            return v;
        }
        let mut kids = Kids::new();
        self.model.children(e, &hand, &mut kids);
        let mut total = 0.0;
        for &(_, weight, child) in kids.as_slice() {
            total += weight * self.value(e + 1, child);
        }
        self.memo[e].insert(key, total);
        total
    }

    /// One world, drawn with the exact conditional odds at every step.
    pub(super) fn sample(
        &mut self,
        obs: &Observation,
        rng: &mut GameRng,
    ) -> Result<DealState, SampleError> {
        let model = self.model;
        let failed = || SampleError::Inconsistent("no world reproduces it".to_string());
        let mut deck = model.deck;
        let mut pool = model.unseen.clone();
        let mut in_hand: [Vec<Card>; 4] = Default::default();
        let mut held_slots: [Vec<usize>; 4] = Default::default();
        let mut discards: Vec<Option<Card>> = vec![None; obs.history.len()];
        let mut hand = Hand::default();
        let mut kids = Kids::new();
        for e in 0..model.events.len() {
            model.children(e, &hand, &mut kids);
            let kids = kids.as_slice();
            let weights: Vec<f64> = kids
                .iter()
                .map(|&(_, w, child)| w * self.value(e + 1, child))
                .collect();
            let total: f64 = weights.iter().sum();
            if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return Err(failed());
            }
            let mut x = rng.random::<f64>() * total;
            // Rounding can leave `x` past the last weight: fall back on the last live one.
            let mut pick = weights.iter().rposition(|&w| w > 0.0).unwrap_or(0);
            for (i, &w) in weights.iter().enumerate() {
                if w > 0.0 && x < w {
                    pick = i;
                    break;
                }
                x -= w;
            }
            let (step, _, child) = kids[pick];
            hand = child;
            match (step, model.events[e]) {
                (Step::Unseen(s), Event::Arrive(i)) => {
                    let card = take(&mut pool[s], rng).ok_or_else(failed)?;
                    deck[model.slots[i]] = Some(card);
                    in_hand[s].push(card);
                }
                (Step::Hold(s), Event::Arrive(i)) => held_slots[s].push(model.slots[i]),
                (Step::DiscardUnseen(s), Event::Discard(j)) => {
                    let card = take(&mut in_hand[s], rng).ok_or_else(failed)?;
                    discards[j] = Some(card);
                }
                (Step::DiscardTurnUp, Event::Discard(j)) => discards[j] = Some(obs.turn_up),
                (Step::PlayHeld(s), Event::Play { card, .. }) => {
                    let slot = take(&mut held_slots[s], rng).ok_or_else(failed)?;
                    deck[slot] = Some(card);
                }
                (Step::TurnUp | Step::PlayTurnUp, _) => {}
                _ => return Err(failed()),
            }
        }
        let mut rest: Vec<Card> = pool.concat();
        rest.shuffle(rng);
        for (&position, card) in model.talon.iter().zip(rest) {
            deck[position] = Some(card);
        }
        let deck: Option<Vec<Card>> = deck.iter().copied().collect();
        let deck = deck.ok_or_else(failed)?;
        let mut state = DealState::from_deck(&deck, obs.dealer, obs.rules).map_err(|_| failed())?;
        for (j, action) in obs.history.iter().enumerate() {
            let action = match (action, discards[j]) {
                (Some(a), _) => *a,
                (None, Some(card)) => Action::Discard(card),
                (None, None) => return Err(failed()),
            };
            state.apply(action).map_err(|_| failed())?;
        }
        // The safety net: the world must show the player exactly what they saw.
        if state.observation(model.me, obs.score) != *obs {
            return Err(failed());
        }
        Ok(state)
    }
}

/// A uniformly chosen item, removed; `None` from an empty list (the counts forbid it).
fn take<T>(items: &mut Vec<T>, rng: &mut GameRng) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    let i = rng.random_range(0..items.len());
    Some(items.swap_remove(i))
}
