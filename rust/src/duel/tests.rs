//! One test per duel rule of docs/rules.md, plus pinned perft counts.

use super::action::{pack_index, Action};
use super::observe::Observation;
use super::record::DealRecord;
use super::referee;
use super::rules::{Order, Rules};
use super::state::{DealState, DuelError, Outcome, Phase, MAX_ACTIONS};
use crate::card::{piquet_pack, Card};

fn c(text: &str) -> Card {
    text.parse().unwrap()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(c).collect()
}

/// A deck with the given elder hand, dealer hand, turn-up and talon head; the other cards
/// follow in pack order.
fn deck(elder: &str, dealer: &str, turn_up: &str, talon_head: &str) -> Vec<Card> {
    let mut d = cards(elder);
    d.extend(cards(dealer));
    d.push(c(turn_up));
    d.extend(cards(talon_head));
    for card in piquet_pack() {
        if !d.contains(&card) {
            d.push(card);
        }
    }
    assert_eq!(d.len(), 32);
    d
}

fn act(state: &mut DealState, text: &str) {
    let action: Action = text.parse().unwrap();
    state
        .apply(action)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
}

fn play_deal(elder: &str, dealer: &str, turn_up: &str) -> DealState {
    let mut s =
        DealState::from_deck(&deck(elder, dealer, turn_up, ""), 1, Rules::default()).unwrap();
    act(&mut s, "decline");
    s
}

#[test]
fn phases_are_named_and_indexed_in_the_documented_order() {
    let names: Vec<&str> = referee::PHASES.iter().map(|p| p.name()).collect();
    assert_eq!(names, ["proposal", "response", "discard", "play", "over"]);
    for (i, phase) in referee::PHASES.iter().enumerate() {
        assert_eq!(phase.index(), i);
    }
}

#[test]
fn deal_layout_follows_the_deck() {
    let d = piquet_pack();
    let s = DealState::from_deck(&d, 0, Rules::default()).unwrap();
    assert_eq!(s.hand(1), d[..5].to_vec(), "elder gets cards 0-4");
    assert_eq!(s.hand(0), d[5..10].to_vec(), "dealer gets cards 5-9");
    assert_eq!(s.turn_up(), d[10]);
    assert_eq!(s.trump(), d[10].suit());
    assert_eq!(s.talon_size(), 22);
    assert_eq!(s.talon()[0], d[11], "card 11 is drawn first");
    assert_eq!(s.talon()[21], d[10], "the turn-up is drawn last");
    assert_eq!(s.current_player(), Some(1), "the elder acts first");
    assert_eq!(s.phase(), Phase::Proposal);
}

#[test]
fn invalid_decks_and_dealers_are_refused() {
    let mut d = piquet_pack();
    assert!(matches!(
        DealState::from_deck(&d[..31], 0, Rules::default()),
        Err(DuelError::InvalidDeck(_))
    ));
    d[3] = d[4];
    assert!(matches!(
        DealState::from_deck(&d, 0, Rules::default()),
        Err(DuelError::InvalidDeck(_))
    ));
    d[3] = c("2H");
    assert!(matches!(
        DealState::from_deck(&d, 0, Rules::default()),
        Err(DuelError::InvalidDeck(_))
    ));
    assert!(matches!(
        DealState::from_deck(&piquet_pack(), 2, Rules::default()),
        Err(DuelError::InvalidDealer(2))
    ));
    assert!(matches!(
        DealState::from_seed(1, 2, Rules::default()),
        Err(DuelError::InvalidDealer(2))
    ));
    let bad_rules = Rules {
        max_exchanges: 12,
        ..Rules::default()
    };
    assert!(matches!(
        DealState::from_deck(&piquet_pack(), 0, bad_rules),
        Err(DuelError::InvalidRules(_))
    ));
    assert!(matches!(
        DealState::from_seed(1, 0, bad_rules),
        Err(DuelError::InvalidRules(_))
    ));
}

#[test]
fn trick_winner_in_the_ecarte_order() {
    // Trump spades. Elder (seat 0) leads AH; the dealer's JH beats it in the ecarte order.
    let mut s = play_deal("AH 7C 8C 9C TC", "JH 7D 8D 9D TD", "7S");
    act(&mut s, "AH");
    act(&mut s, "JH");
    assert_eq!(s.tricks().last().unwrap().winner, 1);
    assert_eq!(s.current_player(), Some(1), "the winner leads");
}

#[test]
fn trick_winner_in_the_traditional_order() {
    let rules = Rules {
        order: Order::Traditional,
        ..Rules::default()
    };
    let d = deck("AH 7C 8C 9C TC", "JH 7D 8D 9D TD", "7S", "");
    let mut s = DealState::from_deck(&d, 1, rules).unwrap();
    act(&mut s, "decline");
    act(&mut s, "AH");
    act(&mut s, "JH");
    assert_eq!(s.tricks().last().unwrap().winner, 0);
}

#[test]
fn a_trump_takes_the_trick_and_off_suit_discards_lose() {
    let mut s = play_deal("KH 7C 8C 9C TC", "7S JD 8D 9D TD", "8S");
    act(&mut s, "KH");
    act(&mut s, "7S");
    assert_eq!(
        s.tricks().last().unwrap().winner,
        1,
        "the lowest trump beats a king"
    );
    // Dealer (seat 1) now leads a diamond; the elder has none and no trump: any card, and
    // it loses whatever its rank.
    act(&mut s, "8D");
    assert_eq!(s.playable().count_ones(), 5);
    act(&mut s, "TC");
    assert_eq!(s.tricks().last().unwrap().winner, 1);
}

#[test]
fn must_follow_suit_but_need_not_head() {
    let mut s = play_deal("KH 7C 8C 9C TC", "7H QH 7S 9D TD", "8S");
    act(&mut s, "KH");
    let legal = s.legal_actions();
    assert_eq!(legal, vec![Action::Play(c("7H")), Action::Play(c("QH"))]);
    // No obligation to beat: the lower heart is legal although QH would not win either.
    assert!(s.is_legal(Action::Play(c("7H"))));
    assert!(
        !s.is_legal(Action::Play(c("7S"))),
        "a trump is not allowed while holding the suit"
    );
}

#[test]
fn must_trump_when_void() {
    let mut s = play_deal("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S");
    act(&mut s, "KH");
    assert_eq!(
        s.legal_actions(),
        vec![Action::Play(c("7S")), Action::Play(c("9S"))],
        "void in hearts, the dealer must trump (either trump, no need to over-trump)"
    );
}

#[test]
fn draws_after_each_trick_winner_first() {
    let d = deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC");
    let mut s = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    act(&mut s, "decline");
    act(&mut s, "KH");
    act(&mut s, "7S");
    // The dealer (seat 1) won: it draws AD first, then the elder draws AC.
    assert!(s.hand(1).contains(&c("AD")));
    assert!(s.hand(0).contains(&c("AC")));
    assert_eq!(s.talon_size(), 20);
    assert_eq!(s.hand(0).len(), 5);
    assert_eq!(s.hand(1).len(), 5);
}

#[test]
fn the_turn_up_is_drawn_last() {
    let mut s = play_deal("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S");
    let turn_up = s.turn_up();
    until_done(|| {
        if s.talon_size() == 0 {
            return false;
        }
        assert_eq!(s.turn_up_holder(), None);
        let a = s.legal_actions()[0];
        s.apply(a).unwrap();
        true
    });
    let holder = s.turn_up_holder().expect("the turn-up was drawn");
    assert!(s.hand(holder).contains(&turn_up));
    let last = s.tricks().last().unwrap();
    assert_eq!(
        holder,
        1 - last.winner,
        "the loser of the trick drew the last card"
    );
}

#[test]
fn exchange_sequence_elder_draws_and_discards_first() {
    let d = deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC");
    let mut s = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    assert_eq!(s.legal_actions(), vec![Action::Propose, Action::Decline]);
    act(&mut s, "propose");
    assert_eq!(s.current_player(), Some(1), "the dealer answers");
    assert_eq!(s.legal_actions(), vec![Action::Accept, Action::Refuse]);
    act(&mut s, "accept");
    assert!(s.hand(0).contains(&c("AD")), "the elder draws the top card");
    assert!(s.hand(1).contains(&c("AC")), "the dealer draws the next");
    assert_eq!(s.phase(), Phase::Discard);
    assert_eq!(s.current_player(), Some(0), "the elder discards first");
    act(&mut s, "discard 7C");
    assert_eq!(s.current_player(), Some(1));
    act(&mut s, "discard 8D");
    assert_eq!(s.exchanges(), 1);
    assert_eq!(s.phase(), Phase::Proposal);
    act(&mut s, "propose");
    act(&mut s, "refuse");
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.current_player(), Some(0), "the elder leads");
    assert!(s.check_conservation());
}

#[test]
fn the_dealer_never_proposes() {
    let s = DealState::from_deck(&piquet_pack(), 0, Rules::default()).unwrap();
    assert_eq!(s.current_player(), Some(1));
    assert!(!s.is_legal(Action::Accept));
}

fn exchange_all(s: &mut DealState) {
    until_done(|| {
        let a = match s.phase() {
            Phase::Proposal => Action::Propose,
            Phase::Response => Action::Accept,
            Phase::Discard => s.legal_actions()[0],
            Phase::Play | Phase::Over => return false,
        };
        s.apply(a).unwrap();
        true
    });
}

/// Runs `step` until it returns false, failing if that takes more steps than a deal has
/// actions: a fault that stalls a deal then fails the test instead of hanging it.
fn until_done(mut step: impl FnMut() -> bool) {
    for _ in 0..=MAX_ACTIONS {
        if !step() {
            return;
        }
    }
    panic!("no end after {MAX_ACTIONS} actions");
}

#[test]
fn at_most_eleven_exchanges_and_the_eleventh_takes_the_turn_up() {
    let mut s = DealState::from_seed(5, 0, Rules::default()).unwrap();
    exchange_all(&mut s);
    assert_eq!(s.exchanges(), 11);
    assert_eq!(s.talon_size(), 0);
    assert_eq!(
        s.turn_up_holder(),
        Some(0),
        "the dealer draws the last card, the turn-up"
    );
    assert!(s.hand(0).contains(&s.turn_up()));
    assert_eq!(s.phase(), Phase::Play, "no 12th proposal");
}

#[test]
fn max_exchanges_rule_option() {
    let rules = Rules {
        max_exchanges: 3,
        ..Rules::default()
    };
    let mut s = DealState::from_seed(5, 0, rules).unwrap();
    exchange_all(&mut s);
    assert_eq!(s.exchanges(), 3);
    let rules = Rules {
        max_exchanges: 0,
        ..Rules::default()
    };
    let s = DealState::from_seed(5, 0, rules).unwrap();
    assert_eq!(s.phase(), Phase::Play);
}

#[test]
fn trumps_may_not_be_discarded() {
    let d = deck("KS 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC");
    let mut s = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    act(&mut s, "propose");
    act(&mut s, "accept");
    assert!(!s.is_legal(Action::Discard(c("KS"))));
    assert!(s.is_legal(Action::Discard(c("7C"))));
    assert!(matches!(
        s.apply(Action::Discard(c("KS"))),
        Err(DuelError::IllegalAction { .. })
    ));
}

#[test]
fn an_all_trump_hand_may_discard_a_trump() {
    let d = deck("7C 8C 9C TC JC", "7S 9S TS JS QS", "8S", "AC KS");
    let mut s = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    act(&mut s, "propose");
    act(&mut s, "accept");
    act(&mut s, "discard 7C");
    // The dealer holds six spades, all trumps: any of them may go.
    assert_eq!(s.legal_actions().len(), 6);
    act(&mut s, "discard 7S");
}

#[test]
fn rule_option_allows_trump_discards() {
    let rules = Rules {
        allow_trump_discard: true,
        ..Rules::default()
    };
    let d = deck("KS 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC");
    let mut s = DealState::from_deck(&d, 1, rules).unwrap();
    act(&mut s, "propose");
    act(&mut s, "accept");
    assert!(s.is_legal(Action::Discard(c("KS"))));
}

fn play_out(s: &mut DealState, pick: impl Fn(&[Action]) -> Action) {
    until_done(|| {
        if s.is_over() {
            return false;
        }
        let legal = s.legal_actions();
        assert!(!legal.is_empty(), "a legal action exists until the end");
        s.apply(pick(&legal)).unwrap();
        assert!(s.check_conservation());
        true
    });
}

#[test]
fn sixteen_less_exchanges_tricks() {
    for (seed, exchanges) in [(1u64, 0u8), (2, 3), (3, 11)] {
        let rules = Rules {
            max_exchanges: exchanges,
            ..Rules::default()
        };
        let mut s = DealState::from_seed(seed, 0, rules).unwrap();
        exchange_all(&mut s);
        assert_eq!(s.exchanges(), exchanges);
        play_out(&mut s, |l| l[0]);
        assert_eq!(s.trick_count(), 16 - exchanges as usize);
        let o = s.outcome().unwrap();
        assert_eq!(o.cards[0] + o.cards[1], 32 - 2 * exchanges);
    }
}

/// The outcome against the scoring rules computed here from the referee's cards: more cards
/// win, and on equal cards the winner of the last trick (found from its two cards by the
/// trick rules) wins, never by a vole.
#[test]
fn equal_cards_go_to_the_last_tricks_winner() {
    let (mut ties, mut others) = (0, 0);
    referee::play_side_by_side(
        2,
        300,
        |_, _, _| {},
        |engine, referee| {
            let o = engine.outcome().unwrap();
            let [a, b] = referee.cards_taken;
            assert_eq!(a + b, 32 - 2 * referee.exchanges);
            if a == b {
                let plays: Vec<(u8, Card)> = referee
                    .history
                    .iter()
                    .filter_map(|&(who, action)| match action {
                        Action::Play(card) => Some((who, card)),
                        _ => None,
                    })
                    .collect();
                let [(leader, lead), (_, reply)] = plays[plays.len() - 2..] else {
                    unreachable!("a deal ends on a trick")
                };
                let last_winner = referee.trick_winner(leader, lead, reply);
                assert_eq!(o.winner, last_winner);
                assert_eq!(o.points, 1);
                ties += 1;
            } else {
                assert_eq!(o.winner, u8::from(b > a));
                others += 1;
            }
        },
    );
    assert!(ties > 10 && others > 10, "ties {ties}, others {others}");
}

#[test]
fn vole_scores_two() {
    // After 11 exchanges there are 5 tricks, so voles are common among playouts.
    let (mut voles, mut others) = (0, 0);
    for seed in 0..100u64 {
        let mut s = late_position(seed);
        play_out(&mut s, |l| l[seed as usize % l.len()]);
        let o = s.outcome().unwrap();
        let total = s.total_tricks() as u8;
        assert_eq!(o.tricks[0] + o.tricks[1], total);
        if o.tricks[o.winner as usize] == total {
            assert_eq!(o.points, 2);
            voles += 1;
        } else {
            assert_eq!(o.points, 1);
            others += 1;
        }
    }
    assert!(voles > 0 && others > 0, "voles {voles}, others {others}");
}

#[test]
fn illegal_actions_change_nothing() {
    let mut s = DealState::from_seed(9, 0, Rules::default()).unwrap();
    let before = s;
    for bad in ["accept", "refuse", "discard 7C", "QH"] {
        let err = s.apply(bad.parse().unwrap()).unwrap_err();
        assert!(
            err.to_string().contains("legal actions: propose, decline"),
            "{err}"
        );
        assert_eq!(s, before);
    }
    assert!(!s.is_legal(Action::Play(c("2H"))));
    assert!(pack_index(c("2H")).is_none());
}

/// A card outside the 32-card pack (ranks 2 to 6) is never legal, even where 7C, whose action
/// id an off-pack card would alias, is: the engine's own guard, not the parser's, refuses it.
#[test]
fn off_pack_cards_are_refused() {
    let off_pack: Vec<Card> = crate::card::full_pack()
        .into_iter()
        .filter(|c| !piquet_pack().contains(c))
        .collect();
    assert_eq!(off_pack.len(), 20);
    let d = deck("7C 8C 9C TC JC", "7D 8D 9D TD JD", "8S", "AH KH");
    let mut playing = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    act(&mut playing, "decline");
    assert!(playing.is_legal(Action::Play(c("7C"))));
    let mut discarding = DealState::from_deck(&d, 1, Rules::default()).unwrap();
    act(&mut discarding, "propose");
    act(&mut discarding, "accept");
    assert!(discarding.is_legal(Action::Discard(c("7C"))));
    for card in off_pack {
        for (state, action) in [
            (&mut playing, Action::Play(card)),
            (&mut discarding, Action::Discard(card)),
        ] {
            assert!(!state.is_legal(action), "{action}");
            let before = *state;
            assert!(matches!(
                state.apply(action),
                Err(DuelError::IllegalAction { .. })
            ));
            assert_eq!(*state, before, "{action} changed the deal");
        }
    }
}

/// An outcome read from outside is possible only with a seat, 1 or 2 points, and at most
/// the pack's 32 cards and 16 tricks in all.
#[test]
fn possible_outcomes() {
    let outcome = |winner, points, cards, tricks| Outcome {
        winner,
        points,
        cards,
        tricks,
    };
    for value in 0..=255u8 {
        assert_eq!(
            outcome(value, 1, [20, 12], [10, 6]).is_possible(),
            value <= 1
        );
        assert_eq!(
            outcome(1, value, [20, 12], [10, 6]).is_possible(),
            value == 1 || value == 2
        );
    }
    for a in 0..=33u8 {
        let within = a <= 32;
        assert_eq!(outcome(0, 1, [a, 0], [0, 0]).is_possible(), within);
        assert_eq!(outcome(0, 1, [0, a], [0, 0]).is_possible(), within);
        assert!(outcome(0, 1, [a / 2, a - a / 2], [0, 0]).is_possible() == within);
        assert!(!outcome(0, 1, [a, 33 - a], [0, 0]).is_possible());
    }
    for t in 0..=17u8 {
        let within = t <= 16;
        assert_eq!(outcome(0, 1, [0, 0], [t, 0]).is_possible(), within);
        assert_eq!(
            outcome(0, 1, [0, 0], [t / 2, t - t / 2]).is_possible(),
            within
        );
    }
    assert!(!outcome(0, 1, [255, 255], [0, 0]).is_possible());
    assert!(!outcome(0, 1, [0, 0], [255, 255]).is_possible());
}

/// An observation's JSON record reads back to it, with or without the hand sizes (records
/// written before they were added), and its key is FNV-1a (64-bit) over the record without
/// them, written out here: the keys, and so the search agents' decisions, do not move.
#[test]
fn observation_record_and_key() {
    let mut s = DealState::from_seed(12, 0, Rules::default()).unwrap();
    for _ in 0..6 {
        let a = s.legal_actions()[0];
        s.apply(a).unwrap();
    }
    for player in 0..2 {
        let obs = s.observation(player, [2, 5]);
        let json = obs.to_json();
        assert_eq!(Observation::from_json(&json), Ok(obs.clone()));
        let bare = serde_json::to_string(&obs).unwrap();
        assert!(!bare.contains("hand_sizes"));
        assert_eq!(
            json,
            format!(
                "{},\"hand_sizes\":{:?}}}",
                &bare[..bare.len() - 1],
                obs.hand_sizes()
            )
            .replace(", ", ",")
        );
        assert_eq!(Observation::from_json(&bare), Ok(obs.clone()));
        let tampered = json.replace("\"hand_sizes\":[", "\"hand_sizes\":[9,");
        assert!(Observation::from_json(&tampered).is_err());
        let mut fnv: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in bare.bytes() {
            fnv ^= u64::from(byte);
            fnv = fnv.wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(obs.key(), fnv);
    }
}

/// The hand sizes an observation gives are the deal's, for both seats, at every step of
/// deals with and without exchanges.
#[test]
fn observations_give_both_hand_sizes() {
    for seed in 0..40u64 {
        let mut s = DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).unwrap();
        let mut step = 0usize;
        until_done(|| {
            let sizes = [0, 1].map(|p| s.hand_set(p).count_ones() as u8);
            for player in 0..2 {
                assert_eq!(
                    s.observation(player, [0, 0]).hand_sizes(),
                    sizes,
                    "seed {seed}"
                );
            }
            if s.is_over() {
                return false;
            }
            let legal = s.legal_actions();
            let pick = if seed % 2 == 0 {
                0
            } else {
                step * 5 % legal.len()
            };
            s.apply(legal[pick]).unwrap();
            step += 1;
            true
        });
    }
}

#[test]
fn record_round_trip_and_tampering() {
    let mut s = DealState::from_seed(3, 1, Rules::default()).unwrap();
    let mut actions = vec![];
    until_done(|| {
        if s.is_over() {
            return false;
        }
        let legal = s.legal_actions();
        let a = legal[actions.len() % legal.len()];
        s.apply(a).unwrap();
        actions.push(a);
        true
    });
    let record = DealRecord::of(&s);
    assert_eq!(record.actions, actions);
    let parsed = DealRecord::from_json(&record.to_json()).unwrap();
    assert_eq!(parsed, record);
    assert_eq!(parsed.replay().unwrap(), s);

    let mut tampered = record.clone();
    tampered.actions[0] = Action::Accept;
    let err = DealRecord::from_json(&tampered.to_json())
        .unwrap()
        .replay()
        .unwrap_err();
    assert!(err.to_string().contains("action 1:"), "{err}");
    let bad_deck = record
        .to_json()
        .replacen("\"deck\":[\"", "\"deck\":[\"2H\",\"", 1);
    let err = DealRecord::from_json(&bad_deck)
        .unwrap()
        .replay()
        .unwrap_err();
    assert!(err.to_string().contains("deck"), "{err}");
    assert!(DealRecord::from_json("{}").is_err());
}

/// Plays `seed`'s deal with all 11 exchanges, discarding the first legal card.
fn late_position(seed: u64) -> DealState {
    let mut s = DealState::from_seed(seed, 0, Rules::default()).unwrap();
    exchange_all(&mut s);
    // Checked before anyone counts its tree: a larger deal's is far too large.
    assert_in_play_after(&s, 11);
    s
}

/// `s` is in play after `exchanges` exchanges, with five cards in each hand and two talon
/// cards fewer for each exchange.
fn assert_in_play_after(s: &DealState, exchanges: u8) {
    assert_eq!(s.exchanges(), exchanges);
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!((s.hand(0).len(), s.hand(1).len()), (5, 5));
    assert_eq!(s.talon_size(), 22 - 2 * usize::from(exchanges));
}

#[test]
fn perft_after_eleven_exchanges() {
    // Pinned leaf counts of the whole play tree (5 tricks), also counted by the referee. A
    // change in legal-move generation or trick resolution changes them.
    let mut counts = Vec::new();
    for seed in 0..4 {
        let s = late_position(seed);
        let full = referee_counts_first(&s, 3).perft(None);
        counts.push(s.perft(None));
        assert_eq!(counts[counts.len() - 1], full, "seed {seed}");
    }
    assert_eq!(counts, PERFT_ELEVEN);
    assert_eq!(late_position(0).perft(Some(2)), PERFT_ELEVEN_DEPTH2);
}

#[test]
fn perft_after_nine_exchanges() {
    let rules = Rules {
        max_exchanges: 9,
        ..Rules::default()
    };
    let mut s = DealState::from_seed(11, 1, rules).unwrap();
    exchange_all(&mut s);
    assert_in_play_after(&s, 9);
    referee_counts_first(&s, 3);
    assert_eq!(s.perft(None), PERFT_NINE);
}

/// The referee's deal after `s`'s actions, once it agrees with `s` and with its tree counts to
/// `depth`: a fault in move generation then fails at once instead of in a count of a tree
/// it may have made endless.
fn referee_counts_first(s: &DealState, depth: u32) -> referee::Referee {
    let r = referee::Referee::replayed(s);
    referee::assert_agree(s, &r, [0, 0]);
    for d in 1..=depth {
        assert_eq!(s.perft(Some(d)), r.perft(Some(d)), "depth {d}");
    }
    r
}

const PERFT_ELEVEN: [u64; 4] = [3456, 2880, 3456, 3312];
const PERFT_ELEVEN_DEPTH2: u64 = 25;
const PERFT_NINE: u64 = 1_188_384;

#[test]
fn undo_and_moves_derive_from_the_log() {
    let mut s = DealState::from_seed(8, 0, Rules::default()).unwrap();
    assert!(s.before_last().is_none());
    let mut states = vec![s];
    until_done(|| {
        if s.is_over() {
            return false;
        }
        let legal = s.legal_actions();
        s.apply(legal[states.len() % legal.len()]).unwrap();
        states.push(s);
        true
    });
    let moves = s.moves();
    assert_eq!(moves.len(), states.len() - 1);
    for (i, (player, action)) in moves.iter().enumerate() {
        assert_eq!(states[i].current_player(), Some(*player));
        let mut next = states[i];
        next.apply(*action).unwrap();
        assert_eq!(next, states[i + 1]);
    }
    let mut back = s;
    for expected in states.iter().rev().skip(1) {
        let (before, _) = back.before_last().unwrap();
        assert_eq!(before, *expected);
        back = before;
    }
}

/// The deal is a small `Copy` value: its size sets the memory of a `Deal` and of a `VecEnv`
/// env. Print it with `cargo test deal_state_size -- --nocapture`.
#[test]
fn deal_state_size() {
    let size = std::mem::size_of::<DealState>();
    println!("DealState: {size} bytes");
    assert!(size <= 264, "{size}");
}

/// Random deals under random rules, checked after every action against the referee: an
/// independent model of docs/rules.md and of the observation layouts of docs/api.md.
#[test]
fn random_deals_agree_with_the_referee() {
    let mut outcomes = [[0; 3]; 2];
    let mut exchanges = [0; 12];
    referee::play_side_by_side(27, 200, referee::assert_agree, |engine, referee| {
        let o = engine.outcome().unwrap();
        assert!(o.is_possible());
        let tie = usize::from(o.cards[0] == o.cards[1]);
        outcomes[tie][usize::from(o.points)] += 1;
        exchanges[usize::from(referee.exchanges)] += 1;
    });
    // Every scoring case came up: a plain win, a vole, a tie on cards.
    assert!(outcomes[0][1] > 0 && outcomes[0][2] > 0 && outcomes[1][1] > 0);
    assert!(exchanges.iter().all(|&n| n > 0), "{exchanges:?}");
}
