//! The solver against a plain minimax over `DealState`.

use super::*;
use crate::control::{Control, RunControl};
use crate::duel::rules::{Order, Rules};
use crate::duel::Action;

/// A rollout policy for the tests that needs no agent layer: the first legal action.
fn first_legal(state: &DealState) -> Action {
    state.legal_actions()[0]
}

/// The exact value for `me` by exhaustive minimax over the engine: `me` maximises, the
/// other side minimises (for the cards objective too, which is not zero-sum).
fn naive_value(state: &DealState, objective: Objective, me: u8) -> i32 {
    let Some(mover) = state.current_player() else {
        return final_value(state, me, objective);
    };
    let values = state
        .legal_actions()
        .into_iter()
        .map(|a| after(state, a, objective, me));
    let best = if mover == me {
        values.max()
    } else {
        values.min()
    };
    best.unwrap_or(i32::MIN)
}

/// `me`'s exact value once `a` is played.
fn after(state: &DealState, a: Action, objective: Objective, me: u8) -> i32 {
    let mut child = *state;
    child.apply_unchecked(a);
    naive_value(&child, objective, me)
}

/// The exact value for the player to move.
fn naive(state: &DealState, objective: Objective) -> i32 {
    naive_value(state, objective, state.current_player().unwrap())
}

fn final_value(state: &DealState, me: u8, objective: Objective) -> i32 {
    let o = state.outcome().unwrap();
    match objective {
        Objective::Points => {
            let p = i32::from(o.points);
            if o.winner == me {
                p
            } else {
                -p
            }
        }
        Objective::Cards => i32::from(o.cards[me as usize]),
    }
}

/// A play-phase position: `exchanges` exchanges with the first legal discards, then
/// `plays` random-ish plays (chosen from the seed).
fn position(seed: u64, exchanges: u8, plays: usize, order: Order) -> DealState {
    let rules = Rules {
        order,
        ..Rules::default()
    };
    let mut s = DealState::from_seed(seed, (seed % 2) as u8, rules).unwrap();
    let mut done = 0;
    let mut pick = seed;
    while s.phase() != Phase::Play {
        let legal = s.legal_actions();
        let a = if legal.contains(&Action::Propose) {
            if done < exchanges {
                done += 1;
                Action::Propose
            } else {
                Action::Decline
            }
        } else if legal.contains(&Action::Accept) {
            Action::Accept
        } else {
            pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            legal[(pick >> 33) as usize % legal.len()]
        };
        s.apply(a).unwrap();
    }
    for _ in 0..plays {
        if s.is_over() {
            break;
        }
        let legal = s.legal_actions();
        pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        s.apply(legal[(pick >> 33) as usize % legal.len()]).unwrap();
    }
    s
}

fn check(state: &DealState, objective: Objective) {
    let expected = naive(state, objective);
    let sol = solve(state, objective).unwrap();
    assert_eq!(sol.value, expected, "value of {state:?}");
    let me = state.current_player().unwrap();
    // Every best action achieves the value, and every other action falls short.
    for a in state.legal_actions() {
        let v = after(state, a, objective, me);
        assert_eq!(
            sol.best_actions.contains(&a),
            v == expected,
            "action {a} of {state:?}"
        );
    }
    let (values, _) = action_values(state, objective).unwrap();
    for (a, v) in values {
        assert_eq!(v, after(state, a, objective, me), "action value of {a}");
    }
}

#[test]
fn matches_naive_minimax_on_late_positions() {
    for seed in 0..120 {
        for order in [Order::Ecarte, Order::Traditional] {
            for objective in [Objective::Points, Objective::Cards] {
                let exchanges = 10 + (seed % 2) as u8;
                let plays = (seed % 7) as usize;
                check(&position(seed, exchanges, plays, order), objective);
            }
        }
    }
}

#[test]
fn matches_naive_minimax_with_talon_draws() {
    // Nine exchanges leave four talon cards: two tricks with draws.
    for seed in 0..40 {
        let plays = (seed % 3) as usize;
        check(&position(seed, 9, plays, Order::Ecarte), Objective::Points);
    }
}

/// `me`'s exact points after `a` when the talon is drawn by seat ([`Draws::BySeat`], `me`
/// being the mover whose draws are fixed), by exhaustive minimax over the engine: when the
/// other seat is about to win a trick that is followed by a draw other than the last, the
/// same deal is replayed with the two cards of that draw swapped, so that `me` takes the
/// card the rules would give the winner.
fn after_by_seat(state: &DealState, a: Action, me: u8) -> i32 {
    let mut child = *state;
    child.apply_unchecked(a);
    let drew = child.talon_size() < state.talon_size();
    if drew && state.talon_size() > 2 && child.current_player() != Some(me) {
        let talon = state.talon();
        let mut deck = *state.deck();
        let i = deck.iter().position(|&c| c == talon[0]).unwrap();
        let j = deck.iter().position(|&c| c == talon[1]).unwrap();
        deck.swap(i, j);
        child = DealState::from_deck(&deck, state.dealer(), state.rules()).unwrap();
        for (_, m) in state.moves().into_iter().chain([(0, a)]) {
            child.apply_unchecked(m);
        }
    }
    let Some(mover) = child.current_player() else {
        return final_value(&child, me, Objective::Points);
    };
    let values = child
        .legal_actions()
        .into_iter()
        .map(|b| after_by_seat(&child, b, me));
    let best = if mover == me {
        values.max()
    } else {
        values.min()
    };
    best.unwrap_or(i32::MIN)
}

#[test]
fn draws_by_seat_match_naive_minimax() {
    // Four talon cards left, so a draw by seat, then the last pair: after nine exchanges
    // with nothing or one card played, or after eight with the first trick played.
    let mut differs = 0;
    for seed in 0..60 {
        let state = if seed % 2 == 0 {
            position(seed, 9, (seed % 4 / 2) as usize, Order::Ecarte)
        } else {
            position(seed, 8, 2 + (seed % 4 / 2) as usize, Order::Ecarte)
        };
        assert_eq!(state.talon_size(), 4, "seed {seed}");
        let me = state.current_player().unwrap();
        let (by_seat, _) = action_values_with(&state, Objective::Points, Draws::BySeat).unwrap();
        let (rules, _) = action_values(&state, Objective::Points).unwrap();
        let mut best = i32::MIN;
        for ((a, v), (_, r)) in by_seat.into_iter().zip(rules) {
            let expected = after_by_seat(&state, a, me);
            assert_eq!(v, expected, "by-seat value of {a}, seed {seed}");
            best = best.max(expected);
            differs += usize::from(v != r);
        }
        let solved = solve_with(&state, Objective::Points, Draws::BySeat).unwrap();
        assert_eq!(solved.value, best, "by-seat solve, seed {seed}");
    }
    // The mode changes some values (else this test would not test it).
    assert!(differs > 0);
}

/// A `SplitMix64` stream from `seed`, for the randomized tests.
pub(super) fn splitmix64(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49EB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Random positions: random seeds, dealers, exchange counts (9 to 11), discards and plays,
/// both rank orders and both objectives, drawn from one `SplitMix64` stream.
#[test]
fn matches_naive_minimax_on_random_positions() {
    let mut next = splitmix64(0x00C0_FFEE);
    for _ in 0..150 {
        let order = if next().is_multiple_of(2) {
            Order::Ecarte
        } else {
            Order::Traditional
        };
        let rules = Rules {
            order,
            ..Rules::default()
        };
        let exchanges = 9 + (next() % 3) as u8;
        let mut s = DealState::from_seed(next() >> 1, (next() % 2) as u8, rules).unwrap();
        while s.phase() != Phase::Play {
            let legal = s.legal_actions();
            let a = match legal[0] {
                Action::Propose if s.exchanges() < exchanges => Action::Propose,
                Action::Propose => Action::Decline,
                Action::Accept => Action::Accept,
                _ => legal[(next() % legal.len() as u64) as usize],
            };
            s.apply(a).unwrap();
        }
        let plays = next() % 7;
        for _ in 0..plays {
            let legal = s.legal_actions();
            if s.is_over() || s.total_tricks() - s.trick_count() <= 1 {
                break;
            }
            s.apply(legal[(next() % legal.len() as u64) as usize])
                .unwrap();
        }
        let objective = if next().is_multiple_of(3) {
            Objective::Cards
        } else {
            Objective::Points
        };
        check(&s, objective);
    }
}

#[test]
fn refuses_positions_outside_play() {
    let s = DealState::from_seed(1, 0, Rules::default()).unwrap();
    assert_eq!(
        solve(&s, Objective::Points),
        Err(SolveError::NotPlayPhase(Phase::Proposal))
    );
}

#[test]
fn solve_many_agrees_with_solve() {
    let states: Vec<DealState> = (0..16).map(|s| position(s, 6, 1, Order::Ecarte)).collect();
    let many = solve_many(&states, Objective::Points, Control::NONE);
    assert_eq!(many.len(), states.len());
    for (s, r) in states.iter().zip(many) {
        assert_eq!(r.unwrap(), solve(s, Objective::Points).unwrap());
    }
}

#[test]
fn a_stopped_batch_solves_nothing_more() {
    let states: Vec<DealState> = (0..16).map(|s| position(s, 6, 1, Order::Ecarte)).collect();
    let run = RunControl::new();
    run.cancel();
    assert!(solve_many(&states, Objective::Points, run.control()).is_empty());
    assert!(solve_many_timed(&states, Objective::Points, run.control()).is_empty());
}

/// Timing table; run with `cargo test --release solver_timing -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a test"]
fn solver_timing() {
    for exchanges in [0u8, 4, 8, 11] {
        let mut times = Vec::new();
        let mut nodes = 0;
        for seed in 0..100 {
            let s = bench_position(seed, exchanges);
            let start = std::time::Instant::now();
            let sol = solve(&s, Objective::Points).unwrap();
            times.push(start.elapsed().as_secs_f64() * 1e3);
            nodes += sol.nodes;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "exchanges {exchanges:2}: median {:.4} ms p90 {:.4} ms max {:.4} ms, mean nodes {}",
            times[50],
            times[90],
            times[99],
            nodes / 100
        );
    }
}

/// A state after `steps` random actions from the deal of `seed`.
fn random_state(seed: u64, steps: usize) -> DealState {
    let mut s = DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).unwrap();
    let mut pick = seed ^ 0x5555;
    for _ in 0..steps {
        if s.is_over() {
            break;
        }
        let legal = s.legal_actions();
        pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        s.apply(legal[(pick >> 33) as usize % legal.len()]).unwrap();
    }
    s
}

#[test]
fn sampled_worlds_reproduce_the_observation() {
    for seed in 0..150 {
        let s = random_state(seed, (seed as usize * 7) % 60);
        let Some(me) = s.current_player() else {
            continue;
        };
        let obs = s.observation(me, [0, 0]);
        let worlds = sampler::sample_worlds(&obs, 8, seed).unwrap();
        for w in &worlds {
            assert_eq!(w.observation(me, [0, 0]), obs, "seed {seed}");
        }
        // Reproducible for a seed.
        assert_eq!(sampler::sample_worlds(&obs, 8, seed).unwrap(), worlds);
    }
}

#[test]
fn pimc_values_cover_the_legal_actions() {
    for steps in [0, 1, 2, 3, 6, 12, 20] {
        let s = random_state(3, steps);
        let Some(me) = s.current_player() else {
            continue;
        };
        let values =
            pimc::pimc_values(&s.observation(me, [0, 0]), 4, 1, first_legal, Control::NONE)
                .unwrap();
        let actions: Vec<Action> = values.iter().map(|(a, _)| *a).collect();
        assert_eq!(actions, s.legal_actions());
        assert!(values.iter().all(|(_, v)| (-2.0..=2.0).contains(v)));
    }
}

/// A search for the best action alone chooses what the full values choose, at decisions
/// of both phases, for PIMC and the expert (the ties to the lowest action id included),
/// and does rule out actions on the way.
#[test]
fn a_search_for_the_choice_chooses_as_the_values_do() {
    use crate::play::expert::expert_search;
    use crate::play::heuristic::{heuristic_action, heuristic_rollout, View};
    use crate::play::policy::best_action;
    use pimc::Goal;
    let mut ruled_out = 0;
    for seed in 0..6 {
        let mut s = DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).unwrap();
        while let Some(me) = s.current_player() {
            let obs = s.observation(me, [0, 0]);
            let searches: [&dyn Fn(Goal) -> Vec<(Action, f64)>; 2] = [
                &|goal| {
                    pimc::pimc_search(&obs, 12, seed, heuristic_rollout, goal, Control::NONE)
                        .unwrap()
                },
                &|goal| expert_search(&obs, 12, seed, goal, Control::NONE).unwrap(),
            ];
            for search in searches {
                let (values, choice) = (search(Goal::Values), search(Goal::Choice));
                assert_eq!(best_action(&choice), best_action(&values), "seed {seed}");
                ruled_out += choice.iter().filter(|(_, v)| v.is_infinite()).count();
            }
            s.apply_unchecked(heuristic_action(&View::of_state(&s)));
        }
    }
    assert!(ruled_out > 0);
}

/// The play-phase positions of the deal laid out from `deck`: `exchanges` exchanges, then
/// after each of the first plays (the discards and plays picked by `pick`).
fn positions_of(deck: &[crate::card::Card; 32], exchanges: u8, mut pick: u64) -> Vec<DealState> {
    let mut s = DealState::from_deck(deck, 0, Rules::default()).unwrap();
    let mut out = Vec::new();
    while !s.is_over() && out.len() < 8 {
        let legal = s.legal_actions();
        let a = match legal[0] {
            Action::Propose if s.exchanges() < exchanges => Action::Propose,
            Action::Propose => Action::Decline,
            Action::Accept => Action::Accept,
            _ => {
                pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                legal[(pick >> 33) as usize % legal.len()]
            }
        };
        s.apply(a).unwrap();
        if s.phase() == Phase::Play {
            out.push(s);
        }
    }
    out
}

/// Solves sharing a scope give the values of isolated solves. The positions of one scope
/// share talons to come while their hands differ: other lines of the same deal, the deal
/// with the two hands swapped (the same relative hands with the seats swapped, which draw
/// differently by seat) and with a hand card swapped with a talon card; both ways of drawing
/// share the scope.
#[test]
fn scoped_solves_match_isolated_ones() {
    for seed in 0..12u64 {
        let base = *DealState::from_seed(seed, 0, Rules::default())
            .unwrap()
            .deck();
        let mut swapped = base;
        for i in 0..5 {
            swapped.swap(i, i + 5);
        }
        let mut traded = base;
        traded.swap(1, 30);
        let mut states = Vec::new();
        for deck in [base, swapped, traded] {
            for line in 0..2 {
                states.extend(positions_of(&deck, 4 + (seed % 3) as u8, seed * 7 + line));
            }
        }
        let scope = Scope::fresh();
        for (i, s) in states.iter().enumerate() {
            let draws = if (i + seed as usize).is_multiple_of(3) {
                Draws::Rules
            } else {
                Draws::BySeat
            };
            let isolated = solve_with(s, Objective::Points, draws).unwrap().value;
            assert_eq!(
                points_in(s, draws, scope).unwrap(),
                isolated,
                "seed {seed}, {i}"
            );
            let (values, _) = action_values_with(s, Objective::Points, draws).unwrap();
            let (shared, _) = action_values_in(s, Objective::Points, draws, Some(scope)).unwrap();
            assert_eq!(shared, values, "seed {seed}, position {i}");
        }
    }
}

/// The shared table tells apart what a shared scope mixes: the same hands with the talon in
/// another order, and with the other seat as the root's mover (draws by seat) or with the
/// rules' draws. Every test's answer is that of a search with a table of its own.
#[test]
fn the_shared_table_keeps_talon_orders_and_seats_apart() {
    let mut next = splitmix64(0x7AB1E);
    let (mut shared, mut isolated) = (search::Search::new(), search::Search::new());
    let scope = Scope::fresh();
    for _ in 0..200 {
        let mut cards: Vec<u8> = Vec::new();
        while cards.len() < 16 {
            let c = (next() % 32) as u8;
            if !cards.contains(&c) {
                cards.push(c);
            }
        }
        let a = cards[..5].iter().fold(0u32, |s, &c| s | 1 << c);
        let b = cards[5..10].iter().fold(0u32, |s, &c| s | 1 << c);
        let trump = (next() % 4) as u8;
        let mut talons = vec![cards[10..].to_vec()];
        for i in [0, 2] {
            let mut other = cards[10..].to_vec();
            other.swap(i, i + 1);
            talons.push(other);
        }
        for talon in &talons {
            for mover in [Some(a), Some(b), None] {
                let k = 1 + (next() % 17) as i32;
                shared.reset(talon, trump, mover, Some(scope.0));
                isolated.reset(talon, trump, mover, None);
                assert_eq!(shared.lead_ge(a, b, 0, k), isolated.lead_ge(a, b, 0, k));
            }
        }
    }
}

/// A solve's work, its node count included, does not depend on the solves made before it
/// on the same thread (whatever the table holds from them), so a batch gives the same
/// solutions however it is split: each position solved after all the others before it on
/// one thread, and alone on a thread of its own (a fresh table).
#[test]
fn a_solve_is_the_same_after_other_solves() {
    let positions: Vec<DealState> = (0..12u64)
        .map(|i| {
            let mut s = DealState::from_seed(100 + i, (i % 2) as u8, Rules::default()).unwrap();
            s.apply(Action::Decline).unwrap();
            for _ in 0..i % 3 {
                s.apply_unchecked(s.legal_actions()[0]);
            }
            s
        })
        .collect();
    for objective in [Objective::Points, Objective::Cards] {
        let in_turn: Vec<Solution> = positions
            .iter()
            .map(|p| solve(p, objective).unwrap())
            .collect();
        for (p, after_others) in positions.iter().zip(in_turn) {
            let alone = std::thread::scope(|scope| {
                scope.spawn(|| solve(p, objective).unwrap()).join().unwrap()
            });
            assert_eq!(after_others, alone);
        }
    }
}

/// A bound test answers as the exact value does, for every bound around the results, in
/// both objectives and both rank orders, early and late in the play.
#[test]
fn bound_tests_agree_with_the_value() {
    for seed in 0..60 {
        for order in [Order::Ecarte, Order::Traditional] {
            let state = position(seed, (seed % 12) as u8, (seed % 9) as usize, order);
            for objective in [Objective::Points, Objective::Cards] {
                let value = solve(&state, objective).unwrap().value;
                for bound in -4..=34 {
                    let Limited::Done(test) = test_bound(&state, objective, bound, None).unwrap()
                    else {
                        panic!("no limit, yet it gave up");
                    };
                    assert_eq!(test.at_least, value >= bound, "{bound} against {value}");
                    assert_eq!(test.bound, bound);
                }
            }
        }
    }
    let extreme = position(3, 0, 0, Order::Ecarte);
    for bound in [i32::MIN, i32::MAX] {
        for objective in [Objective::Points, Objective::Cards] {
            let done = test_bound(&extreme, objective, bound, None).unwrap();
            let expect = bound == i32::MIN;
            assert!(matches!(done, Limited::Done(t) if t.at_least == expect && t.nodes == 0));
        }
    }
}

/// A node budget: a solve within it is the solve without one; one node short, it gives up
/// having searched no more than the budget, and the next solve is whole again.
#[test]
fn a_node_budget_gives_up_within_it() {
    let mut gave_up = 0;
    for seed in 0..40 {
        let state = position(seed, (seed % 12) as u8, 0, Order::Ecarte);
        for objective in [Objective::Points, Objective::Cards] {
            let full = solve(&state, objective).unwrap();
            let within = solve_limited(&state, objective, Some(full.nodes)).unwrap();
            assert_eq!(within, Limited::Done(full.clone()));
            for budget in [0, full.nodes / 2, full.nodes.saturating_sub(1)] {
                if budget >= full.nodes {
                    continue;
                }
                match solve_limited(&state, objective, Some(budget)).unwrap() {
                    Limited::GaveUp { nodes, max_nodes } => {
                        assert!(nodes <= budget);
                        assert_eq!(max_nodes, budget);
                        gave_up += 1;
                    }
                    Limited::Done(s) => panic!("{s:?} within {budget} of {} nodes", full.nodes),
                }
                assert_eq!(solve(&state, objective).unwrap(), full);
            }
            for bound in [-1, 1, 2] {
                let whole = test_bound(&state, objective, bound, None).unwrap();
                let Limited::Done(test) = whole else {
                    panic!("no limit, yet it gave up")
                };
                if test.nodes > 0 {
                    let short = test_bound(&state, objective, bound, Some(test.nodes - 1));
                    assert!(
                        matches!(short.unwrap(), Limited::GaveUp { nodes, .. } if nodes < test.nodes)
                    );
                }
            }
        }
    }
    assert!(gave_up > 100);
}

/// The node counts of fixed positions. A change to the search that alters them must bump
/// `NODE_COUNT_VERSION` (counts of different versions are not compared) and update these.
#[test]
fn node_counts_are_pinned_for_their_version() {
    let total: u64 = (0..30u64)
        .flat_map(|seed| (0..12u8).step_by(3).map(move |x| bench_position(seed, x)))
        .map(|state| solve(&state, Objective::Points).unwrap().nodes)
        .sum();
    assert_eq!(
        (NODE_COUNT_VERSION, total),
        (1, 264_049),
        "the search's node counts changed: bump NODE_COUNT_VERSION and pin the new total"
    );
}
