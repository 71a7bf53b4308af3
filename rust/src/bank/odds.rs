//! Exact odds of one punter tableau against the banker's, given what is left in the shoe.
//!
//! Both tableaux are 4 cards drawn without replacement from the remaining cards. Only trumps
//! matter, and of those only what is left after cancelling equal ranks: the remaining
//! trumps in rank order, each marked with its side, decide every trick. So the calculator
//! runs a dynamic programme over the 13 ranks, low to high. At each rank it chooses how
//! many trumps go to the banker (`b`) and to the punter (`p`), `b + p` at most the copies
//! left (0–2), weighted `C(t, b)·C(t − b, p)`; `min(b, p)` pairs cancel and the surplus is
//! appended to the *word* of uncancelled trumps. A state is (pairs cancelled, word), at
//! most 5 × 251 of them, so a full shoe needs tens of thousands of products rather than
//! millions of compositions. At the end the non-trumps fill each tableau,
//! `C(M, 4 − B)·C(M − 4 + B, 4 − P)` for `B`, `P` trumps per side and `M` non-trumps left,
//! and each word is resolved once by [`resolve_counts`].
//!
//! The weights sum to `C(N, 4)·C(N − 4, 4)` for `N` cards left (multivariate
//! hypergeometric). All arithmetic is exact in `u128`.

use super::error::BankError;
use super::resolve::{resolve_counts, Outcome, TrumpCounts, TABLEAU_SIZE as TABLEAU};
use super::shoe::check_copies;
use crate::card::{Card, Suit};

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
                let left = self.counts[c.id()];
                return Err(BankError::InvalidShoe(format!(
                    "impossible shoe state: {c} is removed {seen} time{} but only {left} {} left",
                    if seen == 1 { "" } else { "s" },
                    if left == 1 { "copy is" } else { "copies are" }
                )));
            }
            *n -= 1;
        }
        self.counts = next;
        Ok(())
    }

    /// How many copies of `card` are left.
    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.id()]
    }

    /// How many cards are left.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&n| n as usize).sum()
    }

    /// Whether no card is left.
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
            .flat_map(|c| std::iter::repeat_n(c, self.counts[c.id()] as usize))
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
    /// Cards left in the composition.
    pub cards_left: usize,
    /// Trumps left in the composition.
    pub trumps_left: usize,
}

impl Odds {
    /// The probability of `outcome` as a reduced fraction (numerator, denominator).
    pub fn exact(&self, outcome: Outcome) -> (u128, u128) {
        reduce(self.numerators[outcome.index()], self.denominator)
    }

    /// The probability of `outcome` (numerator over denominator).
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

/// Uncancelled trumps in rank order: bit `i` set when the `i`-th lowest is the banker's.
/// At most 4 per side, so `len <= 8`.
#[derive(Clone, Copy)]
struct Word {
    len: u8,
    bits: u8,
}

/// States of the programme: pairs cancelled (0–4) × word length (0–8) × bits.
const WORD_KEYS: usize = 9 * 256;
const STATES: usize = (TABLEAU as usize + 1) * WORD_KEYS;

fn key(cancelled: u8, w: Word) -> usize {
    cancelled as usize * WORD_KEYS + w.len as usize * 256 + w.bits as usize
}

fn unkey(k: usize) -> (u8, Word) {
    let cancelled = (k / WORD_KEYS) as u8;
    let rest = k % WORD_KEYS;
    let word = Word {
        len: (rest / 256) as u8,
        bits: (rest % 256) as u8,
    };
    (cancelled, word)
}

impl Word {
    fn banker(self) -> u8 {
        self.bits.count_ones() as u8
    }

    fn punter(self) -> u8 {
        self.len - self.banker()
    }

    /// `n` more trumps of `banker`'s side, higher than all before.
    fn push(self, n: u8, banker: bool) -> Word {
        let ones = if banker { ((1u16 << n) - 1) as u8 } else { 0 };
        Word {
            len: self.len + n,
            bits: self.bits | ones.checked_shl(self.len as u32).unwrap_or(0),
        }
    }

    /// The word as trump counts, one rank per trump: only the order matters once equal
    /// ranks have cancelled, so the resolution is the one `resolve` gives.
    fn counts(self) -> (TrumpCounts, TrumpCounts) {
        let (mut banker, mut punter) = ([0u8; 13], [0u8; 13]);
        for i in 0..self.len as usize {
            if self.bits >> i & 1 == 1 {
                banker[i] = 1;
            } else {
                punter[i] = 1;
            }
        }
        (banker, punter)
    }
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

    // ways[key(c, word)]: weighted ways to deal the ranks so far; `active` lists the
    // non-zero states, so each rank costs only the states reached (a few thousand).
    let mut ways = vec![0u128; STATES];
    let mut next = vec![0u128; STATES];
    let start = key(0, Word { len: 0, bits: 0 });
    ways[start] = 1;
    let mut active = vec![start];
    let mut reached = Vec::new();
    for &left in &trumps {
        if left == 0 {
            continue; // the only choice is none to either side: states unchanged
        }
        for &k in &active {
            let w = std::mem::take(&mut ways[k]);
            let (cancelled, word) = unkey(k);
            let (banker, punter) = (cancelled + word.banker(), cancelled + word.punter());
            for b in 0..=left.min(TABLEAU - banker) {
                for p in 0..=(left - b).min(TABLEAU - punter) {
                    let grown = if b >= p {
                        word.push(b - p, true)
                    } else {
                        word.push(p - b, false)
                    };
                    let to = key(cancelled + b.min(p), grown);
                    if next[to] == 0 {
                        reached.push(to); // every term is positive: 0 means not reached yet
                    }
                    next[to] += w
                        * SMALL_BINOMIAL[left as usize][b as usize]
                        * SMALL_BINOMIAL[(left - b) as usize][p as usize];
                }
            }
        }
        std::mem::swap(&mut ways, &mut next);
        std::mem::swap(&mut active, &mut reached);
        reached.clear();
    }

    let mut numerators = [0u128; 3];
    let mut scores = [[0u128; 5]; 5];
    for &k in &active {
        let w = ways[k];
        let (cancelled, word) = unkey(k);
        // Non-trumps complete the tableaux: the banker's first, then the punter's.
        let nb = (TABLEAU - cancelled - word.banker()) as u128;
        let np = (TABLEAU - cancelled - word.punter()) as u128;
        let fill = binomial(non_trumps, nb) * binomial(non_trumps.saturating_sub(nb), np);
        if fill == 0 {
            continue;
        }
        let (banker, punter) = word.counts();
        let r = resolve_counts(banker, punter);
        let w = w * fill;
        numerators[r.outcome.index()] += w;
        scores[r.banker_tricks as usize][r.punter_tricks as usize] += w;
    }
    let n = cards_left as u128;
    let denominator = binomial(n, 4) * binomial(n - 4, 4);
    debug_assert_eq!(numerators.iter().sum::<u128>(), denominator);
    Ok(Odds {
        numerators,
        scores,
        denominator,
        cards_left,
        trumps_left,
    })
}
