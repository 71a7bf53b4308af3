//! The rule-based heuristic: exchange while the hand is weak, discard the lowest non-trump,
//! win as cheaply as possible, keep trumps for tricks that can be won. It reads only what
//! the player to move may know.

use crate::card::{Card, Suit};
use crate::duel::action::{bit, cards_of, Action};
use crate::duel::observe::Observation;
use crate::duel::rules::{beats, Order};
use crate::duel::state::{DealState, Phase};

/// What a native policy sees when it acts: a subset of the player's observation.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The phase of the deal.
    pub phase: Phase,
    /// The player's hand as a bit set over the pack.
    pub hand: u32,
    /// The trump suit.
    pub trump: Suit,
    /// The card led to the current trick, if any.
    pub lead: Option<Card>,
    /// The rank order of the rules.
    pub order: Order,
    /// The legal actions as a bit set over action ids.
    pub legal: u128,
}

impl View {
    /// The view of the player to move.
    pub fn of_state(state: &DealState) -> View {
        let player = state.current_player().unwrap_or(0);
        View {
            phase: state.phase(),
            hand: state.hand_set(player),
            trump: state.trump(),
            lead: state.lead(),
            order: state.rules().order,
            legal: state.legal_mask(),
        }
    }

    /// The view from an observation and the legal actions' mask.
    pub fn of_observation(obs: &Observation, legal: u128) -> View {
        View {
            phase: obs.phase,
            hand: obs.hand.iter().map(|&c| bit(c)).sum(),
            trump: obs.trump,
            lead: obs.lead,
            order: obs.rules.order,
            legal,
        }
    }
}

/// Hand value at which the elder stops proposing and the dealer refuses.
const KEEP_THRESHOLD: f32 = 5.0;

fn strength(order: Order, card: Card) -> u8 {
    order.strength(card.rank())
}

/// Trumps count 1.5 plus their strength; side-suit top cards (the three highest ranks)
/// count 0.5 to 1.1.
pub fn hand_value(view: &View) -> f32 {
    cards_of(view.hand)
        .map(|c| {
            let s = f32::from(strength(view.order, c));
            if c.suit() == view.trump {
                1.5 + s / 7.0
            } else if s >= 5.0 {
                0.5 + (s - 5.0) * 0.3
            } else {
                0.0
            }
        })
        .sum()
}

/// The heuristic as PIMC's exchange-phase rollout policy (see `crate::solver::pimc`).
pub fn heuristic_rollout(state: &DealState) -> Action {
    heuristic_action(&View::of_state(state))
}

/// The rule-based policy: exchange while the hand is weak, discard the lowest non-trump,
/// win as cheaply as possible, keep trumps for tricks that can be won, lead trumps when
/// holding three or more.
pub fn heuristic_action(view: &View) -> Action {
    let strong = hand_value(view) >= KEEP_THRESHOLD;
    match view.phase {
        Phase::Proposal => {
            if strong {
                Action::Decline
            } else {
                Action::Propose
            }
        }
        Phase::Response => {
            if strong {
                Action::Refuse
            } else {
                Action::Accept
            }
        }
        Phase::Discard | Phase::Play => {
            let cost =
                |c: Card| strength(view.order, c) + if c.suit() == view.trump { 10 } else { 0 };
            let cards = legal_cards(view);
            let pick = if view.phase == Phase::Discard {
                cards_of(cards).min_by_key(|&c| cost(c))
            } else {
                play_choice(view, cards, cost)
            };
            match (view.phase, pick) {
                (Phase::Discard, Some(c)) => Action::Discard(c),
                (_, Some(c)) => Action::Play(c),
                (_, None) => Action::Decline,
            }
        }
        Phase::Over => Action::Decline,
    }
}

/// The cards of the legal plays or discards.
fn legal_cards(view: &View) -> u32 {
    (view.legal as u32) | ((view.legal >> 32) as u32)
}

/// The play from the legal `cards` (a card set), without allocating: it runs in every
/// rollout and in the master's model of the opponent.
fn play_choice(view: &View, cards: u32, cost: impl Fn(Card) -> u8) -> Option<Card> {
    let trump = view.trump;
    let Some(lead) = view.lead else {
        let trumps = || cards_of(cards).filter(|c| c.suit() == trump);
        if trumps().count() >= 3 {
            return trumps().max_by_key(|&c| cost(c));
        }
        let side = cards_of(cards).filter(|c| c.suit() != trump);
        return side
            .max_by_key(|&c| cost(c))
            .or_else(|| cards_of(cards).min_by_key(|&c| cost(c)));
    };
    cards_of(cards)
        .filter(|&c| beats(view.order, trump, c, lead))
        .min_by_key(|&c| cost(c))
        .or_else(|| cards_of(cards).min_by_key(|&c| cost(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_wins_cheaply() {
        let c = |t: &str| t.parse::<Card>().unwrap();
        let view = View {
            phase: Phase::Play,
            hand: [c("KH"), c("8H"), c("9H")].iter().map(|&x| bit(x)).sum(),
            trump: Suit::Spades,
            lead: Some(c("7H")),
            order: Order::Ecarte,
            legal: [c("KH"), c("8H"), c("9H")]
                .iter()
                .map(|&x| 1u128 << Action::Play(x).id())
                .sum(),
        };
        assert_eq!(heuristic_action(&view), Action::Play(c("8H")));
    }
}
