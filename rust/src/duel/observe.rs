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
//!
//! The compact layout (`u8`, [`COMPACT_OBSERVATION_SIZE`] bytes) holds the same facts, and
//! [`expand_compact`] turns it into the tensor above (the tensor is defined that way):
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 24 | the six card planes above, 4 bytes each, bit `b` of byte `j` = entry `8j + b` |
//! | 24 | 1 | trump suit index (C D H S = 0–3) |
//! | 25 | 1 | turn-up: 0 in the talon, 1 drawn by the player, 2 by the opponent |
//! | 26 | 1 | phase index (proposal, response, discard, play, over = 0–4) |
//! | 27 | 1 | 1 if the player is the dealer |
//! | 28 | 1 | 1 if it is the player's turn |
//! | 29 | 1 | talon size |
//! | 30 | 1 | exchanges |
//! | 31 | 2 | cards taken by the player, by the opponent |
//! | 33 | 2 | tricks taken by the player, by the opponent |
//! | 35 | 2 | match points of the player, of the opponent |
//! | 37 | 1 | the match target |

use serde::{Deserialize, Serialize};

use super::action::{bit, cards_of, Action};
use super::refusal::Refusal;
use super::rules::Rules;
use super::state::{DealState, Trick, HAND_SIZE, TALON_SIZE};
use super::turn::{Phase, Turn};
use crate::card::{Card, Suit};

/// Entries of the observation tensor.
pub const OBSERVATION_SIZE: usize = 214;
/// The tensor's first entries, which hold the player's hidden cards (its hand and its own
/// discards). The entries from here on hold facts the opponent knows too, so they are the
/// same in every world consistent with the opponent's view.
pub const PRIVATE_ENTRIES: usize = 64;
/// Bytes of the compact observation layout.
pub const COMPACT_OBSERVATION_SIZE: usize = 38;

/// One observation in the compact layout.
pub type Compact = [u8; COMPACT_OBSERVATION_SIZE];

/// The eight 0.0/1.0 entries of every byte value.
const BYTE_FLOATS: [[f32; 8]; 256] = {
    let mut table = [[0.0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = (byte >> bit & 1) as f32;
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
    /// The seat whose view this is.
    pub player: u8,
    /// The dealer's seat.
    pub dealer: u8,
    /// The rules of the deal.
    pub rules: Rules,
    /// The phase of the deal.
    pub phase: Phase,
    /// The seat to move, `None` once the deal is over.
    pub current_player: Option<u8>,
    /// The player's hand.
    pub hand: Vec<Card>,
    /// The player's own discards.
    pub discards: Vec<Card>,
    /// The trump suit.
    pub trump: Suit,
    /// The turned-up card.
    pub turn_up: Card,
    /// The seat that drew the turn-up, if anyone did.
    pub turn_up_holder: Option<u8>,
    /// Cards left in the talon.
    pub talon_size: usize,
    /// Exchanges made so far.
    pub exchanges: u8,
    /// The finished tricks, in order.
    pub tricks: Vec<Trick>,
    /// The card led to the current trick, if any.
    pub lead: Option<Card>,
    /// Cards taken by seat 0 and seat 1.
    pub cards_taken: [u8; 2],
    /// Tricks taken by seat 0 and seat 1.
    pub tricks_taken: [u8; 2],
    /// Match points of seat 0 and seat 1 before this deal.
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

/// An observation's JSON record: its fields, then the facts that follow from them
/// ([`Observation::hand_sizes`]), written out for readers that do not know the rules.
#[derive(Serialize)]
struct ObservationRecord<'a> {
    #[serde(flatten)]
    observation: &'a Observation,
    hand_sizes: [u8; 2],
}

impl Observation {
    /// A stable 64-bit key of the observation: FNV-1a over its JSON record without the facts
    /// that follow from the rest ([`Observation::hand_sizes`]), the same on every platform
    /// and run. Search agents seed each decision with it (`crate::rng::decision_seed`), so
    /// the same observation gets the same decision.
    pub fn key(&self) -> u64 {
        use std::hash::Hasher;
        let mut hasher = fnv::FnvHasher::default();
        hasher.write(serde_json::to_string(self).unwrap_or_default().as_bytes());
        hasher.finish()
    }

    /// The JSON record of the observation: its fields and `hand_sizes`.
    pub fn to_json(&self) -> String {
        let record = ObservationRecord {
            observation: self,
            hand_sizes: self.hand_sizes(),
        };
        serde_json::to_string(&record).unwrap_or_default()
    }

    /// Reads what [`Observation::to_json`] wrote (a record without `hand_sizes`, as written
    /// before it was added, too); a `hand_sizes` other than the one the rest gives is an
    /// error. Whether some deal gives the observation is not checked here.
    pub fn from_json(text: &str) -> Result<Observation, String> {
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let given = match value.as_object_mut() {
            Some(fields) => fields.remove("hand_sizes"),
            None => None,
        };
        let obs: Observation = serde_json::from_value(value).map_err(|e| e.to_string())?;
        if let Some(given) = given {
            let sizes: [u8; 2] =
                serde_json::from_value(given).map_err(|e| format!("hand_sizes: {e}"))?;
            if sizes != obs.hand_sizes() {
                return Err(format!(
                    "hand_sizes: {sizes:?}, but the rest of the record gives {:?}",
                    obs.hand_sizes()
                ));
            }
        }
        Ok(obs)
    }

    /// How many cards each seat holds (seat 0, seat 1): the player's hand, and the
    /// opponent's five dealt cards and draws less their discards and the cards they played.
    pub fn hand_sizes(&self) -> [u8; 2] {
        let me = self.player;
        let opponent = 1 - me.min(1);
        let count = |n: usize| n.min(usize::from(u8::MAX)) as i32;
        let theirs_drawn = self
            .talon_drawers
            .iter()
            .map(|&p| usize::from(p == opponent));
        let drawn = count(theirs_drawn.sum());
        let discarded = count(self.history.iter().filter(|a| a.is_none()).count());
        // One card of each finished trick is theirs, and the lead if they led to this one.
        let led = self.lead.is_some() && self.current_player == Some(me);
        let played = count(self.tricks.len()) + i32::from(led);
        let theirs = (HAND_SIZE as i32 + drawn - discarded - played).clamp(0, 32) as u8;
        let mine = self.hand.len().min(32) as u8;
        let mut sizes = [theirs; 2];
        sizes[usize::from(me.min(1))] = mine;
        sizes
    }

    /// What decides this player's legal actions when they are to move (see [`Turn`]).
    pub fn turn(&self) -> Turn {
        let mine = self.current_player == Some(self.player);
        Turn {
            phase: self.phase,
            mover: self.current_player,
            dealer: self.dealer,
            hand: if mine {
                self.hand.iter().fold(0, |set, &c| set | bit(c))
            } else {
                0
            },
            lead: self.lead,
            trump: self.trump,
            rules: self.rules,
            exchanges: self.exchanges,
        }
    }

    /// Why this player may not take `action` now, with their legal actions; `None` when it
    /// is legal. The same judgement as the deal's ([`DealState::refusal`]), on what the
    /// player sees.
    pub fn refusal(&self, action: Action) -> Option<Refusal> {
        let turn = self.turn();
        let mine = turn.mover == Some(self.player);
        (!(mine && turn.is_legal(action))).then(|| turn.refusal(Some(self.player), action))
    }
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
                    let discarder = if discards_seen.is_multiple_of(2) {
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
    /// overwriting every entry: the compact form ([`DealState::encode_compact`]) expanded.
    /// The fields go from registers to the tensor: expanding the compact bytes right after
    /// storing them reloads them before the stores retire, a stall on every call.
    #[inline]
    pub fn encode_observation(&self, player: u8, score: [u8; 2], out: &mut [f32]) {
        self.compact_parts(player, score).expand(out);
    }

    /// The tensor's first [`PRIVATE_ENTRIES`] entries for `player` (its hand and its own
    /// discards), into `out`: what [`DealState::encode_observation`] writes there, without
    /// the rest.
    #[inline]
    pub fn encode_private(&self, player: u8, out: &mut [f32; PRIVATE_ENTRIES]) {
        let bytes = self
            .private_planes(player)
            .into_iter()
            .flat_map(u32::to_le_bytes);
        for (chunk, byte) in out.chunks_exact_mut(8).zip(bytes) {
            chunk.copy_from_slice(&BYTE_FLOATS[byte as usize]);
        }
    }

    /// The card planes of `player`'s hidden cards: its hand, its own discards.
    #[inline]
    fn private_planes(&self, player: u8) -> [u32; 2] {
        [self.hand_set(player), self.discard_set(player)]
    }

    /// `player`'s observation in the compact layout ([`COMPACT_OBSERVATION_SIZE`] bytes,
    /// see the module docs).
    #[inline]
    pub fn compact_observation(&self, player: u8, score: [u8; 2]) -> Compact {
        let mut out = [0u8; COMPACT_OBSERVATION_SIZE];
        self.encode_compact(player, score, &mut out);
        out
    }

    /// Writes `player`'s compact observation into `out` (length
    /// [`COMPACT_OBSERVATION_SIZE`]), each field straight to its place: the `VecEnv` step
    /// writes its rows so, as a row assembled on the stack and copied out in wider loads
    /// stalled on store forwarding (a sixth of the step's time in a `perf` profile).
    #[inline]
    pub fn encode_compact(&self, player: u8, score: [u8; 2], out: &mut [u8]) {
        self.compact_parts(player, score).write(out);
    }

    /// The fields of `player`'s compact observation.
    #[inline]
    fn compact_parts(&self, player: u8, score: [u8; 2]) -> CompactParts {
        let me = player as usize;
        let opp = 1 - me;
        let holder = match self.turn_up_holder() {
            None => 0,
            Some(p) if p == player => 1,
            Some(_) => 2,
        };
        let cards = self.cards_taken();
        let tricks = self.tricks_taken();
        let [hand, discards] = self.private_planes(player);
        CompactParts {
            planes: [
                hand,
                discards,
                self.played_set(player),
                self.played_set(1 - player),
                self.lead().map_or(0, bit),
                bit(self.turn_up()),
            ],
            scalars: [
                self.trump().index() as u8,
                holder,
                self.phase().index() as u8,
                u8::from(self.dealer() == player),
                u8::from(self.current_player() == Some(player)),
                self.talon_size() as u8,
                self.exchanges(),
                cards[me],
                cards[opp],
                tricks[me],
                tricks[opp],
                score[me],
                score[opp],
                self.rules().target,
            ],
        }
    }
}

/// A compact observation's fields before they are laid out: the six card planes and the
/// fourteen scalar bytes (offsets 24 to 37). Both layouts are written from it.
struct CompactParts {
    planes: [u32; 6],
    scalars: [u8; COMPACT_OBSERVATION_SIZE - 24],
}

impl CompactParts {
    fn of_bytes(compact: &Compact) -> CompactParts {
        let mut planes = [0; 6];
        for (plane, bytes) in planes.iter_mut().zip(compact.chunks_exact(4)) {
            *plane = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        let mut scalars = [0; COMPACT_OBSERVATION_SIZE - 24];
        scalars.copy_from_slice(&compact[24..]);
        CompactParts { planes, scalars }
    }

    /// The compact layout, into `out` (length [`COMPACT_OBSERVATION_SIZE`]).
    #[inline]
    fn write(&self, out: &mut [u8]) {
        let out = &mut out[..COMPACT_OBSERVATION_SIZE];
        for (chunk, set) in out[..24].chunks_exact_mut(4).zip(self.planes) {
            chunk.copy_from_slice(&set.to_le_bytes());
        }
        out[24..].copy_from_slice(&self.scalars);
    }

    /// The float32 tensor, into `out` (length [`OBSERVATION_SIZE`]), every entry.
    #[inline]
    fn expand(&self, out: &mut [f32]) {
        let out = &mut out[..OBSERVATION_SIZE];
        expand_planes(self.planes, out);
        let [trump, holder, phase, dealer, turn, talon, exchanges, cards_me, cards_opp, tricks_me, tricks_opp, score_me, score_opp, target] =
            self.scalars;
        let tail = &mut out[192..];
        tail.fill(0.0);
        tail[usize::from(trump & 3)] = 1.0;
        tail[4 + usize::from(holder.min(2))] = 1.0;
        tail[7 + usize::from(phase.min(4))] = 1.0;
        tail[12] = f32::from(dealer);
        tail[13] = f32::from(turn);
        tail[14] = f32::from(talon) / TALON_SIZE as f32;
        tail[15] = f32::from(exchanges) / 11.0;
        tail[16] = f32::from(cards_me) / 32.0;
        tail[17] = f32::from(cards_opp) / 32.0;
        tail[18] = f32::from(tricks_me) / 16.0;
        tail[19] = f32::from(tricks_opp) / 16.0;
        let target = f32::from(target);
        tail[20] = f32::from(score_me) / target;
        tail[21] = f32::from(score_opp) / target;
    }
}

/// The largest value of each scalar byte of a compact observation (offsets 24 to 37); the
/// match target (the last) is also at least 1.
const COMPACT_SCALAR_LIMITS: [u8; COMPACT_OBSERVATION_SIZE - 24] = [
    3,                // trump suit
    2,                // turn-up holder
    4,                // phase
    1,                // dealer flag
    1,                // turn flag
    TALON_SIZE as u8, // talon size
    11,               // exchanges
    32,               // cards taken, by the player
    32,               // and by the opponent
    16,               // tricks taken, by the player
    16,               // and by the opponent
    255,              // match points, of the player
    255,              // and of the opponent
    255,              // match target
];

/// Whether `compact` could be an observation's compact form, as far as its scalar bytes
/// tell: each within its range (the card planes may hold any bits).
pub fn compact_in_range(compact: &Compact) -> bool {
    compact[24..]
        .iter()
        .zip(COMPACT_SCALAR_LIMITS)
        .all(|(&value, limit)| value <= limit)
        && compact[COMPACT_OBSERVATION_SIZE - 1] >= 1
}

/// Writes the float32 tensor of the compact observation `compact` into `out` (length
/// [`OBSERVATION_SIZE`]), every entry.
pub fn expand_compact(compact: &Compact, out: &mut [f32]) {
    CompactParts::of_bytes(compact).expand(out);
}

/// The six card planes as 192 0.0/1.0 floats at the start of `out` (entry `32k + b` is
/// bit `b` of plane `k`): one masked move per 16 entries where the CPU has AVX-512F, a
/// variable shift and a blend per 8 entries where it has AVX2, else (or under
/// `ECARTE_PORTABLE=1`, see [`crate::cpu`]) a table row per byte. All give the same floats
/// (a test checks them).
#[inline]
fn expand_planes(planes: [u32; 6], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = crate::cpu::features();
        if cpu.avx512f {
            // SAFETY: `cpu.avx512f` is true only when the CPU has every feature that
            // `target_feature(enable = "avx512f")` turns on (AVX-512F, AVX2, AVX, FMA,
            // F16C; see `cpu::Features`).
            unsafe { expand_planes_avx512(planes, out) };
            return;
        }
        if cpu.avx2 {
            // SAFETY: `cpu.avx2` is true only when the CPU has AVX2 and AVX.
            unsafe { expand_planes_avx2(planes, out) };
            return;
        }
    }
    expand_planes_table(planes, out);
}

fn expand_planes_table(planes: [u32; 6], out: &mut [f32]) {
    let bytes = planes.iter().flat_map(|plane| plane.to_le_bytes());
    for (chunk, byte) in out[..192].chunks_exact_mut(8).zip(bytes) {
        chunk.copy_from_slice(&BYTE_FLOATS[byte as usize]);
    }
}

/// The card planes by AVX-512F. Under rustc 1.95 `enable = "avx512f"` also turns on AVX2,
/// AVX, FMA and F16C, which the compiler may use anywhere in this function (the source
/// calls only AVX-512F intrinsics): `cpu::Features::avx512f` checks all of them, not
/// AVX-512F alone.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn expand_planes_avx512(planes: [u32; 6], out: &mut [f32]) {
    use std::arch::x86_64::{_mm512_maskz_mov_ps, _mm512_set1_ps, _mm512_storeu_ps};
    let ones = _mm512_set1_ps(1.0);
    let halves = planes
        .iter()
        .flat_map(|&plane| [plane as u16, (plane >> 16) as u16]);
    for (chunk, bits) in out[..192].chunks_exact_mut(16).zip(halves) {
        // Entry j of the chunk is bit j of the half-plane: the table's order.
        let lanes = _mm512_maskz_mov_ps(bits, ones);
        // SAFETY: `chunk` holds 16 floats, exactly what the unaligned store writes.
        unsafe { _mm512_storeu_ps(chunk.as_mut_ptr(), lanes) };
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn expand_planes_avx2(planes: [u32; 6], out: &mut [f32]) {
    use std::arch::x86_64::{
        _mm256_blendv_ps, _mm256_castsi256_ps, _mm256_set1_epi32, _mm256_set1_ps,
        _mm256_setr_epi32, _mm256_setzero_ps, _mm256_sllv_epi32, _mm256_storeu_ps,
    };
    let ones = _mm256_set1_ps(1.0);
    let zeros = _mm256_setzero_ps();
    // Lane j of group g shifts bit 8g + j of the plane up to the sign bit, which the
    // blend reads: the table's order.
    let shifts = [0, 8, 16, 24].map(|g| {
        let s = 31 - g;
        _mm256_setr_epi32(s, s - 1, s - 2, s - 3, s - 4, s - 5, s - 6, s - 7)
    });
    for (rows, &plane) in out[..192].chunks_exact_mut(32).zip(&planes) {
        let plane = _mm256_set1_epi32(plane as i32);
        for (chunk, shift) in rows.chunks_exact_mut(8).zip(shifts) {
            let signs = _mm256_castsi256_ps(_mm256_sllv_epi32(plane, shift));
            let lanes = _mm256_blendv_ps(zeros, ones, signs);
            // SAFETY: `chunk` holds 8 floats, exactly what the unaligned store writes.
            unsafe { _mm256_storeu_ps(chunk.as_mut_ptr(), lanes) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// A compact row is in range when each scalar byte is within the range the layout gives
    /// it (docs/api.md) and the target is at least 1; the card planes may hold any bits.
    #[test]
    fn compact_rows_in_range() {
        let deal = DealState::from_seed(6, 1, Rules::default()).unwrap();
        let row = deal.compact_observation(0, [3, 4]);
        assert!(compact_in_range(&row));
        let mut planes = row;
        planes[..24].fill(0xff);
        assert!(compact_in_range(&planes));
        // Offsets 24 to 37: trump, turn-up holder, phase, dealer, turn, talon, exchanges,
        // cards taken (2), tricks taken (2), match points (2), target.
        let largest = [3, 2, 4, 1, 1, 22, 11, 32, 32, 16, 16, 255, 255, 255];
        for (offset, max) in (24..).zip(largest) {
            let mut edited = row;
            edited[offset] = max;
            assert!(compact_in_range(&edited), "offset {offset} at {max}");
            if let Some(over) = max.checked_add(1) {
                edited[offset] = over;
                assert!(!compact_in_range(&edited), "offset {offset} at {over}");
            }
        }
        let mut no_target = row;
        no_target[37] = 0;
        assert!(!compact_in_range(&no_target));
    }

    /// The private entries alone are the whole tensor's first entries, for both seats at
    /// every state of deals with exchanges and discards.
    #[test]
    fn the_private_entries_are_the_tensors_first() {
        let mut compared = 0;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for seed in 0..30 {
            let mut state = DealState::from_seed(seed, u8::from(seed % 2 == 1), Rules::default())
                .expect("a deal");
            loop {
                for player in 0..2 {
                    let mut whole = [f32::NAN; OBSERVATION_SIZE];
                    state.encode_observation(player, [2, 5], &mut whole);
                    let mut private = [f32::NAN; PRIVATE_ENTRIES];
                    state.encode_private(player, &mut private);
                    assert_eq!(
                        private.map(f32::to_bits),
                        std::array::from_fn(|i| whole[i].to_bits())
                    );
                    compared += usize::from(state.discard_set(player) != 0);
                }
                let legal = state.legal_actions();
                if legal.is_empty() {
                    break;
                }
                // Propose and accept where offered, so that the deals hold discards.
                let pick = legal
                    .iter()
                    .position(|&a| matches!(a, Action::Propose | Action::Accept))
                    .unwrap_or_else(|| rng.random_range(0..legal.len()));
                state.apply_unchecked(legal[pick]);
            }
        }
        assert!(compared > 100, "{compared} states with discards");
    }

    /// The AVX-512 and AVX2 expansions of the card planes, where the CPU has them, write the same
    /// floats as the table, and the compact bytes give back the fields they were written
    /// from.
    #[test]
    fn plane_expansions_agree_and_parts_round_trip() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Whatever `ECARTE_PORTABLE` says: each path the CPU can run is compared.
        #[cfg(target_arch = "x86_64")]
        let cpu = crate::cpu::on_this_cpu();
        for _ in 0..2000 {
            let parts = CompactParts {
                planes: std::array::from_fn(|_| rng.random()),
                scalars: std::array::from_fn(|_| rng.random()),
            };
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut table = [f32::NAN; OBSERVATION_SIZE];
            expand_planes_table(parts.planes, &mut table);
            for (k, plane) in parts.planes.iter().enumerate() {
                for b in 0..32 {
                    let expected = if plane >> b & 1 == 1 { 1.0 } else { 0.0 };
                    assert_eq!(table[32 * k + b].to_bits(), f32::to_bits(expected));
                }
            }
            #[cfg(target_arch = "x86_64")]
            if cpu.avx512f {
                let mut wide = [f32::NAN; OBSERVATION_SIZE];
                // SAFETY: the CPU has what the function enables (`cpu::Features::avx512f`).
                unsafe { expand_planes_avx512(parts.planes, &mut wide) };
                assert_eq!(bits(&table[..192]), bits(&wide[..192]));
            }
            #[cfg(target_arch = "x86_64")]
            if cpu.avx2 {
                let mut wide = [f32::NAN; OBSERVATION_SIZE];
                // SAFETY: the CPU has AVX2 and AVX, checked just above.
                unsafe { expand_planes_avx2(parts.planes, &mut wide) };
                assert_eq!(bits(&table[..192]), bits(&wide[..192]));
            }
            let mut bytes = [0u8; COMPACT_OBSERVATION_SIZE];
            parts.write(&mut bytes);
            let back = CompactParts::of_bytes(&bytes);
            assert_eq!((back.planes, back.scalars), (parts.planes, parts.scalars));
        }
    }
}
