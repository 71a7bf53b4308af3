//! Resolving one punter tableau against the banker's (docs/rules.md, "Bank"; "Resolving one punter
//! tableau"): only trumps count, equal ranks cancel pairwise first, then the side holding
//! the highest remaining trump leads it and takes a trick while the other side gives up its
//! lowest trump.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::BankError;

use crate::card::{Card, Suit};

/// Who wins one tableau against the banker's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The banker takes more tricks: the punter loses the stake.
    Banker = 0,
    /// Equal tricks (0–0 included): nobody pays.
    EnCarte = 1,
    /// The punter takes more tricks: the banker pays the stake.
    Punter = 2,
}

impl Outcome {
    /// Every outcome, in index order.
    pub const ALL: [Outcome; 3] = [Outcome::Banker, Outcome::EnCarte, Outcome::Punter];

    /// The outcome's index: banker 0, en carte 1, punter 2.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"banker"`, `"en_carte"` or `"punter"`.
    pub fn name(self) -> &'static str {
        ["banker", "en_carte", "punter"][self.index()]
    }

    /// The outcome of a trick score.
    pub fn from_tricks(banker: u8, punter: u8) -> Outcome {
        match banker.cmp(&punter) {
            std::cmp::Ordering::Greater => Outcome::Banker,
            std::cmp::Ordering::Equal => Outcome::EnCarte,
            std::cmp::Ordering::Less => Outcome::Punter,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tricks each side takes and the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Resolution {
    /// Tricks the banker takes (of four).
    pub banker_tricks: u8,
    /// Tricks the punter takes (of four).
    pub punter_tricks: u8,
    /// Who wins, from the tricks.
    pub outcome: Outcome,
}

/// Cards in a tableau: the most tricks one resolution can count between both sides.
pub const TABLEAU_SIZE: u8 = 4;

impl Resolution {
    /// The resolution of a 4-card tableau against another with these trick counts (the
    /// outcome follows from them); refused when the tricks exceed the tableau's 4 cards.
    pub fn from_tricks(banker_tricks: u8, punter_tricks: u8) -> Result<Resolution, BankError> {
        if u16::from(banker_tricks) + u16::from(punter_tricks) > u16::from(TABLEAU_SIZE) {
            return Err(BankError::InvalidArgument(format!(
                "a tableau has {TABLEAU_SIZE} cards: {banker_tricks} + {punter_tricks} tricks is too many"
            )));
        }
        Ok(Resolution {
            banker_tricks,
            punter_tricks,
            outcome: Outcome::from_tricks(banker_tricks, punter_tricks),
        })
    }
}

/// Trumps held per rank (index 0 = deuce … 12 = ace).
pub type TrumpCounts = [u8; 13];

/// The trumps of `cards` counted per rank.
pub fn trump_counts(cards: &[Card], trump: Suit) -> TrumpCounts {
    let mut counts = [0u8; 13];
    for c in cards.iter().filter(|c| c.suit() == trump) {
        counts[c.rank().index()] = counts[c.rank().index()].saturating_add(1);
    }
    counts
}

/// Resolves the banker's tableau against a punter's; cards of other suits are ignored.
/// Any number of cards per side is accepted (a tableau holds 4); counts saturate at 255.
pub fn resolve(banker: &[Card], punter: &[Card], trump: Suit) -> Resolution {
    resolve_counts(trump_counts(banker, trump), trump_counts(punter, trump))
}

/// [`resolve`] on trump counts per rank: the form the odds enumeration uses.
pub fn resolve_counts(mut banker: TrumpCounts, mut punter: TrumpCounts) -> Resolution {
    // 1. Control equal ranks pairwise, before any lead.
    for (b, p) in banker.iter_mut().zip(punter.iter_mut()) {
        let pairs = (*b).min(*p);
        *b -= pairs;
        *p -= pairs;
    }
    // 2. After cancelling no rank is held by both sides, so the highest remaining trump
    //    belongs to exactly one side.
    let (mut banker_tricks, mut punter_tricks) = (0u8, 0u8);
    while let Some(rank) = (0..13).rev().find(|&r| banker[r] + punter[r] > 0) {
        let (leader, other, tricks) = if banker[rank] > 0 {
            (&mut banker, &mut punter, &mut banker_tricks)
        } else {
            (&mut punter, &mut banker, &mut punter_tricks)
        };
        leader[rank] -= 1;
        *tricks += 1;
        if let Some(low) = other.iter_mut().find(|n| **n > 0) {
            *low -= 1;
        }
    }
    Resolution {
        banker_tricks,
        punter_tricks,
        outcome: Outcome::from_tricks(banker_tricks, punter_tricks),
    }
}
