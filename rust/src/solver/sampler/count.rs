//! The sampler's dynamic program: the weighted number of worlds that complete each
//! reachable hand of the opponent, and the card-by-card draw of a world from it.
//!
//! The count is built once per call as a graph: a node per reachable (event, hand), holding
//! its transitions with their weights (the transition's own weight times the count of the
//! hand it leads to). A world is then a walk down the graph, with no hashing and no
//! transition recomputed however many worlds are drawn.

use rand::seq::SliceRandom;
use rand::RngExt;

use super::{Event, Hand, Kids, Model, SampleError, Step};
use crate::card::Card;
use crate::duel::action::{Action, PACK_SIZE};
use crate::duel::observe::Observation;
use crate::duel::state::DealState;
use crate::rng::GameRng;

/// Node indices by (event, hand key): open addressing with linear probing, the key 0
/// marking a free place (every key has its top bit set).
struct Index {
    places: Vec<(u64, u32)>,
    bits: u32,
    len: usize,
}

impl Index {
    fn new() -> Index {
        let bits = 12;
        Index {
            places: vec![(0, 0); 1 << bits],
            bits,
            len: 0,
        }
    }

    /// Hand keys take 49 bits, and a deal has fewer than 2^14 events.
    fn key(e: usize, hand: &Hand) -> u64 {
        hand.key() | (e as u64) << 49 | 1 << 63
    }

    /// The place of `key`, or the free place where it would go.
    fn place(&self, key: u64) -> usize {
        let mask = (1 << self.bits) - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        while self.places[i].0 != key && self.places[i].0 != 0 {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, key: u64) -> Option<u32> {
        let (k, node) = self.places[self.place(key)];
        (k == key).then_some(node)
    }

    fn insert(&mut self, key: u64, node: u32) {
        if 2 * (self.len + 1) > self.places.len() {
            self.bits += 1;
            let old = std::mem::replace(&mut self.places, vec![(0, 0); 1 << self.bits]);
            for (k, n) in old.into_iter().filter(|&(k, _)| k != 0) {
                let i = self.place(k);
                self.places[i] = (k, n);
            }
        }
        let i = self.place(key);
        self.places[i] = (key, node);
        self.len += 1;
    }
}

/// The node index of a hand that completes no world or every world (after the last
/// event): no transitions to walk.
const LEAF: u32 = u32::MAX;

/// One transition out of a node.
#[derive(Clone, Copy)]
struct Edge {
    step: Step,
    /// The transition's weight times the count of the hand it leads to.
    weight: f64,
    /// That hand's node, or [`LEAF`] after the last event.
    to: u32,
}

/// One reachable (event, hand): its transitions and their total weight.
#[derive(Clone, Copy)]
struct Node {
    first: u32,
    len: u8,
    total: f64,
}

/// The weighted count of completions of every reachable hand, as a graph.
pub(super) struct Counts<'a> {
    model: &'a Model,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// The node before the first event (built last), and its count.
    root: u32,
    total: f64,
}

impl<'a> Counts<'a> {
    pub(super) fn new(model: &'a Model) -> Counts<'a> {
        let mut counts = Counts {
            model,
            nodes: Vec::new(),
            edges: Vec::new(),
            root: LEAF,
            total: 0.0,
        };
        (counts.root, counts.total) = counts.build(0, Hand::default(), &mut Index::new());
        counts
    }

    /// The weighted number of consistent worlds.
    pub(super) fn total(&self) -> f64 {
        self.total
    }

    /// The reachable (event, hand) pairs counted.
    #[cfg(test)]
    pub(super) fn states(&self) -> usize {
        self.nodes.len()
    }

    /// The node of `hand` at event `e` and its count, built with everything below it.
    fn build(&mut self, e: usize, hand: Hand, index: &mut Index) -> (u32, f64) {
        if e == self.model.events.len() {
            return (LEAF, if self.model.complete(&hand) { 1.0 } else { 0.0 });
        }
        let key = Index::key(e, &hand);
        if let Some(node) = index.get(key) {
            return (node, self.nodes[node as usize].total);
        }
        let mut kids = Kids::new();
        self.model.children(e, &hand, &mut kids);
        let mut edges = [Edge {
            step: Step::TurnUp,
            weight: 0.0,
            to: LEAF,
        }; 8];
        let mut total = 0.0;
        for (edge, &(step, weight, child)) in edges.iter_mut().zip(kids.as_slice()) {
            let (to, count) = self.build(e + 1, child, index);
            *edge = Edge {
                step,
                weight: weight * count,
                to,
            };
            total += edge.weight;
        }
        let node = self.nodes.len() as u32;
        self.nodes.push(Node {
            first: self.edges.len() as u32,
            len: kids.len as u8,
            total,
        });
        self.edges.extend_from_slice(&edges[..kids.len]);
        index.insert(key, node);
        (node, total)
    }

    /// One world, drawn with the exact conditional odds at every step.
    pub(super) fn sample(&self, obs: &Observation, rng: &mut GameRng) -> Result<DealState, SampleError> {
        let model = self.model;
        let failed = || SampleError::Inconsistent("no world reproduces it".to_string());
        let mut deck = model.deck;
        let none = Cards::new(obs.turn_up);
        let mut pool = [none; 4];
        for (cards, unseen) in pool.iter_mut().zip(&model.unseen) {
            unseen.iter().for_each(|&c| cards.push(c));
        }
        let mut in_hand = [none; 4];
        let mut held_slots = [Cards::new(0); 4];
        let mut discards: Vec<Option<Card>> = vec![None; obs.history.len()];
        let mut node = self.root;
        for e in 0..model.events.len() {
            let Some(&Node { first, len, total }) = self.nodes.get(node as usize) else {
                return Err(failed());
            };
            let edges = &self.edges[first as usize..first as usize + usize::from(len)];
            if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return Err(failed());
            }
            let mut x = rng.random::<f64>() * total;
            // Rounding can leave `x` past the last weight: fall back on the last live one.
            let mut pick = edges.iter().rposition(|e| e.weight > 0.0).unwrap_or(0);
            for (i, edge) in edges.iter().enumerate() {
                if edge.weight > 0.0 && x < edge.weight {
                    pick = i;
                    break;
                }
                x -= edge.weight;
            }
            let Edge { step, to, .. } = edges[pick];
            node = to;
            match (step, model.events[e]) {
                (Step::Unseen(s), Event::Arrive(i)) => {
                    let card = pool[s].take(rng).ok_or_else(failed)?;
                    deck[model.slots[i]] = Some(card);
                    in_hand[s].push(card);
                }
                (Step::Hold(s), Event::Arrive(i)) => held_slots[s].push(model.slots[i]),
                (Step::DiscardUnseen(s), Event::Discard(j)) => {
                    let card = in_hand[s].take(rng).ok_or_else(failed)?;
                    discards[j] = Some(card);
                }
                (Step::DiscardTurnUp, Event::Discard(j)) => discards[j] = Some(obs.turn_up),
                (Step::PlayHeld(s), Event::Play { card, .. }) => {
                    let slot = held_slots[s].take(rng).ok_or_else(failed)?;
                    deck[slot] = Some(card);
                }
                (Step::TurnUp | Step::PlayTurnUp, _) => {}
                _ => return Err(failed()),
            }
        }
        // The never-seen cards left, suit after suit, in uniform order.
        let mut rest = none;
        for cards in &pool {
            cards.as_slice().iter().for_each(|&c| rest.push(c));
        }
        rest.as_mut_slice().shuffle(rng);
        for (&position, &card) in model.talon.iter().zip(rest.as_slice()) {
            deck[position] = Some(card);
        }
        let mut cards = [obs.turn_up; PACK_SIZE];
        for (out, card) in cards.iter_mut().zip(deck) {
            *out = card.ok_or_else(failed)?;
        }
        let mut state = DealState::from_deck(&cards, obs.dealer, obs.rules).map_err(|_| failed())?;
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

/// A short list without allocation (at most a pack's worth), taken from as a `Vec` is by
/// `swap_remove`, so that a world draws the same random numbers whatever holds its cards.
#[derive(Clone, Copy)]
struct Cards<T> {
    items: [T; PACK_SIZE],
    len: usize,
}

impl<T: Copy> Cards<T> {
    /// An empty list (`filler` stands in its unused places).
    fn new(filler: T) -> Cards<T> {
        Cards {
            items: [filler; PACK_SIZE],
            len: 0,
        }
    }

    fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = item;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }

    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }

    /// A uniformly chosen item, removed; `None` from an empty list (the counts forbid it).
    fn take(&mut self, rng: &mut GameRng) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let i = rng.random_range(0..self.len);
        let item = self.items[i];
        self.len -= 1;
        self.items[i] = self.items[self.len];
        Some(item)
    }
}
