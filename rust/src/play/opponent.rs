//! A batch of duel deals against a built-in opponent: one seat is the learner's, the other
//! is played here by a native [`Policy`]. One step applies the learner's action in every
//! env and lets the opponent act until it is the learner's turn again, so each call
//! advances every game to the learner's next decision (single-agent, Gymnasium style).
//!
//! This is the one stepper behind both conventions of learners ([`Autoreset`]):
//! - **next step** (Gymnasium's default): the step that ends a deal returns the learner's
//!   final observation of it with `terminated`; the next step ignores that env's action,
//!   moves on to the next deal, lets the opponent act, and returns the new observation with
//!   reward 0;
//! - **same step** (sb3's `VecEnv`, Gymnasium's `SAME_STEP`): the step that ends a deal moves
//!   on at once and returns the next deal's first observation; the final one stays
//!   readable ([`OpponentVecEnv::ended`]) until the next step.
//!
//! A final observation's mask marks one action legal, [`ENDED_ACTION`] (the next-step mode
//! ignores it): a mask is never all zero, so a learner's masked distribution is never NaN.

use rayon::prelude::*;

use super::agent::BuiltinAgent;
use super::policy::Policy;
use super::run::RunMatch;
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

/// The one action a finished deal's final observation marks legal.
pub const ENDED_ACTION: usize = 0;

/// When an env whose deal ended moves on to its next deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// At the step after the one that ended the deal, whose action it ignores.
    NextStep,
    /// At the step that ended the deal.
    SameStep,
}

impl Autoreset {
    pub const NAMES: &'static str = "'next_step' or 'same_step'";

    pub fn parse(name: &str) -> Option<Autoreset> {
        match name {
            "next_step" => Some(Autoreset::NextStep),
            "same_step" => Some(Autoreset::SameStep),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
        }
    }
}

/// What every env of a batch plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rules: Rules,
    pub opponent: Policy,
    /// The learner's seat.
    pub seat: u8,
    pub autoreset: Autoreset,
}

/// A deal that ended at the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The deal as it ended: finished, or abandoned at the learner's illegal action.
    pub deal: DealState,
    /// The match score after it.
    pub score: [u8; 2],
    /// The learner forfeited the deal by an illegal action: it has no outcome, and the env
    /// goes on with its next match.
    pub forfeit: bool,
}

/// One env: its seed, its match in progress (never over: a match that ends is replaced by
/// the next at once) and the opponent playing it, how many matches it has started, the
/// deal that ended at the last step, and whether it waits for the next step to go on.
#[derive(Clone, Debug)]
pub(super) struct Game {
    pub(super) seed: u64,
    pub(super) play: Match,
    pub(super) opponent: BuiltinAgent,
    pub(super) matches: u64,
    pub(super) ended: Option<Ended>,
    pub(super) waiting: bool,
}

/// The seeds a reset gives the envs.
#[derive(Clone, Copy, Debug)]
pub enum Seeds<'a> {
    /// Each env keeps its seed and plays its run again from the start.
    Keep,
    /// Each env abandons its deal and goes on with the next match of its run.
    Next,
    /// Env `i` gets `derive_seed(seed, i)`.
    Batch(u64),
    /// Env `i` gets `seeds[i]`.
    Each(&'a [u64]),
}

/// Env `i` with seed `e` plays match after match, each to the rules' target: its `j`-th
/// match is match `j` of the run with seed `e` ([`RunMatch`]: seed `derive_seed(e, j)`,
/// first dealer `j % 2`), so the dealer alternates within a match as the rules say and the
/// learner deals every other deal. The opponent is the match's agent in its seat, as in the
/// arena. Observations carry the match score. A batch built with seed `s` gives env `i`
/// the seed `derive_seed(s, i)`.
#[derive(Clone, Debug)]
pub struct OpponentVecEnv {
    pub(super) games: Vec<Game>,
    pub(super) setup: Setup,
}

/// Output buffers of one step; every slice holds one row per env.
pub struct OpponentBuffers<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
}

impl OpponentVecEnv {
    pub fn new(n: usize, seed: u64, setup: Setup) -> Result<OpponentVecEnv, DuelError> {
        setup.rules.validate().map_err(DuelError::InvalidRules)?;
        if setup.seat > 1 {
            return Err(DuelError::InvalidDealer(i64::from(setup.seat)));
        }
        let games = (0..n)
            .map(|i| Game::start(rng::item_seed(seed, i as u64), &setup))
            .collect::<Result<_, _>>()?;
        Ok(OpponentVecEnv { games, setup })
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The deal env `i` shows: the one that ended at the last step while the env waits to
    /// go on, else the one in play.
    pub fn state(&self, i: usize) -> Option<&DealState> {
        self.games.get(i).map(|g| g.shown().0)
    }

    /// The match score env `i` shows, as its observation does.
    pub fn score(&self, i: usize) -> Option<[u8; 2]> {
        self.games.get(i).map(|g| g.shown().1)
    }

    /// The deal in which env `i` awaits the learner's action; `None` while it waits to go
    /// on (it takes any action then, and ignores it).
    pub fn awaiting_action(&self, i: usize) -> Option<&DealState> {
        self.games
            .get(i)
            .filter(|g| !g.waiting)
            .map(|g| &g.play.deal)
    }

    /// The deal env `i` ended at the last step, if it did.
    pub fn ended(&self, i: usize) -> Option<&Ended> {
        self.games.get(i).and_then(|g| g.ended.as_ref())
    }

    /// Writes the learner's final observation of the deal env `i` ended at the last step,
    /// and its mask; `false` (nothing written) if it ended none.
    pub fn write_final(&self, i: usize, obs: &mut [f32], mask: &mut [bool]) -> bool {
        let Some(ended) = self.ended(i) else {
            return false;
        };
        ended
            .deal
            .encode_observation(self.setup.seat, ended.score, obs);
        write_mask(1 << ENDED_ACTION, mask);
        true
    }

    fn min_len(&self) -> usize {
        match self.setup.opponent {
            opponent if opponent.samples().is_some() => 1,
            _ => PARALLEL_MIN,
        }
    }

    /// Starts every env again on the first match of its run (with the seeds given), or on
    /// its run's next match ([`Seeds::Next`]), lets the opponent act, and writes the
    /// learner's observations. Once `control` is cancelled, the opponent's searches give
    /// way to the heuristic ([`Controlled`]): the envs are then in play, but not as the
    /// seeds would have them.
    pub fn reset(
        &mut self,
        seeds: Seeds<'_>,
        out: &mut OpponentBuffers<'_>,
        control: Control<'_>,
    ) -> Result<(), DuelError> {
        if let Seeds::Each(seeds) = seeds {
            if seeds.len() != self.len() {
                return Err(DuelError::InvalidRecord(format!(
                    "{} seeds for {} envs: give one seed per env",
                    seeds.len(),
                    self.len()
                )));
            }
        }
        let setup = self.setup;
        let fresh = self
            .games
            .iter()
            .enumerate()
            .map(|(i, game)| {
                let seed = match seeds {
                    Seeds::Keep => game.seed,
                    Seeds::Batch(seed) => rng::item_seed(seed, i as u64),
                    Seeds::Each(seeds) => seeds[i],
                    Seeds::Next => return game.going_on(&setup),
                };
                Game::start(seed, &setup)
            })
            .collect::<Result<Vec<Game>, DuelError>>()?;
        self.games = fresh;
        let min_len = self.min_len();
        self.games
            .par_iter_mut()
            .with_min_len(min_len)
            .try_for_each(|game| game.opponent_turns(&setup, control).map(|_| ()))?;
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        self.write(out);
        Ok(())
    }

    /// Applies `actions[i]` (an action id) for the learner in env `i`, then the opponent's
    /// replies. Envs waiting to go on ignore their action. Every action is checked first: an
    /// illegal one is refused with no env changed, or, given a `forfeit` reward, ends that
    /// env's deal with that reward (the env goes on with its next match).
    pub fn step(
        &mut self,
        actions: &[i64],
        forfeit: Option<f32>,
        out: &mut OpponentBuffers<'_>,
        control: Control<'_>,
    ) -> Result<(), DuelError> {
        check_batch_len(actions.len(), self.len())?;
        let mut moves = Vec::with_capacity(actions.len());
        for (i, (&id, game)) in actions.iter().zip(&self.games).enumerate() {
            let action = usize::try_from(id).ok().and_then(Action::from_id);
            moves.push(match action {
                _ if game.waiting => Move::Wait,
                Some(a) if game.play.deal.is_legal(a) => Move::Act(a),
                _ => match forfeit {
                    Some(reward) => Move::Forfeit(reward),
                    None => return Err(illegal_action_in_env(id, action, i, &game.play.deal)),
                },
            });
        }
        let (setup, min_len) = (self.setup, self.min_len());
        self.games
            .par_iter_mut()
            .zip(moves.into_par_iter())
            .zip(out.rewards.par_iter_mut())
            .zip(out.terminated.par_iter_mut())
            .with_min_len(min_len)
            .try_for_each(|(((game, step), reward), done)| {
                (*reward, *done) = game.step(step, &setup, control)?;
                Ok::<(), DuelError>(())
            })?;
        self.write(out);
        Ok(())
    }

    /// Writes every env's observation and mask, as the env shows them.
    pub fn write(&self, out: &mut OpponentBuffers<'_>) {
        let seat = self.setup.seat;
        self.games
            .par_iter()
            .zip(out.obs.par_chunks_mut(OBSERVATION_SIZE))
            .zip(out.mask.par_chunks_mut(NUM_ACTIONS))
            .with_min_len(PARALLEL_MIN)
            .for_each(|((game, obs), mask)| {
                let (deal, score) = game.shown();
                deal.encode_observation(seat, score, obs);
                let legal = if game.waiting {
                    1 << ENDED_ACTION
                } else {
                    deal.legal_mask()
                };
                write_mask(legal, mask);
            });
    }
}

/// What the learner does in one env at one step.
#[derive(Clone, Copy, Debug)]
enum Move {
    Act(Action),
    /// An illegal action, which loses the deal with this reward.
    Forfeit(f32),
    /// The env waits to go on: its action is ignored.
    Wait,
}

impl Game {
    /// The first match of the run of an env with `seed`.
    pub(super) fn start(seed: u64, setup: &Setup) -> Result<Game, DuelError> {
        let mut game = Game {
            seed,
            play: Match::new(seed, 0, setup.rules)?,
            opponent: BuiltinAgent::new(setup.opponent, 0),
            matches: 0,
            ended: None,
            waiting: false,
        };
        game.next_match(setup)?;
        Ok(game)
    }

    /// This env on the next match of its run, nothing ended or awaited.
    fn going_on(&self, setup: &Setup) -> Result<Game, DuelError> {
        let mut game = self.clone();
        game.ended = None;
        game.waiting = false;
        game.next_match(setup)?;
        Ok(game)
    }

    /// Replaces the match with the run's next one, and its opponent.
    fn next_match(&mut self, setup: &Setup) -> Result<(), DuelError> {
        let game = RunMatch::of(self.seed, self.matches);
        self.play = game.start(setup.rules)?.without_history();
        self.opponent = game.agent(1 - setup.seat, setup.opponent);
        self.matches += 1;
        Ok(())
    }

    /// The deal and the score the env shows.
    fn shown(&self) -> (&DealState, [u8; 2]) {
        match &self.ended {
            Some(ended) if self.waiting => (&ended.deal, ended.score),
            _ => (&self.play.deal, self.play.score.score),
        }
    }

    /// One step of this env: the learner's `step`, then the opponent's replies. Returns the
    /// learner's reward and whether a deal ended.
    fn step(
        &mut self,
        step: Move,
        setup: &Setup,
        control: Control<'_>,
    ) -> Result<(f32, bool), DuelError> {
        if setup.autoreset == Autoreset::SameStep || self.waiting {
            self.ended = None;
        }
        match step {
            Move::Wait => self.waiting = false,
            Move::Forfeit(reward) => {
                self.ended = Some(Ended {
                    deal: self.play.deal,
                    score: self.play.score.score,
                    forfeit: true,
                });
                self.next_match(setup)?;
                return self.after_end(reward, setup, control);
            }
            Move::Act(action) => {
                if let Some(outcome) = self.play.apply_unchecked(action)? {
                    let reward = self.finish(outcome, setup)?;
                    return self.after_end(reward, setup, control);
                }
            }
        }
        self.opponent_turns(setup, control)
    }

    /// Lets the opponent act until the learner is to move or a deal ends; returns the
    /// learner's reward and whether a deal ended.
    fn opponent_turns(
        &mut self,
        setup: &Setup,
        control: Control<'_>,
    ) -> Result<(f32, bool), DuelError> {
        let mut opponent = Controlled {
            agent: &mut self.opponent,
            control,
        };
        let mut agents: [Option<&mut Controlled<'_>>; 2] = [None, None];
        agents[1 - setup.seat as usize] = Some(&mut opponent);
        let outcome = match runner::advance(&mut self.play, agents, true, |_, _, _| Ok(()))? {
            Stop::DealEnded(outcome) => outcome,
            Stop::MatchOver => match self.play.deal.outcome() {
                Some(outcome) => outcome,
                None => return Ok((0.0, false)),
            },
            Stop::Outside(_) => return Ok((0.0, false)),
        };
        let reward = self.finish(outcome, setup)?;
        self.after_end(reward, setup, control)
    }

    /// Keeps the deal that just ended (with `outcome`) for the learner's last look at it,
    /// starts the next match if that deal ended this one, and returns the learner's signed
    /// deal points.
    fn finish(&mut self, outcome: Outcome, setup: &Setup) -> Result<f32, DuelError> {
        let deal = *self.play.last_finished().unwrap_or(&self.play.deal);
        self.ended = Some(Ended {
            deal,
            score: self.play.score.score,
            forfeit: false,
        });
        if self.play.is_over() {
            self.next_match(setup)?;
        }
        let points = f32::from(outcome.points);
        Ok(if outcome.winner == setup.seat {
            points
        } else {
            -points
        })
    }

    /// After a deal ended with `reward`: waits for the next step (next-step mode) or lets
    /// the opponent open the next deal now (same-step mode).
    fn after_end(
        &mut self,
        reward: f32,
        setup: &Setup,
        control: Control<'_>,
    ) -> Result<(f32, bool), DuelError> {
        match setup.autoreset {
            Autoreset::NextStep => self.waiting = true,
            Autoreset::SameStep => {
                // No deal ends before the learner has played a card, so this stops at the
                // learner's first decision, and `ended` stays the deal that just ended.
                let ended = self.ended;
                self.opponent_turns(setup, control)?;
                self.ended = ended;
            }
        }
        Ok((reward, true))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) struct Owned {
        pub(crate) obs: Vec<f32>,
        pub(crate) mask: Vec<bool>,
        pub(crate) rewards: Vec<f32>,
        pub(crate) terminated: Vec<bool>,
    }

    impl Owned {
        pub(crate) fn new(n: usize) -> Owned {
            Owned {
                obs: vec![0.0; n * OBSERVATION_SIZE],
                mask: vec![false; n * NUM_ACTIONS],
                rewards: vec![0.0; n],
                terminated: vec![false; n],
            }
        }

        pub(crate) fn buffers(&mut self) -> OpponentBuffers<'_> {
            OpponentBuffers {
                obs: &mut self.obs,
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
            }
        }
    }

    fn setup(seat: u8, autoreset: Autoreset) -> Setup {
        Setup {
            rules: Rules::default(),
            opponent: Policy::Heuristic,
            seat,
            autoreset,
        }
    }

    /// A random legal action for every env (any action for an env that waits).
    fn random_actions(env: &OpponentVecEnv, rng: &mut crate::rng::GameRng) -> Vec<i64> {
        (0..env.len())
            .map(|i| match env.awaiting_action(i) {
                None => 0,
                Some(deal) => {
                    assert_eq!(deal.current_player(), Some(env.setup.seat));
                    super::super::random::random_action(deal.legal_mask(), rng).id() as i64
                }
            })
            .collect()
    }

    #[test]
    fn learner_always_to_move_and_rewards_are_zero_sum_points() {
        for seat in [0, 1] {
            for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
                let n = 8;
                let mut env = OpponentVecEnv::new(n, 5, setup(seat, autoreset)).unwrap();
                let mut out = Owned::new(n);
                env.reset(Seeds::Keep, &mut out.buffers(), Control::NONE)
                    .unwrap();
                let mut rng = crate::rng::rng_from_seed(9);
                let mut finished = 0;
                for _ in 0..400 {
                    let actions = random_actions(&env, &mut rng);
                    env.step(&actions, None, &mut out.buffers(), Control::NONE)
                        .unwrap();
                    for i in 0..n {
                        let mask = &out.mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
                        assert!(mask.iter().any(|&m| m), "a mask is never all zero");
                        if out.terminated[i] {
                            finished += 1;
                            assert!([1.0, 2.0, -1.0, -2.0].contains(&out.rewards[i]));
                            let ended = env.ended(i).unwrap();
                            assert!(ended.deal.is_over());
                            let waits = autoreset == Autoreset::NextStep;
                            assert_eq!(env.awaiting_action(i).is_none(), waits);
                        } else {
                            assert!(out.rewards[i].abs() < f32::EPSILON);
                        }
                    }
                }
                assert!(finished > n);
            }
        }
    }

    /// Both modes play the same deals: a same-step env's final observation is the
    /// next-step env's observation at the step that ends the deal, and its next one is the
    /// next-step env's at the step after (whose action is ignored).
    #[test]
    fn both_autoreset_modes_play_the_same_deals() {
        for seed in 0..4 {
            let mut next = OpponentVecEnv::new(1, seed, setup(1, Autoreset::NextStep)).unwrap();
            let mut same = OpponentVecEnv::new(1, seed, setup(1, Autoreset::SameStep)).unwrap();
            let (mut a, mut b) = (Owned::new(1), Owned::new(1));
            next.reset(Seeds::Keep, &mut a.buffers(), Control::NONE)
                .unwrap();
            same.reset(Seeds::Keep, &mut b.buffers(), Control::NONE)
                .unwrap();
            let mut rng = crate::rng::rng_from_seed(seed);
            let (mut final_obs, mut final_mask) =
                (vec![0.0; OBSERVATION_SIZE], [false; NUM_ACTIONS]);
            let mut deals = 0;
            for _ in 0..150 {
                assert_eq!(a.obs, b.obs);
                assert_eq!(a.mask, b.mask);
                let actions = random_actions(&next, &mut rng);
                next.step(&actions, None, &mut a.buffers(), Control::NONE)
                    .unwrap();
                same.step(&actions, None, &mut b.buffers(), Control::NONE)
                    .unwrap();
                assert_eq!(
                    (a.rewards[0], a.terminated[0]),
                    (b.rewards[0], b.terminated[0])
                );
                if a.terminated[0] {
                    assert!(same.write_final(0, &mut final_obs, &mut final_mask));
                    assert_eq!(final_obs, a.obs);
                    assert_eq!(&final_mask[..], &a.mask[..]);
                    next.step(&[0], None, &mut a.buffers(), Control::NONE)
                        .unwrap();
                    deals += 1;
                } else {
                    assert!(!same.write_final(0, &mut final_obs, &mut final_mask));
                }
            }
            assert!(deals > 5);
        }
    }

    #[test]
    fn an_illegal_action_is_refused_or_forfeits_the_deal() {
        let mut env = OpponentVecEnv::new(2, 1, setup(0, Autoreset::NextStep)).unwrap();
        let mut out = Owned::new(2);
        assert!(env
            .step(&[-1, 70], None, &mut out.buffers(), Control::NONE)
            .is_err());
        assert!(env
            .step(&[0], None, &mut out.buffers(), Control::NONE)
            .is_err());
        let legal = env.awaiting_action(1).unwrap().legal_actions()[0].id() as i64;
        let before = env.games[0].matches;
        env.step(&[-1, legal], Some(-2.0), &mut out.buffers(), Control::NONE)
            .unwrap();
        assert_eq!((out.rewards[0], out.terminated[0]), (-2.0, true));
        assert!(env.ended(0).unwrap().forfeit);
        assert_eq!(env.games[0].matches, before + 1);
        assert!(env.awaiting_action(0).is_none());
        let bad = Setup {
            seat: 2,
            ..setup(0, Autoreset::NextStep)
        };
        assert!(OpponentVecEnv::new(1, 1, bad).is_err());
    }

    #[test]
    fn seeds_are_per_env() {
        let s = setup(0, Autoreset::SameStep);
        let mut batch = OpponentVecEnv::new(3, 11, s).unwrap();
        let mut each = OpponentVecEnv::new(3, 99, s).unwrap();
        let mut out = Owned::new(3);
        let seeds: Vec<u64> = (0..3).map(|i| rng::item_seed(11, i)).collect();
        each.reset(Seeds::Each(&seeds), &mut out.buffers(), Control::NONE)
            .unwrap();
        batch
            .reset(Seeds::Keep, &mut out.buffers(), Control::NONE)
            .unwrap();
        for i in 0..3 {
            assert_eq!(each.state(i), batch.state(i));
        }
        assert!(each
            .reset(Seeds::Each(&seeds[..2]), &mut out.buffers(), Control::NONE)
            .is_err());
    }
}
