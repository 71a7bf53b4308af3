//! The duel deal as a small `Copy` state machine: the exchange phase, the play with its
//! talon draws, and the deal's outcome. Undo and records live with the callers, which keep
//! copies of earlier states.

use serde::{Deserialize, Serialize};

use super::action::{bit, cards_of, pack_card, Action, PACK_SIZE};
use super::deck::{check_deck, check_setup};
pub use super::error::DuelError;
use super::refusal::Refusal;
use super::rules::Rules;
pub use super::turn::{Phase, Turn};

use crate::card::{Card, Suit};
use crate::rng::{rng_from_seed, shuffle, GameRng};

/// Cards in each hand after the deal.
pub const HAND_SIZE: usize = 5;
/// Cards in the talon, the turn-up included.
pub const TALON_SIZE: usize = 22;

/// A finished trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trick {
    /// The seat that led.
    pub leader: u8,
    /// The leader's card, then the follower's.
    pub cards: [Card; 2],
    /// The seat that took the trick.
    pub winner: u8,
}

/// The result of a finished deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The seat that won the deal.
    pub winner: u8,
    /// 2 for a vole (every trick), otherwise 1.
    pub points: u8,
    /// Cards taken by seat 0 and seat 1.
    pub cards: [u8; 2],
    /// Tricks taken by seat 0 and seat 1.
    pub tricks: [u8; 2],
}

impl Outcome {
    /// Whether some deal can end with this outcome (a record read from outside): a seat,
    /// 1 or 2 points, at most the pack's cards and tricks.
    pub fn is_possible(&self) -> bool {
        self.winner <= 1
            && (1..=2).contains(&self.points)
            && self.cards.iter().map(|&c| u32::from(c)).sum::<u32>() <= 32
            && self.tricks.iter().map(|&t| u32::from(t)).sum::<u32>() <= 16
    }
}

/// One duel deal. Seats are 0 and 1; the elder is the seat that does not deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DealState {
    rules: Rules,
    deck: [Card; PACK_SIZE],
    dealer: u8,
    trump: Suit,
    turn_up: Card,
    hands: [u32; 2],
    discards: [u32; 2],
    played: [u32; 2],
    /// Draw order; the last entry is the turn-up.
    talon: [Card; TALON_SIZE],
    talon_next: u8,
    turn_up_holder: Option<u8>,
    phase: Phase,
    to_move: u8,
    exchanges: u8,
    /// The card led to the current trick, if any.
    lead: Option<Card>,
    cards_taken: [u8; 2],
    tricks: [Option<Trick>; 16],
    trick_count: u8,
    /// Bit `i` set when seat 1 drew talon card `i` (draws are public; the cards are not).
    drawn_by_one: u32,
    /// Action ids in order; a deal has at most 78 actions.
    log: [u8; MAX_ACTIONS],
    log_len: u8,
}

/// The most actions a deal can take: 11 exchanges of 4 actions, a last call or two, and
/// 32 cards played.
pub const MAX_ACTIONS: usize = 80;

impl DealState {
    /// The deal laid out from `deck`, card 0 on top: cards 0–4 to the elder, 5–9 to the
    /// dealer, card 10 turned up, cards 11–31 the talon on it, card 11 drawn first.
    pub fn from_deck(deck: &[Card], dealer: u8, rules: Rules) -> Result<DealState, DuelError> {
        check_setup(dealer, rules)?;
        Ok(DealState::laid_out(check_deck(deck)?, dealer, rules))
    }

    /// A deal from the 32-card pack shuffled with `seed`.
    pub fn from_seed(seed: u64, dealer: u8, rules: Rules) -> Result<DealState, DuelError> {
        DealState::shuffled_by(&mut rng_from_seed(seed), dealer, rules)
    }

    /// A deal from the 32-card pack shuffled by `rng`: [`DealState::from_seed`]'s deal
    /// where `rng` is a fresh `rng_from_seed(seed)`.
    pub(crate) fn shuffled_by(
        rng: &mut GameRng,
        dealer: u8,
        rules: Rules,
    ) -> Result<DealState, DuelError> {
        check_setup(dealer, rules)?;
        let mut deck: [Card; PACK_SIZE] = std::array::from_fn(pack_card);
        shuffle(&mut deck, rng);
        // A shuffled pack needs no deck check.
        Ok(DealState::laid_out(deck, dealer, rules))
    }

    /// The deal of a checked deck (see [`DealState::from_deck`]).
    fn laid_out(deck: [Card; PACK_SIZE], dealer: u8, rules: Rules) -> DealState {
        let elder = 1 - dealer;
        let mut hands = [0u32; 2];
        hands[elder as usize] = deck[..5].iter().map(|&c| bit(c)).sum();
        hands[dealer as usize] = deck[5..10].iter().map(|&c| bit(c)).sum();
        let turn_up = deck[10];
        let mut talon = [turn_up; TALON_SIZE];
        talon[..TALON_SIZE - 1].copy_from_slice(&deck[11..]);
        let mut state = DealState {
            rules,
            deck,
            dealer,
            trump: turn_up.suit(),
            turn_up,
            hands,
            discards: [0; 2],
            played: [0; 2],
            talon,
            talon_next: 0,
            turn_up_holder: None,
            phase: Phase::Proposal,
            to_move: elder,
            exchanges: 0,
            lead: None,
            cards_taken: [0; 2],
            tricks: [None; 16],
            trick_count: 0,
            drawn_by_one: 0,
            log: [0; MAX_ACTIONS],
            log_len: 0,
        };
        if !state.may_propose() {
            state.phase = Phase::Play;
        }
        state
    }

    /// The rules of the deal.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// The deck the deal was laid out from, top first.
    pub fn deck(&self) -> &[Card; PACK_SIZE] {
        &self.deck
    }
    /// The dealer's seat.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The elder's seat: the one that does not deal.
    pub fn elder(&self) -> u8 {
        1 - self.dealer
    }
    /// The trump suit.
    pub fn trump(&self) -> Suit {
        self.trump
    }
    /// The turned-up card.
    pub fn turn_up(&self) -> Card {
        self.turn_up
    }
    /// Who drew the turn-up, once it has been drawn.
    pub fn turn_up_holder(&self) -> Option<u8> {
        self.turn_up_holder
    }
    /// The phase of the deal.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Whether both hands are empty.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// The seat to act, `None` once the deal is over.
    pub fn current_player(&self) -> Option<u8> {
        (!self.is_over()).then_some(self.to_move)
    }
    /// Exchanges made so far.
    pub fn exchanges(&self) -> u8 {
        self.exchanges
    }
    /// Cards left in the talon.
    pub fn talon_size(&self) -> usize {
        TALON_SIZE - self.talon_next as usize
    }
    /// The undrawn talon in draw order (hidden information).
    pub fn talon(&self) -> &[Card] {
        &self.talon[self.talon_next as usize..]
    }
    /// `player`'s hand as a bit set over the pack (bit `suit * 8 + rank - 7`).
    pub fn hand_set(&self, player: u8) -> u32 {
        self.hands[player as usize]
    }
    /// `player`'s hand, in pack order.
    pub fn hand(&self, player: u8) -> Vec<Card> {
        cards_of(self.hands[player as usize]).collect()
    }
    /// `player`'s discards as a bit set over the pack.
    pub fn discard_set(&self, player: u8) -> u32 {
        self.discards[player as usize]
    }
    /// The cards `player` has played as a bit set over the pack.
    pub fn played_set(&self, player: u8) -> u32 {
        self.played[player as usize]
    }
    /// The card led to the current trick, if any.
    pub fn lead(&self) -> Option<Card> {
        self.lead
    }
    /// Cards taken by seat 0 and seat 1.
    pub fn cards_taken(&self) -> [u8; 2] {
        self.cards_taken
    }
    /// Tricks taken by seat 0 and seat 1.
    pub fn tricks_taken(&self) -> [u8; 2] {
        // Every trick is two cards.
        self.cards_taken.map(|c| c / 2)
    }
    /// The finished tricks, in order.
    pub fn tricks(&self) -> impl Iterator<Item = Trick> + '_ {
        self.tricks[..self.trick_count as usize]
            .iter()
            .flatten()
            .copied()
    }
    /// How many tricks are finished.
    pub fn trick_count(&self) -> usize {
        self.trick_count as usize
    }
    /// Tricks in this deal: 16 less one per exchange.
    pub fn total_tricks(&self) -> usize {
        16 - self.exchanges as usize
    }
    /// The seat that took the last finished trick, if any.
    pub fn last_trick_winner(&self) -> Option<u8> {
        self.trick_count
            .checked_sub(1)
            .and_then(|i| self.tricks[i as usize])
            .map(|t| t.winner)
    }

    /// The actions applied so far, oldest first.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.log[..self.log_len as usize]
            .iter()
            .filter_map(|&id| Action::from_id(id as usize))
    }

    /// Each action so far with the seat that took it, oldest first.
    pub fn moves(&self) -> Vec<(u8, Action)> {
        let Some(mut state) = self.restart() else {
            return Vec::new();
        };
        self.actions()
            .map(|a| {
                let player = state.current_player().unwrap_or(0);
                state.apply_unchecked(a);
                (player, a)
            })
            .collect()
    }

    /// The state before the last action, and that action; `None` before any action.
    pub fn before_last(&self) -> Option<(DealState, Action)> {
        let n = (self.log_len as usize).checked_sub(1)?;
        let last = Action::from_id(self.log[n] as usize)?;
        let mut state = self.restart()?;
        for a in self.actions().take(n) {
            state.apply_unchecked(a);
        }
        Some((state, last))
    }

    /// The same deal before any action.
    pub(super) fn restart(&self) -> Option<DealState> {
        DealState::from_deck(&self.deck, self.dealer, self.rules).ok()
    }

    /// Who drew each talon card drawn so far, in draw order.
    pub fn talon_drawers(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.talon_next).map(|i| ((self.drawn_by_one >> i) & 1) as u8)
    }

    /// The cards `player` drew from the talon, in draw order.
    pub fn draws(&self, player: u8) -> Vec<Card> {
        self.talon_drawers()
            .zip(&self.talon)
            .filter(|(who, _)| *who == player)
            .map(|(_, &card)| card)
            .collect()
    }

    /// `player`'s five dealt cards.
    pub fn initial_hand(&self, player: u8) -> &[Card] {
        if player == self.elder() {
            &self.deck[..HAND_SIZE]
        } else {
            &self.deck[HAND_SIZE..2 * HAND_SIZE]
        }
    }

    fn may_propose(&self) -> bool {
        self.talon_size() >= 2 && self.exchanges < self.rules.max_exchanges
    }

    /// What decides the legal actions of the player to move (see [`Turn`]).
    #[inline]
    pub fn turn(&self) -> Turn {
        Turn {
            phase: self.phase,
            mover: self.current_player(),
            dealer: self.dealer,
            hand: self.hands[self.to_move as usize],
            lead: self.lead,
            trump: self.trump,
            rules: self.rules,
            exchanges: self.exchanges,
        }
    }

    /// The cards the player to move may play (see [`Turn::playable`]).
    pub fn playable(&self) -> u32 {
        self.turn().playable()
    }

    /// The legal actions as a bit set over the action space (bit `Action::id`).
    #[inline]
    pub fn legal_mask(&self) -> u128 {
        self.turn().legal_mask()
    }

    /// The legal actions of the player to move, in action-id order.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.turn().legal_actions()
    }

    /// Whether the player to move may take `action` now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.turn().is_legal(action)
    }

    /// Applies a legal action; an illegal one is refused with the state unchanged, and the
    /// refusal says why ([`Refusal`]).
    pub fn apply(&mut self, action: Action) -> Result<(), DuelError> {
        self.apply_by(None, action)
    }

    /// [`DealState::apply`] for an action taken by `player`: refused as `not_your_turn` when
    /// `player` is not to move (`None`: whoever is to move).
    pub fn apply_by(&mut self, player: Option<u8>, action: Action) -> Result<(), DuelError> {
        if self.is_legal(action) && player.is_none_or(|p| p == self.to_move) {
            self.apply_unchecked(action);
            return Ok(());
        }
        Err(self.refuse(player, action))
    }

    /// Why `player` (`None`: whoever is to move) may not take `action` now, with the legal
    /// actions of that seat; `None` when the action is legal.
    pub fn refusal(&self, player: Option<u8>, action: Action) -> Option<Refusal> {
        let mine = player.is_none_or(|p| Some(p) == self.current_player());
        (!(mine && self.is_legal(action))).then(|| self.turn().refusal(player, action))
    }

    /// The error for an action [`DealState::apply_by`] refused. Cold: only a refusal pays
    /// for its reason.
    #[cold]
    fn refuse(&self, player: Option<u8>, action: Action) -> DuelError {
        DuelError::IllegalAction(Box::new(self.turn().refusal(player, action)))
    }

    /// Applies an action known to be legal (from `legal_mask`); the hot path of search and
    /// simulation.
    pub fn apply_unchecked(&mut self, action: Action) {
        let me = self.to_move;
        // Logged in each arm, where the action's kind is known: one dispatch, not two.
        match action {
            Action::Propose => {
                self.log(action);
                self.phase = Phase::Response;
                self.to_move = self.dealer;
            }
            Action::Accept => {
                self.log(action);
                self.exchanges += 1;
                self.draw(self.elder());
                self.draw(self.dealer);
                self.phase = Phase::Discard;
                self.to_move = self.elder();
            }
            Action::Decline | Action::Refuse => {
                self.log(action);
                self.start_play();
            }
            Action::Discard(card) => {
                self.log(action);
                self.hands[me as usize] &= !bit(card);
                self.discards[me as usize] |= bit(card);
                if me == self.elder() {
                    self.to_move = self.dealer;
                } else if self.may_propose() {
                    self.phase = Phase::Proposal;
                    self.to_move = self.elder();
                } else {
                    self.start_play();
                }
            }
            Action::Play(card) => {
                self.log(action);
                self.play(card);
            }
        }
    }

    #[inline]
    fn log(&mut self, action: Action) {
        self.log[self.log_len as usize] = action.id() as u8;
        self.log_len += 1;
    }

    fn start_play(&mut self) {
        self.phase = Phase::Play;
        self.to_move = self.elder();
    }

    fn draw(&mut self, player: u8) {
        let card = self.talon[self.talon_next as usize];
        self.drawn_by_one |= u32::from(player) << self.talon_next;
        self.talon_next += 1;
        if self.talon_next as usize == TALON_SIZE {
            self.turn_up_holder = Some(player);
        }
        self.hands[player as usize] |= bit(card);
    }

    fn play(&mut self, card: Card) {
        let me = self.to_move;
        self.hands[me as usize] &= !bit(card);
        self.played[me as usize] |= bit(card);
        let Some(lead) = self.lead else {
            self.lead = Some(card);
            self.to_move = 1 - me;
            return;
        };
        let leader = 1 - me;
        let winner = if self.beats(card, lead) { me } else { leader };
        self.tricks[self.trick_count as usize] = Some(Trick {
            leader,
            cards: [lead, card],
            winner,
        });
        self.trick_count += 1;
        // One 16-bit store for the pair (a count is at most 32, so no carry): the
        // observation, right after, reads both counts, which the compiler may merge into
        // one 16-bit load; after a byte store that load stalls until the store retires (a
        // tenth of the float32 `VecEnv` step in a `perf` profile).
        let taken = u16::from_le_bytes(self.cards_taken) + (2 << (8 * winner));
        self.cards_taken = taken.to_le_bytes();
        self.lead = None;
        self.to_move = winner;
        if self.talon_size() > 0 {
            // Both draw a card, so neither hand is empty.
            self.draw(winner);
            self.draw(1 - winner);
        } else if self.hands[me as usize] == 0 && self.hands[leader as usize] == 0 {
            // Two loads, not one of both hands: a load across the 4-byte store of a hand
            // just made waits for the store (store forwarding fails), 5% of a VecEnv step.
            self.phase = Phase::Over;
        }
    }

    /// Whether `card`, played second, beats `lead`: a trump beats any other suit, and
    /// within the led suit the higher rank wins.
    pub fn beats(&self, card: Card, lead: Card) -> bool {
        super::rules::beats(self.rules.order, self.trump(), card, lead)
    }

    /// The outcome once the deal is over: more cards wins, equal cards go to the winner
    /// of the last trick, and a vole scores 2.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let [a, b] = self.cards_taken;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => self.last_trick_winner().unwrap_or(self.elder()),
        };
        let tricks = self.tricks_taken();
        let vole = tricks[winner as usize] as usize == self.total_tricks();
        Some(Outcome {
            winner,
            points: if vole { 2 } else { 1 },
            cards: self.cards_taken,
            tricks,
        })
    }

    /// Every card is in exactly one place: a hand, the talon, a discard pile, or played.
    pub fn check_conservation(&self) -> bool {
        let mut seen = 0u32;
        let talon = self.talon().iter().map(|&c| bit(c));
        let sets = self
            .hands
            .iter()
            .chain(&self.discards)
            .chain(&self.played)
            .copied()
            .chain(talon);
        for set in sets {
            if seen & set != 0 {
                return false;
            }
            seen |= set;
        }
        // No card was seen twice, so every card was seen once exactly when all 32 were.
        seen == u32::MAX
    }

    /// Leaf count of the game tree below this state to `depth` actions (all the way down
    /// when `depth` is `None`): the perft of chess engines.
    pub fn perft(&self, depth: Option<u32>) -> u64 {
        if depth == Some(0) || self.is_over() {
            return 1;
        }
        let mut mask = self.legal_mask();
        let mut total = 0;
        while mask != 0 {
            let id = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let mut child = *self;
            if let Some(a) = Action::from_id(id) {
                child.apply_unchecked(a);
                total += child.perft(depth.map(|d| d - 1));
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card in two places, or in none, breaks conservation.
    #[test]
    fn conservation_fails_on_a_lost_or_doubled_card() {
        let deal = DealState::from_seed(4, 0, Rules::default()).unwrap();
        assert!(deal.check_conservation());
        let mut doubled = deal;
        doubled.hands[0] |= bit(deal.talon()[0]);
        assert!(!doubled.check_conservation());
        let mut lost = deal;
        lost.hands[1] &= lost.hands[1] - 1;
        assert!(!lost.check_conservation());
        let mut moved = deal;
        let card = moved.hands[1] & moved.hands[1].wrapping_neg();
        moved.hands[1] &= !card;
        moved.played[0] |= card;
        assert!(moved.check_conservation(), "a card moved, not lost");
    }
}
