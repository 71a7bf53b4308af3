//! Why an action is refused: a stable code, the cards and suit it is about, and a sentence
//! in any card style. The engine judges the reason once ([`Turn::refusal`]); every face
//! shows it (the terminal game, the protocol's `error.reason`, the page).
//!
//! Judging costs nothing on the hot paths: `apply` checks the legal mask alone, and only an
//! action it refuses is explained.

use std::fmt;

use super::action::{bit, pack_index, Action};
use super::turn::{Phase, Turn};
use crate::card::{Card, CardStyle, Suit};

/// The stable codes of a refusal (docs/api.md, "Why an action is refused").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonCode {
    /// A card of another suit while the player holds the suit led.
    MustFollow,
    /// A card that neither follows nor trumps while the player, void in the suit led, holds
    /// a trump.
    MustTrump,
    /// A card the player does not hold.
    NotHeld,
    /// A trump discarded while the player holds a card of another suit (unless the rules
    /// allow it).
    TrumpDiscard,
    /// The seat named is not the one to move.
    NotYourTurn,
    /// An action of a kind the phase does not take: a card played during the exchange, a
    /// discard before an accepted proposal, a call during the discards or the play.
    WrongPhase,
    /// Accept or refuse with no proposal to answer.
    NoProposal,
    /// The dealer proposes (or declines): the dealer only answers a proposal.
    DealerNeverProposes,
    /// A proposal once the exchanges the rules allow are made.
    ExchangeLimit,
    /// Any action once the deal is over.
    DealOver,
    /// Any action once the match is over.
    MatchOver,
    /// An action id that names no action (the vector environments' ids).
    NotAnAction,
}

impl ReasonCode {
    /// Every code, in the order of [`ReasonCode::name`]'s table.
    pub const ALL: [ReasonCode; 12] = [
        ReasonCode::MustFollow,
        ReasonCode::MustTrump,
        ReasonCode::NotHeld,
        ReasonCode::TrumpDiscard,
        ReasonCode::NotYourTurn,
        ReasonCode::WrongPhase,
        ReasonCode::NoProposal,
        ReasonCode::DealerNeverProposes,
        ReasonCode::ExchangeLimit,
        ReasonCode::DealOver,
        ReasonCode::MatchOver,
        ReasonCode::NotAnAction,
    ];

    /// The code as programs read it, e.g. `must_follow`.
    pub fn name(self) -> &'static str {
        match self {
            ReasonCode::MustFollow => "must_follow",
            ReasonCode::MustTrump => "must_trump",
            ReasonCode::NotHeld => "not_held",
            ReasonCode::TrumpDiscard => "trump_discard",
            ReasonCode::NotYourTurn => "not_your_turn",
            ReasonCode::WrongPhase => "wrong_phase",
            ReasonCode::NoProposal => "no_proposal",
            ReasonCode::DealerNeverProposes => "dealer_never_proposes",
            ReasonCode::ExchangeLimit => "exchange_limit",
            ReasonCode::DealOver => "deal_over",
            ReasonCode::MatchOver => "match_over",
            ReasonCode::NotAnAction => "not_an_action",
        }
    }

    /// The code named `name` (see [`ReasonCode::name`]).
    pub fn from_name(name: &str) -> Option<ReasonCode> {
        ReasonCode::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Why an action was refused: its code, the action, the cards and suit involved, and the
/// phase it was refused in. [`Reason::sentence`] says it in one line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reason {
    /// What kind of reason.
    pub code: ReasonCode,
    /// The refused action; `None` for an id that names no action.
    pub action: Option<Action>,
    /// The cards involved: the card tried (played, discarded, not held); for `must_follow`
    /// and `must_trump`, that card and then the card led.
    pub cards: Vec<Card>,
    /// The suit involved: the suit to follow (`must_follow`), the trump to play
    /// (`must_trump`) or to keep (`trump_discard`).
    pub suit: Option<Suit>,
    /// The phase of the deal when the action was refused, where one was looked at.
    pub phase: Option<Phase>,
}

impl Reason {
    /// A reason with no cards or suit.
    pub fn new(code: ReasonCode, action: Option<Action>, phase: Option<Phase>) -> Reason {
        Reason {
            code,
            action,
            cards: Vec::new(),
            suit: None,
            phase,
        }
    }

    /// The reason in one line, its cards and suits written in `style`: e.g. "you must follow
    /// ♦", "you hold no Q♥", "you have no ♥, so you must trump (♦)".
    pub fn sentence(&self, style: CardStyle) -> String {
        let card = |i: usize| {
            self.cards
                .get(i)
                .map_or_else(String::new, |c| c.text(style))
        };
        let suit = self.suit.map_or("", |s| s.text(style));
        let kind = self.action.map(|a| match a {
            Action::Play(_) => "play",
            Action::Discard(_) => "discard",
            _ => "call",
        });
        match self.code {
            ReasonCode::MustFollow => format!("you must follow {suit}"),
            ReasonCode::MustTrump => {
                let led = self.cards.get(1).map_or("", |c| c.suit().text(style));
                format!("you have no {led}, so you must trump ({suit})")
            }
            ReasonCode::NotHeld => format!("you hold no {}", card(0)),
            ReasonCode::TrumpDiscard => format!(
                "trumps ({suit}) may not be discarded while you hold a card of another suit"
            ),
            ReasonCode::NotYourTurn => "it is not your turn".into(),
            ReasonCode::WrongPhase => match (self.phase, kind) {
                (Some(Phase::Proposal | Phase::Response), Some("discard")) => {
                    "discards come after an accepted proposal".into()
                }
                (Some(Phase::Proposal), _) => "the exchange comes first: propose or decline".into(),
                (Some(Phase::Response), _) => "the exchange comes first: accept or refuse".into(),
                (Some(Phase::Discard), _) => {
                    "discard a card first (one card a player, after drawing)".into()
                }
                (Some(Phase::Play), _) => "the exchange is over: play a card".into(),
                _ => "the deal does not take that action now".into(),
            },
            ReasonCode::NoProposal => "there is no proposal to answer: propose or decline".into(),
            ReasonCode::DealerNeverProposes => {
                "the dealer never proposes: accept or refuse the opponent's proposal".into()
            }
            ReasonCode::ExchangeLimit => {
                "no more exchanges: the rules' limit is reached; play a card".into()
            }
            ReasonCode::DealOver => "the deal is over".into(),
            ReasonCode::MatchOver => "the match is over".into(),
            ReasonCode::NotAnAction => "no action has this id".into(),
        }
    }
}

/// An illegal action, refused: the reason, the action as the caller named it, and the legal
/// actions of the seat that tried it (none for a seat not to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Why the action was refused.
    pub reason: Reason,
    /// The action as the message names it: its text, or e.g. `id 70 in env 1`.
    pub named: String,
    /// The legal actions at that moment.
    pub legal: Vec<Action>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = self.reason.sentence(CardStyle::Code);
        write!(f, "illegal action {}; {why}", self.named)?;
        if !self.legal.is_empty() {
            let names: Vec<String> = self.legal.iter().map(ToString::to_string).collect();
            write!(f, "; legal actions: {}", names.join(", "))?;
        }
        Ok(())
    }
}

impl Turn {
    /// The refusal of `action` taken by `player` (`None`: the mover), as an illegal action:
    /// call it for an action [`Turn::is_legal`] refused or a seat not to move (for a legal
    /// action of the mover it says `wrong_phase`).
    pub fn refusal(&self, player: Option<u8>, action: Action) -> Refusal {
        let reason = self.reason(player, action);
        let legal = if reason.code == ReasonCode::NotYourTurn {
            Vec::new()
        } else {
            self.legal_actions()
        };
        Refusal {
            reason,
            named: action.to_string(),
            legal,
        }
    }

    /// Why `player` (`None`: the mover) may not take `action`: the first rule it breaks, in
    /// the order the deal meets them (the deal's end, the turn, the phase, the hand).
    pub fn reason(&self, player: Option<u8>, action: Action) -> Reason {
        let phase = Some(self.phase);
        let refused = |code| Reason::new(code, Some(action), phase);
        let Some(mover) = self.mover else {
            return refused(ReasonCode::DealOver);
        };
        if player.is_some_and(|p| p != mover) {
            return refused(ReasonCode::NotYourTurn);
        }
        let with = |code, cards: Vec<Card>, suit| Reason {
            cards,
            suit,
            ..refused(code)
        };
        match (self.phase, action) {
            (Phase::Proposal, Action::Accept | Action::Refuse) => refused(ReasonCode::NoProposal),
            (Phase::Response, Action::Propose | Action::Decline) => {
                refused(ReasonCode::DealerNeverProposes)
            }
            (Phase::Play, Action::Propose) if self.exchanges >= self.rules.max_exchanges => {
                refused(ReasonCode::ExchangeLimit)
            }
            (Phase::Discard, Action::Discard(card)) | (Phase::Play, Action::Play(card)) => {
                self.card_reason(card, &with)
            }
            (_, action) => with(
                ReasonCode::WrongPhase,
                action.card().into_iter().collect(),
                None,
            ),
        }
    }

    /// Why the mover may not discard or play `card` in this phase.
    fn card_reason(
        &self,
        card: Card,
        with: &dyn Fn(ReasonCode, Vec<Card>, Option<Suit>) -> Reason,
    ) -> Reason {
        let held = pack_index(card).is_some() && self.hand & bit(card) != 0;
        if !held {
            return with(ReasonCode::NotHeld, vec![card], None);
        }
        let holds = |suit: Suit| self.hand & Turn::suit_mask(suit) != 0;
        match self.lead {
            Some(lead) if self.phase == Phase::Play && holds(lead.suit()) => {
                with(ReasonCode::MustFollow, vec![card, lead], Some(lead.suit()))
            }
            Some(lead) if self.phase == Phase::Play => {
                with(ReasonCode::MustTrump, vec![card, lead], Some(self.trump))
            }
            _ if self.phase == Phase::Discard => {
                with(ReasonCode::TrumpDiscard, vec![card], Some(self.trump))
            }
            // A held card refused in play is always against the lead; this is not reached.
            _ => with(ReasonCode::WrongPhase, vec![card], None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardStyle;
    use crate::duel::{DealState, Match, Rules};

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    fn act(text: &str) -> Action {
        text.parse().unwrap()
    }

    /// Seed 1, seat 0 deals; trump ♠. The elder (seat 1) holds 9♣ A♣ 7♦ 8♠ T♠, the dealer
    /// 8♣ 9♥ A♥ 9♠ A♠.
    fn deal(actions: &[&str], rules: Rules) -> DealState {
        let mut deal = DealState::from_seed(1, 0, rules).unwrap();
        for a in actions {
            deal.apply(act(a)).unwrap();
        }
        deal
    }

    /// The refusal of `action` for `player` in `state`, checked against the error `apply_by`
    /// gives, which leaves the state unchanged.
    fn refused(state: &DealState, player: Option<u8>, action: &str) -> Refusal {
        let refusal = state.refusal(player, act(action)).expect("refused");
        let mut tried = *state;
        let err = tried.apply_by(player, act(action)).unwrap_err();
        assert_eq!(err, DuelError::IllegalAction(Box::new(refusal.clone())));
        assert_eq!(tried, *state);
        refusal
    }

    use crate::duel::DuelError;

    /// A deal, the seat that tries an action, the action, and the code, cards and suit of
    /// its refusal.
    type Case = (
        DealState,
        Option<u8>,
        &'static str,
        ReasonCode,
        &'static [&'static str],
        Option<Suit>,
    );

    #[test]
    fn each_code_is_given_where_its_rule_refuses() {
        let rules = Rules::default();
        let start = deal(&[], rules);
        assert_eq!(start.trump(), Suit::Spades);
        let cases: Vec<Case> = vec![
            (
                deal(&["decline", "9C"], rules),
                None,
                "9H",
                ReasonCode::MustFollow,
                &["9H", "9C"],
                Some(Suit::Clubs),
            ),
            (
                deal(&["decline", "7D"], rules),
                None,
                "9H",
                ReasonCode::MustTrump,
                &["9H", "7D"],
                Some(Suit::Spades),
            ),
            (
                deal(&["decline"], rules),
                None,
                "QH",
                ReasonCode::NotHeld,
                &["QH"],
                None,
            ),
            (
                deal(&["propose", "accept"], rules),
                None,
                "discard 8S",
                ReasonCode::TrumpDiscard,
                &["8S"],
                Some(Suit::Spades),
            ),
            (
                start,
                Some(0),
                "propose",
                ReasonCode::NotYourTurn,
                &[],
                None,
            ),
            (start, None, "9C", ReasonCode::WrongPhase, &["9C"], None),
            (start, Some(1), "accept", ReasonCode::NoProposal, &[], None),
            (
                deal(&["propose"], rules),
                None,
                "propose",
                ReasonCode::DealerNeverProposes,
                &[],
                None,
            ),
        ];
        for (state, player, action, code, cards, suit) in cases {
            let refusal = refused(&state, player, action);
            let reason = &refusal.reason;
            assert_eq!(reason.code, code, "{action}");
            assert_eq!(reason.action, Some(act(action)));
            assert_eq!(
                reason.cards,
                cards.iter().map(|c| card(c)).collect::<Vec<_>>()
            );
            assert_eq!(reason.suit, suit, "{action}");
            assert_eq!(reason.phase, Some(state.phase()));
            let legal = if code == ReasonCode::NotYourTurn {
                vec![]
            } else {
                state.legal_actions()
            };
            assert_eq!(refusal.legal, legal);
        }
    }

    #[test]
    fn sentences_write_the_cards_in_each_style() {
        let rules = Rules::default();
        let start = deal(&[], rules);
        let sentence = |state: &DealState, action| {
            refused(state, None, action)
                .reason
                .sentence(CardStyle::Symbols)
        };
        assert_eq!(
            sentence(&deal(&["decline", "9C"], rules), "9H"),
            "you must follow ♣"
        );
        assert_eq!(
            sentence(&deal(&["decline", "7D"], rules), "9H"),
            "you have no ♦, so you must trump (♠)"
        );
        assert_eq!(
            sentence(&deal(&["decline"], rules), "TH"),
            "you hold no 10♥"
        );
        assert_eq!(
            refused(&deal(&["decline"], rules), None, "TH")
                .reason
                .sentence(CardStyle::Ascii),
            "you hold no 10H"
        );
        assert_eq!(
            sentence(&deal(&["propose", "accept"], rules), "discard 8S"),
            "trumps (♠) may not be discarded while you hold a card of another suit"
        );
        assert_eq!(
            sentence(&start, "accept"),
            "there is no proposal to answer: propose or decline"
        );
        assert_eq!(
            sentence(&start, "discard 9C"),
            "discards come after an accepted proposal"
        );
        assert_eq!(
            sentence(&deal(&["decline"], rules), "propose"),
            "the exchange is over: play a card"
        );
    }

    #[test]
    fn the_end_of_a_deal_or_match_and_the_exchange_limit_refuse() {
        let none = Rules {
            max_exchanges: 0,
            ..Rules::default()
        };
        let at_once = deal(&[], none);
        assert_eq!(at_once.phase(), Phase::Play);
        assert_eq!(
            refused(&at_once, None, "propose").reason.code,
            ReasonCode::ExchangeLimit
        );
        let one = Rules {
            max_exchanges: 1,
            ..Rules::default()
        };
        let mut exchanged = deal(&["propose", "accept"], one);
        for _ in 0..2 {
            let discard = exchanged.legal_actions()[0];
            exchanged.apply(discard).unwrap();
        }
        assert_eq!(exchanged.phase(), Phase::Play);
        assert_eq!(
            refused(&exchanged, None, "propose").reason.code,
            ReasonCode::ExchangeLimit
        );
        assert_eq!(
            refused(&exchanged, None, "decline").reason.code,
            ReasonCode::WrongPhase
        );

        let mut m = Match::new(
            3,
            0,
            Rules {
                target: 1,
                ..Rules::default()
            },
        )
        .unwrap();
        while !m.is_over() {
            let a = m.deal.legal_actions()[0];
            m.apply(a).unwrap();
        }
        let over = m.deal;
        for player in [None, Some(0), Some(1)] {
            assert_eq!(
                refused(&over, player, "propose").reason.code,
                ReasonCode::DealOver
            );
            let refusal = m.refusal(player, act("propose")).unwrap();
            assert_eq!(refusal.reason.code, ReasonCode::MatchOver);
            let before = m.clone();
            let err = m.apply_by(player, act("propose")).unwrap_err();
            assert_eq!(err, DuelError::IllegalAction(Box::new(refusal)));
            assert_eq!(m, before);
        }
        let env = crate::play::vecenv::illegal_action_in_env(999, None, 2, &at_once);
        let DuelError::IllegalAction(refusal) = env else {
            panic!("{env}")
        };
        assert_eq!(refusal.reason.code, ReasonCode::NotAnAction);
        assert!(refusal
            .to_string()
            .starts_with("illegal action id 999 in env 2; no action has this id; legal actions: "));
    }

    /// Over random deals, every action and every seat: the deal refuses exactly what is not
    /// legal for that seat, each observation gives its player the deal's own refusal, and
    /// every sentence names what it is about.
    #[test]
    fn refusals_match_the_legal_actions_and_the_observations() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..60u64 {
            let rules = Rules {
                max_exchanges: (seed % 12) as u8,
                allow_trump_discard: seed % 5 == 0,
                ..Rules::default()
            };
            let mut state = DealState::from_seed(seed, (seed % 2) as u8, rules).unwrap();
            for step in 0..crate::duel::state::MAX_ACTIONS {
                for id in 0..crate::duel::NUM_ACTIONS {
                    let action = Action::from_id(id).unwrap();
                    for player in [None, Some(0), Some(1)] {
                        let mover = state.current_player();
                        let allowed =
                            state.is_legal(action) && player.is_none_or(|p| Some(p) == mover);
                        let refusal = state.refusal(player, action);
                        assert_eq!(refusal.is_none(), allowed, "{action} by {player:?}");
                        let Some(refusal) = refusal else { continue };
                        seen.insert(refusal.reason.code);
                        for style in CardStyle::ALL {
                            let text = refusal.reason.sentence(style);
                            assert!(!text.is_empty());
                            let reason = &refusal.reason;
                            if reason.code == ReasonCode::NotHeld {
                                assert!(text.contains(&reason.cards[0].text(style)), "{text}");
                            }
                            if let Some(suit) = reason.suit {
                                assert!(text.contains(suit.text(style)), "{text}");
                            }
                        }
                        if let Some(p) = player {
                            let obs = state.observation(p, [0, 0]);
                            assert_eq!(obs.refusal(action), Some(refusal), "seat {p}");
                        }
                    }
                }
                if state.is_over() {
                    break;
                }
                let legal = state.legal_actions();
                // Most deals take the exchanges (propose, accept: the first calls).
                let exchange =
                    seed % 3 != 0 && matches!(state.phase(), Phase::Proposal | Phase::Response);
                let pick = if exchange {
                    0
                } else {
                    (seed as usize + step * 3) % legal.len()
                };
                state.apply(legal[pick]).unwrap();
            }
        }
        // Every code a deal gives (the match's end and the envs' ids come from elsewhere).
        for code in ReasonCode::ALL {
            let elsewhere = matches!(code, ReasonCode::MatchOver | ReasonCode::NotAnAction);
            assert!(elsewhere || seen.contains(&code), "{code:?} never given");
        }
        for code in ReasonCode::ALL {
            assert_eq!(ReasonCode::from_name(code.name()), Some(code));
        }
    }
}
