//! Native batch simulation of whole deals or matches between built-in policies, in
//! parallel. Every deal (or match) `i` draws its cards and its policies' randomness from
//! seeds derived from `(seed, i)` alone, so results do not depend on the thread count.

use rayon::prelude::*;

use super::policy::Policy;
use super::random::with_bit_instructions;
use super::run::{Run, RunMatch};
use super::runner::{self, Controlled};
use crate::control::Control;
use crate::duel::matches::match_deal_shuffled_by;
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError};
use crate::rng::{self, chacha8_pairs, GameRng, SeedDeriver};

/// One finished deal of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DealSummary {
    /// The dealer's seat.
    pub dealer: u8,
    /// The seat that won the deal.
    pub winner: u8,
    /// The points it won: 2 for a vole, else 1.
    pub points: u8,
    /// Cards taken by seat 0 and seat 1.
    pub cards: [u8; 2],
    /// Tricks taken by seat 0 and seat 1.
    pub tricks: [u8; 2],
    /// Exchanges made.
    pub exchanges: u8,
}

/// One finished match of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchSummary {
    /// The seat that won the match.
    pub winner: u8,
    /// Final points of seat 0 and seat 1.
    pub score: [u8; 2],
    /// Deals played.
    pub deals: u32,
    /// Deals won by each seat.
    pub deals_won: [u32; 2],
}

/// Plays `state`, deal `index` of the batch with seed `batch_seed`, to the end, the
/// policies drawing from the deal's policy stream (`rng::policy_rng`).
pub fn play_deal(
    state: DealState,
    (batch_seed, index): (u64, u64),
    policies: [Policy; 2],
) -> Result<DealSummary, DuelError> {
    let seeds = batch_agent_seeds(batch_seed);
    play_deal_with(
        state,
        rng::policy_rng(batch_seed, index),
        policies,
        seeds,
        Control::NONE,
    )
}

/// The seeds of the agents of a batch of independent deals with seed `batch_seed`: those
/// of the seats of the match with that seed, whose deals the batch's deals are.
fn batch_agent_seeds(batch_seed: u64) -> [u64; 2] {
    [0, 1].map(|seat| rng::agent_seed(batch_seed, seat))
}

/// Plays `state` to the end, both policies drawing from `rng`, the agent in seat `s`
/// having seed `seeds[s]`; once `control` is cancelled, the searches give way to the
/// heuristic ([`Policy::choose`]).
pub fn play_deal_with(
    mut state: DealState,
    mut rng: GameRng,
    policies: [Policy; 2],
    seeds: [u64; 2],
    control: Control<'_>,
) -> Result<DealSummary, DuelError> {
    let dealer = state.dealer();
    with_bit_instructions(
        #[inline(always)]
        || {
            while let Some(player) = state.current_player() {
                let seat = player as usize;
                let action = policies[seat].choose(&state, [0, 0], &mut rng, seeds[seat], control);
                state.apply_unchecked(action);
            }
        },
    );
    let outcome = state.outcome().ok_or_else(|| {
        DuelError::InvalidRecord("a simulated deal ended without an outcome".into())
    })?;
    Ok(DealSummary {
        dealer,
        winner: outcome.winner,
        points: outcome.points,
        cards: outcome.cards,
        tricks: outcome.tricks,
        exchanges: state.exchanges(),
    })
}

/// Deals `start .. start + n` of the batch with seed `seed` (a run can be split into
/// pieces with the same result). Deal `i` is deal `i` of a match with seed `seed` and
/// first dealer 0 (the cards of `derive_seed(seed, i)`, dealer `i % 2`), with policy
/// randomness from `rng::policy_rng(seed, i)`. Each deal counts one on `control`; once
/// it is cancelled, the deals not yet played are left as `DealSummary::default()`.
pub fn simulate_deals(
    start: u64,
    n: usize,
    seed: u64,
    rules: Rules,
    policies: [Policy; 2],
    control: Control<'_>,
) -> Result<Vec<DealSummary>, DuelError> {
    rules.validate().map_err(DuelError::InvalidRules)?;
    let deriver = SeedDeriver::new(seed);
    let policy_key = rng::policy_key(seed);
    let seeds = batch_agent_seeds(seed);
    let mut deals = vec![DealSummary::default(); n];
    let played = deals
        .par_chunks_mut(GROUP)
        .enumerate()
        .try_for_each(|(g, group)| {
            if control.cancelled() {
                return Err(None); // ends the other groups' jobs too
            }
            let first = start.wrapping_add((g * GROUP) as u64);
            play_group(
                first,
                group,
                &deriver,
                &policy_key,
                rules,
                (policies, seeds),
                control,
            )
            .map_err(Some)
        });
    if let Err(Some(error)) = played {
        return Err(error);
    }
    Ok(deals)
}

/// Deals simulated together: their generators' first blocks are computed side by side.
const GROUP: usize = 4;

/// Deals `first ..` of a batch into `out` (at most [`GROUP`] of them). Each deal needs
/// its seed, its shuffle's first blocks and its policies' first blocks: three `ChaCha8`
/// computations, each a chain of dependent instructions that leaves the CPU mostly idle.
/// The seeds and the policy blocks of the whole group are computed in one pass, the
/// shuffles' blocks in a second, so a deal waits on two chains shared with its group
/// instead of three or four of its own. The words are those of
/// [`match_deal_with`] and of a fresh policy stream: the deals are the same.
fn play_group(
    first: u64,
    out: &mut [DealSummary],
    deriver: &SeedDeriver,
    policy_key: &[u32; 8],
    rules: Rules,
    (policies, seeds): ([Policy; 2], [u64; 2]),
    control: Control<'_>,
) -> Result<(), DuelError> {
    let index = |j: usize| first.wrapping_add(j as u64);
    // Pairs 0 .. GROUP / 2: two deals' seed blocks each; then a pair per deal's policies.
    let first_pass = chacha8_pairs::<{ GROUP / 2 + GROUP }>(&std::array::from_fn(|p| {
        if p < GROUP / 2 {
            [
                deriver.block_start(index(2 * p)),
                deriver.block_start(index(2 * p + 1)),
            ]
        } else {
            GameRng::first_blocks(policy_key, index(p - GROUP / 2))
        }
    }));
    let shuffle_keys: [[u32; 8]; GROUP] = std::array::from_fn(|j| {
        GameRng::key_of_seed(SeedDeriver::seed_of_block(
            &first_pass[j / 2][16 * (j % 2)..],
        ))
    });
    let second_pass = chacha8_pairs::<GROUP>(&std::array::from_fn(|j| {
        GameRng::first_blocks(&shuffle_keys[j], 0)
    }));
    for (j, summary) in out.iter_mut().enumerate() {
        let mut shuffle_rng = GameRng::at_start(shuffle_keys[j], 0, &second_pass[j]);
        let policy_rng = GameRng::at_start(*policy_key, index(j), &first_pass[GROUP / 2 + j]);
        let state = match_deal_shuffled_by(&mut shuffle_rng, 0, index(j), rules)?;
        *summary = play_deal_with(state, policy_rng, policies, seeds, control)?;
        control.advance(1);
    }
    Ok(())
}

/// Plays `game`, a match of a run, through the one runner ([`runner::play_match`]), the
/// agent in seat `s` the run's ([`RunMatch::agent`]): the match `Match.play` plays with the
/// same agents. Each deal counts one on `control`; once it is cancelled, the searches give
/// way to the heuristic.
pub fn play_match(
    game: RunMatch,
    rules: Rules,
    policies: [Policy; 2],
    control: Control<'_>,
) -> Result<MatchSummary, DuelError> {
    let mut agents = [0, 1].map(|seat| game.agent(seat, policies[seat as usize]));
    let mut game = game.start(rules)?.without_history();
    let [first, second] = &mut agents;
    let mut a = Controlled {
        agent: first,
        control,
    };
    let mut b = Controlled {
        agent: second,
        control,
    };
    let mut deals_won = [0u32; 2];
    runner::play_match(&mut game, [&mut a, &mut b], |_, outcome| {
        deals_won[outcome.winner as usize] += 1;
        control.advance(1);
        Ok(())
    })?;
    let winner = game.winner().ok_or_else(|| {
        DuelError::InvalidRecord("a simulated match ended without a winner".into())
    })?;
    Ok(MatchSummary {
        winner,
        score: game.score.score,
        deals: u32::try_from(game.score.deals).unwrap_or(u32::MAX),
        deals_won,
    })
}

/// Matches `start .. start + n` of the run with seed `seed` (`RunMatch`). Each deal played counts one on `control`; once it is cancelled, no
/// further match begins and the result is empty.
pub fn simulate_matches(
    start: u64,
    n: usize,
    seed: u64,
    rules: Rules,
    policies: [Policy; 2],
    control: Control<'_>,
) -> Result<Vec<MatchSummary>, DuelError> {
    rules.validate().map_err(DuelError::InvalidRules)?;
    let run = Run::new(seed);
    let played = (start..start + n as u64)
        .into_par_iter()
        .map(|i| {
            if control.cancelled() {
                return Err(None); // ends the other matches' jobs too
            }
            play_match(run.game(i), rules, policies, control).map_err(Some)
        })
        .collect();
    match played {
        Ok(matches) => Ok(matches),
        Err(Some(error)) => Err(error),
        Err(None) => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::RunControl;
    use crate::duel::matches::match_deal_with;

    fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(f)
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let p = [Policy::Random, Policy::Heuristic];
        let one = in_pool(1, || {
            simulate_deals(0, 300, 7, Rules::default(), p, Control::NONE).unwrap()
        });
        let two = in_pool(2, || {
            simulate_deals(0, 300, 7, Rules::default(), p, Control::NONE).unwrap()
        });
        assert_eq!(one, two);
        let one = in_pool(1, || {
            simulate_matches(0, 20, 7, Rules::default(), p, Control::NONE).unwrap()
        });
        let two = in_pool(2, || {
            simulate_matches(0, 20, 7, Rules::default(), p, Control::NONE).unwrap()
        });
        assert_eq!(one, two);
    }

    #[test]
    fn grouped_deals_are_the_deals_played_one_by_one() {
        let policies = [Policy::Random, Policy::Heuristic];
        let (start, seed) = (u64::MAX - 4, 12);
        // Not a whole number of groups, and indices wrapping past u64::MAX.
        let batch = simulate_deals(
            start,
            2 * GROUP + 1,
            seed,
            Rules::default(),
            policies,
            Control::NONE,
        )
        .unwrap();
        let deriver = SeedDeriver::new(seed);
        for (j, summary) in batch.iter().enumerate() {
            let i = start.wrapping_add(j as u64);
            let state = match_deal_with(&deriver, 0, i, Rules::default()).unwrap();
            let played = play_deal(state, (seed, i), policies).unwrap();
            assert_eq!(*summary, played, "deal {i}");
        }
    }

    #[test]
    fn a_run_split_in_pieces_gives_the_same_result() {
        let p = [Policy::Random; 2];
        let whole = simulate_deals(0, 100, 9, Rules::default(), p, Control::NONE).unwrap();
        let mut pieces = simulate_deals(0, 40, 9, Rules::default(), p, Control::NONE).unwrap();
        pieces.extend(simulate_deals(40, 60, 9, Rules::default(), p, Control::NONE).unwrap());
        assert_eq!(whole, pieces);
    }

    #[test]
    fn a_cancelled_run_plays_nothing_more() {
        let run = RunControl::new();
        run.cancel();
        let p = [Policy::Pimc(24); 2];
        let deals = simulate_deals(0, 64, 1, Rules::default(), p, run.control()).unwrap();
        assert!(deals.iter().all(|d| *d == DealSummary::default()));
        let matches = simulate_matches(0, 8, 1, Rules::default(), p, run.control()).unwrap();
        assert!(matches.is_empty());
    }

    #[test]
    fn summaries_are_consistent() {
        let deals = simulate_deals(
            0,
            500,
            1,
            Rules::default(),
            [Policy::Random; 2],
            Control::NONE,
        )
        .unwrap();
        for (i, d) in deals.iter().enumerate() {
            assert_eq!(d.dealer as usize, i % 2);
            assert_eq!(d.cards[0] + d.cards[1], 32 - 2 * d.exchanges);
            assert_eq!(d.tricks[0] + d.tricks[1], 16 - d.exchanges);
            assert!(d.points == 1 || d.points == 2);
        }
        let matches = simulate_matches(
            0,
            50,
            1,
            Rules::default(),
            [Policy::Random; 2],
            Control::NONE,
        )
        .unwrap();
        for m in matches {
            assert!(m.score[m.winner as usize] >= 7 && m.score[1 - m.winner as usize] < 7);
        }
    }

    #[test]
    fn heuristic_beats_random_natively() {
        let deals = simulate_deals(
            0,
            2000,
            3,
            Rules::default(),
            [Policy::Heuristic, Policy::Random],
            Control::NONE,
        )
        .unwrap();
        let points: [u32; 2] = deals.iter().fold([0, 0], |mut acc, d| {
            acc[d.winner as usize] += u32::from(d.points);
            acc
        });
        assert!(points[0] > points[1] * 6 / 5, "{points:?}");
    }
}
