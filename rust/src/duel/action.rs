//! Duel actions, their text forms, and the fixed action space used by masks and tensors.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// Number of cards in the duel pack.
pub const PACK_SIZE: usize = 32;

/// Size of the fixed action space: 32 plays, 32 discards, then propose, decline, accept
/// and refuse.
pub const NUM_ACTIONS: usize = 68;

/// The duel cards in pack order (by [`pack_index`]).
const PACK: [Card; PACK_SIZE] = {
    let mut pack = [Card::new(Rank::Seven, Suit::Clubs); PACK_SIZE];
    let mut i = 0;
    while i < PACK_SIZE {
        pack[i] = Card::new(Rank::ALL[Rank::Seven as usize + i % 8], Suit::ALL[i / 8]);
        i += 1;
    }
    pack
};

/// [`pack_index`] of every card id, `NOT_IN_PACK` for the ranks 2–6 (and past the
/// 52 ids: 256 entries need no bounds check). The hot paths (play, draw, legal actions)
/// convert cards through tables, not divisions by 13.
const PACK_INDEX: [u8; 256] = {
    let mut table = [NOT_IN_PACK; 256];
    let mut i = 0;
    while i < PACK_SIZE {
        table[PACK[i].id()] = i as u8;
        i += 1;
    }
    table
};
const NOT_IN_PACK: u8 = u8::MAX;

/// Index of a duel card in `0..32`: `suit * 8 + (rank - 7)`, suits in `C D H S` order.
pub fn pack_index(card: Card) -> Option<usize> {
    let i = PACK_INDEX[card.id() & 0xff];
    (i != NOT_IN_PACK).then_some(i as usize)
}

/// The duel card at `index` (0–31).
pub fn pack_card(index: usize) -> Card {
    PACK[index % PACK_SIZE]
}

/// Bit of a duel card in a 32-bit card set (0 for a card outside the pack).
pub fn bit(card: Card) -> u32 {
    PACK_BITS[card.id() & 0xff]
}

/// [`bit`] of every card id, one load on the hot paths.
const PACK_BITS: [u32; 256] = {
    let mut table = [0; 256];
    let mut i = 0;
    while i < PACK_SIZE {
        table[PACK[i].id()] = 1 << i;
        i += 1;
    }
    table
};

/// Iterates the cards of a 32-bit set in pack order.
pub fn cards_of(mut set: u32) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            pack_card(i)
        })
    })
}

/// The eight flags of every byte value, for expanding bit masks a byte at a time.
const BYTE_FLAGS: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = byte >> bit & 1 == 1;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Writes the legal-action bit set `legal` as [`NUM_ACTIONS`] flags into `out`: `bool`s, or
/// bytes 0 and 1 (memory that Python may also write holds bytes, any of which is a valid
/// `u8` but not a valid `bool`).
#[inline]
pub fn write_mask<F: From<bool> + Copy>(legal: u128, out: &mut [F]) {
    let bytes = legal.to_le_bytes();
    for (chunk, byte) in out[..NUM_ACTIONS].chunks_mut(8).zip(bytes) {
        chunk.copy_from_slice(&BYTE_FLAGS[byte as usize].map(F::from)[..chunk.len()]);
    }
}

/// One move of the duel: a proposal, a response, a discard or a card played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A card played to a trick.
    Play(Card),
    /// A card put aside during an exchange.
    Discard(Card),
    /// The elder asks for an exchange.
    Propose,
    /// The elder goes to play without exchanging.
    Decline,
    /// The dealer agrees to an exchange.
    Accept,
    /// The dealer refuses; play starts.
    Refuse,
}

impl Action {
    /// Index in the fixed action space (see [`NUM_ACTIONS`]).
    pub fn id(self) -> usize {
        match self {
            Action::Play(c) => pack_index(c).unwrap_or(0),
            Action::Discard(c) => PACK_SIZE + pack_index(c).unwrap_or(0),
            Action::Propose => 64,
            Action::Decline => 65,
            Action::Accept => 66,
            Action::Refuse => 67,
        }
    }

    /// The action with index `id`, if it is in the action space.
    pub fn from_id(id: usize) -> Option<Action> {
        Some(match id {
            0..=31 => Action::Play(pack_card(id)),
            32..=63 => Action::Discard(pack_card(id - PACK_SIZE)),
            64 => Action::Propose,
            65 => Action::Decline,
            66 => Action::Accept,
            67 => Action::Refuse,
            _ => return None,
        })
    }

    /// The card of a discard or a play; `None` for the other actions.
    pub fn card(self) -> Option<Card> {
        match self {
            Action::Play(c) | Action::Discard(c) => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(c) => write!(f, "{c}"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Propose => f.write_str("propose"),
            Action::Decline => f.write_str("decline"),
            Action::Accept => f.write_str("accept"),
            Action::Refuse => f.write_str("refuse"),
        }
    }
}

/// Text that is not a duel action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError(pub String);

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid action {:?}: expected propose, decline, accept, refuse, a duel card such as 'QH', or 'discard QH'",
            self.0
        )
    }
}

impl std::error::Error for ParseActionError {}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        let duel_card = |w: &str| {
            w.parse::<Card>()
                .ok()
                .filter(|c| pack_index(*c).is_some())
                .ok_or_else(err)
        };
        match words.as_slice() {
            [w] => match w.to_ascii_lowercase().as_str() {
                "propose" => Ok(Action::Propose),
                "decline" => Ok(Action::Decline),
                "accept" => Ok(Action::Accept),
                "refuse" => Ok(Action::Refuse),
                _ => duel_card(w).map(Action::Play),
            },
            [d, w] if d.eq_ignore_ascii_case("discard") => duel_card(w).map(Action::Discard),
            _ => Err(err()),
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cover_the_action_space_once() {
        for id in 0..NUM_ACTIONS {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id);
            assert_eq!(a.to_string().parse::<Action>(), Ok(a));
        }
        assert!(Action::from_id(NUM_ACTIONS).is_none());
    }

    #[test]
    fn masks_expand_bit_by_bit() {
        let legal: u128 = (1 << 0) | (1 << 9) | (1 << 64) | (1 << 67);
        let mut out = [true; NUM_ACTIONS];
        let mut bytes = [7u8; NUM_ACTIONS];
        write_mask(legal, &mut out);
        write_mask(legal, &mut bytes);
        for (id, (flag, byte)) in out.iter().zip(bytes).enumerate() {
            assert_eq!(*flag, legal >> id & 1 == 1, "{id}");
            assert_eq!(byte, u8::from(*flag), "{id}");
        }
    }

    #[test]
    fn parses_text_forms() {
        assert_eq!(
            "q♥".parse::<Action>(),
            Ok(Action::Play("QH".parse().unwrap()))
        );
        assert_eq!(
            "discard 10s".parse::<Action>(),
            Ok(Action::Discard("TS".parse().unwrap()))
        );
        assert_eq!("Propose".parse::<Action>(), Ok(Action::Propose));
        for bad in ["", "2H", "discard", "discard 2H", "play QH", "QH QS"] {
            let err = bad.parse::<Action>().unwrap_err();
            assert_eq!(err, ParseActionError(bad.to_string()));
            let message = err.to_string();
            assert!(
                message.starts_with(&format!("invalid action {bad:?}")),
                "{message}"
            );
            assert!(message.contains("'discard QH'"), "{message}");
        }
    }
}
