//! The options a duel is played under, and the two rank orders.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};

/// The rank order of a duel; both are "equally accepted" by the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// `7 < 8 < 9 < T < A < J < Q < K`: the ace between ten and jack.
    #[default]
    Ecarte,
    /// `7 < 8 < 9 < T < J < Q < K < A`.
    Traditional,
}

impl Order {
    /// The order's name, as [`Order::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Ecarte => "ecarte",
            Order::Traditional => "traditional",
        }
    }

    /// The order named `text`.
    pub fn parse(text: &str) -> Option<Order> {
        match text {
            "ecarte" => Some(Order::Ecarte),
            "traditional" => Some(Order::Traditional),
            _ => None,
        }
    }

    /// Strength of a duel rank under this order, 0 (seven) to 7 (top card).
    pub fn strength(self, rank: Rank) -> u8 {
        STRENGTHS[self as usize][rank.index()]
    }

    /// The duel ranks from lowest to highest.
    pub fn ranks(self) -> [Rank; 8] {
        let mut ranks = [Rank::Seven; 8];
        for r in &Rank::ALL[Rank::Seven.index()..] {
            ranks[self.strength(*r) as usize] = *r;
        }
        ranks
    }

    /// Whether `a` ranks above `b` (a comparison of ranks only; see `beats` for tricks).
    pub fn outranks(self, a: Card, b: Card) -> bool {
        self.strength(a.rank()) > self.strength(b.rank())
    }
}

/// The trick rule, defined once: whether `card`, played second, beats `lead` when `trump`
/// is trumps. A card of the led suit beats it if it ranks higher; a trump beats any card
/// of another suit; any other card loses. (The solver's packed form,
/// `solver::packed::beats_with`, is tested against this.)
#[inline]
pub fn beats(order: Order, trump: Suit, card: Card, lead: Card) -> bool {
    if card.suit() == lead.suit() {
        order.outranks(card, lead)
    } else {
        card.suit() == trump
    }
}

/// [`Order::strength`] by order and rank index; the ranks below seven, in no duel card,
/// are 0. A table, as tricks are won in the hot paths.
const STRENGTHS: [[u8; 13]; 2] = [
    // 2  3  4  5  6  7  8  9  T  J  Q  K  A
    [0, 0, 0, 0, 0, 0, 1, 2, 3, 5, 6, 7, 4], // ecarte
    [0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7], // traditional
];

/// Options of a duel deal and match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Records hold every option: a missing one is a malformed record, not a default.
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rank order of the cards.
    pub order: Order,
    /// Lets a player discard trumps during the exchange (off by the seed's rule).
    pub allow_trump_discard: bool,
    /// At most this many exchanges, 0 to 11 (the talon lasts for 11).
    pub max_exchanges: u8,
    /// Points that win a match.
    pub target: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            order: Order::Ecarte,
            allow_trump_discard: false,
            max_exchanges: 11,
            target: 7,
        }
    }
}

impl Rules {
    /// The largest match target.
    pub const MAX_TARGET: u8 = 100;

    /// Checks the option ranges; the error says which option is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if self.max_exchanges > 11 {
            return Err(format!(
                "max_exchanges must be between 0 and 11 (the talon lasts for 11 exchanges), got {}",
                self.max_exchanges
            ));
        }
        if self.target == 0 || self.target > Self::MAX_TARGET {
            return Err(format!(
                "target must be between 1 and {}, got {}",
                Self::MAX_TARGET,
                self.target
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::referee;

    fn c(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn ecarte_order_puts_the_ace_between_ten_and_jack() {
        let names: String = Order::Ecarte.ranks().iter().map(|r| r.letter()).collect();
        assert_eq!(names, "789TAJQK");
        assert!(Order::Ecarte.outranks(c("JH"), c("AH")));
        assert!(Order::Ecarte.outranks(c("AH"), c("TH")));
        assert!(Order::Ecarte.outranks(c("KH"), c("QH")));
    }

    #[test]
    fn traditional_order_puts_the_ace_on_top() {
        let names: String = Order::Traditional
            .ranks()
            .iter()
            .map(|r| r.letter())
            .collect();
        assert_eq!(names, "789TJQKA");
        assert!(Order::Traditional.outranks(c("AH"), c("KH")));
        assert!(!Order::Traditional.outranks(c("JH"), c("AH")));
    }

    #[test]
    fn rules_validate_ranges() {
        assert!(Rules::default().validate().is_ok());
        let bad = Rules {
            max_exchanges: 12,
            ..Rules::default()
        };
        assert!(bad.validate().unwrap_err().contains("max_exchanges"));
        let bad = Rules {
            target: 0,
            ..Rules::default()
        };
        assert!(bad.validate().unwrap_err().contains("target"));
    }

    /// Every value at and around each limit: exchanges 0 to 11, target 1 to 100.
    #[test]
    fn rules_validate_limits() {
        for max_exchanges in 0..=255u8 {
            let rules = Rules {
                max_exchanges,
                ..Rules::default()
            };
            assert_eq!(
                rules.validate().is_ok(),
                max_exchanges <= 11,
                "{max_exchanges}"
            );
        }
        for target in 0..=255u8 {
            let rules = Rules {
                target,
                ..Rules::default()
            };
            let accepted = (1..=100).contains(&target);
            assert_eq!(rules.validate().is_ok(), accepted, "target {target}");
            if !accepted {
                let why = rules.validate().unwrap_err();
                assert!(why.contains("between 1 and 100"), "{why}");
                assert!(why.contains(&format!("got {target}")), "{why}");
            }
        }
        assert_eq!(Rules::MAX_TARGET, 100);
    }

    #[test]
    fn order_names_round_trip() {
        assert_eq!(Order::Ecarte.name(), "ecarte");
        assert_eq!(Order::Traditional.name(), "traditional");
        for order in [Order::Ecarte, Order::Traditional] {
            assert_eq!(Order::parse(order.name()), Some(order));
        }
        for bad in ["", "Ecarte", "ace-high", "xyzzy"] {
            assert_eq!(Order::parse(bad), None, "{bad}");
        }
    }

    /// The higher rank by the orders of docs/rules.md (as the test referee writes them out):
    /// every ordered pair of ranks, and no card outranks its own rank.
    #[test]
    fn outranks_is_the_strict_rank_order() {
        for order in [Order::Ecarte, Order::Traditional] {
            let low_to_high = referee::ranks_low_to_high(order);
            for (i, a) in low_to_high.chars().enumerate() {
                for (j, b) in low_to_high.chars().enumerate() {
                    let (a, b) = (c(&format!("{a}H")), c(&format!("{b}S")));
                    assert_eq!(order.outranks(a, b), i > j, "{order:?}: {a} over {b}");
                    assert_eq!(order.strength(a.rank()) as usize, i, "{order:?} {a}");
                }
            }
        }
    }

    /// The trick rule on every pair of cards, every trump and both orders, against the test
    /// referee's reading of docs/rules.md.
    #[test]
    fn beats_is_the_trick_rule() {
        let pack = crate::card::piquet_pack();
        for order in [Order::Ecarte, Order::Traditional] {
            for trump in Suit::ALL {
                for &lead in &pack {
                    for &card in pack.iter().filter(|&&card| card != lead) {
                        assert_eq!(
                            beats(order, trump, card, lead),
                            referee::reply_takes(order, trump, lead, card),
                            "{card} on {lead}, {trump:?} trumps, {order:?}"
                        );
                    }
                }
            }
        }
    }
}
