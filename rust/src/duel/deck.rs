//! The checks of a deal's setup: its dealer, its rules and a given 32-card deck.

use super::action::{bit, pack_card, pack_index, PACK_SIZE};
use super::error::DuelError;
use super::rules::Rules;
use crate::card::Card;

pub(super) fn check_setup(dealer: u8, rules: Rules) -> Result<(), DuelError> {
    rules.validate().map_err(DuelError::InvalidRules)?;
    if dealer > 1 {
        return Err(DuelError::InvalidDealer(i64::from(dealer)));
    }
    Ok(())
}

pub(super) fn check_deck(deck: &[Card]) -> Result<[Card; PACK_SIZE], DuelError> {
    if deck.len() != PACK_SIZE {
        return Err(DuelError::InvalidDeck(format!(
            "expected the 32 cards 7 to A of each suit, got {} cards",
            deck.len()
        )));
    }
    let mut seen = 0u32;
    for &card in deck {
        if pack_index(card).is_none() {
            return Err(DuelError::InvalidDeck(format!(
                "{card} is not in the 32-card pack"
            )));
        }
        if seen & bit(card) != 0 {
            return Err(DuelError::InvalidDeck(format!("{card} appears twice")));
        }
        seen |= bit(card);
    }
    let mut out = [pack_card(0); PACK_SIZE];
    out.copy_from_slice(deck);
    Ok(out)
}
