//! Exact odds of one punter tableau against the banker's, given what is left in the shoe.
//!
//! Both tableaux are 4 cards drawn without replacement from the remaining cards. Only trumps
//! matter, so instead of enumerating card sets we enumerate, rank by rank, how many trumps
//! of that rank go to the banker (`b`) and to the punter (`p`), with `b + p` at most the
//! copies left (0–2). The non-trumps fill the rest of each tableau. A composition's weight
//! is the number of ordered pairs of disjoint 4-card sets that realise it,
//!
//! `Π_r C(t_r, b_r)·C(t_r − b_r, p_r) × C(M, 4 − Σb)·C(M − 4 + Σb, 4 − Σp)`,
//!
//! with `t_r` trumps of rank `r` left and `M` non-trumps left; the weights sum to
//! `C(N, 4)·C(N − 4, 4)` for `N` cards left (multivariate hypergeometric). All arithmetic
//! is exact in `u128`.

use super::error::BankError;
use super::resolve::{resolve_counts, Outcome, TrumpCounts};
use super::shoe::check_copies;
use crate::card::{Card, Suit};

/// Cards per tableau.
const TABLEAU: u8 = 4;

/// `C(n, k)` for `n, k ≤ 2`: a shoe holds at most two copies of a card.
const SMALL_BINOMIAL: [[u128; 3]; 3] = [[1, 0, 0], [1, 1, 0], [1, 2, 1]];

/// A multiset of cards: how many copies (0–2) of each of the 52 cards are left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composition {
    counts: [u8; 52],
}

impl Composition {
    /// The full two-pack shoe: two of each card.
    pub fn full() -> Composition {
        Composition { counts: [2; 52] }
    }

    /// The multiset of `cards`; no card may appear more than twice.
    pub fn from_cards(cards: &[Card]) -> Result<Composition, BankError> {
        check_copies(cards)?;
        let mut counts = [0u8; 52];
        for c in cards {
            counts[c.id()] += 1;
        }
        Ok(Composition { counts })
    }

    /// Takes `cards` out (cards seen: the trump card, earlier deals…). Fails, leaving the
    /// composition unchanged, if a card is removed more times than it is present.
    pub fn remove(&mut self, cards: &[Card]) -> Result<(), BankError> {
        let mut next = self.counts;
        for c in cards {
            let n = &mut next[c.id()];
            if *n == 0 {
                let seen = cards.iter().filter(|&&x| x == *c).count();
                return Err(BankError::InvalidShoe(format!(
                    "impossible shoe state: {c} is removed {seen} time(s) but only {} cop{} left",
                    self.counts[c.id()],
                    if self.counts[c.id()] == 1 {
                        "y is"
                    } else {
                        "ies are"
                    }
                )));
            }
            *n -= 1;
        }
        self.counts = next;
        Ok(())
    }

    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.id()]
    }

    pub fn len(&self) -> usize {
        self.counts.iter().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Trumps left per rank.
    pub fn trumps(&self, trump: Suit) -> TrumpCounts {
        let base = trump.index() * 13;
        let mut t = [0u8; 13];
        t.copy_from_slice(&self.counts[base..base + 13]);
        t
    }

    /// The cards, each repeated by its count, in id order.
    pub fn cards(&self) -> Vec<Card> {
        (0..52)
            .filter_map(Card::from_id)
            .flat_map(|c| std::iter::repeat(c).take(self.counts[c.id()] as usize))
            .collect()
    }
}

/// Exact outcome probabilities for one punter tableau against the banker's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Weight of banker / en carte / punter (indexed by [`Outcome::index`]).
    pub numerators: [u128; 3],
    /// `scores[b][p]`: weight of the banker taking `b` tricks and the punter `p`.
    pub scores: [[u128; 5]; 5],
    /// `C(N, 4)·C(N − 4, 4)`: the total weight.
    pub denominator: u128,
    pub cards_left: usize,
    pub trumps_left: usize,
}

impl Odds {
    /// The probability of `outcome` as a reduced fraction (numerator, denominator).
    pub fn exact(&self, outcome: Outcome) -> (u128, u128) {
        reduce(self.numerators[outcome.index()], self.denominator)
    }

    pub fn probability(&self, outcome: Outcome) -> f64 {
        self.numerators[outcome.index()] as f64 / self.denominator as f64
    }

    /// The probability of the trick score `banker`–`punter`, reduced.
    pub fn score_exact(&self, banker: usize, punter: usize) -> (u128, u128) {
        reduce(self.scores[banker][punter], self.denominator)
    }

    /// Every trick score with a non-zero probability, with its reduced fraction.
    pub fn score_list(&self) -> Vec<((u8, u8), (u128, u128))> {
        let mut out = Vec::new();
        for b in 0..5 {
            for p in 0..5 {
                if self.scores[b][p] > 0 {
                    out.push(((b as u8, p as u8), self.score_exact(b, p)));
                }
            }
        }
        out
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn reduce(num: u128, den: u128) -> (u128, u128) {
    let g = gcd(num, den).max(1);
    (num / g, den / g)
}

/// `C(n, k)`, 0 when `k > n`.
pub fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Exact odds for trump suit `trump` when `remaining` is what is left in the shoe (the full
/// shoe minus the turned-up trump card and every card already seen). Needs 8 cards.
pub fn odds(trump: Suit, remaining: &Composition) -> Result<Odds, BankError> {
    let cards_left = remaining.len();
    if cards_left < 2 * TABLEAU as usize {
        return Err(BankError::TooFewCards {
            needed: 2 * TABLEAU as usize,
            left: cards_left,
        });
    }
    let trumps = remaining.trumps(trump);
    let trumps_left: usize = trumps.iter().map(|&n| n as usize).sum();
    let non_trumps = (cards_left - trumps_left) as u128;
    // fill[nb][np]: ways to complete the tableaux with nb and np non-trumps.
    let mut fill = [[0u128; 5]; 5];
    for (nb, row) in fill.iter_mut().enumerate() {
        for (np, cell) in row.iter_mut().enumerate() {
            let (nb, np) = (nb as u128, np as u128);
            *cell = binomial(non_trumps, nb) * binomial(non_trumps.saturating_sub(nb), np);
        }
    }
    let mut acc = Enumeration {
        trumps,
        fill,
        numerators: [0; 3],
        scores: [[0; 5]; 5],
    };
    acc.walk(0, [0; 13], [0; 13], 0, 0, 1);
    let n = cards_left as u128;
    let denominator = binomial(n, 4) * binomial(n - 4, 4);
    debug_assert_eq!(acc.numerators.iter().sum::<u128>(), denominator);
    Ok(Odds {
        numerators: acc.numerators,
        scores: acc.scores,
        denominator,
        cards_left,
        trumps_left,
    })
}

struct Enumeration {
    trumps: TrumpCounts,
    fill: [[u128; 5]; 5],
    numerators: [u128; 3],
    scores: [[u128; 5]; 5],
}

impl Enumeration {
    /// Chooses the banker's and punter's trumps of `rank` and recurses to the next rank.
    fn walk(
        &mut self,
        rank: usize,
        banker: TrumpCounts,
        punter: TrumpCounts,
        banker_trumps: u8,
        punter_trumps: u8,
        weight: u128,
    ) {
        if rank == 13 {
            let fill =
                self.fill[(TABLEAU - banker_trumps) as usize][(TABLEAU - punter_trumps) as usize];
            if fill == 0 {
                return;
            }
            let r = resolve_counts(banker, punter);
            let w = weight * fill;
            self.numerators[r.outcome.index()] += w;
            self.scores[r.banker_tricks as usize][r.punter_tricks as usize] += w;
            return;
        }
        let left = self.trumps[rank];
        for b in 0..=left.min(TABLEAU - banker_trumps) {
            for p in 0..=(left - b).min(TABLEAU - punter_trumps) {
                let (mut bn, mut pn) = (banker, punter);
                bn[rank] = b;
                pn[rank] = p;
                let w = weight
                    * SMALL_BINOMIAL[left as usize][b as usize]
                    * SMALL_BINOMIAL[(left - b) as usize][p as usize];
                self.walk(rank + 1, bn, pn, banker_trumps + b, punter_trumps + p, w);
            }
        }
    }
}
