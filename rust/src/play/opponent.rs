//! A batch of duel deals against a built-in opponent: one seat is the learner's, the other
//! is played here by a native [`Policy`]. One step applies the learner's action in every
//! env and lets the opponent act until it is the learner's turn again, so each call
//! advances every game to the learner's next decision (single-agent, Gymnasium style).
//!
//! Autoreset follows Gymnasium 1.x's "next step" mode: the step that ends a deal returns
//! the learner's final observation of it (an all-false mask) with `terminated`; the next
//! step ignores that env's action, deals the next deal, lets the opponent act, and
//! returns the new observation with reward 0.

use rayon::prelude::*;

use super::policy::Policy;
use super::vecenv::{check_batch_len, illegal_action_in_env};
use crate::duel::action::{write_mask, Action, NUM_ACTIONS};
use crate::duel::matches::match_deal;
use crate::duel::observe::OBSERVATION_SIZE;
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError};
use crate::rng::{self, rng_from_seed, GameRng};

/// Envs per parallel job for the cheap policies; PIMC decisions run one env per job.
const PARALLEL_MIN: usize = 2048;

/// One env: its deal, the deal's index in the env's endless match, the opponent's
/// generator, and whether the deal ended at the last step (reset at the next).
#[derive(Clone, Debug)]
struct Game {
    state: DealState,
    deals: u64,
    rng: GameRng,
    done: bool,
}

/// Env `i` plays the deals of a match with seed `derive_seed(seed, i)` and first dealer 0,
/// without end, like [`super::vecenv::VecEnv`]: its `k`-th deal is shuffled with
/// `derive_seed(derive_seed(seed, i), k)` and dealt by seat `k % 2`, so the learner deals
/// every other deal. The opponent's generator is seeded with
/// `rng::agent_seed(derive_seed(seed, i), opponent_seat)`.
#[derive(Clone, Debug)]
pub struct OpponentVecEnv {
    games: Vec<Game>,
    seed: u64,
    rules: Rules,
    opponent: Policy,
    seat: u8,
}

/// Output buffers of one step; every slice holds one row per env.
pub struct OpponentBuffers<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
}

impl OpponentVecEnv {
    pub fn new(
        n: usize,
        seed: u64,
        rules: Rules,
        opponent: Policy,
        seat: u8,
    ) -> Result<OpponentVecEnv, DuelError> {
        rules.validate().map_err(DuelError::InvalidRules)?;
        if seat > 1 {
            return Err(DuelError::InvalidDealer(i64::from(seat)));
        }
        let mut env = OpponentVecEnv {
            games: Vec::with_capacity(n),
            seed,
            rules,
            opponent,
            seat,
        };
        for i in 0..n {
            let game = env.fresh(i)?;
            env.games.push(game);
        }
        Ok(env)
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    pub fn seat(&self) -> u8 {
        self.seat
    }

    pub fn opponent(&self) -> Policy {
        self.opponent
    }

    /// The current deal of env `i`.
    pub fn state(&self, i: usize) -> Option<&DealState> {
        self.games.get(i).map(|g| &g.state)
    }

    fn fresh(&self, i: usize) -> Result<Game, DuelError> {
        let match_seed = rng::item_seed(self.seed, i as u64);
        Ok(Game {
            state: match_deal(match_seed, 0, 0, self.rules)?,
            deals: 0,
            rng: rng_from_seed(rng::agent_seed(match_seed, u64::from(1 - self.seat))),
            done: false,
        })
    }

    fn min_len(&self) -> usize {
        match self.opponent {
            Policy::Pimc(_) => 1,
            _ => PARALLEL_MIN,
        }
    }

    /// Starts every env again on its first deal (with `seed` if given), lets the opponent
    /// act, and writes the learner's observations.
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        out: &mut OpponentBuffers<'_>,
    ) -> Result<(), DuelError> {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        for i in 0..self.len() {
            self.games[i] = self.fresh(i)?;
        }
        let (opponent, seat, min_len) = (self.opponent, self.seat, self.min_len());
        self.games
            .par_iter_mut()
            .with_min_len(min_len)
            .for_each(|game| {
                let _ = opponent_turns(game, opponent, seat);
            });
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        self.write(out);
        Ok(())
    }

    /// Applies `actions[i]` (an action id) for the learner in env `i`, then the opponent's
    /// replies. Envs whose deal ended at the last step ignore their action and start the
    /// next deal. Every action is checked first; an illegal one is refused with no env
    /// changed.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut OpponentBuffers<'_>,
    ) -> Result<(), DuelError> {
        check_batch_len(actions.len(), self.len())?;
        for (i, (&id, game)) in actions.iter().zip(&self.games).enumerate() {
            if game.done {
                continue;
            }
            let action = usize::try_from(id).ok().and_then(Action::from_id);
            if !action.is_some_and(|a| game.state.is_legal(a)) {
                return Err(illegal_action_in_env(id, i, &game.state));
            }
        }
        let (seed, rules) = (self.seed, self.rules);
        let (opponent, seat, min_len) = (self.opponent, self.seat, self.min_len());
        self.games
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(out.rewards.par_iter_mut())
            .zip(out.terminated.par_iter_mut())
            .with_min_len(min_len)
            .enumerate()
            .for_each(|(i, (((game, &id), reward), done))| {
                *reward = 0.0;
                *done = false;
                if game.done {
                    game.deals += 1;
                    let match_seed = rng::item_seed(seed, i as u64);
                    if let Ok(next) = match_deal(match_seed, 0, game.deals, rules) {
                        game.state = next;
                    }
                    game.done = false;
                } else if let Some(action) = usize::try_from(id).ok().and_then(Action::from_id) {
                    game.state.apply_unchecked(action);
                }
                if let Some(points) = opponent_turns(game, opponent, seat) {
                    *reward = points;
                    *done = true;
                }
            });
        self.write(out);
        Ok(())
    }

    fn write(&self, out: &mut OpponentBuffers<'_>) {
        let seat = self.seat;
        self.games
            .par_iter()
            .zip(out.obs.par_chunks_mut(OBSERVATION_SIZE))
            .zip(out.mask.par_chunks_mut(NUM_ACTIONS))
            .with_min_len(PARALLEL_MIN)
            .for_each(|((game, obs), mask)| {
                game.state.encode_observation(seat, [0, 0], obs);
                write_mask(game.state.legal_mask(), mask);
            });
    }
}

/// Lets the opponent act until the learner is to move or the deal ends; at the end, marks
/// the game done and returns the learner's signed deal points.
fn opponent_turns(game: &mut Game, opponent: Policy, seat: u8) -> Option<f32> {
    while let Some(player) = game.state.current_player() {
        if player == seat {
            return None;
        }
        let action = opponent.choose(&game.state, &mut game.rng);
        game.state.apply_unchecked(action);
    }
    let outcome = game.state.outcome()?;
    game.done = true;
    let points = f32::from(outcome.points);
    Some(if outcome.winner == seat {
        points
    } else {
        -points
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffers(n: usize) -> (Vec<f32>, Vec<bool>, Vec<f32>, Vec<bool>) {
        (
            vec![0.0; n * OBSERVATION_SIZE],
            vec![false; n * NUM_ACTIONS],
            vec![0.0; n],
            vec![false; n],
        )
    }

    #[test]
    fn learner_always_to_move_and_rewards_are_zero_sum_points() {
        for seat in [0, 1] {
            let n = 8;
            let mut env =
                OpponentVecEnv::new(n, 5, Rules::default(), Policy::Heuristic, seat).unwrap();
            let (mut obs, mut mask, mut rewards, mut terminated) = buffers(n);
            let mut out = OpponentBuffers {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut terminated,
            };
            env.reset(None, &mut out).unwrap();
            let mut rng = rng_from_seed(9);
            let mut finished = 0;
            for _ in 0..400 {
                let actions: Vec<i64> = env
                    .games
                    .iter()
                    .map(|g| {
                        if g.done {
                            0
                        } else {
                            assert_eq!(g.state.current_player(), Some(seat));
                            super::super::random::random_action(g.state.legal_mask(), &mut rng).id()
                                as i64
                        }
                    })
                    .collect();
                env.step(&actions, &mut out).unwrap();
                for i in 0..n {
                    if out.terminated[i] {
                        finished += 1;
                        assert!([1.0, 2.0, -1.0, -2.0].contains(&out.rewards[i]));
                        assert!(out.mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]
                            .iter()
                            .all(|&m| !m));
                    } else {
                        assert!(out.rewards[i].abs() < f32::EPSILON);
                    }
                }
            }
            assert!(finished > n);
        }
    }

    #[test]
    fn illegal_actions_are_refused() {
        let mut env = OpponentVecEnv::new(2, 1, Rules::default(), Policy::Random, 0).unwrap();
        let (mut obs, mut mask, mut rewards, mut terminated) = buffers(2);
        let mut out = OpponentBuffers {
            obs: &mut obs,
            mask: &mut mask,
            rewards: &mut rewards,
            terminated: &mut terminated,
        };
        assert!(env.step(&[-1, 70], &mut out).is_err());
        assert!(env.step(&[0], &mut out).is_err());
        assert!(OpponentVecEnv::new(1, 1, Rules::default(), Policy::Random, 2).is_err());
    }
}
