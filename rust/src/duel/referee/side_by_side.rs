//! The referee's side of the tests' random play: random rules, actions and decks, and the
//! check that the engine and the referee agree on every public fact.

use std::collections::BTreeSet;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Referee;
use crate::card::{piquet_pack, Card};
use crate::duel::action::Action;
use crate::duel::observe::{COMPACT_OBSERVATION_SIZE, OBSERVATION_SIZE};
use crate::duel::rules::{Order, Rules};
use crate::duel::state::{DealState, Phase};

/// Rules drawn at random: either order, trump discards sometimes allowed, any exchange
/// limit (often the full 11, so that talons run out during the exchange) and any target.
pub fn random_rules(rng: &mut ChaCha8Rng) -> Rules {
    Rules {
        order: if rng.random() {
            Order::Ecarte
        } else {
            Order::Traditional
        },
        allow_trump_discard: rng.random_range(0..4) == 0,
        max_exchanges: if rng.random() {
            11
        } else {
            rng.random_range(0..=11)
        },
        target: rng.random_range(1..=100),
    }
}

/// A random action among `legal`, proposing and accepting more often than not so that deals
/// reach every exchange count.
pub fn pick(legal: &BTreeSet<Action>, rng: &mut ChaCha8Rng) -> Action {
    let keen = rng.random_range(0..10) < 8;
    if keen && legal.contains(&Action::Propose) {
        return Action::Propose;
    }
    if keen && legal.contains(&Action::Accept) {
        return Action::Accept;
    }
    let all: Vec<Action> = legal.iter().copied().collect();
    all[rng.random_range(0..all.len())]
}

/// A random 32-card deck, shuffled by the test's own generator.
pub fn random_deck(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut deck = piquet_pack();
    deck.shuffle(rng);
    deck
}

/// A generator for the tests' own random choices.
pub fn test_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Checks that the engine's deal agrees with the referee on every public fact.
pub fn assert_agree(engine: &DealState, referee: &Referee, score: [u8; 2]) {
    let legal = referee.legal();
    let engine_legal: BTreeSet<Action> = engine.legal_actions().into_iter().collect();
    assert_eq!(engine_legal, legal, "legal actions");
    assert_eq!(engine.legal_actions().len(), legal.len(), "no action twice");
    for id in 0..crate::duel::NUM_ACTIONS {
        let action = Action::from_id(id).expect("an action id");
        assert_eq!(engine.is_legal(action), legal.contains(&action), "{action}");
    }
    assert_eq!(engine.phase(), referee.phase);
    assert_eq!(engine.is_over(), referee.phase == Phase::Over);
    assert_eq!(engine.dealer(), referee.dealer);
    assert_eq!(engine.elder(), referee.elder());
    assert_eq!(engine.rules(), referee.rules);
    assert_eq!(engine.trump(), referee.trump);
    assert_eq!(engine.turn_up(), referee.turn_up);
    assert_eq!(engine.talon(), &referee.talon[..], "talon");
    assert_eq!(engine.talon_size(), referee.talon.len());
    assert_eq!(engine.exchanges(), referee.exchanges);
    assert_eq!(engine.total_tricks(), 16 - usize::from(referee.exchanges));
    assert_eq!(engine.lead(), referee.lead);
    assert_eq!(engine.cards_taken(), referee.cards_taken);
    assert_eq!(engine.tricks_taken(), referee.tricks_taken());
    assert_eq!(engine.trick_count(), referee.tricks.len());
    assert_eq!(engine.tricks().collect::<Vec<_>>(), referee.tricks);
    assert_eq!(engine.last_trick_winner(), referee.last_trick_winner());
    assert_eq!(engine.turn_up_holder(), referee.turn_up_holder());
    assert_eq!(
        engine.actions().collect::<Vec<_>>(),
        referee.history.iter().map(|&(_, a)| a).collect::<Vec<_>>()
    );
    if referee.phase == Phase::Over {
        // Each action with its seat: a replay of the whole log, so checked once a deal.
        assert_eq!(engine.moves(), referee.history);
    }
    assert!(engine.check_conservation());
    assert_eq!(engine.outcome(), referee.outcome());
    for player in 0..2 {
        let mut seen = engine.observation(player, score);
        seen.hand.sort();
        seen.discards.sort();
        assert_eq!(seen, referee.observation(player, score), "player {player}");
        let mut hand = engine.hand(player);
        hand.sort();
        assert_eq!(hand, seen.hand);
        let expected = referee.tensor(player, score);
        let mut tensor = [f32::NAN; OBSERVATION_SIZE];
        engine.encode_observation(player, score, &mut tensor);
        assert_tensor_eq(&tensor, &expected);
        let compact = engine.compact_observation(player, score);
        assert_eq!(compact, referee.compact(player, score), "compact");
        let mut written = [0xAAu8; COMPACT_OBSERVATION_SIZE];
        engine.encode_compact(player, score, &mut written);
        assert_eq!(written, compact);
        assert!(crate::duel::compact_in_range(&compact));
        let mut expanded = [f32::NAN; OBSERVATION_SIZE];
        crate::duel::expand_compact(&compact, &mut expanded);
        assert_tensor_eq(&expanded, &expected);
    }
}

/// Bit-for-bit equality, with the first differing entry in the message.
pub fn assert_tensor_eq(got: &[f32], expected: &[f32]) {
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(g.to_bits(), e.to_bits(), "entry {i}: {g} != {e}");
    }
}

/// Plays `deals` random deals under random rules on the engine and the referee side by
/// side; `each_state` sees the pair (and a random match score) before every action and at
/// the end, `each_deal` every finished pair.
pub fn play_side_by_side(
    seed: u64,
    deals: usize,
    mut each_state: impl FnMut(&DealState, &Referee, [u8; 2]),
    mut each_deal: impl FnMut(&DealState, &Referee),
) {
    let mut rng = test_rng(seed);
    for i in 0..deals {
        let rules = random_rules(&mut rng);
        let dealer = rng.random_range(0..2);
        // Half the deals from a deck of the test's own shuffle, half from a seed (whose deck
        // the engine reports, and the referee lays out).
        let (mut engine, deck) = if i % 2 == 0 {
            let deck = random_deck(&mut rng);
            let engine = DealState::from_deck(&deck, dealer, rules).expect("a valid deck");
            (engine, deck)
        } else {
            let engine = DealState::from_seed(rng.random(), dealer, rules).expect("valid rules");
            (engine, engine.deck().to_vec())
        };
        assert_eq!(engine.deck(), &deck[..]);
        let mut referee = Referee::new(&deck, dealer, rules);
        loop {
            let score = [
                rng.random_range(0..rules.target),
                rng.random_range(0..rules.target),
            ];
            each_state(&engine, &referee, score);
            if referee.phase == Phase::Over {
                break;
            }
            let action = pick(&referee.legal(), &mut rng);
            engine.apply(action).expect("a legal action");
            referee.apply(action);
        }
        each_deal(&engine, &referee);
    }
}
