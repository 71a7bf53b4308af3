//! An independent referee of whole duel deals, for the tests: a second, deliberately plain
//! model of the rules, written from docs/rules.md (its own hands, talon, tricks and scores as
//! card lists) and of the observation layouts of docs/api.md. Tests play random deals on
//! the engine and on the referee side by side and compare every public fact after every
//! action, so a fault in the engine shows as a disagreement with the written rules.

use std::collections::BTreeSet;

use super::action::Action;
use super::observe::{Observation, COMPACT_OBSERVATION_SIZE, OBSERVATION_SIZE};
use super::rules::{Order, Rules};
use super::state::{DealState, Outcome, Phase, Trick};

mod side_by_side;
use crate::card::{Card, Suit};
pub use side_by_side::*;

/// The rank letters of each order from low to high (docs/rules.md, "Pack and rank order").
pub fn ranks_low_to_high(order: Order) -> &'static str {
    match order {
        Order::Ecarte => "789TAJQK",
        Order::Traditional => "789TJQKA",
    }
}

/// Whether `reply`, played second, takes the trick led with `lead` (docs/rules.md, "Play
/// phase"): the trick goes to the highest trump in it, else to the higher card of the led
/// suit.
pub fn reply_takes(order: Order, trump: Suit, lead: Card, reply: Card) -> bool {
    let ranks = ranks_low_to_high(order);
    let strength = |c: Card| ranks.find(c.rank().letter()).expect("a duel rank");
    if reply.suit() == lead.suit() {
        strength(reply) > strength(lead)
    } else {
        reply.suit() == trump
    }
}

/// The phases in the order of docs/api.md's one-hot entries.
pub const PHASES: [Phase; 5] = [
    Phase::Proposal,
    Phase::Response,
    Phase::Discard,
    Phase::Play,
    Phase::Over,
];

/// A card's index in the tensor's card planes (docs/api.md): suit in `C D H S` order times
/// 8, plus the rank in natural order `7 8 9 T J Q K A`.
pub fn plane_index(card: Card) -> usize {
    let suit = "CDHS".find(card.suit().letter()).expect("a suit letter");
    let rank = "789TJQKA".find(card.rank().letter()).expect("a duel rank");
    suit * 8 + rank
}

/// The deal as the rules describe it, kept in plain card lists.
#[derive(Clone, Debug)]
pub struct Referee {
    pub rules: Rules,
    pub dealer: u8,
    pub deck: Vec<Card>,
    pub trump: Suit,
    pub turn_up: Card,
    pub hands: [Vec<Card>; 2],
    /// Undrawn talon cards in draw order, the turn-up last.
    pub talon: Vec<Card>,
    /// Each talon card drawn so far with its drawer, in draw order.
    pub drawn: Vec<(u8, Card)>,
    pub discards: [Vec<Card>; 2],
    pub played: [Vec<Card>; 2],
    pub phase: Phase,
    pub to_move: u8,
    pub exchanges: u8,
    pub lead: Option<Card>,
    pub cards_taken: [u8; 2],
    pub tricks: Vec<Trick>,
    /// Every action so far with the seat that took it.
    pub history: Vec<(u8, Action)>,
}

impl Referee {
    /// The deal of `deck` (card 0 on top): cards 0–4 to the elder, 5–9 to the dealer, card 10
    /// turned up, cards 11–31 the talon on it, card 11 drawn first.
    pub fn new(deck: &[Card], dealer: u8, rules: Rules) -> Referee {
        assert_eq!(deck.len(), 32);
        let elder = 1 - dealer;
        let mut hands = [Vec::new(), Vec::new()];
        hands[elder as usize] = deck[..5].to_vec();
        hands[dealer as usize] = deck[5..10].to_vec();
        let mut talon = deck[11..].to_vec();
        talon.push(deck[10]);
        let mut referee = Referee {
            rules,
            dealer,
            deck: deck.to_vec(),
            trump: deck[10].suit(),
            turn_up: deck[10],
            hands,
            talon,
            drawn: Vec::new(),
            discards: [Vec::new(), Vec::new()],
            played: [Vec::new(), Vec::new()],
            phase: Phase::Proposal,
            to_move: elder,
            exchanges: 0,
            lead: None,
            cards_taken: [0, 0],
            tricks: Vec::new(),
            history: Vec::new(),
        };
        if !referee.may_propose() {
            referee.phase = Phase::Play;
        }
        referee
    }

    /// The referee's deal after the engine's actions so far.
    pub fn replayed(engine: &DealState) -> Referee {
        let mut referee = Referee::new(engine.deck(), engine.dealer(), engine.rules());
        for action in engine.actions() {
            referee.apply(action);
        }
        referee
    }

    /// Leaf count of the game tree below this deal to `depth` actions (all the way down when
    /// `None`).
    pub fn perft(&self, depth: Option<u32>) -> u64 {
        if depth == Some(0) || self.phase == Phase::Over {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|action| {
                let mut child = self.clone();
                child.apply(action);
                child.perft(depth.map(|d| d - 1))
            })
            .sum()
    }

    pub fn elder(&self) -> u8 {
        1 - self.dealer
    }

    /// Step 1 of the exchange: a talon of at least 2 cards and fewer exchanges than allowed.
    fn may_propose(&self) -> bool {
        self.talon.len() >= 2 && self.exchanges < self.rules.max_exchanges
    }

    /// The legal actions, by the rules.
    pub fn legal(&self) -> BTreeSet<Action> {
        let hand = &self.hands[self.to_move as usize];
        let of = |cards: Vec<Card>, make: fn(Card) -> Action| cards.into_iter().map(make).collect();
        match self.phase {
            Phase::Proposal => [Action::Propose, Action::Decline].into(),
            Phase::Response => [Action::Accept, Action::Refuse].into(),
            Phase::Discard => {
                let non_trumps: Vec<Card> = hand
                    .iter()
                    .copied()
                    .filter(|c| c.suit() != self.trump)
                    .collect();
                if self.rules.allow_trump_discard || non_trumps.is_empty() {
                    of(hand.clone(), Action::Discard)
                } else {
                    of(non_trumps, Action::Discard)
                }
            }
            Phase::Play => {
                let Some(lead) = self.lead else {
                    return of(hand.clone(), Action::Play);
                };
                let in_suit = |suit: Suit| -> Vec<Card> {
                    hand.iter().copied().filter(|c| c.suit() == suit).collect()
                };
                let (follow, trumps) = (in_suit(lead.suit()), in_suit(self.trump));
                if !follow.is_empty() {
                    of(follow, Action::Play)
                } else if !trumps.is_empty() {
                    of(trumps, Action::Play)
                } else {
                    of(hand.clone(), Action::Play)
                }
            }
            Phase::Over => BTreeSet::new(),
        }
    }

    /// Who takes the trick `leader` led with `lead` and the other seat answered with `reply`.
    pub fn trick_winner(&self, leader: u8, lead: Card, reply: Card) -> u8 {
        if reply_takes(self.rules.order, self.trump, lead, reply) {
            1 - leader
        } else {
            leader
        }
    }

    fn draw(&mut self, player: u8) {
        let card = self.talon.remove(0);
        self.drawn.push((player, card));
        self.hands[player as usize].push(card);
    }

    fn take(&mut self, card: Card) {
        let hand = &mut self.hands[self.to_move as usize];
        let at = hand
            .iter()
            .position(|&c| c == card)
            .expect("a card in hand");
        hand.remove(at);
    }

    /// Applies a legal action (the caller checks legality against [`Referee::legal`]).
    pub fn apply(&mut self, action: Action) {
        assert!(self.legal().contains(&action), "{action} is not legal");
        let me = self.to_move;
        self.history.push((me, action));
        match action {
            Action::Propose => {
                self.phase = Phase::Response;
                self.to_move = self.dealer;
            }
            Action::Decline | Action::Refuse => {
                self.phase = Phase::Play;
                self.to_move = self.elder();
            }
            Action::Accept => {
                self.exchanges += 1;
                self.draw(self.elder());
                self.draw(self.dealer);
                self.phase = Phase::Discard;
                self.to_move = self.elder();
            }
            Action::Discard(card) => {
                self.take(card);
                self.discards[me as usize].push(card);
                if me == self.elder() {
                    self.to_move = self.dealer;
                } else {
                    self.phase = if self.may_propose() {
                        Phase::Proposal
                    } else {
                        Phase::Play
                    };
                    self.to_move = self.elder();
                }
            }
            Action::Play(card) => {
                self.take(card);
                self.played[me as usize].push(card);
                let Some(lead) = self.lead else {
                    self.lead = Some(card);
                    self.to_move = 1 - me;
                    return;
                };
                let leader = 1 - me;
                let winner = self.trick_winner(leader, lead, card);
                self.tricks.push(Trick {
                    leader,
                    cards: [lead, card],
                    winner,
                });
                self.cards_taken[winner as usize] += 2;
                self.lead = None;
                self.to_move = winner;
                if !self.talon.is_empty() {
                    self.draw(winner);
                    self.draw(1 - winner);
                }
                if self.hands.iter().all(Vec::is_empty) {
                    self.phase = Phase::Over;
                }
            }
        }
    }

    pub fn tricks_taken(&self) -> [u8; 2] {
        [0, 1].map(|p| self.tricks.iter().filter(|t| t.winner == p).count() as u8)
    }

    pub fn last_trick_winner(&self) -> Option<u8> {
        self.tricks.last().map(|t| t.winner)
    }

    /// Who drew the turn-up (the last talon card), once drawn.
    pub fn turn_up_holder(&self) -> Option<u8> {
        self.talon
            .is_empty()
            .then(|| self.drawn.last().map(|&(p, _)| p))
            .flatten()
    }

    /// The outcome by the scoring rules: more cards wins, equal cards go to the winner of the
    /// last trick, and every trick (a vole) scores 2.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let [a, b] = self.cards_taken;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => self.last_trick_winner().expect("a trick was played"),
        };
        let tricks = self.tricks_taken();
        let vole = usize::from(tricks[winner as usize]) == self.tricks.len();
        Some(Outcome {
            winner,
            points: if vole { 2 } else { 1 },
            cards: self.cards_taken,
            tricks,
        })
    }

    /// What `player` may know (docs/rules.md, "What each player knows"), hands and discards
    /// sorted.
    pub fn observation(&self, player: u8, score: [u8; 2]) -> Observation {
        let sorted = |cards: &[Card]| {
            let mut cards = cards.to_vec();
            cards.sort();
            cards
        };
        let elder = self.elder();
        Observation {
            player,
            dealer: self.dealer,
            rules: self.rules,
            phase: self.phase,
            current_player: (self.phase != Phase::Over).then_some(self.to_move),
            hand: sorted(&self.hands[player as usize]),
            discards: sorted(&self.discards[player as usize]),
            trump: self.trump,
            turn_up: self.turn_up,
            turn_up_holder: self.turn_up_holder(),
            talon_size: self.talon.len(),
            exchanges: self.exchanges,
            tricks: self.tricks.clone(),
            lead: self.lead,
            cards_taken: self.cards_taken,
            tricks_taken: self.tricks_taken(),
            score,
            initial_hand: if player == elder {
                self.deck[..5].to_vec()
            } else {
                self.deck[5..10].to_vec()
            },
            draws: self
                .drawn
                .iter()
                .filter(|&&(p, _)| p == player)
                .map(|&(_, c)| c)
                .collect(),
            talon_drawers: self.drawn.iter().map(|&(p, _)| p).collect(),
            history: self
                .history
                .iter()
                .map(|&(who, a)| match a {
                    Action::Discard(_) if who != player => None,
                    _ => Some(a),
                })
                .collect(),
        }
    }

    /// The facts of `player`'s observation layouts (docs/api.md), in the layouts' order.
    fn layout_facts(&self, player: u8, score: [u8; 2]) -> LayoutFacts {
        let (me, opp) = (player as usize, 1 - player as usize);
        let tricks = self.tricks_taken();
        LayoutFacts {
            planes: [
                self.hands[me].clone(),
                self.discards[me].clone(),
                self.played[me].clone(),
                self.played[opp].clone(),
                self.lead.into_iter().collect(),
                vec![self.turn_up],
            ],
            trump: "CDHS".find(self.trump.letter()).expect("a suit"),
            holder: match self.turn_up_holder() {
                None => 0,
                Some(p) if p == player => 1,
                Some(_) => 2,
            },
            phase: PHASES
                .iter()
                .position(|&p| p == self.phase)
                .expect("a phase"),
            dealer: self.dealer == player,
            my_turn: self.phase != Phase::Over && self.to_move == player,
            counts: [
                self.talon.len() as u8,
                self.exchanges,
                self.cards_taken[me],
                self.cards_taken[opp],
                tricks[me],
                tricks[opp],
                score[me],
                score[opp],
            ],
            target: self.rules.target,
        }
    }

    /// `player`'s observation tensor by the table of docs/api.md.
    pub fn tensor(&self, player: u8, score: [u8; 2]) -> [f32; OBSERVATION_SIZE] {
        let facts = self.layout_facts(player, score);
        let mut t = [0.0f32; OBSERVATION_SIZE];
        for (k, cards) in facts.planes.iter().enumerate() {
            for &card in cards {
                t[32 * k + plane_index(card)] = 1.0;
            }
        }
        t[192 + facts.trump] = 1.0;
        t[196 + facts.holder] = 1.0;
        t[199 + facts.phase] = 1.0;
        t[204] = if facts.dealer { 1.0 } else { 0.0 };
        t[205] = if facts.my_turn { 1.0 } else { 0.0 };
        let target = f32::from(facts.target);
        // Talon / 22, exchanges / 11, cards / 32, tricks / 16 and points / target.
        let divisors = [22.0, 11.0, 32.0, 32.0, 16.0, 16.0, target, target];
        for (i, (count, divisor)) in facts.counts.iter().zip(divisors).enumerate() {
            t[206 + i] = f32::from(*count) / divisor;
        }
        t
    }

    /// `player`'s compact observation by the table of docs/api.md.
    pub fn compact(&self, player: u8, score: [u8; 2]) -> [u8; COMPACT_OBSERVATION_SIZE] {
        let facts = self.layout_facts(player, score);
        let mut out = [0u8; COMPACT_OBSERVATION_SIZE];
        for (k, cards) in facts.planes.iter().enumerate() {
            for &card in cards {
                let entry = 32 * k + plane_index(card);
                out[entry / 8] |= 1 << (entry % 8);
            }
        }
        out[24] = facts.trump as u8;
        out[25] = facts.holder as u8;
        out[26] = facts.phase as u8;
        out[27] = u8::from(facts.dealer);
        out[28] = u8::from(facts.my_turn);
        out[29..37].copy_from_slice(&facts.counts);
        out[37] = facts.target;
        out
    }
}

/// One player's observation as the layouts of docs/api.md hold it.
struct LayoutFacts {
    /// Hand, own discards, own plays, the opponent's plays, the lead, the turn-up.
    planes: [Vec<Card>; 6],
    /// Trump suit, turn-up holder and phase, as the index of their one-hot entry.
    trump: usize,
    holder: usize,
    phase: usize,
    dealer: bool,
    my_turn: bool,
    /// Talon size, exchanges, cards taken (mine, the opponent's), tricks taken (likewise)
    /// and match points (likewise).
    counts: [u8; 8],
    target: u8,
}
