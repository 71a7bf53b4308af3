//! Cards, suits and ranks shared by both variants, their text forms and the packs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. With the `python` feature it is also Python's `ecarte.Suit`: one definition.
#[cfg_attr(
    feature = "python",
    pyo3::pyclass(
        name = "Suit",
        module = "ecarte",
        frozen,
        eq,
        eq_int,
        ord,
        hash,
        from_py_object
    )
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Clubs (♣, `C`).
    Clubs = 0,
    /// Diamonds (♦, `D`).
    Diamonds = 1,
    /// Hearts (♥, `H`).
    Hearts = 2,
    /// Spades (♠, `S`).
    Spades = 3,
}

impl Suit {
    /// The four suits in index order: clubs, diamonds, hearts, spades.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's index in [`Suit::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The suit at `i` in [`Suit::ALL`] (taken modulo 4).
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// The suit's letter: `C`, `D`, `H` or `S`.
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self.index()]
    }

    /// The suit's symbol: `♣`, `♦`, `♥` or `♠`.
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self.index()]
    }

    /// The suit's English name, lower case.
    pub fn name(self) -> &'static str {
        ["clubs", "diamonds", "hearts", "spades"][self.index()]
    }

    /// The suit written in `style`: its symbol for [`CardStyle::Symbols`], else its letter.
    pub fn text(self, style: CardStyle) -> &'static str {
        match style {
            CardStyle::Symbols => ["♣", "♦", "♥", "♠"][self.index()],
            CardStyle::Code | CardStyle::Ascii => ["C", "D", "H", "S"][self.index()],
        }
    }

    /// Parses `C`/`D`/`H`/`S` (either case) or a suit symbol (black or white).
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            'C' | 'c' | '♣' | '♧' => Suit::Clubs,
            'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
            'H' | 'h' | '♥' | '♡' => Suit::Hearts,
            'S' | 's' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Ranks in their natural (bank) order, deuce low, ace high. With the `python` feature it
/// is also Python's `ecarte.Rank`.
#[cfg_attr(
    feature = "python",
    pyo3::pyclass(
        name = "Rank",
        module = "ecarte",
        frozen,
        eq,
        eq_int,
        ord,
        hash,
        from_py_object
    )
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// Two.
    Two = 0,
    /// Three.
    Three,
    /// Four.
    Four,
    /// Five.
    Five,
    /// Six.
    Six,
    /// Seven, the lowest rank of the duel's 32-card pack.
    Seven,
    /// Eight.
    Eight,
    /// Nine.
    Nine,
    /// Ten.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace.
    Ace,
}

impl Rank {
    /// The thirteen ranks in index order, two to ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank's index in [`Rank::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The rank at `i` in [`Rank::ALL`] (taken modulo 13).
    pub fn from_index(i: usize) -> Rank {
        Rank::ALL[i % 13]
    }

    /// The rank's letter: `2`–`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn letter(self) -> char {
        b"23456789TJQKA"[self.index()] as char
    }

    /// The rank written in `style`: its letter in codes, the ten written `10` for people.
    pub fn text(self, style: CardStyle) -> &'static str {
        const LETTERS: [&str; 13] = [
            "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A",
        ];
        match (style, self) {
            (CardStyle::Symbols | CardStyle::Ascii, Rank::Ten) => "10",
            _ => LETTERS[self.index()],
        }
    }

    /// Parses `2`–`9`, `T`/`10`, `J`, `Q`, `K`, `A` in either case.
    pub fn from_text(s: &str) -> Option<Rank> {
        if s == "10" {
            return Some(Rank::Ten);
        }
        let mut chars = s.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let upper = c.to_ascii_uppercase();
        "23456789TJQKA"
            .find(upper)
            .filter(|_| c.is_ascii())
            .map(Rank::from_index)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card of a 52-card pack. The id is `suit * 13 + rank`, so cards order by suit, then rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of `rank` in `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((suit as u8) * 13 + rank as u8)
    }

    /// The card with id `id` (0–51), if there is one.
    pub fn from_id(id: usize) -> Option<Card> {
        (id < 52).then_some(Card(id as u8))
    }

    /// The card's index among the 52: `suit * 13 + rank`.
    pub const fn id(self) -> usize {
        self.0 as usize
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        CARD_SUITS[self.0 as usize & 63]
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        CARD_RANKS[self.0 as usize & 63]
    }

    /// The card with its suit symbol, e.g. `Q♥`, `10♠`: [`CardStyle::Symbols`].
    pub fn pretty(self) -> String {
        self.text(CardStyle::Symbols)
    }

    /// The card written in `style`: `TH` (codes), `10♥` (symbols) or `10H` (ASCII).
    pub fn text(self, style: CardStyle) -> String {
        format!("{}{}", self.rank().text(style), self.suit().text(style))
    }
}

/// How a card is written. Programs read and write codes (records, the protocol's fields);
/// people read symbols, or plain ASCII where a terminal cannot show the symbols (the
/// command line's `--ascii`). Every text form is read back by [`Card::from_str`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardStyle {
    /// The canonical two characters, the ten a `T`: `TH`, `QS`.
    Code,
    /// For people: the ten written `10`, suits as symbols: `10♥`, `Q♠`.
    #[default]
    Symbols,
    /// For people without the symbols: `10H`, `QS`.
    Ascii,
}

impl CardStyle {
    /// Every style, the default first.
    pub const ALL: [CardStyle; 3] = [CardStyle::Code, CardStyle::Symbols, CardStyle::Ascii];

    /// `"code"`, `"symbols"` or `"ascii"`.
    pub fn name(self) -> &'static str {
        match self {
            CardStyle::Code => "code",
            CardStyle::Symbols => "symbols",
            CardStyle::Ascii => "ascii",
        }
    }

    /// The style named `name` (see [`CardStyle::name`]).
    pub fn from_name(name: &str) -> Option<CardStyle> {
        CardStyle::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

/// The suit and rank of every card id (and of the unused ids to 63, which need no bounds
/// check): a load each, where the hot paths paid a division by 13.
const CARD_SUITS: [Suit; 64] = {
    let mut table = [Suit::Clubs; 64];
    let mut id = 0;
    while id < 64 {
        table[id] = Suit::ALL[id / 13 % 4];
        id += 1;
    }
    table
};
const CARD_RANKS: [Rank; 64] = {
    let mut table = [Rank::Two; 64];
    let mut id = 0;
    while id < 64 {
        table[id] = Rank::ALL[id % 13];
        id += 1;
    }
    table
};

/// Text that is not a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCardError(pub String);

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid card {:?}: expected a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. 'QH' or 'Q♥'",
            self.0
        )
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(text.to_string());
        let trimmed = text.trim();
        let suit_char = trimmed.chars().last().ok_or_else(err)?;
        let suit = Suit::from_char(suit_char).ok_or_else(err)?;
        let rank_text = &trimmed[..trimmed.len() - suit_char.len_utf8()];
        let rank = Rank::from_text(rank_text).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Suit::from_char), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(serde::de::Error::custom(format!("not a suit: {text:?}"))),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The 32-card duel pack, in suit-then-rank order (7 to ace of each suit).
pub fn piquet_pack() -> Vec<Card> {
    Suit::ALL
        .iter()
        .flat_map(|&s| {
            Rank::ALL[Rank::Seven.index()..]
                .iter()
                .map(move |&r| Card::new(r, s))
        })
        .collect()
}

/// The 52-card pack in suit-then-rank order.
pub fn full_pack() -> Vec<Card> {
    (0..52).map(|i| Card(i as u8)).collect()
}

/// The 104-card bank shoe: two copies of each card, in pack order twice.
pub fn shoe_pack() -> Vec<Card> {
    let mut v = full_pack();
    v.extend(full_pack());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_accepted_form() {
        let qh = Card::new(Rank::Queen, Suit::Hearts);
        for text in ["QH", "qh", "Q♥", "q♡", " QH "] {
            assert_eq!(text.parse::<Card>(), Ok(qh), "{text}");
        }
        let ts = Card::new(Rank::Ten, Suit::Spades);
        for text in ["TS", "10S", "10♠", "ts", "10s"] {
            assert_eq!(text.parse::<Card>(), Ok(ts), "{text}");
        }
    }

    #[test]
    fn rejects_bad_text() {
        for text in ["", "Q", "QX", "1H", "11H", "QHH", "♥Q", "ＱH"] {
            assert!(text.parse::<Card>().is_err(), "{text}");
        }
    }

    #[test]
    fn display_is_canonical_and_round_trips() {
        for card in full_pack() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            assert_eq!(card.to_string().len(), 2);
        }
    }

    /// Each style writes every card as it says, and every form reads back to the card.
    #[test]
    fn styles_write_cards_that_read_back() {
        let ten = Card::new(Rank::Ten, Suit::Hearts);
        let queen = Card::new(Rank::Queen, Suit::Spades);
        let written = |style| (ten.text(style), queen.text(style));
        assert_eq!(written(CardStyle::Code), ("TH".into(), "QS".into()));
        assert_eq!(written(CardStyle::Symbols), ("10♥".into(), "Q♠".into()));
        assert_eq!(written(CardStyle::Ascii), ("10H".into(), "QS".into()));
        assert_eq!(ten.pretty(), "10♥");
        for style in CardStyle::ALL {
            assert_eq!(CardStyle::from_name(style.name()), Some(style));
            for card in full_pack() {
                assert_eq!(card.text(style).parse::<Card>(), Ok(card), "{style:?}");
            }
        }
        assert_eq!(CardStyle::from_name("fancy"), None);
        for card in full_pack() {
            assert_eq!(card.text(CardStyle::Code), card.to_string());
        }
    }

    #[test]
    fn packs_have_the_right_cards() {
        let p = piquet_pack();
        assert_eq!(p.len(), 32);
        assert!(p.iter().all(|c| c.rank() >= Rank::Seven));
        let shoe = shoe_pack();
        assert_eq!(shoe.len(), 104);
        for c in full_pack() {
            assert_eq!(shoe.iter().filter(|&&x| x == c).count(), 2);
        }
    }
}
