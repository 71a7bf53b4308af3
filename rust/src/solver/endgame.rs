//! Exact values of every endgame of at most [`TABLE_TRICKS`] tricks once the talon is gone,
//! computed once per process.
//!
//! An endgame is keyed by its shape, which holds no deal: the number of live cards (both
//! hands) in each suit, the leader's hand as ranks relative to those cards (packed suit
//! after suit, the follower holds the rest) and the trump suit. The suits are rotated to
//! make trumps the first, so the table holds one trump suit. There are few shapes (about
//! 11 500 of four tricks), and a table lookup replaces the last tricks of every search.

use std::sync::OnceLock;

use super::packed::{beats_with, relative_packed, replies_with};

/// Endgames of up to this many tricks are in the table.
pub(crate) const TABLE_TRICKS: i32 = 4;

/// Live-card counts of the first three suits, in base 9 (the fourth follows from the total).
const COUNTS: usize = 9 * 9 * 9;

/// `VALUES[r - 1][index]`: the leader's exact metric (twice the tricks, plus one for the
/// last trick) of the endgame of `r` tricks at `index` (see [`index`]), trumps being the
/// first suit.
static VALUES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();

/// The table, built on first use (about 20 M instructions, a few milliseconds).
pub(crate) fn values() -> &'static [Vec<u8>] {
    VALUES.get_or_init(build)
}

/// The index of the endgame where the leader holds `a` and the follower `b` (`r` cards
/// each, at most [`TABLE_TRICKS`]), trumps being the first suit.
#[inline]
fn index(a: u32, b: u32, r: i32) -> usize {
    let (pattern, counts) = relative_packed(a, a | b);
    counts << (2 * r) | pattern
}

/// The leader's exact metric with `a` against `b` (`r` cards each, `r` at most
/// [`TABLE_TRICKS`]), trumps being `trump_suit` (0-3).
#[inline]
pub(crate) fn value(tables: &[Vec<u8>], a: u32, b: u32, r: i32, trump_suit: usize) -> i32 {
    let turn = 8 * trump_suit as u32;
    let index = index(a.rotate_right(turn), b.rotate_right(turn), r);
    i32::from(tables[r as usize - 1][index])
}

fn build() -> Vec<Vec<u8>> {
    let mut tables: Vec<Vec<u8>> = Vec::new();
    for r in 1..=TABLE_TRICKS {
        let width = 2 * r as usize;
        let mut table = vec![0u8; COUNTS << width];
        for base9 in 0..COUNTS {
            let counts = [base9 / 81, base9 / 9 % 9, base9 % 9];
            let Some(last) = width.checked_sub(counts.iter().sum()) else {
                continue;
            };
            if last > 8 {
                continue;
            }
            let live = counts
                .iter()
                .chain([&last])
                .enumerate()
                .fold(0u32, |live, (suit, &n)| live | ((1 << n) - 1) << (8 * suit));
            for pattern in 0..1u32 << width {
                if pattern.count_ones() as usize != width / 2 {
                    continue;
                }
                let a = deposit(pattern, live);
                let b = live & !a;
                table[index(a, b, r)] = minimax(&tables, a, b, r);
            }
        }
        tables.push(table);
    }
    tables
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

/// One level of minimax over the smaller endgames already in `tables`, trumps being the
/// first suit.
fn minimax(tables: &[Vec<u8>], a: u32, b: u32, r: i32) -> u8 {
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
                (_, true) => 2 + value(tables, rest, left, r - 1, 0),
                (_, false) => 2 * r - 1 - value(tables, left, rest, r - 1, 0),
            };
            worst = worst.min(v);
        }
        best = best.max(worst);
    }
    best as u8
}
