//! The crate as a Rust program uses it: only the public API, through `ecarte::`.

extern crate ecarte;

use ecarte::control::Control;
use ecarte::duel::{
    Action, DealRecord, DealState, DuelError, Match, MatchRecord, Observation, Rules,
};
use ecarte::play::{play_match, simulate_matches, Agent, BuiltinAgent, Policy};
use ecarte::solver::{solve, Objective};

/// Records what it is shown and plays the last legal action.
#[derive(Default)]
struct Spy {
    seen: Vec<(Observation, Vec<Action>)>,
}

impl Agent for Spy {
    fn act(&mut self, observation: &Observation, legal: &[Action]) -> Action {
        self.seen.push((observation.clone(), legal.to_vec()));
        legal[legal.len() - 1]
    }
}

#[test]
fn an_agent_is_shown_only_its_own_seat() {
    let mut game = Match::new(5, 1, Rules::default()).unwrap();
    let (mut zero, mut one) = (Spy::default(), Spy::default());
    play_match(&mut game, [&mut zero, &mut one]).unwrap();
    assert!(game.is_over());
    for (seat, spy) in [(0, &zero), (1, &one)] {
        assert!(!spy.seen.is_empty());
        for (observation, legal) in &spy.seen {
            assert_eq!(observation.player, seat);
            assert_eq!(observation.current_player, Some(seat));
            assert_eq!(&observation.turn().legal_actions(), legal);
        }
    }
    // Replaying the match, each observation is the one the deal gives that seat: the
    // opponent's hand and the talon are not in it.
    let record = MatchRecord::of(&game);
    let mut replay = Match::new(record.seed, record.first_dealer, record.rules).unwrap();
    let (mut next_zero, mut next_one) = (zero.seen.iter(), one.seen.iter());
    while let Some(seat) = replay.current_player() {
        let shown = if seat == 0 {
            next_zero.next()
        } else {
            next_one.next()
        };
        let (observation, legal) = shown.unwrap();
        let opponent = replay.deal.hand(1 - seat);
        assert!(observation.hand.iter().all(|c| !opponent.contains(c)));
        assert_eq!(observation, &replay.observation(seat));
        replay.apply(legal[legal.len() - 1]).unwrap();
    }
    assert_eq!(MatchRecord::of(&replay), record);
}

/// Accepts, whatever it is asked: illegal for the elder, who moves first.
struct Cheat;

impl Agent for Cheat {
    fn act(&mut self, _: &Observation, _: &[Action]) -> Action {
        Action::Accept
    }
}

#[test]
fn an_illegal_action_is_refused_with_the_match_unchanged() {
    // Seat 0 deals, so the cheat in seat 1 is the elder and moves first.
    let mut game = Match::new(8, 0, Rules::default()).unwrap();
    assert_eq!(game.current_player(), Some(1));
    let before = game.clone();
    let mut random = BuiltinAgent::new(Policy::Random, 3);
    let result = play_match(&mut game, [&mut random, &mut Cheat]);
    match result {
        Err(DuelError::IllegalAction(refusal)) => {
            assert_eq!(refusal.legal, game.deal.legal_actions());
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(game, before);
}

#[test]
fn the_same_seeds_play_the_same_match() {
    let play = || {
        let mut game = Match::new(21, 0, Rules::default()).unwrap();
        let mut a = BuiltinAgent::new(Policy::parse("pimc:2").unwrap(), 4);
        let mut b = BuiltinAgent::new(Policy::parse("heuristic").unwrap(), 5);
        play_match(&mut game, [&mut a, &mut b]).unwrap();
        MatchRecord::of(&game).to_json()
    };
    let first = play();
    assert_eq!(first, play());
    let replayed = MatchRecord::from_json(&first).unwrap().replay().unwrap();
    assert!(replayed.is_over());
}

#[test]
fn a_builtin_agent_chooses_a_legal_action_from_an_observation() {
    let deal = DealState::from_seed(2, 0, Rules::default()).unwrap();
    let seat = deal.current_player().unwrap();
    let mut agent = BuiltinAgent::new(Policy::Heuristic, 1);
    let action = Agent::act(
        &mut agent,
        &deal.observation(seat, [0, 0]),
        &deal.legal_actions(),
    );
    assert!(deal.is_legal(action));
}

#[test]
fn solving_simulating_and_records_work_from_outside() {
    let mut deal = DealState::from_seed(3, 1, Rules::default()).unwrap();
    deal.apply(Action::Decline).unwrap();
    let solution = solve(&deal, Objective::Points).unwrap();
    assert!(!solution.best_actions.is_empty());
    assert!(solution.best_actions.iter().all(|a| deal.is_legal(*a)));

    let policies = [Policy::Heuristic, Policy::Random];
    let run = simulate_matches(0, 4, 9, Rules::default(), policies, Control::NONE).unwrap();
    assert_eq!(run.len(), 4);
    assert!(run.iter().all(|m| m.score[usize::from(m.winner)] >= 7));

    let text = DealRecord::of(&deal).to_json();
    assert_eq!(
        DealRecord::from_json(&text).unwrap().replay().unwrap(),
        deal
    );
    assert!(DealRecord::from_json("{}").is_err());
}
