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

use super::agent::Agent;
use super::policy::Policy;
use super::runner::{self, Controlled, Stop};
use super::vecenv::{check_batch_len, illegal_action_in_env};
use crate::control::Control;
use crate::duel::action::{write_mask, Action, NUM_ACTIONS};
use crate::duel::matches::Match;
use crate::duel::observe::OBSERVATION_SIZE;
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError, Outcome};
use crate::rng;

/// Envs per parallel job for the cheap policies; PIMC decisions run one env per job.
const PARALLEL_MIN: usize = 2048;

/// One env: its match in progress and the opponent playing it, how many matches the env
/// has started, and the deal that ended at the last step with the score after it (shown
/// until the next step starts the next deal).
#[derive(Clone, Debug)]
struct Game {
    play: Match,
    opponent: Agent,
    matches: u64,
    ended: Option<(DealState, [u8; 2])>,
}

/// Env `i` plays match after match, each to the rules' target: its `j`-th match has seed
/// `derive_seed(derive_seed(seed, i), j)` and first dealer `j % 2`, so the dealer alternates
/// within a match as the rules say and the learner deals every other deal. The opponent is
/// the match's agent in its seat ([`rng::agent_seed`]`(match seed, opponent seat)`), as in
/// the arena. Observations carry the match score.
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
            let game = env.start_match(i, 0)?;
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

    /// The deal env `i` shows: the one that ended at the last step, or the one in play.
    pub fn state(&self, i: usize) -> Option<&DealState> {
        self.games
            .get(i)
            .map(|g| g.ended.as_ref().map_or(&g.play.deal, |(deal, _)| deal))
    }

    /// The match score of env `i` as its observation shows it.
    pub fn score(&self, i: usize) -> Option<[u8; 2]> {
        self.games
            .get(i)
            .map(|g| g.ended.map_or(g.play.score.score, |(_, score)| score))
    }

    /// Match `j` of env `i`, with its opponent.
    fn start_match(&self, i: usize, j: u64) -> Result<Game, DuelError> {
        let match_seed = rng::derive_seed(rng::item_seed(self.seed, i as u64), j);
        let opponent_seat = u64::from(1 - self.seat);
        Ok(Game {
            play: Match::new(match_seed, (j % 2) as u8, self.rules)?.without_history(),
            opponent: Agent::new(self.opponent, rng::agent_seed(match_seed, opponent_seat)),
            matches: j + 1,
            ended: None,
        })
    }

    fn min_len(&self) -> usize {
        match self.opponent {
            Policy::Pimc(_) | Policy::Expert(_) => 1,
            _ => PARALLEL_MIN,
        }
    }

    /// Starts every env again on its first match (with `seed` if given), lets the opponent
    /// act, and writes the learner's observations. Once `control` is cancelled, the
    /// opponent's searches give way to the heuristic ([`Controlled`]): the envs are then in
    /// play, but not as the seed would have them.
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        out: &mut OpponentBuffers<'_>,
        control: Control<'_>,
    ) -> Result<(), DuelError> {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        let fresh = (0..self.len())
            .map(|i| self.start_match(i, 0))
            .collect::<Result<Vec<Game>, DuelError>>()?;
        self.games = fresh;
        let (seat, min_len) = (self.seat, self.min_len());
        self.games
            .par_iter_mut()
            .with_min_len(min_len)
            .for_each(|game| {
                let _ = opponent_turns(game, seat, control);
            });
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        self.write(out);
        Ok(())
    }

    /// Applies `actions[i]` (an action id) for the learner in env `i`, then the opponent's
    /// replies. Envs whose deal ended at the last step ignore their action and go on with
    /// the next deal (of the next match, if that deal ended the match). Every action is
    /// checked first; an illegal one is refused with no env changed. Once `control` is
    /// cancelled, the opponent's searches give way to the heuristic, as in
    /// [`OpponentVecEnv::reset`].
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut OpponentBuffers<'_>,
        control: Control<'_>,
    ) -> Result<(), DuelError> {
        check_batch_len(actions.len(), self.len())?;
        for (i, (&id, game)) in actions.iter().zip(&self.games).enumerate() {
            if game.ended.is_some() {
                continue;
            }
            let action = usize::try_from(id).ok().and_then(Action::from_id);
            if !action.is_some_and(|a| game.play.deal.is_legal(a)) {
                return Err(illegal_action_in_env(id, i, &game.play.deal));
            }
        }
        let next_matches: Vec<Option<Game>> = self
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let over = g.ended.is_some() && g.play.is_over();
                over.then(|| self.start_match(i, g.matches)).transpose()
            })
            .collect::<Result<_, DuelError>>()?;
        let (seat, min_len) = (self.seat, self.min_len());
        self.games
            .par_iter_mut()
            .zip(next_matches.into_par_iter())
            .zip(actions.par_iter())
            .zip(out.rewards.par_iter_mut())
            .zip(out.terminated.par_iter_mut())
            .with_min_len(min_len)
            .for_each(|((((game, next), &id), reward), done)| {
                *reward = 0.0;
                *done = false;
                if game.ended.take().is_some() {
                    if let Some(next) = next {
                        *game = next;
                    }
                } else if let Some(action) = usize::try_from(id).ok().and_then(Action::from_id) {
                    if let Ok(Some(outcome)) = game.play.apply_unchecked(action) {
                        *reward = game.end_deal(outcome, seat);
                        *done = true;
                        return;
                    }
                }
                if let Some(points) = opponent_turns(game, seat, control) {
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
                let (deal, score) = game
                    .ended
                    .as_ref()
                    .map_or((&game.play.deal, game.play.score.score), |(d, s)| (d, *s));
                deal.encode_observation(seat, score, obs);
                write_mask(deal.legal_mask(), mask);
            });
    }
}

impl Game {
    /// Keeps the deal that just ended (with `outcome`) for the learner's last look at it;
    /// returns the learner's signed deal points.
    fn end_deal(&mut self, outcome: Outcome, seat: u8) -> f32 {
        let last = *self.play.last_finished().unwrap_or(&self.play.deal);
        self.ended = Some((last, self.play.score.score));
        let points = f32::from(outcome.points);
        if outcome.winner == seat {
            points
        } else {
            -points
        }
    }
}

/// Lets the opponent act until the learner is to move or the deal ends; at the end, keeps
/// the finished deal and returns the learner's signed deal points.
fn opponent_turns(game: &mut Game, seat: u8, control: Control<'_>) -> Option<f32> {
    let mut opponent = Controlled {
        agent: &mut game.opponent,
        control,
    };
    let mut agents: [Option<&mut Controlled<'_>>; 2] = [None, None];
    agents[1 - seat as usize] = Some(&mut opponent);
    match runner::advance(&mut game.play, agents, true, |_, _, _| Ok(())) {
        Ok(Stop::DealEnded(outcome)) => Some(game.end_deal(outcome, seat)),
        Ok(Stop::MatchOver) => {
            let outcome = game.play.deal.outcome()?;
            Some(game.end_deal(outcome, seat))
        }
        _ => None,
    }
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
            env.reset(None, &mut out, Control::NONE).unwrap();
            let mut rng = crate::rng::rng_from_seed(9);
            let mut finished = 0;
            for _ in 0..400 {
                let actions: Vec<i64> = env
                    .games
                    .iter()
                    .map(|g| {
                        if g.ended.is_some() {
                            0
                        } else {
                            assert_eq!(g.play.current_player(), Some(seat));
                            super::super::random::random_action(g.play.deal.legal_mask(), &mut rng)
                                .id() as i64
                        }
                    })
                    .collect();
                env.step(&actions, &mut out, Control::NONE).unwrap();
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
        assert!(env.step(&[-1, 70], &mut out, Control::NONE).is_err());
        assert!(env.step(&[0], &mut out, Control::NONE).is_err());
        assert!(OpponentVecEnv::new(1, 1, Rules::default(), Policy::Random, 2).is_err());
    }
}
