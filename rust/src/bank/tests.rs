//! Unit tests of the bank engine: the seed's worked examples, resolution properties, the
//! shoe, exact odds against brute force, and deterministic simulation.

use super::*;
use crate::card::{shoe_pack, Card, Suit};
use crate::control::{Control, RunControl};
use crate::rng::shuffle_with_seed;

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn check(banker: &str, punter: &str, tricks: (u8, u8), outcome: Outcome) {
    let r = resolve(&cards(banker), &cards(punter), Suit::Hearts);
    assert_eq!(
        (r.banker_tricks, r.punter_tricks),
        tricks,
        "{banker} vs {punter}"
    );
    assert_eq!(r.outcome, outcome, "{banker} vs {punter}");
}

#[test]
fn seed_examples() {
    // docs/rules.md "Bank" table, trump hearts, banker first; non-trumps pad the tableaux.
    check("KH 8H 2C 3S", "KH 7H AS AD", (1, 0), Outcome::Banker);
    check("QH AC AD AS", "8H 7H KC KD", (1, 1), Outcome::EnCarte);
    // The seed's "queen takes the nine" is a misprint: the banker holds the ten.
    check("KH JH TH 9C", "QH JH 2H AS", (1, 1), Outcome::EnCarte);
    check("KH 7H 5C 5D", "AH QH 4S 4C", (1, 1), Outcome::EnCarte);
}

#[test]
fn further_cases() {
    check("", "", (0, 0), Outcome::EnCarte);
    check("2C 3C", "AS AD", (0, 0), Outcome::EnCarte);
    check("AH AH", "AH AH", (0, 0), Outcome::EnCarte);
    check("AH AH KH", "AH 2H", (2, 0), Outcome::Banker);
    check("2H", "AH KH", (0, 2), Outcome::Punter);
    check("3H", "2H", (1, 0), Outcome::Banker);
    check("AH 2H 3H 4H", "KH QH JH TH", (1, 3), Outcome::Punter);
}

#[test]
fn outcomes_are_named_and_indexed() {
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names, ["banker", "en_carte", "punter"]);
    for (i, outcome) in Outcome::ALL.iter().enumerate() {
        assert_eq!(outcome.index(), i);
        assert_eq!(outcome.to_string(), names[i]);
    }
}

fn random_tableaux(seed: u64) -> (Vec<Card>, Vec<Card>, Suit) {
    let mut shoe = shoe_pack();
    shuffle_with_seed(&mut shoe, seed);
    let trump = shoe[8].suit();
    (shoe[..4].to_vec(), shoe[4..8].to_vec(), trump)
}

#[test]
fn swapping_sides_mirrors() {
    for seed in 0..2000 {
        let (banker, punter, trump) = random_tableaux(seed);
        let r = resolve(&banker, &punter, trump);
        let mirrored = resolve(&punter, &banker, trump);
        assert_eq!(
            (r.banker_tricks, r.punter_tricks),
            (mirrored.punter_tricks, mirrored.banker_tricks)
        );
        assert_eq!(r.outcome.index(), 2 - mirrored.outcome.index());
    }
}

#[test]
fn non_trumps_are_ignored_and_tricks_bounded() {
    for seed in 0..2000 {
        let (banker, punter, trump) = random_tableaux(seed);
        let trumps = |v: &[Card]| {
            v.iter()
                .copied()
                .filter(|c| c.suit() == trump)
                .collect::<Vec<_>>()
        };
        let r = resolve(&banker, &punter, trump);
        assert_eq!(r, resolve(&trumps(&banker), &trumps(&punter), trump));
        assert!(r.banker_tricks as usize <= trumps(&banker).len());
        assert!(r.punter_tricks as usize <= trumps(&punter).len());
    }
}

/// A resolution read back from its trick counts (a record): accepted exactly when the two
/// sides' tricks together fit in a tableau's 4 cards, won by the side with more tricks.
#[test]
fn resolutions_from_tricks_fit_a_tableau() {
    for banker in 0..=u8::MAX {
        for punter in 0..=u8::MAX {
            let fits = u16::from(banker) + u16::from(punter) <= 4;
            match Resolution::from_tricks(banker, punter) {
                Ok(r) => {
                    assert!(fits, "{banker} + {punter} tricks accepted");
                    assert_eq!((r.banker_tricks, r.punter_tricks), (banker, punter));
                    let outcome = match banker.cmp(&punter) {
                        std::cmp::Ordering::Greater => Outcome::Banker,
                        std::cmp::Ordering::Equal => Outcome::EnCarte,
                        std::cmp::Ordering::Less => Outcome::Punter,
                    };
                    assert_eq!(r.outcome, outcome);
                }
                Err(_) => assert!(!fits, "{banker} + {punter} tricks refused"),
            }
        }
    }
}

#[test]
fn deal_order_is_one_card_at_a_time() {
    let order = shoe_pack();
    let deal = Deal::from_order(&order).unwrap();
    for t in 0..4 {
        for k in 0..4 {
            assert_eq!(deal.tableaux[t][k], order[4 * k + t]);
        }
    }
    assert_eq!(deal.trump_card, order[16]);
    assert_eq!(deal.cards(), order[..17].to_vec());
    assert!(Deal::from_order(&order[..16]).is_err());
    assert_eq!(
        Deal::from_order(&order[..17]).unwrap(),
        deal,
        "17 cards are enough"
    );
    let mut triple = order[..17].to_vec();
    triple[1] = triple[0];
    triple[2] = triple[0];
    assert!(Deal::from_order(&triple).is_err());
}

#[test]
fn shoe_deals_in_order_and_keeps_every_card() {
    let mut order = shoe_pack();
    shuffle_with_seed(&mut order, 3);
    let mut shoe = Shoe::from_order(order.clone(), 9).unwrap();
    for k in 0..6 {
        let deal = shoe.deal();
        assert_eq!(deal.cards(), order[17 * k..17 * (k + 1)].to_vec());
        assert_eq!(
            shoe.remaining() + shoe.discards().len() + shoe.on_table().len(),
            SHOE_SIZE
        );
    }
    assert_eq!((shoe.remaining(), shoe.run_outs()), (2, 0));
    // The seventh deal runs out: the 2 undealt cards stay on top, the pile goes under them.
    let deal = shoe.deal();
    assert_eq!(shoe.run_outs(), 1);
    assert_eq!(deal.tableaux[0][0], order[102]);
    assert_eq!(deal.tableaux[1][0], order[103]);
    assert!(shoe.discards().is_empty());
    assert_eq!(shoe.remaining(), 104 - 17);
    let mut all: Vec<Card> = shoe.undealt().to_vec();
    all.extend(shoe.on_table());
    all.sort();
    let mut full = shoe_pack();
    full.sort();
    assert_eq!(all, full);
}

/// A shoe read back from a record may hold any number of undealt cards: it runs out only
/// when fewer than a deal's 17 are left, so with exactly 17 it deals them as they lie.
#[test]
fn a_shoe_runs_out_only_below_a_deal() {
    let mut order = shoe_pack();
    shuffle_with_seed(&mut order, 5);
    for left in [16, 17, 18] {
        let (undealt, discards) = order.split_at(left);
        let mut shoe =
            Shoe::from_state(undealt.to_vec(), Vec::new(), discards.to_vec(), 2, 9).unwrap();
        let deal = shoe.deal();
        assert_eq!(deal.cards(), shoe.on_table(), "{left} left");
        if left < DEAL_SIZE {
            assert_eq!(shoe.run_outs(), 3, "{left} left");
            assert!(shoe.discards().is_empty());
            assert_eq!(
                shoe.on_table()[..left],
                *undealt,
                "the undealt cards stay on top"
            );
            assert_eq!(shoe.remaining(), SHOE_SIZE - DEAL_SIZE);
        } else {
            assert_eq!(shoe.run_outs(), 2, "{left} left");
            assert_eq!(shoe.discards(), discards);
            assert_eq!(shoe.on_table(), &undealt[..DEAL_SIZE]);
            assert_eq!(shoe.undealt(), &undealt[DEAL_SIZE..]);
        }
    }
}

#[test]
fn shoe_runs_out_every_six_deals_and_is_seeded() {
    let mut a = Shoe::new(11);
    let mut b = Shoe::new(11);
    for _ in 0..40 {
        assert_eq!(a.deal(), b.deal());
        assert_eq!(
            a.remaining() + a.discards().len() + a.on_table().len(),
            SHOE_SIZE
        );
    }
    assert!(a.run_outs() >= 5);
    assert!(Shoe::from_order(shoe_pack()[..103].to_vec(), 0).is_err());
    assert_eq!(a.seed(), 11);
    assert_eq!(Shoe::from_order(shoe_pack(), 9).unwrap().seed(), 9);
}

#[test]
fn shuffle_rest_keeps_discards_aside() {
    let mut shoe = Shoe::new(1);
    shoe.deal();
    shoe.clear_table();
    let before_discards = shoe.discards().to_vec();
    let mut before: Vec<Card> = shoe.undealt().to_vec();
    shoe.shuffle_rest(77);
    let mut after: Vec<Card> = shoe.undealt().to_vec();
    assert_ne!(before, after);
    before.sort();
    after.sort();
    assert_eq!(before, after);
    assert_eq!(shoe.discards(), &before_discards[..]);
}

/// Every ordered pair of disjoint 4-card sets of `cards`, resolved directly: outcome
/// counts, trick-score counts and the total.
fn brute_force(trump: Suit, cards: &[Card]) -> ([u128; 3], [[u128; 5]; 5], u128) {
    let n = cards.len();
    let mut numerators = [0u128; 3];
    let mut scores = [[0u128; 5]; 5];
    let mut total = 0;
    let quads = |mask: u32| -> Vec<u32> {
        (0u32..1 << n)
            .filter(|&s| s.count_ones() == 4 && s & mask == 0)
            .collect()
    };
    let pick = |s: u32| -> Vec<Card> {
        (0..n)
            .filter(|i| s >> i & 1 == 1)
            .map(|i| cards[i])
            .collect()
    };
    for b in quads(0) {
        for p in quads(b) {
            let r = resolve(&pick(b), &pick(p), trump);
            numerators[r.outcome.index()] += 1;
            scores[r.banker_tricks as usize][r.punter_tricks as usize] += 1;
            total += 1;
        }
    }
    (numerators, scores, total)
}

/// The former calculator, kept only as a test oracle: it enumerates every per-rank split
/// of the trumps between the two tableaux (millions on a full shoe) and resolves each.
fn enumerate_splits(trump: Suit, remaining: &Composition) -> ([u128; 3], [[u128; 5]; 5]) {
    struct Walk {
        trumps: [u8; 13],
        fill: [[u128; 5]; 5],
        numerators: [u128; 3],
        scores: [[u128; 5]; 5],
    }
    impl Walk {
        fn walk(&mut self, rank: usize, b: [u8; 13], p: [u8; 13], nb: u8, np: u8, w: u128) {
            if rank == 13 {
                let fill = self.fill[(4 - nb) as usize][(4 - np) as usize];
                let r = resolve_counts(b, p);
                self.numerators[r.outcome.index()] += w * fill;
                self.scores[r.banker_tricks as usize][r.punter_tricks as usize] += w * fill;
                return;
            }
            let left = self.trumps[rank];
            for x in 0..=left.min(4 - nb) {
                for y in 0..=(left - x).min(4 - np) {
                    let (mut b2, mut p2) = (b, p);
                    b2[rank] = x;
                    p2[rank] = y;
                    let ways = odds::binomial(left.into(), x.into())
                        * odds::binomial((left - x).into(), y.into());
                    self.walk(rank + 1, b2, p2, nb + x, np + y, w * ways);
                }
            }
        }
    }
    let trumps = remaining.trumps(trump);
    let m = (remaining.len() - trumps.iter().map(|&t| t as usize).sum::<usize>()) as u128;
    let mut fill = [[0u128; 5]; 5];
    for (nb, row) in fill.iter_mut().enumerate() {
        for (np, cell) in row.iter_mut().enumerate() {
            let (nb, np) = (nb as u128, np as u128);
            *cell = odds::binomial(m, nb) * odds::binomial(m.saturating_sub(nb), np);
        }
    }
    let mut walk = Walk {
        trumps,
        fill,
        numerators: [0; 3],
        scores: [[0; 5]; 5],
    };
    walk.walk(0, [0; 13], [0; 13], 0, 0, 1);
    (walk.numerators, walk.scores)
}

#[test]
fn odds_match_brute_force_on_small_shoes() {
    let shoes = [
        "AH AH KH 7H 7H 2C 3C 4D 5S 6S",
        "QH JH JH TH 2H 2H 9C 9C 8D 7S KS",
        "AH KH QH JH TH 9H 8H 7H",
        "2C 3C 4C 5C 6C 7C 8C 9C 2D",
        "AH AH KH KH QH QH 2S 3S 4S 5S 6S 7D",
    ];
    for text in shoes {
        let cs = cards(text);
        let comp = Composition::from_cards(&cs).unwrap();
        let o = odds(Suit::Hearts, &comp).unwrap();
        let (nums, scores, total) = brute_force(Suit::Hearts, &cs);
        assert_eq!(o.denominator, total, "{text}");
        assert_eq!(o.numerators, nums, "{text}");
        assert_eq!(o.scores, scores, "{text}");
        assert_eq!(o.scores.iter().flatten().sum::<u128>(), o.denominator);
    }
}

/// Small shoes drawn at random from a trump-heavy pool (both packs' hearts and a few
/// others), so that cancelling, doubled ranks and 4-trump tableaux all occur.
#[test]
fn odds_match_brute_force_on_random_small_shoes() {
    let mut pool: Vec<Card> = shoe_pack()
        .into_iter()
        .filter(|c| c.suit() == Suit::Hearts)
        .collect();
    pool.extend(cards("2C 3C 4D 5S 6S 7D"));
    for seed in 0..40u64 {
        let mut order = pool.clone();
        shuffle_with_seed(&mut order, seed);
        let cs = &order[..8 + (seed % 4) as usize];
        let trump = if seed % 10 == 9 {
            Suit::Spades
        } else {
            Suit::Hearts
        };
        let o = odds(trump, &Composition::from_cards(cs).unwrap()).unwrap();
        let (nums, scores, total) = brute_force(trump, cs);
        assert_eq!(
            (o.numerators, o.scores, o.denominator),
            (nums, scores, total)
        );
    }
}

/// The rank-multiplicity programme against the former per-rank enumeration, on shoes
/// large enough that brute force is out of reach.
#[test]
fn odds_match_the_former_enumeration() {
    for seed in 0..9u64 {
        let mut order = shoe_pack();
        shuffle_with_seed(&mut order, seed);
        // 20 to 52 cards left, every suit as trump (the oracle is slow beyond that in debug).
        let left = 20 + 4 * seed as usize;
        let comp = Composition::from_cards(&order[..left]).unwrap();
        for trump in [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades] {
            let o = odds(trump, &comp).unwrap();
            assert_eq!(
                (o.numerators, o.scores),
                enumerate_splits(trump, &comp),
                "seed {seed} {trump:?}"
            );
        }
    }
}

/// Figures of the former enumeration on full and nearly full shoes, pinned.
#[test]
fn odds_pinned_on_full_shoes() {
    let cases: [(&str, Suit, [u128; 3], u128, u128); 3] = [
        (
            "7H",
            Suit::Hearts,
            [6_796_449_772_173, 3_050_441_955_054, 6_796_449_772_173],
            16_643_341_499_400,
            1_766_840_493_330,
        ),
        (
            "7H AH AH KH KH",
            Suit::Hearts,
            [4_775_156_246_015, 2_433_747_900_890, 4_775_156_246_015],
            11_984_060_392_920,
            1_745_568_638_170,
        ),
        (
            "2C 3C 3C",
            Suit::Clubs,
            [5_719_549_523_402, 2_707_582_810_196, 5_719_549_523_402],
            14_146_681_857_000,
            1_756_187_208_050,
        ),
    ];
    for (seen, trump, numerators, denominator, zero_zero) in cases {
        let mut comp = Composition::full();
        comp.remove(&cards(seen)).unwrap();
        let o = odds(trump, &comp).unwrap();
        assert_eq!(o.numerators, numerators, "{seen}");
        assert_eq!(o.denominator, denominator, "{seen}");
        assert_eq!(o.scores[0][0], zero_zero, "{seen}");
    }
    let mut comp = Composition::full();
    comp.remove(&cards("7H")).unwrap();
    assert_eq!(
        odds(Suit::Hearts, &comp).unwrap().scores,
        [
            [
                1_766_840_493_330,
                3_958_956_123_672,
                2_193_500_976_672,
                466_172_777_760,
                33_835_567_781
            ],
            [
                3_958_956_123_672,
                1_282_124_773_920,
                137_166_714_600,
                6_817_611_688,
                0
            ],
            [2_193_500_976_672, 137_166_714_600, 1_476_687_804, 0, 0],
            [466_172_777_760, 6_817_611_688, 0, 0, 0],
            [33_835_567_781, 0, 0, 0, 0],
        ]
    );
}

#[test]
fn odds_of_the_full_shoe() {
    let mut comp = Composition::full();
    comp.remove(&cards("7H")).unwrap();
    let o = odds(Suit::Hearts, &comp).unwrap();
    assert_eq!(o.cards_left, 103);
    assert_eq!(o.trumps_left, 25);
    assert_eq!(o.numerators.iter().sum::<u128>(), o.denominator);
    // Symmetry: the banker and the punter draw alike.
    assert_eq!(o.numerators[0], o.numerators[2]);
    let (num, den) = o.exact(Outcome::EnCarte);
    assert_eq!(num * o.denominator, o.numerators[1] * den);
}

#[test]
fn impossible_states_are_errors() {
    let mut comp = Composition::full();
    let before = comp.clone();
    assert!(comp.remove(&cards("7H 7H 7H")).is_err());
    assert_eq!(comp, before, "a failed removal changes nothing");
    assert!(Composition::from_cards(&cards("7H 7H 7H")).is_err());
    let small = Composition::from_cards(&cards("AH KH QH JH TH 9H 8H")).unwrap();
    assert_eq!(
        odds(Suit::Hearts, &small),
        Err(BankError::TooFewCards { needed: 8, left: 7 })
    );
}

#[test]
fn simulate_is_deterministic_across_threads() {
    let n = 3 * simulate::CHUNK + 123;
    let pool = |k| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(k)
            .build()
            .unwrap()
    };
    let one = pool(1)
        .install(|| simulate(n, 42, None, 0, Control::NONE))
        .unwrap();
    let two = pool(2)
        .install(|| simulate(n, 42, None, 0, Control::NONE))
        .unwrap();
    assert_eq!(one, two);
    // Split at a chunk boundary, the pieces add up to the whole run.
    let head = simulate(simulate::CHUNK, 42, None, 0, Control::NONE).unwrap();
    let tail = simulate(
        n - simulate::CHUNK,
        42,
        None,
        simulate::CHUNK,
        Control::NONE,
    )
    .unwrap();
    for t in 0..3 {
        for o in 0..3 {
            assert_eq!(head.counts[t][o] + tail.counts[t][o], one.counts[t][o]);
        }
    }
    assert!(simulate(10, 42, None, 5, Control::NONE).is_err());
    assert_eq!(one.joint.iter().sum::<u64>(), n);
    for t in 0..3 {
        assert_eq!(one.counts[t].iter().sum::<u64>(), n);
    }
    assert_ne!(one, simulate(n, 43, None, 0, Control::NONE).unwrap());
    assert!(simulate(10, 0, Some(&cards("AH KH")), 0, Control::NONE).is_err());
    let run = RunControl::new();
    run.cancel();
    assert_eq!(
        simulate(n, 42, None, 0, run.control()).unwrap().joint,
        [0; 27]
    );
}
