//! Exact values of every endgame once the talon is gone: at most [`TABLE_TRICKS`] tricks.
//!
//! An endgame is keyed by its shape, which holds no deal: the number of live cards (both
//! hands) in each suit, the leader's hand as ranks relative to those cards (packed suit
//! after suit, the follower holds the rest) and the trump suit. The suits are rotated to
//! make trumps the first, so the tables hold one trump suit. There are few shapes (about
//! 11 500 of four tricks, 68 000 of five), and a lookup replaces the last tricks of every
//! search. The tables of up to four tricks are built whole on first use; a five-trick value
//! is computed at its first lookup (one level of minimax over the four-trick table) and
//! kept for the process, shared by every thread.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use super::packed::{beats_with, relative_packed, replies_with};

/// Endgames of up to this many tricks are in the tables: every endgame, since a hand
/// holds five cards while the talon lasts.
pub(crate) const TABLE_TRICKS: i32 = 5;

/// The tables built whole on first use.
const BUILT_TRICKS: i32 = 4;

/// Live-card counts of the first three suits, in base 9 (the fourth follows from the total).
const COUNTS: usize = 9 * 9 * 9;

/// Five-trick shapes: the 270 ways to spread ten live cards over four suits of eight, by
/// the 252 ways to pick the leader's five among them.
const FIVE_COUNTS: usize = 270;
const FIVE_PATTERNS: usize = 252;

/// A five-trick value not yet computed.
const UNKNOWN: u8 = u8::MAX;

/// The endgame values, trumps being the first suit.
pub(crate) struct Tables {
    /// `built[r - 1][index]`: the leader's exact metric (twice the tricks, plus one for the
    /// last trick) of the endgame of `r` tricks at `index` (see [`index`]).
    built: Vec<Vec<u8>>,
    /// The five-trick metrics, [`UNKNOWN`] until first asked for, at
    /// `count_rank[counts] * FIVE_PATTERNS + pattern_rank[pattern]`.
    five: Vec<AtomicU8>,
    count_rank: Vec<u16>,
    pattern_rank: Vec<u8>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables, built on first use (about 20 M instructions, a few milliseconds).
pub(crate) fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

/// The index of the endgame where the leader holds `a` and the follower `b` (`r` cards
/// each, at most [`BUILT_TRICKS`]), trumps being the first suit.
#[inline]
fn index(a: u32, b: u32, r: i32) -> usize {
    let (pattern, counts) = relative_packed(a, a | b);
    counts << (2 * r) | pattern
}

impl Tables {
    /// The leader's exact metric with `a` against `b` (`r` cards each, `r` at most
    /// [`TABLE_TRICKS`]), trumps being `trump_suit` (0-3).
    #[inline]
    pub(crate) fn value(&self, a: u32, b: u32, r: i32, trump_suit: usize) -> i32 {
        let turn = 8 * trump_suit as u32;
        self.trumps_first(a.rotate_right(turn), b.rotate_right(turn), r)
    }

    /// [`Tables::value`] with trumps the first suit.
    #[inline]
    fn trumps_first(&self, a: u32, b: u32, r: i32) -> i32 {
        if r <= BUILT_TRICKS {
            return i32::from(self.built[r as usize - 1][index(a, b, r)]);
        }
        let (pattern, counts) = relative_packed(a, a | b);
        let i = usize::from(self.count_rank[counts]) * FIVE_PATTERNS
            + usize::from(self.pattern_rank[pattern]);
        let known = self.five[i].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return i32::from(known);
        }
        // Threads racing here compute the same value.
        let value = minimax(a, b, r, |a, b, r| self.trumps_first(a, b, r));
        self.five[i].store(value, Ordering::Relaxed);
        i32::from(value)
    }

    fn build() -> Tables {
        let mut built: Vec<Vec<u8>> = Vec::new();
        for r in 1..=BUILT_TRICKS {
            let mut table = vec![0u8; COUNTS << (2 * r)];
            for (a, b) in shapes(r) {
                let value = minimax(a, b, r, |a, b, r| {
                    i32::from(built[r as usize - 1][index(a, b, r)])
                });
                table[index(a, b, r)] = value;
            }
            built.push(table);
        }
        let mut count_rank = vec![0u16; COUNTS];
        let mut ranked = 0;
        for (base9, rank) in count_rank.iter_mut().enumerate() {
            if live_cards(base9, 10).is_some() {
                *rank = ranked;
                ranked += 1;
            }
        }
        let mut pattern_rank = vec![0u8; 1 << 10];
        let fives = (0..1u32 << 10).filter(|p| p.count_ones() == 5);
        for (rank, pattern) in fives.enumerate() {
            pattern_rank[pattern as usize] = rank as u8;
        }
        debug_assert_eq!(usize::from(ranked), FIVE_COUNTS);
        Tables {
            built,
            five: (0..FIVE_COUNTS * FIVE_PATTERNS)
                .map(|_| AtomicU8::new(UNKNOWN))
                .collect(),
            count_rank,
            pattern_rank,
        }
    }
}

/// The live cards of the shapes whose first three suits have the live-card counts
/// `base9` (base 9), `width` live cards in all: the lowest of each suit, or `None` when
/// the fourth suit would need more than eight.
fn live_cards(base9: usize, width: usize) -> Option<u32> {
    let counts = [base9 / 81, base9 / 9 % 9, base9 % 9];
    let last = width.checked_sub(counts.iter().sum())?;
    (last <= 8).then(|| {
        counts
            .iter()
            .chain([&last])
            .enumerate()
            .fold(0u32, |live, (suit, &n)| live | ((1 << n) - 1) << (8 * suit))
    })
}

/// Every endgame shape of `r` tricks: the leader's and the follower's hands.
fn shapes(r: i32) -> impl Iterator<Item = (u32, u32)> {
    let width = 2 * r as usize;
    (0..COUNTS)
        .filter_map(move |base9| live_cards(base9, width))
        .flat_map(move |live| {
            (0..1u32 << width)
                .filter(move |p| p.count_ones() as usize == width / 2)
                .map(move |pattern| {
                    let a = deposit(pattern, live);
                    (a, live & !a)
                })
        })
}

/// The bits of `pattern` placed, in order, at the set bits of `live`.
fn deposit(mut pattern: u32, live: u32) -> u32 {
    let (mut out, mut set) = (0, live);
    while set != 0 {
        let bit = set & set.wrapping_neg();
        set &= set - 1;
        if pattern & 1 != 0 {
            out |= bit;
        }
        pattern >>= 1;
    }
    out
}

/// One level of minimax over the smaller endgames, whose values `smaller` gives, trumps
/// being the first suit.
fn minimax(a: u32, b: u32, r: i32, smaller: impl Fn(u32, u32, i32) -> i32) -> u8 {
    let trump_bits = 0xff;
    let mut best = 0;
    let mut leads = a;
    while leads != 0 {
        let lead = leads.trailing_zeros() as u8;
        leads &= leads - 1;
        let rest = a & !(1 << lead);
        let mut replies = replies_with(trump_bits, b, lead);
        let mut worst = 2 * r + 1;
        while replies != 0 {
            let reply = replies.trailing_zeros() as u8;
            replies &= replies - 1;
            let left = b & !(1 << reply);
            let won = !beats_with(trump_bits, reply, lead);
            let v = match (r, won) {
                (1, true) => 3,
                (1, false) => 0,
                (_, true) => 2 + smaller(rest, left, r - 1),
                (_, false) => 2 * r - 1 - smaller(left, rest, r - 1),
            };
            worst = worst.min(v);
        }
        best = best.max(worst);
    }
    best as u8
}
