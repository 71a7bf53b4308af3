//! The master: the expert's search (draws by seat) over worlds weighted by a model of the
//! opponent's plays as well as its exchange decisions.

use super::expert::{decision_probability, resampled_worlds, CANDIDATES_PER_WORLD};
use super::heuristic::{hand_value, heuristic_action, heuristic_rollout, View};
use crate::control::Control;
use crate::duel::action::{cards_of, Action};
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase};
use crate::solver::pimc::weighted_values;
use crate::solver::sampler::{sample_worlds, Draft, SampleError};
use crate::solver::packed::{beats_with, set_to_internal, suit_bits, to_internal};
use crate::solver::Draws;

/// Worlds solved per decision of the master unless a count is given.
pub const DEFAULT_MASTER_SAMPLES: u16 = 24;

/// Screening switches (temporary): `MASTER=exch,p,pool,plays,temper`.
struct Switches {
    /// 0: no exchange inference, 1: the expert's model, 2: the model fitted to the expert.
    exchange: u8,
    /// Probability that a follow is the heuristic's choice (0: no play inference).
    follow: f64,
    pool: usize,
    /// 0: the heuristic-agreement model, 1: logit on follows, 2: logit on leads and follows.
    plays: u8,
    temper: f64,
    discards: bool,
}

fn switches() -> &'static Switches {
    static S: std::sync::OnceLock<Switches> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let text = std::env::var("MASTER").unwrap_or_default();
        let mut parts = text.split(',');
        let exchange = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        let follow = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0.76);
        let pool = parts
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(CANDIDATES_PER_WORLD);
        let plays = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        let temper = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1.0);
        let discards = parts.next() == Some("1");
        Switches {
            discards,
            exchange,
            follow,
            pool,
            plays,
            temper,
        }
    })
}

/// The expert's exchange decisions as the expert makes them (fitted on 300 expert-v-expert
/// deals): hardly related to the hand's value.
const FITTED_PROPOSE: (f64, f64) = (0.23, 0.06);
const FITTED_ACCEPT: (f64, f64) = (0.44, 0.08);

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn fitted_probability(action: Action, value: f64) -> f64 {
    let (a, b) = match action {
        Action::Propose | Action::Decline => FITTED_PROPOSE,
        _ => FITTED_ACCEPT,
    };
    let change = logistic(a + b * value);
    match action {
        Action::Propose | Action::Accept => change,
        _ => 1.0 - change,
    }
}

/// The log-likelihood of the opponent's decisions in the world `draft` of `obs`.
fn log_likelihood(draft: &Draft, obs: &Observation) -> f64 {
    let s = switches();
    let opponent = 1 - obs.player;
    let Ok(mut state) = DealState::from_deck(&draft.deck, obs.dealer, obs.rules) else {
        return 0.0;
    };
    let mut total = 0.0;
    for action in draft.history(obs) {
        let (Some(action), Some(player)) = (action, state.current_player()) else {
            break;
        };
        if player == opponent {
            match state.phase() {
                Phase::Proposal | Phase::Response if s.exchange > 0 => {
                    let value = f64::from(hand_value(&View::of_state(&state)));
                    let p = if s.exchange == 1 {
                        decision_probability(action, value)
                    } else {
                        fitted_probability(action, value)
                    };
                    total += p.max(1e-12).ln();
                }
                Phase::Discard if s.discards => {
                    total += discard_log_weight(&state, action);
                }
                Phase::Play if s.plays > 0 && (s.plays == 2 || state.lead().is_some()) => {
                    total += s.temper * play_log_probability(&state, action);
                }
                Phase::Play if s.follow > 0.0 && state.lead().is_some() => {
                    let legal = state.legal_mask().count_ones();
                    if legal > 1 {
                        let expected = heuristic_action(&View::of_state(&state));
                        total += if expected == action {
                            s.follow.ln()
                        } else {
                            ((1.0 - s.follow) / f64::from(legal - 1)).ln()
                        };
                    }
                }
                _ => {}
            }
        }
        state.apply_unchecked(action);
    }
    total
}

/// The play model's weights on [`play_features`], fitted to the expert's plays.
const LEAD_WEIGHTS: [f64; 7] = [-0.28, 0.48, 0.75, 1.04, 0.23, 0.34, -0.53];
const FOLLOW_WEIGHTS: [f64; 10] = [0.0, 0.21, -1.84, 2.32, 0.4, -0.51, 1.32, 1.45, -0.22, -1.63];

/// The log-probability of the player to move in `state` playing `action` under the play
/// model: a logit over the legal cards' features.
fn play_log_probability(state: &DealState, action: Action) -> f64 {
    // The legal plays are actions 0 to 31, by pack index.
    let legal = state.legal_mask() as u32;
    let (Some(played), true) = (action.card(), legal.count_ones() > 1) else {
        return 0.0;
    };
    let player = state.current_player().unwrap_or(0);
    let order = state.rules().order;
    let hand = set_to_internal(state.hand_set(player), order);
    let talon = state
        .talon()
        .iter()
        .fold(0u32, |set, &c| set | 1 << to_internal(c, order));
    let live = hand | set_to_internal(state.hand_set(1 - player), order) | talon;
    let trump = suit_bits(state.trump().index() as u8 * 8);
    let lead = state.lead().map(|c| to_internal(c, order));
    let heuristic = heuristic_action(&View::of_state(state)).card();
    let weights: &[f64] = if lead.is_some() {
        &FOLLOW_WEIGHTS
    } else {
        &LEAD_WEIGHTS
    };
    let legal_internal = set_to_internal(legal, order);
    let mut scores = [0.0f64; 8];
    let mut chosen = 0;
    for (i, card) in cards_of(legal).enumerate().take(scores.len()) {
        let c = to_internal(card, order);
        let f = play_features(c, hand, live, trump, lead, legal_internal, Some(card) == heuristic);
        scores[i] = weights.iter().zip(&f).map(|(w, x)| w * x).sum();
        if card == played {
            chosen = i;
        }
    }
    let scores = &scores[..(legal.count_ones() as usize).min(8)];
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let norm: f64 = scores.iter().map(|s| (s - top).exp()).sum();
    scores[chosen] - top - norm.ln()
}

/// The features of playing `card` (internal index) from `hand`, `live` holding both hands and
/// the talon, `trump` the trump suit's bits, `lead` the card led if following, `legal` the
/// legal cards: trump, top of its suit among the live cards, strength / 7, lowest and
/// highest of its suit in hand, the suit's length in hand / 5, the heuristic's choice; when
/// following also: beats the lead, the cheapest card that does, the cheapest legal card (a
/// card's cost: its strength, plus 10 for a trump).
fn play_features(
    card: u8,
    hand: u32,
    live: u32,
    trump: u32,
    lead: Option<u8>,
    legal: u32,
    heuristic: bool,
) -> [f64; 10] {
    let suit = suit_bits(card);
    let above = !((2u32 << card).wrapping_sub(1));
    let below = (1u32 << card) - 1;
    let mine = hand & suit;
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let mut f = [
        flag(trump & 1 << card != 0),
        flag(live & !hand & suit & above == 0),
        f64::from(card & 7) / 7.0,
        flag(mine & below == 0),
        flag(mine & above == 0),
        f64::from(mine.count_ones()) / 5.0,
        flag(heuristic),
        0.0,
        0.0,
        0.0,
    ];
    if let Some(lead) = lead {
        let beats = |c: u8| beats_with(trump, c, lead);
        let cost = |c: u8| i32::from(c & 7) + if trump & 1 << c != 0 { 10 } else { 0 };
        let cards = || (0..32u8).filter(|&c| legal & 1 << c != 0);
        let cheapest_winner = beats(card) && cards().all(|c| !beats(c) || cost(c) >= cost(card));
        let cheapest = cards().all(|c| cost(c) >= cost(card));
        f[7] = flag(beats(card));
        f[8] = flag(cheapest_winner);
        f[9] = flag(cheapest);
    }
    f
}

/// The discard model's weights on [`discard_features`], fitted to the expert's discards.
const DISCARD_WEIGHTS: [f64; 6] = [-1.29, 1.39, 0.84, 2.72, 0.41, -0.53];

/// The log of the discard model's probability of the player to move discarding `action`
/// in `state` over the sampler's (uniform among the legal discards).
fn discard_log_weight(state: &DealState, action: Action) -> f64 {
    // The legal discards are actions 32 to 63, by pack index.
    let legal = (state.legal_mask() >> 32) as u32;
    let n = legal.count_ones();
    let (Some(discarded), true) = (action.card(), n > 1) else {
        return 0.0;
    };
    let player = state.current_player().unwrap_or(0);
    let order = state.rules().order;
    let hand = set_to_internal(state.hand_set(player), order);
    let heuristic = heuristic_action(&View::of_state(state)).card();
    let mut scores = [0.0f64; 8];
    let mut chosen = 0;
    for (i, card) in cards_of(legal).enumerate().take(scores.len()) {
        let f = discard_features(to_internal(card, order), hand, Some(card) == heuristic);
        scores[i] = DISCARD_WEIGHTS.iter().zip(&f).map(|(w, x)| w * x).sum();
        if card == discarded {
            chosen = i;
        }
    }
    let scores = &scores[..(n as usize).min(8)];
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let norm: f64 = scores.iter().map(|s| (s - top).exp()).sum();
    scores[chosen] - top - norm.ln() + f64::from(n).ln()
}

/// The features of discarding `card` (internal index) from `hand`: strength / 7, lowest and
/// highest of its suit in hand, the suit's length in hand / 5, the heuristic's choice, a
/// jack, queen or king (strength 5 or more).
fn discard_features(card: u8, hand: u32, heuristic: bool) -> [f64; 6] {
    let suit = suit_bits(card);
    let mine = hand & suit;
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    [
        f64::from(card & 7) / 7.0,
        flag(mine & ((1u32 << card) - 1) == 0),
        flag(mine & !((2u32 << card).wrapping_sub(1)) == 0),
        f64::from(mine.count_ones()) / 5.0,
        flag(heuristic),
        flag(card & 7 >= 5),
    ]
}

/// Whether the opponent made a decision the model reads.
fn informative(obs: &Observation) -> bool {
    let s = switches();
    (s.exchange > 0 && super::expert::opponent_decided(obs))
        || ((s.follow > 0.0 || s.plays > 0) && !obs.tricks.is_empty())
        || (s.plays == 2 && obs.lead.is_some())
}

/// Each legal action of the observing player with its value: the mean double-dummy points,
/// the talon drawn by seat, over `samples` worlds resampled by the likelihood of the
/// opponent's decisions. Reproducible for a `seed`.
pub fn master_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    if control.cancelled() {
        return Ok(Vec::new());
    }
    let samples = samples.max(1);
    let resampled = if informative(obs) {
        let pool = samples * switches().pool;
        resampled_worlds(obs, samples, pool, seed, log_likelihood).ok()
    } else {
        None
    };
    let (worlds, counts) = match resampled {
        Some(resampled) => resampled,
        None => (sample_worlds(obs, samples, seed)?, vec![1.0; samples]),
    };
    Ok(
        weighted_values(&worlds, &counts, heuristic_rollout, Draws::BySeat, control)
            .unwrap_or_default(),
    )
}
