//! The solver's packed card sets: a card is `suit * 8 + strength` (strength under the
//! deal's rank order), so within a suit a higher bit is a stronger card and "beats" is a
//! comparison; a set of cards is a `u32`. The search and the endgame tables share these.

use crate::card::Card;
use crate::duel::action::pack_card;
use crate::duel::rules::Order;

/// Bits of one suit in the internal index.
pub(crate) fn suit_bits(card: u8) -> u32 {
    0xff << (card & !7)
}

/// Whether `card`, played second, beats `lead`, trumps being `trump_bits`.
#[inline]
pub(crate) fn beats_with(trump_bits: u32, card: u8, lead: u8) -> bool {
    if (card ^ lead) & !7 == 0 {
        card > lead
    } else {
        trump_bits & (1 << card) != 0
    }
}

/// The follower's legal replies to `lead` from `hand`, trumps being `trump_bits`.
#[inline]
pub(crate) fn replies_with(trump_bits: u32, hand: u32, lead: u8) -> u32 {
    let follow = hand & suit_bits(lead);
    if follow != 0 {
        return follow;
    }
    let trumps = hand & trump_bits;
    if trumps != 0 {
        trumps
    } else {
        hand
    }
}

/// Internal index of a duel card under `order`.
pub(crate) fn to_internal(card: Card, order: Order) -> u8 {
    let suit = card.suit().index() as u8;
    suit * 8 + order.strength(card.rank())
}

/// A pack-indexed card set re-indexed internally.
pub(crate) fn set_to_internal(mut set: u32, order: Order) -> u32 {
    let mut out = 0;
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        out |= 1 << to_internal(pack_card(i), order);
    }
    out
}

/// One suit's byte tables, indexed `[live][x]`.
type ByteTable = [[u8; 256]; 256];

/// `PEXT[live][x]`: the bits of `x` gathered at the positions of the set bits of `live`
/// (one suit's byte), i.e. the relative ranks among the live cards.
static PEXT: ByteTable = BYTE_TABLES.0;

/// `REDUCE[live][x]`: [`reduce_equivalent`] within one suit's byte.
static REDUCE: ByteTable = BYTE_TABLES.1;

// Evaluated at compile time into the statics, so the arrays never live on a stack.
#[allow(clippy::large_stack_arrays)]
const BYTE_TABLES: (ByteTable, ByteTable) = build_byte_tables();

#[allow(clippy::large_stack_arrays)]
const fn build_byte_tables() -> (ByteTable, ByteTable) {
    let (mut pext, mut reduce) = ([[0u8; 256]; 256], [[0u8; 256]; 256]);
    let mut live = 0;
    while live < 256 {
        let mut x = 0;
        while x < 256 {
            // Walk up the live cards: gather `x`'s bits, and drop each card of `x` whose
            // next lower live card is in `x` too.
            let (mut gathered, mut pos, mut bit) = (0u8, 0, 0);
            let (mut kept, mut below_in_x) = (x as u8, false);
            while bit < 8 {
                if live & (1 << bit) != 0 {
                    let in_x = x & (1 << bit) != 0;
                    if in_x {
                        gathered |= 1 << pos;
                        if below_in_x {
                            kept &= !(1 << bit);
                        }
                    }
                    below_in_x = in_x;
                    pos += 1;
                }
                bit += 1;
            }
            pext[live][x] = gathered;
            reduce[live][x] = kept;
            x += 1;
        }
        live += 1;
    }
    (pext, reduce)
}

/// `set` as ranks relative to the `live` cards, packed suit after suit (suit 0 in the low
/// bits), and the numbers of live cards in the first three suits in base 9 (below 729).
#[inline]
pub(crate) fn relative_packed(set: u32, live: u32) -> (usize, usize) {
    let (mut pattern, mut shift, mut counts) = (0usize, 0, 0usize);
    for suit in 0..3 {
        let l = ((live >> (8 * suit)) & 0xff) as usize;
        let x = ((set >> (8 * suit)) & 0xff) as usize;
        pattern |= usize::from(PEXT[l][x]) << shift;
        let n = usize::from(POP8[l]);
        shift += n;
        counts = counts * 9 + n;
    }
    let (l, x) = ((live >> 24) as usize, (set >> 24) as usize);
    (pattern | usize::from(PEXT[l][x]) << shift, counts)
}

/// A card set re-expressed as ranks relative to the `live` cards, suit by suit.
#[inline]
pub(crate) fn relative(set: u32, live: u32) -> u32 {
    let mut out = 0;
    for shift in [0, 8, 16, 24] {
        let l = ((live >> shift) & 0xff) as usize;
        let x = ((set >> shift) & 0xff) as usize;
        out |= u32::from(PEXT[l][x]) << shift;
    }
    out
}

/// One card's relative index (`0xff` stays "none").
pub(crate) fn relative_card(card: u8, live: u32) -> u8 {
    if card >= 32 {
        return card;
    }
    relative(1 << card, live).trailing_zeros() as u8
}

/// The live card at relative index `rel` (`0xff` when none).
pub(crate) fn absolute(rel: u8, live: u32) -> u8 {
    if rel >= 32 {
        return 0xff;
    }
    let suit = rel & !7;
    let mut l = (live >> suit) & 0xff;
    for _ in 0..(rel & 7) {
        l &= l.wrapping_sub(1);
    }
    if l == 0 {
        0xff
    } else {
        suit + l.trailing_zeros() as u8
    }
}

/// The number of cards in a set, from a byte table (the portable build of x86-64
/// has no `popcnt` instruction, and a hand has at most five cards).
#[inline]
pub(crate) fn pop(set: u32) -> i32 {
    let bytes = set.to_le_bytes();
    i32::from(POP8[bytes[0] as usize] + POP8[bytes[1] as usize])
        + i32::from(POP8[bytes[2] as usize] + POP8[bytes[3] as usize])
}

static POP8: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    table
};

/// The lowest card equivalent to `card` in `hand`: walking down its suit, every next
/// lower live card is in `hand` too (no live card of another holder between them).
pub(crate) fn representative(card: u8, hand: u32, live: u32) -> u8 {
    let mut c = card;
    loop {
        let below = live & suit_bits(c) & ((1u32 << c) - 1);
        if below == 0 {
            return c;
        }
        let next = below.ilog2() as u8;
        if hand & (1 << next) == 0 {
            return c;
        }
        c = next;
    }
}

/// `cards` less the cards equivalent to a lower one: two cards of a suit in the same set
/// with no live card between them play the same, so only the lowest of each run stays.
#[inline]
pub(crate) fn reduce_equivalent(cards: u32, live: u32) -> u32 {
    let mut out = 0;
    for shift in [0, 8, 16, 24] {
        let l = ((live >> shift) & 0xff) as usize;
        let x = ((cards >> shift) & 0xff) as usize;
        out |= u32::from(REDUCE[l][x]) << shift;
    }
    out
}

#[cfg(test)]
mod reduce_tests {
    use super::{reduce_equivalent, representative};

    /// The byte-table reduction against its definition: a card goes when the next lower
    /// live card of its suit is in the set too; every card of the set keeps a
    /// representative in the reduced set.
    #[test]
    fn reduce_equivalent_matches_its_definition() {
        let mut x = 0x1234_5678_9abc_def1_u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let live = x as u32;
            let cards = live & (x >> 32) as u32;
            let mut want = cards;
            for c in (0..32u8).filter(|&c| cards & 1 << c != 0) {
                let below = live & (0xff << (c & !7)) & ((1u32 << c) - 1);
                if below != 0 && cards & 1 << below.ilog2() != 0 {
                    want &= !(1 << c);
                }
            }
            let reduced = reduce_equivalent(cards, live);
            assert_eq!(reduced, want, "{cards:#x} in {live:#x}");
            for c in (0..32u8).filter(|&c| cards & 1 << c != 0) {
                assert_ne!(reduced & 1 << representative(c, cards, live), 0);
            }
        }
    }
}

#[cfg(test)]
mod beats_tests {
    use super::{beats_with, to_internal};
    use crate::card::{piquet_pack, Suit};
    use crate::duel::rules::{beats, Order};

    /// The packed trick rule is the one definition (`duel::rules::beats`) on every pair
    /// of duel cards, every trump suit and both rank orders.
    #[test]
    fn packed_beats_is_the_trick_rule() {
        for order in [Order::Ecarte, Order::Traditional] {
            for trump in Suit::ALL {
                let trump_bits = 0xff << (trump.index() * 8);
                for card in piquet_pack() {
                    for lead in piquet_pack().into_iter().filter(|&l| l != card) {
                        let packed = (to_internal(card, order), to_internal(lead, order));
                        assert_eq!(
                            beats_with(trump_bits, packed.0, packed.1),
                            beats(order, trump, card, lead),
                            "{card} on {lead}, trumps {trump}, {order:?}"
                        );
                    }
                }
            }
        }
    }
}
