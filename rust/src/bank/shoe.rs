//! The 104-card shoe across deals: dealing order, the discard pile, the punter's shuffle of
//! the undealt rest and run-outs (docs/bank.md, "Rule decisions").
//!
//! Run-out reading (**Decision**, see docs/bank.md): the seed says the shoe "runs out" during
//! play and dealing goes on. When fewer than [`DEAL_SIZE`] cards are left at the start of a
//! deal, the undealt cards **stay on top** and are dealt first; the discard pile is shuffled
//! and put **under** them, exactly as if the dealer had dealt the last cards and then
//! continued from the reshuffled pile. That counts as one run-out.

use rand::seq::SliceRandom;
use serde::Serialize;

use super::error::BankError;
use super::resolve::{resolve, Resolution};
use crate::card::{shoe_pack, Card, Suit};
use crate::rng::{self, rng_from_seed, GameRng};

/// Cards in a full shoe: two 52-card packs.
pub const SHOE_SIZE: usize = 104;
/// Cards used by one deal: four tableaux of four, and the trump card.
pub const DEAL_SIZE: usize = 17;

/// One deal: four tableaux (T1 is the banker's) and the turned-up trump card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deal {
    /// The four tableaux of four cards, T1 (the banker's) first.
    pub tableaux: [[Card; 4]; 4],
    /// The card turned up for trump.
    pub trump_card: Card,
}

impl Deal {
    /// The deal the top 17 cards of `order` give (index 0 = top): one card at a time to
    /// T1, T2, T3, T4, T1, … until each holds 4; the 17th card is turned up.
    /// `order` must hold at least 17 cards and no card more than twice.
    pub fn from_order(order: &[Card]) -> Result<Deal, BankError> {
        check_copies(order)?;
        if order.len() < DEAL_SIZE {
            return Err(BankError::TooFewCards {
                needed: DEAL_SIZE,
                left: order.len(),
            });
        }
        Ok(Deal::from_top(order))
    }

    /// The deal with these tableaux and trump card: 17 cards, none more than twice.
    pub fn new(tableaux: [[Card; 4]; 4], trump_card: Card) -> Result<Deal, BankError> {
        let deal = Deal {
            tableaux,
            trump_card,
        };
        check_copies(&deal.cards())?;
        Ok(deal)
    }

    /// The deal of the top 17 cards; `order` holds at least 17.
    pub(crate) fn from_top(order: &[Card]) -> Deal {
        let mut tableaux = [[order[0]; 4]; 4];
        for (i, &card) in order[..16].iter().enumerate() {
            tableaux[i % 4][i / 4] = card;
        }
        Deal {
            tableaux,
            trump_card: order[16],
        }
    }

    /// The trump suit: the turned-up card's.
    pub fn trump(&self) -> Suit {
        self.trump_card.suit()
    }

    /// The banker's tableau T1.
    pub fn banker(&self) -> &[Card; 4] {
        &self.tableaux[0]
    }

    /// T2, T3 and T4 each resolved against T1.
    pub fn results(&self) -> [Resolution; 3] {
        [1, 2, 3].map(|t| resolve(&self.tableaux[0], &self.tableaux[t], self.trump()))
    }

    /// The 17 cards in dealing order.
    pub fn cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = (0..16).map(|i| self.tableaux[i % 4][i / 4]).collect();
        out.push(self.trump_card);
        out
    }
}

/// Fails if a card appears more than twice (a two-pack shoe holds two of each).
pub fn check_copies(cards: &[Card]) -> Result<(), BankError> {
    let mut counts = [0u8; 52];
    for c in cards {
        counts[c.id()] += 1;
        if counts[c.id()] > 2 {
            return Err(BankError::InvalidShoe(format!(
                "impossible shoe: {c} appears more than twice (a two-pack shoe holds two of each card)"
            )));
        }
    }
    Ok(())
}

/// The shoe across deals. Every card is in exactly one place: the undealt shoe, the cards
/// on the table (the current deal) or the discard pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shoe {
    /// Undealt cards, index 0 = top.
    undealt: Vec<Card>,
    /// The current deal's cards, until the next deal moves them to the discard pile.
    table: Vec<Card>,
    discards: Vec<Card>,
    run_outs: u32,
    seed: u64,
}

impl Shoe {
    /// A full shoe shuffled with `seed` (`shuffle_with_seed`). Run-out reshuffles derive
    /// their generator from the same seed (see `Shoe::run_out_rng`).
    pub fn new(seed: u64) -> Shoe {
        let mut undealt = shoe_pack();
        undealt.shuffle(&mut rng_from_seed(seed));
        Shoe::with_order(undealt, seed)
    }

    /// A shoe in the exact order `order` (index 0 = top), which must be the 104 cards of
    /// two packs; `seed` drives later run-out reshuffles.
    pub fn from_order(order: Vec<Card>, seed: u64) -> Result<Shoe, BankError> {
        check_copies(&order)?;
        if order.len() != SHOE_SIZE {
            return Err(BankError::InvalidShoe(format!(
                "a shoe holds {SHOE_SIZE} cards (two of each), got {}",
                order.len()
            )));
        }
        Ok(Shoe::with_order(order, seed))
    }

    /// The shoe in a given state (as its getters read it): `undealt` top first, the cards
    /// `on_table` (none, or a deal's 17), the `discards` in pile order, `run_outs` so far and
    /// the `seed` of the run-out reshuffles. Refused unless the three places together hold
    /// exactly the 104 cards of two packs.
    pub fn from_state(
        undealt: Vec<Card>,
        on_table: Vec<Card>,
        discards: Vec<Card>,
        run_outs: u32,
        seed: u64,
    ) -> Result<Shoe, BankError> {
        if !on_table.is_empty() && on_table.len() != DEAL_SIZE {
            return Err(BankError::InvalidShoe(format!(
                "impossible shoe state: the table holds a deal's {DEAL_SIZE} cards or none, got {}",
                on_table.len()
            )));
        }
        let all: Vec<Card> = [&undealt, &on_table, &discards]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        check_copies(&all)?;
        if all.len() != SHOE_SIZE {
            return Err(BankError::InvalidShoe(format!(
                "impossible shoe state: the undealt cards, the table and the discards hold {} \
                 cards, not the shoe's {SHOE_SIZE}",
                all.len()
            )));
        }
        Ok(Shoe {
            undealt,
            table: on_table,
            discards,
            run_outs,
            seed,
        })
    }

    fn with_order(undealt: Vec<Card>, seed: u64) -> Shoe {
        Shoe {
            undealt,
            table: Vec::new(),
            discards: Vec::new(),
            run_outs: 0,
            seed,
        }
    }

    /// The generator of the `n`-th run-out reshuffle (n = 1, 2, …): `ChaCha8Rng` seeded with
    /// `seed_from_u64(seed)` on stream `n`, so it never repeats the initial shuffle (stream 0).
    fn run_out_rng(&self, n: u32) -> GameRng {
        rng::run_out_rng(self.seed, n)
    }

    /// Deals the next hand. The previous deal's cards go to the discard pile first; if fewer
    /// than 17 cards are left, the discard pile is shuffled under the undealt rest (a run-out).
    pub fn deal(&mut self) -> Deal {
        self.clear_table();
        if self.undealt.len() < DEAL_SIZE {
            self.run_out();
        }
        // The table was just cleared, so the undealt rest and the pile hold all 104 cards.
        let cards: Vec<Card> = self.undealt.drain(..DEAL_SIZE).collect();
        let deal = Deal::from_top(&cards);
        self.table = cards;
        deal
    }

    fn run_out(&mut self) {
        self.run_outs += 1;
        let mut pile = std::mem::take(&mut self.discards);
        pile.shuffle(&mut self.run_out_rng(self.run_outs));
        self.undealt.extend(pile);
    }

    /// Moves the cards on the table to the discard pile.
    pub fn clear_table(&mut self) {
        self.discards.append(&mut self.table);
    }

    /// The punter's right: shuffles the undealt rest with `seed`; the discard pile stays aside.
    pub fn shuffle_rest(&mut self, seed: u64) {
        self.undealt.shuffle(&mut rng_from_seed(seed));
    }

    /// Undealt cards, top first.
    pub fn undealt(&self) -> &[Card] {
        &self.undealt
    }

    /// How many cards are left to deal.
    pub fn remaining(&self) -> usize {
        self.undealt.len()
    }

    /// The discard pile: the cards of the deals before the current one, in pile order.
    pub fn discards(&self) -> &[Card] {
        &self.discards
    }

    /// The current deal's cards (empty before the first deal and after `clear_table`).
    pub fn on_table(&self) -> &[Card] {
        &self.table
    }

    /// How many times the shoe has run out (the discard pile was reshuffled).
    pub fn run_outs(&self) -> u32 {
        self.run_outs
    }

    /// The seed the shoe was shuffled with.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}
