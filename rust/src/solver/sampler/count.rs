//! The sampler's dynamic program: the weighted number of worlds that complete each
//! reachable hand of the opponent, and the card-by-card draw of a world from it.
//!
//! The count is built once per call as a graph: a node per reachable (event, hand), holding
//! its transitions with their weights (the transition's own weight times the count of the
//! hand it leads to), built event by event (each event's hands found in a small table of
//! their own) and counted back from the last. A world is then a walk down the graph, with
//! no hashing and no transition recomputed however many worlds are drawn.

use rand::seq::SliceRandom;
use rand::RngExt;

use super::{Draft, Event, Hand, Kids, Model, SampleError, Step};
use crate::card::Card;
use crate::duel::action::PACK_SIZE;
use crate::duel::observe::Observation;
use crate::rng::GameRng;

/// The hands of one event by key, to their index in the event's layer: open addressing
/// with linear probing, the key 0 marking a free place (every key has its top bit set).
struct Index {
    places: Vec<(u64, u32)>,
    bits: u32,
    /// The places taken, to free them for the next event without clearing the table.
    taken: Vec<usize>,
}

impl Index {
    fn new() -> Index {
        let bits = 10;
        Index {
            places: vec![(0, 0); 1 << bits],
            bits,
            taken: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for &i in &self.taken {
            self.places[i] = (0, 0);
        }
        self.taken.clear();
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

    /// The index of `hand`, which becomes `next` if the hand is new and `alive(hand)`, and
    /// [`DEAD`] if it is not: a hand is judged once, however many parents reach it.
    fn find_or_insert(&mut self, hand: Hand, next: u32, alive: impl FnOnce(Hand) -> bool) -> u32 {
        let key = hand.key() | 1 << 63;
        if 2 * (self.taken.len() + 1) > self.places.len() {
            self.bits += 1;
            let old = std::mem::replace(&mut self.places, vec![(0, 0); 1 << self.bits]);
            self.taken.clear();
            for (k, n) in old.into_iter().filter(|&(k, _)| k != 0) {
                let i = self.place(k);
                self.places[i] = (k, n);
                self.taken.push(i);
            }
        }
        let i = self.place(key);
        if self.places[i].0 == key {
            return self.places[i].1;
        }
        let index = if alive(hand) { next } else { DEAD };
        self.places[i] = (key, index);
        self.taken.push(i);
        index
    }
}

/// The index of a hand that the count leaves out: it can complete no world
/// ([`Model::can_complete`]), so its count is 0, and leaving its edges out changes no
/// total and no draw.
const DEAD: u32 = u32::MAX - 1;

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
pub(super) struct Counts {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// The node before the first event, and its count.
    root: u32,
    total: f64,
}

impl Counts {
    /// The graph of every hand reachable from the empty hand, event by event, then the
    /// counts from the last event back: the same products and sums, in the same order, as
    /// the recursion `count(e, hand) = sum of weight * count(e + 1, child)` over the
    /// children in their order.
    pub(super) fn new(model: &Model) -> Counts {
        let events = model.events.len();
        // Room for a typical count (about 2,000 hands over 20 events) from the start.
        let (mut nodes, mut edges) = (Vec::with_capacity(4096), Vec::with_capacity(8192));
        let (mut layer, mut next) = (vec![Hand::default()], Vec::with_capacity(256));
        let (mut index, mut kids) = (Index::new(), Kids::new());
        for e in 0..events {
            next.clear();
            index.clear();
            let next_first = (nodes.len() + layer.len()) as u32;
            for hand in &layer {
                model.children(e, *hand, &mut kids);
                let first = edges.len();
                for &(step, weight, child) in kids.as_slice() {
                    let (weight, to) = if e + 1 == events {
                        let count = if model.complete(child) { 1.0 } else { 0.0 };
                        (weight * count, LEAF)
                    } else {
                        let alive = |hand: Hand| model.can_complete(e + 1, hand);
                        let i = index.find_or_insert(child, next.len() as u32, alive);
                        if i == DEAD {
                            continue;
                        }
                        if i as usize == next.len() {
                            next.push(child);
                        }
                        (weight, next_first + i)
                    };
                    edges.push(Edge { step, weight, to });
                }
                nodes.push(Node {
                    first: first as u32,
                    len: (edges.len() - first) as u8,
                    total: 0.0,
                });
            }
            std::mem::swap(&mut layer, &mut next);
        }
        // Children come after their parents, so a backward pass has their counts ready.
        for i in (0..nodes.len()).rev() {
            let Node { first, len, .. } = nodes[i];
            let mut total = 0.0;
            for edge in &mut edges[first as usize..first as usize + usize::from(len)] {
                if edge.to != LEAF {
                    edge.weight *= nodes[edge.to as usize].total;
                }
                total += edge.weight;
            }
            nodes[i].total = total;
        }
        let total = match nodes.first() {
            Some(root) => root.total,
            None if model.complete(Hand::default()) => 1.0,
            None => 0.0,
        };
        Counts {
            nodes,
            edges,
            root: 0,
            total,
        }
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

    /// One world's deck and the opponent's hidden discards (by history index), drawn with
    /// the exact conditional odds at every step.
    pub(super) fn draft(
        &self,
        model: &Model,
        obs: &Observation,
        rng: &mut GameRng,
    ) -> Result<Draft, SampleError> {
        let failed = || SampleError::Inconsistent("no world reproduces it".to_string());
        let mut deck = model.deck;
        let none = Cards::new(obs.turn_up);
        let mut pool = [none; 4];
        for (cards, unseen) in pool.iter_mut().zip(&model.unseen) {
            for &c in unseen {
                cards.push(c);
            }
        }
        let mut in_hand = [none; 4];
        // Deck positions, below 32.
        let mut held_slots = [Cards::new(0u8); 4];
        let mut discards: Vec<Option<Card>> = vec![None; obs.history.len()];
        let mut at = self.root;
        for e in 0..model.events.len() {
            let Some(&Node { first, len, total }) = self.nodes.get(at as usize) else {
                return Err(failed());
            };
            let edges = &self.edges[first as usize..first as usize + usize::from(len)];
            if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return Err(failed());
            }
            let mut x = rng.random::<f64>() * total;
            let mut pick = None;
            for (i, edge) in edges.iter().enumerate() {
                if edge.weight > 0.0 && x < edge.weight {
                    pick = Some(i);
                    break;
                }
                x -= edge.weight;
            }
            // Rounding can leave `x` past the last weight: fall back on the last live one.
            let pick = pick
                .or_else(|| edges.iter().rposition(|e| e.weight > 0.0))
                .unwrap_or(0);
            let Edge { step, to, .. } = edges[pick];
            at = to;
            match (step, model.events[e]) {
                (Step::Unseen(s), Event::Arrive(i)) => {
                    let s = usize::from(s);
                    let card = pool[s].take(rng).ok_or_else(failed)?;
                    deck[model.slots[i]] = Some(card);
                    in_hand[s].push(card);
                }
                (Step::Hold(s), Event::Arrive(i)) => {
                    held_slots[usize::from(s)].push(model.slots[i] as u8);
                }
                (Step::DiscardUnseen(s), Event::Discard(j)) => {
                    let card = in_hand[usize::from(s)].take(rng).ok_or_else(failed)?;
                    discards[j] = Some(card);
                }
                (Step::DiscardTurnUp, Event::Discard(j)) => discards[j] = Some(obs.turn_up),
                (Step::PlayHeld(s), Event::Play { card, .. }) => {
                    let slot = held_slots[usize::from(s)].take(rng).ok_or_else(failed)?;
                    deck[usize::from(slot)] = Some(card);
                }
                (Step::TurnUp | Step::PlayTurnUp, _) => {}
                _ => return Err(failed()),
            }
        }
        // The never-seen cards left, suit after suit, in uniform order.
        let mut rest = none;
        for cards in &pool {
            for &c in cards.as_slice() {
                rest.push(c);
            }
        }
        rest.as_mut_slice().shuffle(rng);
        for (&position, &card) in model.talon.iter().zip(rest.as_slice()) {
            deck[position] = Some(card);
        }
        let mut cards = [obs.turn_up; PACK_SIZE];
        for (out, card) in cards.iter_mut().zip(deck) {
            *out = card.ok_or_else(failed)?;
        }
        Ok(Draft {
            deck: cards,
            discards,
        })
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
