//! The search's transposition table: bounds on the leader's metric at trick boundaries.
//!
//! An entry is keyed by the two hands as ranks among the live cards (positions that differ
//! only in which equivalent cards were played transpose) and by the **undrawn talon**: its
//! exact card sequence, interned to a small id. With the same talon to come, hands with the
//! same relative ranks are the same game whatever the absolute cards (the talon's cards sit
//! at the same relative ranks, the complement of the hands'), so an entry holds for any
//! solve with that talon, the trump suit and the way of drawing being part of the id. Solves
//! given one *scope* share the table: the worlds and options of one decision reuse each
//! other's work wherever their talons to come agree (always once only the last pair is
//! left, and across the exchange options of one world). A solve without a scope starts a
//! new generation, so its work never depends on the solves before it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of the interned talons: their codes are already distinct integers, so one
/// multiplication mixes them enough, where the standard hasher (`SipHash`) cost about 1% of
/// an exchange decision's time.
#[derive(Default)]
struct TalonHasher(u64);

impl Hasher for TalonHasher {
    fn finish(&self) -> u64 {
        // The table indexes by the low bits, which a product mixes least.
        self.0 ^ self.0 >> 29
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, code: u128) {
        let folded = (code as u64) ^ ((code >> 64) as u64).rotate_left(29);
        self.0 = (self.0 ^ folded).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// One position's bounds.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    /// The hands as ranks among the live cards: the leader's in the low half.
    pub key: u64,
    /// Bounds on the leader's metric.
    pub lower: u8,
    pub upper: u8,
    /// The lead that last proved a lower bound (relative index), for move ordering.
    pub best: u8,
    /// With draws by seat, whether the leader takes the first card of each pair to come
    /// (see `Search::seat_tag`).
    pub seat: u8,
    /// The interned undrawn talon.
    pub talon: u16,
    pub generation: u16,
}

// 16 Ki entries of 16 bytes: 256 KiB. Since the endgame table took over the last five
// tricks, the table holds far fewer positions: on the 100 full positions 2^14 entries (and
// 2^13 endgame values) search 1.5% more nodes than 2^16 (and 2^16) but run faster, with
// fewer cache misses (0.79 ms median against 0.93 ms, 3.4 ms worst against 5.0 ms); 2^13
// entries doubled the worst case.
pub(super) const TT_BITS: u32 = 14;

/// The table, its generation stamp and the talons interned in that generation.
pub(super) struct Table {
    entries: Vec<Entry>,
    generation: u16,
    scope: Option<u64>,
    talons: HashMap<u128, u16, BuildHasherDefault<TalonHasher>>,
}

impl Table {
    pub fn new() -> Table {
        Table {
            entries: vec![Entry::default(); 1 << TT_BITS],
            generation: 0,
            scope: None,
            talons: HashMap::default(),
        }
    }

    /// Starts a solve. Without a scope, or in a scope other than the last solve's, the old
    /// entries are dropped (a new generation).
    pub fn begin(&mut self, scope: Option<u64>) {
        // A solve interns at most 23 talons; the ids must stay distinct.
        let full = self.talons.len() + 23 >= usize::from(u16::MAX);
        if scope.is_some() && scope == self.scope && !full {
            return;
        }
        self.scope = scope;
        self.talons.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The stamp wrapped: old entries could look current, so clear them once.
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    /// The id of an undrawn talon in this generation (`code`, see `Search::reset`).
    pub fn intern(&mut self, code: u128) -> u16 {
        let next = self.talons.len() as u16;
        *self.talons.entry(code).or_insert(next)
    }

    #[inline]
    fn slot(key: u64, talon: u16) -> usize {
        let mixed = key ^ u64::from(talon).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TT_BITS)) as usize
    }

    /// The current entry of a position, if any: in either place of its bucket.
    #[inline]
    pub fn probe(&self, key: u64, talon: u16, seat: u8) -> Option<Entry> {
        let bucket = Self::slot(key, talon) & !1;
        let current = |e: &Entry| {
            e.key == key && e.talon == talon && e.seat == seat && e.generation == self.generation
        };
        self.entries[bucket..bucket + 2]
            .iter()
            .copied()
            .find(current)
    }

    /// Stores an entry in its bucket of two: over the same position's entry, else first,
    /// the entry that was first moving to second (the older of two is the one dropped).
    /// Entries of an earlier generation count as empty, so that a solve's work never
    /// depends on the solves before it. On PIMC's exchange decisions, 1.5% faster than one
    /// entry a slot, at the same size.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let bucket = Self::slot(entry.key, entry.talon) & !1;
        let entry = Entry {
            generation: self.generation,
            ..entry
        };
        let current = |e: &Entry| e.generation == entry.generation;
        let same = |e: &Entry| {
            current(e) && e.key == entry.key && e.talon == entry.talon && e.seat == entry.seat
        };
        if same(&self.entries[bucket + 1]) {
            self.entries[bucket + 1] = entry;
            return;
        }
        let first = self.entries[bucket];
        if current(&first) && !same(&first) {
            self.entries[bucket + 1] = first;
        }
        self.entries[bucket] = entry;
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}
