//! The phase of a deal and what decides the legal actions of the player to move: the
//! judgement that a deal, an observation and a refusal share.

use serde::{Deserialize, Serialize};

use super::action::{pack_index, Action, PACK_SIZE};
use super::rules::Rules;
use crate::card::{Card, Suit};

/// The phase of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The elder chooses `propose` or `decline`.
    Proposal,
    /// The dealer chooses `accept` or `refuse`.
    Response,
    /// After an accepted exchange: the elder, then the dealer, discards one card.
    Discard,
    /// Tricks are played.
    Play,
    /// Both hands are empty.
    Over,
}

impl Phase {
    /// Every phase, in order.
    pub const ALL: [Phase; 5] = [
        Phase::Proposal,
        Phase::Response,
        Phase::Discard,
        Phase::Play,
        Phase::Over,
    ];

    /// The phase named `name` (see [`Phase::name`]).
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The phase's name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Proposal => "proposal",
            Phase::Response => "response",
            Phase::Discard => "discard",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }

    /// The phase's index in [`Phase::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What decides the legal actions of the player to move, and why another action is refused:
/// the phase, that player's hand, the card led, the trump, the rules and the exchanges
/// made. A deal gives it on the hot paths ([`crate::duel::DealState::legal_mask`]); an observation gives
/// the same for its own player ([`super::Observation::turn`]), so both judge by one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The phase of the deal.
    pub phase: Phase,
    /// The seat to act, `None` once the deal is over.
    pub mover: Option<u8>,
    /// The dealer's seat.
    pub dealer: u8,
    /// The mover's hand.
    pub hand: u32,
    /// The card led to the current trick, if any.
    pub lead: Option<Card>,
    /// The trump suit.
    pub trump: Suit,
    /// The rules of the deal.
    pub rules: Rules,
    /// Exchanges made so far.
    pub exchanges: u8,
}

impl Turn {
    pub(super) fn suit_mask(suit: Suit) -> u32 {
        0xff << (suit.index() * 8)
    }

    /// The cards the mover may discard now: no trump unless the rules allow it or the hand
    /// is all trumps.
    #[inline]
    pub fn discardable(&self) -> u32 {
        let non_trumps = self.hand & !Self::suit_mask(self.trump);
        if self.rules.allow_trump_discard || non_trumps == 0 {
            self.hand
        } else {
            non_trumps
        }
    }

    /// The cards the mover may play: any card to lead; otherwise follow suit, else trump,
    /// else anything. Heading the trick is never required.
    #[inline]
    pub fn playable(&self) -> u32 {
        let Some(lead) = self.lead else {
            return self.hand;
        };
        let follow = self.hand & Self::suit_mask(lead.suit());
        if follow != 0 {
            return follow;
        }
        let trumps = self.hand & Self::suit_mask(self.trump);
        if trumps != 0 {
            trumps
        } else {
            self.hand
        }
    }

    /// The mover's legal actions as a bit set over the action space (bit `Action::id`).
    #[inline]
    pub fn legal_mask(&self) -> u128 {
        match self.phase {
            Phase::Proposal => (1 << Action::Propose.id()) | (1 << Action::Decline.id()),
            Phase::Response => (1 << Action::Accept.id()) | (1 << Action::Refuse.id()),
            Phase::Discard => u128::from(self.discardable()) << PACK_SIZE,
            Phase::Play => u128::from(self.playable()),
            Phase::Over => 0,
        }
    }

    /// Whether the mover may take `action` now.
    #[inline]
    pub fn is_legal(&self, action: Action) -> bool {
        match action.card() {
            Some(c) if pack_index(c).is_none() => false,
            _ => self.legal_mask() & (1 << action.id()) != 0,
        }
    }

    /// The mover's legal actions in action-id order.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut mask = self.legal_mask();
        let mut out = Vec::with_capacity(mask.count_ones() as usize);
        while mask != 0 {
            let id = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            out.extend(Action::from_id(id));
        }
        out
    }
}
