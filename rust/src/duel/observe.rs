//! What one player may know of a deal (docs/rules.md, "What each player knows"), as a value and
//! as a fixed-size tensor.
//!
//! Tensor layout (`f32`, [`OBSERVATION_SIZE`] entries; card planes are indexed by
//! `action::pack_index`, i.e. `suit * 8 + rank - 7` with suits `C D H S`):
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 32 | the player's hand |
//! | 32 | 32 | the player's own discards |
//! | 64 | 32 | cards the player has played |
//! | 96 | 32 | cards the opponent has played |
//! | 128 | 32 | the card led to the current trick |
//! | 160 | 32 | the turn-up card |
//! | 192 | 4 | trump suit, one-hot |
//! | 196 | 3 | turn-up: still in the talon / drawn by the player / drawn by the opponent |
//! | 199 | 5 | phase, one-hot: proposal, response, discard, play, over |
//! | 204 | 1 | 1 if the player is the dealer |
//! | 205 | 1 | 1 if it is the player's turn |
//! | 206 | 1 | talon size / 22 |
//! | 207 | 1 | exchanges / 11 |
//! | 208 | 2 | cards taken by the player, by the opponent, / 32 |
//! | 210 | 2 | tricks taken by the player, by the opponent, / 16 |
//! | 212 | 2 | match points of the player, of the opponent, / target |

use serde::{Deserialize, Serialize};

use super::action::{bit, cards_of, Action};
use super::rules::Rules;
use super::state::{DealState, Phase, Trick, TALON_SIZE};
use crate::card::{Card, Suit};

pub const OBSERVATION_SIZE: usize = 214;

/// The eight 0.0/1.0 entries of every byte value.
const BYTE_FLOATS: [[f32; 8]; 256] = {
    let mut table = [[0.0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][bit] = 1.0;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// One player's view of a deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    pub player: u8,
    pub dealer: u8,
    pub rules: Rules,
    pub phase: Phase,
    pub current_player: Option<u8>,
    pub hand: Vec<Card>,
    pub discards: Vec<Card>,
    pub trump: Suit,
    pub turn_up: Card,
    pub turn_up_holder: Option<u8>,
    pub talon_size: usize,
    pub exchanges: u8,
    pub tricks: Vec<Trick>,
    pub lead: Option<Card>,
    pub cards_taken: [u8; 2],
    pub tricks_taken: [u8; 2],
    pub score: [u8; 2],
    /// The player's five dealt cards.
    pub initial_hand: Vec<Card>,
    /// The cards the player drew from the talon, in order.
    pub draws: Vec<Card>,
    /// Who drew each talon card so far, in draw order (public).
    pub talon_drawers: Vec<u8>,
    /// Every action so far as the player saw it: the opponent's discards are `None`.
    pub history: Vec<Option<Action>>,
}

impl DealState {
    /// What `player` may know, with the match score `score` (zeros outside a match).
    pub fn observation(&self, player: u8, score: [u8; 2]) -> Observation {
        Observation {
            player,
            dealer: self.dealer(),
            rules: self.rules(),
            phase: self.phase(),
            current_player: self.current_player(),
            hand: cards_of(self.hand_set(player)).collect(),
            discards: cards_of(self.discard_set(player)).collect(),
            trump: self.trump(),
            turn_up: self.turn_up(),
            turn_up_holder: self.turn_up_holder(),
            talon_size: self.talon_size(),
            exchanges: self.exchanges(),
            tricks: self.tricks().collect(),
            lead: self.lead(),
            cards_taken: self.cards_taken(),
            tricks_taken: self.tricks_taken(),
            score,
            initial_hand: self.initial_hand(player).to_vec(),
            draws: self.draws(player),
            talon_drawers: self.talon_drawers().collect(),
            history: self.visible_history(player),
        }
    }

    /// The actions so far with the other seat's discards hidden.
    pub fn visible_history(&self, player: u8) -> Vec<Option<Action>> {
        // Discards come in pairs, the elder's first.
        let mut discards_seen = 0u8;
        self.actions()
            .map(|action| {
                if let Action::Discard(_) = action {
                    let discarder = if discards_seen % 2 == 0 {
                        self.elder()
                    } else {
                        self.dealer()
                    };
                    discards_seen += 1;
                    if discarder != player {
                        return None;
                    }
                }
                Some(action)
            })
            .collect()
    }

    /// Writes `player`'s observation tensor into `out` (length [`OBSERVATION_SIZE`]),
    /// overwriting every entry.
    pub fn encode_observation(&self, player: u8, score: [u8; 2], out: &mut [f32]) {
        let out = &mut out[..OBSERVATION_SIZE];
        let me = player as usize;
        let opp = 1 - me;
        let planes = [
            self.hand_set(player),
            self.discard_set(player),
            self.played_set(player),
            self.played_set(1 - player),
            self.lead().map_or(0, bit),
            bit(self.turn_up()),
        ];
        // Every plane entry is written, a byte of the card set at a time, so the planes
        // need no clearing first.
        for (plane, set) in out[..192].chunks_exact_mut(32).zip(planes) {
            for (chunk, byte) in plane.chunks_exact_mut(8).zip(set.to_le_bytes()) {
                chunk.copy_from_slice(&BYTE_FLOATS[byte as usize]);
            }
        }
        out[192..].fill(0.0);
        out[192 + self.trump().index()] = 1.0;
        let holder = match self.turn_up_holder() {
            None => 0,
            Some(p) if p == player => 1,
            Some(_) => 2,
        };
        out[196 + holder] = 1.0;
        out[199 + self.phase().index()] = 1.0;
        out[204] = f32::from(u8::from(self.dealer() == player));
        out[205] = f32::from(u8::from(self.current_player() == Some(player)));
        out[206] = self.talon_size() as f32 / TALON_SIZE as f32;
        out[207] = f32::from(self.exchanges()) / 11.0;
        let cards = self.cards_taken();
        out[208] = f32::from(cards[me]) / 32.0;
        out[209] = f32::from(cards[opp]) / 32.0;
        let tricks = self.tricks_taken();
        out[210] = f32::from(tricks[me]) / 16.0;
        out[211] = f32::from(tricks[opp]) / 16.0;
        let target = f32::from(self.rules().target);
        out[212] = f32::from(score[me]) / target;
        out[213] = f32::from(score[opp]) / target;
    }
}
