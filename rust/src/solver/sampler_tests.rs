//! The world sampler: positions where sampling once failed, the constraint logic, exact counts,
//! agreement with an independent rejection sampler, and a property test over positions
//! reached by varied and adversarial play.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::RngExt;

use crate::rng::GameRng;

use super::*;
// Positions for the property tests come from the agents of the layer above (test code only).
use crate::duel::record::DealRecord;
use crate::duel::rules::Rules;
use crate::duel::state::Phase;
use crate::play::heuristic::{heuristic_action, heuristic_rollout, View};
use crate::play::random::random_action;
use crate::solver::{solve, Objective};

fn c(text: &str) -> Card {
    text.parse().unwrap()
}

fn rules(max_exchanges: u8, allow_trump_discard: bool) -> Rules {
    Rules {
        allow_trump_discard,
        max_exchanges,
        ..Rules::default()
    }
}

/// Samples `n` worlds and checks each one shows `obs` exactly.
fn check_worlds(obs: &Observation, n: usize, seed: u64) -> Vec<DealState> {
    let worlds = sample_worlds(obs, n, seed).unwrap_or_else(|e| panic!("{e}: {obs:?}"));
    assert_eq!(worlds.len(), n);
    for w in &worlds {
        assert_eq!(w.observation(obs.player, obs.score), *obs);
        assert!(w.check_conservation());
    }
    worlds
}

/// The weighted count of consistent worlds (the undrawn talon's order left out).
fn count(obs: &Observation) -> f64 {
    let model = Model::new(obs).unwrap();
    Counts::new(&model).total()
}

fn assert_close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-9 * b.abs(), "{a} != {b}");
}

/// Falling factorial `n (n-1) ... (n-k+1)`.
fn falling(n: u32, k: u32) -> f64 {
    (0..k).map(|i| f64::from(n - i)).product()
}

#[test]
fn no_exchanges_dealer_view_after_the_lead() {
    // The elder's lead at action 0, with no exchanges, from the dealer's view: a world
    // must still be found.
    for seed in 0..40 {
        let mut d = DealState::from_seed(seed, (seed % 2) as u8, rules(0, false)).unwrap();
        let lead = d.legal_actions()[0];
        d.apply(lead).unwrap();
        let obs = d.observation(d.dealer(), [0, 0]);
        check_worlds(&obs, 3, seed);
        // The led card is in one of the elder's five places, the other four are free.
        assert_close(count(&obs), 5.0 * falling(25, 4));
    }
}

const ISSUE_POSITION: &str = r#"{"format":"ecarte.duel.deal","version":1,"deck":["8D","QH","TS","7S","TD","9D","7H","TC","JS","8C","AC","JH","9H","QS","AH","KC","AD","QD","7C","KH","KS","9S","JC","7D","8H","KD","AS","8S","QC","TH","JD","9C"],"dealer":1,"rules":{"order":"ecarte","allow_trump_discard":false,"max_exchanges":11,"target":7},"actions":["propose","accept","discard 8D","discard 7H","propose","accept","discard TD","discard 9D","propose","accept","discard 7S","discard 9H","propose","accept","discard TS","discard AD","decline","JH","AH","QH","7C","8C","JC","KC","TC","QD","8H","KH","QC","TH"]}"#;

#[test]
fn issue_position_with_default_rules() {
    let record = DealRecord::from_json(ISSUE_POSITION).unwrap();
    let state = record.replay().unwrap();
    assert_eq!(state.current_player(), Some(0));
    let obs = state.observation(0, [0, 0]);
    for seed in 0..8 {
        check_worlds(&obs, 24, seed);
    }
    let values = super::super::pimc::pimc_values(
        &obs,
        24,
        1,
        heuristic_rollout,
        crate::control::Control::NONE,
    )
    .unwrap();
    assert_eq!(values.len(), state.legal_actions().len());
}

#[test]
fn huge_counts_are_refused_not_reserved() {
    let d = DealState::from_seed(1, 0, Rules::default()).unwrap();
    let obs = d.observation(0, [0, 0]);
    for n in [MAX_WORLDS + 1, 1 << 60, usize::MAX] {
        assert!(matches!(
            sample_worlds(&obs, n, 1),
            Err(SampleError::TooMany { .. })
        ));
    }
    assert_eq!(sample_worlds(&obs, 0, 1), Ok(Vec::new()));
}

#[test]
fn same_seed_same_worlds() {
    let record = DealRecord::from_json(ISSUE_POSITION).unwrap();
    let state = record.replay().unwrap();
    let obs = state.observation(0, [0, 0]);
    assert_eq!(
        sample_worlds(&obs, 10, 7).unwrap(),
        sample_worlds(&obs, 10, 7).unwrap()
    );
    assert_ne!(
        sample_worlds(&obs, 10, 7).unwrap(),
        sample_worlds(&obs, 10, 8).unwrap()
    );
}

/// The deal of the hand-made deck `elder + dealer + turn-up + rest` (rest in pack order).
fn deal_from(elder: &str, dealer: &str, turn_up: &str, rules: Rules) -> DealState {
    let mut deck: Vec<Card> = elder.split(' ').chain(dealer.split(' ')).map(c).collect();
    deck.push(c(turn_up));
    for card in (0..PACK_SIZE).map(pack_card) {
        if !deck.contains(&card) {
            deck.push(card);
        }
    }
    DealState::from_deck(&deck, 0, rules).unwrap()
}

#[test]
fn a_void_is_inferred_at_its_moment_only() {
    // Spades trump. The dealer (seat 0) follows a club lead with a diamond: no club and no
    // trump then. The draw after the trick may bring either.
    let mut d = deal_from("7C 8C 9C TC AC", "7D 8D 9D 7H 8H", "7S", rules(0, false));
    for a in ["7C", "9D"] {
        d.apply(Action::Play(c(a))).unwrap();
    }
    let obs = d.observation(1, [0, 0]);
    let model = Model::new(&obs).unwrap();
    // Five dealt cards, the play, then the two draws (the elder won and draws first).
    assert!(matches!(
        model.events.as_slice(),
        [
            Event::Arrive(0),
            Event::Arrive(1),
            Event::Arrive(2),
            Event::Arrive(3),
            Event::Arrive(4),
            Event::Play { void: 0b1001, .. },
            Event::Arrive(5),
        ]
    ));
    // Unseen hearts and diamonds: 16 less the elder's none, less 9D: 15.
    let m = 15;
    assert_close(count(&obs), 5.0 * falling(m, 4) * 20.0);
    for w in check_worlds(&obs, 200, 3) {
        let dealt = &w.deck()[5..10];
        assert!(dealt.contains(&c("9D")));
        assert!(dealt
            .iter()
            .all(|x| x.suit() != c("7C").suit() && x.suit() != w.trump()));
    }
    // The drawn card (deck position 12, the dealer's) ends the void: clubs and trumps come.
    let drawn: Vec<Card> = sample_worlds(&obs, 400, 4)
        .unwrap()
        .iter()
        .map(|w| w.deck()[12])
        .collect();
    assert!(drawn.iter().any(|x| x.suit() == c("7C").suit()));
    assert!(drawn.iter().any(|x| x.suit() == c("7S").suit()));
}

#[test]
fn a_card_played_after_a_void_came_later() {
    // The dealer shows out of clubs at trick 1, then plays a club at trick 2: that club
    // was drawn after trick 1, at the dealer's only later position.
    let mut d = deal_from("7C 8C 9C TC AC", "7D 8D 9D 7H 8H", "7S", rules(0, false));
    for a in ["7C", "9D"] {
        d.apply(Action::Play(c(a))).unwrap();
    }
    // The elder won and leads again; the dealer needs a club in the next draw.
    let drawn = d.draws(0);
    let club = drawn.iter().find(|x| x.suit() == c("7C").suit()).copied();
    let Some(club) = club else {
        // The fixed deck order decides the draw; without a club there is nothing to test.
        return;
    };
    d.apply(Action::Play(c("8C"))).unwrap();
    d.apply(Action::Play(club)).unwrap();
    let obs = d.observation(1, [0, 0]);
    for w in check_worlds(&obs, 50, 1) {
        assert_eq!(w.deck()[12], club);
    }
}

#[test]
fn hidden_discards_follow_the_trump_rule() {
    for allow in [false, true] {
        let mut d = DealState::from_seed(5, 0, rules(11, allow)).unwrap();
        for a in ["propose", "accept"] {
            d.apply(a.parse().unwrap()).unwrap();
        }
        // The elder (seat 1), then the dealer (seat 0) discards.
        for _ in 0..2 {
            let discard = d.legal_actions()[0];
            d.apply(discard).unwrap();
        }
        let obs = d.observation(1, [0, 0]);
        let model = Model::new(&obs).unwrap();
        assert!(matches!(model.events.last(), Some(Event::Discard(3))));
        // Every six-card hand has a legal discard, and the odds of each sum to one: the
        // count is that of the dealer's six cards among the 25 unseen.
        assert_close(count(&obs), falling(25, 6));
        for w in check_worlds(&obs, 100, 2) {
            let hidden = w.discard_set(0);
            let trump = hidden & (0xff << (w.trump().index() * 8)) != 0;
            if trump && !allow {
                // Only from an all-trump hand.
                let had = w.hand_set(0) | hidden;
                assert_eq!(had & !(0xff << (w.trump().index() * 8)), 0);
            }
        }
    }
}

#[test]
fn inconsistent_observations_are_errors_not_panics() {
    let mut d = DealState::from_seed(2, 0, Rules::default()).unwrap();
    d.apply(Action::Decline).unwrap();
    let obs = d.observation(0, [0, 0]);
    let mut bad = obs.clone();
    bad.initial_hand.pop();
    assert!(sample_worlds(&bad, 1, 1).is_err());
    let mut bad = obs.clone();
    bad.history.push(Some(Action::Play(obs.hand[0])));
    bad.history.push(Some(Action::Play(obs.hand[0])));
    assert!(sample_worlds(&bad, 1, 1).is_err());
    let mut bad = obs.clone();
    bad.talon_drawers = vec![0; 30];
    assert!(sample_worlds(&bad, 1, 1).is_err());
    let mut bad = obs.clone();
    bad.history = vec![None; 70];
    assert!(sample_worlds(&bad, 1, 1).is_err());
    let mut bad = obs;
    bad.player = 7;
    assert!(sample_worlds(&bad, 1, 1).is_err());
}

/// An independent reference: rejection sampling of the same target (the sampler before
/// this one, with the first-action fix). Exact but slow where constraints bite.
mod reference {
    use super::*;

    /// A hidden position and from which action index its card was in the opponent's
    /// hand (`None` for the undrawn talon).
    struct Slot {
        position: usize,
        from: Option<usize>,
    }

    pub struct Rejection {
        deck: [Option<Card>; PACK_SIZE],
        slots: Vec<Slot>,
        free_cards: Vec<Card>,
        opponent_plays: Vec<(Card, usize)>,
        opponent_played: u32,
    }

    impl Rejection {
        pub fn new(obs: &Observation) -> Rejection {
            let me = obs.player;
            let elder = 1 - obs.dealer;
            let mut deck: [Option<Card>; PACK_SIZE] = [None; PACK_SIZE];
            let (mine, theirs) = if me == elder {
                (0..5, 5..10)
            } else {
                (5..10, 0..5)
            };
            for (pos, &card) in mine.zip(&obs.initial_hand) {
                deck[pos] = Some(card);
            }
            deck[10] = Some(obs.turn_up);
            // Drawn at action j: held from j + 1.
            let mut times = Vec::new();
            let mut plays = 0;
            for (j, action) in obs.history.iter().enumerate() {
                let draws = match action {
                    Some(Action::Accept) => true,
                    Some(Action::Play(_)) => {
                        plays += 1;
                        plays % 2 == 0
                    }
                    _ => false,
                };
                if draws && times.len() < TALON_SIZE {
                    times.extend([j + 1, j + 1]);
                }
            }
            let mut slots: Vec<Slot> = theirs
                .map(|position| Slot {
                    position,
                    from: Some(0),
                })
                .collect();
            let mut own = obs.draws.iter();
            for i in 0..TALON_SIZE {
                let position = talon_position(i);
                match obs.talon_drawers.get(i) {
                    Some(&who) if who == me => deck[position] = own.next().copied(),
                    Some(_) if position != 10 => slots.push(Slot {
                        position,
                        from: times.get(i).copied(),
                    }),
                    None if position != 10 => slots.push(Slot {
                        position,
                        from: None,
                    }),
                    _ => {}
                }
            }
            let known: u32 = deck.iter().flatten().map(|&c| bit(c)).sum();
            let mut opponent_plays = Vec::new();
            let mut leader = elder;
            let mut lead = None;
            for (j, action) in obs.history.iter().enumerate() {
                if let Some(Action::Play(card)) = action {
                    let player = if lead.is_some() { 1 - leader } else { leader };
                    if player != me {
                        opponent_plays.push((*card, j));
                    }
                    match lead.take() {
                        None => lead = Some(*card),
                        Some(first) => {
                            let beats = if suit(first) == suit(*card) {
                                obs.rules.order.outranks(*card, first)
                            } else {
                                card.suit() == obs.trump
                            };
                            leader = if beats { player } else { 1 - player };
                        }
                    }
                }
            }
            let opponent_played: u32 = opponent_plays.iter().map(|&(c, _)| bit(c)).sum();
            opponent_plays.retain(|&(card, _)| known & bit(card) == 0);
            let free_cards = (0..PACK_SIZE)
                .map(pack_card)
                .filter(|&c| (known | opponent_played) & bit(c) == 0)
                .collect();
            Rejection {
                deck,
                slots,
                free_cards,
                opponent_plays,
                opponent_played,
            }
        }

        pub fn attempt(&self, obs: &Observation, rng: &mut GameRng) -> Option<DealState> {
            let mut deck = self.deck;
            let mut taken = vec![false; self.slots.len()];
            for &(card, time) in &self.opponent_plays {
                let free: Vec<usize> = (0..self.slots.len())
                    .filter(|&i| !taken[i] && self.slots[i].from.is_some_and(|f| f <= time))
                    .collect();
                if free.is_empty() {
                    return None;
                }
                let pick = free[rng.random_range(0..free.len())];
                taken[pick] = true;
                deck[self.slots[pick].position] = Some(card);
            }
            let mut rest = self.free_cards.clone();
            rest.shuffle(rng);
            let mut rest = rest.into_iter();
            for (i, slot) in self.slots.iter().enumerate() {
                if !taken[i] {
                    deck[slot.position] = rest.next();
                }
            }
            let deck: Vec<Card> = deck.iter().map(|c| c.unwrap_or(obs.turn_up)).collect();
            let mut state = DealState::from_deck(&deck, obs.dealer, obs.rules).ok()?;
            let mut plays_left = self.opponent_played;
            for action in &obs.history {
                let action = if let Some(a) = action {
                    *a
                } else {
                    // Uniform among the legal discards, given it is not played later.
                    let legal = (state.legal_mask() >> PACK_SIZE) as u32;
                    let allowed = legal & !plays_left;
                    if state.phase() != Phase::Discard || allowed == 0 {
                        return None;
                    }
                    let n = allowed.count_ones();
                    if rng.random::<f64>() >= f64::from(n) / f64::from(legal.count_ones()) {
                        return None;
                    }
                    let mut set = allowed;
                    for _ in 0..rng.random_range(0..n) {
                        set &= set - 1;
                    }
                    Action::Discard(pack_card(set.trailing_zeros() as usize))
                };
                if let Action::Play(card) = action {
                    plays_left &= !bit(card);
                }
                state.apply(action).ok()?;
            }
            Some(state)
        }
    }
}

/// The chi-square statistic of two samples' counts over the same cells.
fn two_sample_chi2(a: &HashMap<Card, u32>, b: &HashMap<Card, u32>) -> (f64, usize) {
    let na: f64 = a.values().map(|&v| f64::from(v)).sum();
    let nb: f64 = b.values().map(|&v| f64::from(v)).sum();
    let (ka, kb) = ((nb / na).sqrt(), (na / nb).sqrt());
    let mut cells: Vec<Card> = a.keys().chain(b.keys()).copied().collect();
    cells.sort_by_key(|c| c.id());
    cells.dedup();
    let mut stat = 0.0;
    for cell in &cells {
        let (x, y) = (
            f64::from(a.get(cell).copied().unwrap_or(0)),
            f64::from(b.get(cell).copied().unwrap_or(0)),
        );
        stat += (ka * x - kb * y).powi(2) / (x + y);
    }
    (stat, cells.len().saturating_sub(1))
}

/// The chi-square quantile at p = 0.001 by the Wilson-Hilferty approximation.
fn chi2_critical(df: usize) -> f64 {
    let df = df as f64;
    let h = 2.0 / (9.0 * df);
    df * (1.0 - h + 3.09 * h.sqrt()).powi(3)
}

/// What the opponent holds now or discarded, counted over worlds.
fn opponent_cards(worlds: &[DealState], opponent: u8) -> HashMap<Card, u32> {
    let mut counts = HashMap::new();
    for w in worlds {
        let set = w.hand_set(opponent) | w.discard_set(opponent);
        for card in crate::duel::action::cards_of(set) {
            *counts.entry(card).or_insert(0) += 1;
        }
    }
    counts
}

/// Constrained positions where rejection still works: voids, held cards, discards.
fn constrained_positions() -> Vec<(DealState, u8)> {
    let mut out = Vec::new();
    // Exchanges with hidden discards, trump discards allowed or not, then a few tricks
    // played by the heuristic (which shows voids).
    for (seed, allow, exchanges, plays) in [
        (11u64, false, 2u8, 5usize),
        (12, true, 3, 4),
        (13, false, 1, 7),
        (14, false, 4, 3),
    ] {
        let mut d = DealState::from_seed(seed, 0, rules(11, allow)).unwrap();
        let mut made = 0;
        while d.phase() != Phase::Play {
            let legal = d.legal_actions();
            let a = match legal[0] {
                Action::Propose if made == exchanges => Action::Decline,
                Action::Propose => {
                    made += 1;
                    Action::Propose
                }
                _ => heuristic_action(&View::of_state(&d)),
            };
            d.apply(a).unwrap();
        }
        for _ in 0..plays {
            let a = heuristic_action(&View::of_state(&d));
            d.apply(a).unwrap();
        }
        out.push((d, (seed % 2) as u8));
    }
    out
}

#[test]
fn agrees_with_the_rejection_reference_on_constrained_positions() {
    let n = if deep() { 20_000 } else { 2_000 };
    for (d, me) in constrained_positions() {
        let obs = d.observation(me, [0, 0]);
        let exact = check_worlds(&obs, n, 1);
        let reference = reference::Rejection::new(&obs);
        let mut rng = rng_from_seed(2);
        let mut slow = Vec::new();
        for _ in 0..n * 20_000 {
            if slow.len() == n {
                break;
            }
            if let Some(w) = reference.attempt(&obs, &mut rng) {
                slow.push(w);
            }
        }
        assert_eq!(slow.len(), n, "the reference ran out of attempts");
        let (stat, df) = two_sample_chi2(
            &opponent_cards(&exact, 1 - me),
            &opponent_cards(&slow, 1 - me),
        );
        assert!(
            stat < chi2_critical(df),
            "chi2 {stat} with {df} df: {obs:?}"
        );
        // And what was discarded: the `1 / legal` weighting shows there.
        let discards = |ws: &[DealState]| {
            let mut m = HashMap::new();
            for w in ws {
                for card in crate::duel::action::cards_of(w.discard_set(1 - me)) {
                    *m.entry(card).or_insert(0u32) += 1;
                }
            }
            m
        };
        let (a, b) = (discards(&exact), discards(&slow));
        if !a.is_empty() {
            let (stat, df) = two_sample_chi2(&a, &b);
            assert!(
                stat < chi2_critical(df.max(1)),
                "discards chi2 {stat} ({df} df)"
            );
        }
    }
}

fn deep() -> bool {
    std::env::var_os("ECARTE_SLOW").is_some_and(|v| v == "1")
}

/// The ways a test player picks actions: from the view (random, heuristic, odd but legal
/// lines) or seeing every card (the cheater).
#[derive(Clone, Copy, Debug)]
enum Player {
    Random,
    Heuristic,
    /// Exchanges whenever it can, throws its best cards, ducks and shows voids.
    Odd,
    /// Sees both hands and the talon: solves the play phase exactly.
    Cheater,
}

fn choose(player: Player, d: &DealState, rng: &mut GameRng) -> Action {
    let legal = d.legal_actions();
    let strength = |a: &Action| a.card().map_or(0, |c| d.rules().order.strength(c.rank()));
    match player {
        Player::Random => random_action(d.legal_mask(), rng),
        Player::Heuristic => heuristic_action(&View::of_state(d)),
        Player::Odd => {
            if legal.contains(&Action::Propose) {
                return Action::Propose;
            }
            if legal.contains(&Action::Accept) {
                return Action::Accept;
            }
            let trump = |a: &Action| a.card().is_some_and(|c| c.suit() == d.trump());
            let best = match d.phase() {
                // Throw trumps and high cards away.
                Phase::Discard => legal.iter().max_by_key(|a| (trump(a), strength(a))),
                // Low cards, non-trumps first: voids in trumps get shown.
                _ => legal.iter().min_by_key(|a| (trump(a), strength(a))),
            };
            best.copied().unwrap_or(legal[0])
        }
        Player::Cheater => {
            if d.phase() == Phase::Play && d.talon_size() <= 8 {
                let best = solve(d, Objective::Points).map(|s| s.best_actions);
                if let Ok(best) = best {
                    return best[rng.random_range(0..best.len())];
                }
            }
            // Sees the talon: exchange while the next card is a trump.
            let next_trump = d.talon().first().is_some_and(|c| c.suit() == d.trump());
            match legal[0] {
                Action::Propose => {
                    if next_trump {
                        Action::Propose
                    } else {
                        Action::Decline
                    }
                }
                Action::Accept => {
                    if next_trump {
                        Action::Refuse
                    } else {
                        Action::Accept
                    }
                }
                _ => heuristic_action(&View::of_state(d)),
            }
        }
    }
}

/// Plays `deals` deals under every rule set with mixed players, and calls `visit` with the
/// deal's index, the position and each seat, at every position.
fn for_each_varied_position(deals: u64, seed: u64, mut visit: impl FnMut(u64, &DealState, u8)) {
    let players = [
        Player::Random,
        Player::Heuristic,
        Player::Odd,
        Player::Cheater,
    ];
    let mut rng = rng_from_seed(seed);
    for i in 0..deals {
        let rules = rules((i % 12) as u8, (i / 12) % 2 == 1);
        let seats = [
            players[rng.random_range(0..4)],
            players[rng.random_range(0..4)],
        ];
        let mut d = DealState::from_seed(rng.random(), (i % 2) as u8, rules).unwrap();
        while !d.is_over() {
            for me in 0..2 {
                visit(i, &d, me);
            }
            let mover = d.current_player().unwrap_or(0);
            let a = choose(seats[mover as usize], &d, &mut rng);
            d.apply(a).unwrap();
        }
    }
}

/// Samples from every position of [`for_each_varied_position`], from both seats. Returns
/// the positions checked.
fn property_run(deals: u64, seed: u64) -> usize {
    let mut checked = 0;
    for_each_varied_position(deals, seed, |_, d, me| {
        let obs = d.observation(me, [0, 0]);
        if let Err(e) = sample_worlds(&obs, 1, checked as u64) {
            panic!("{e} at {}", DealRecord::of(d).to_json());
        }
        checked += 1;
    });
    checked
}

/// Every rule set once here (debug builds are slow); the 10,000-position run is
/// `tests/test_sampler.py`. Deep: `ECARTE_SLOW=1 cargo test --release never_fails`.
#[test]
fn never_fails_on_positions_of_legal_deals() {
    let deals = if deep() { 1_200 } else { 24 };
    let checked = property_run(deals, 17);
    assert!(checked >= 100 * deals as usize / 2);
}

/// Release-mode measurement: `cargo test --release sampler_timing -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a test"]
fn sampler_timing() {
    let start = std::time::Instant::now();
    let checked = property_run(480, 3);
    println!(
        "{checked} positions in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "a measurement, not a test"]
fn sampler_state_counts() {
    let mut rows = Vec::new();
    for_each_varied_position(240, 5, |i, d, me| {
        let obs = d.observation(me, [0, 0]);
        let t = std::time::Instant::now();
        let model = Model::new(&obs).unwrap();
        let states = Counts::new(&model).states();
        rows.push((
            t.elapsed().as_secs_f64() * 1e3,
            states,
            i,
            obs.history.len(),
        ));
    });
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = rows.len();
    let total: f64 = rows.iter().map(|r| r.0).sum();
    println!(
        "{n} positions, mean {:.3} ms, median {:.3}, p90 {:.3}, max {:?}",
        total / n as f64,
        rows[n / 2].0,
        rows[n * 9 / 10].0,
        rows[n - 1]
    );
    for r in &rows[n - 10..] {
        println!("{r:?}");
    }
    rows.sort_by_key(|r| r.1);
    let states: usize = rows.iter().map(|r| r.1).sum();
    println!("states mean {} median {}", states / n, rows[n / 2].1);
    for r in &rows[n - 5..] {
        println!("{r:?}");
    }
}

/// How rarely rejection finds a world in a hard position:
/// `cargo test --release issue_position_rejection_rate -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a test"]
fn issue_position_rejection_rate() {
    let record = DealRecord::from_json(ISSUE_POSITION).unwrap();
    let state = record.replay().unwrap();
    let obs = state.observation(0, [0, 0]);
    let reference = reference::Rejection::new(&obs);
    let mut rng = rng_from_seed(1);
    let attempts = 2_000_000;
    let found = (0..attempts)
        .filter(|_| reference.attempt(&obs, &mut rng).is_some())
        .count();
    println!("{found} worlds in {attempts} attempts");
}
