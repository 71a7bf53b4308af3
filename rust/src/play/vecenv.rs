//! A batch of duel deals stepped in lockstep, writing observations into caller-owned
//! buffers (EnvPool/pgx style). A finished deal is scored and replaced by the next one at
//! once, so every env always has a player to move.

use rayon::prelude::*;

use super::policy::random_action;
use crate::card::{derive_seed, rng_from_seed, GameRng};
use crate::duel::action::{write_mask, Action, NUM_ACTIONS};
use crate::duel::matches::match_deal;
use crate::duel::observe::OBSERVATION_SIZE;
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError};

/// Env `i` plays the deals of a match with seed `derive_seed(seed, i)` and first dealer 0
/// ([`match_deal`]), without end: its `k`-th deal is shuffled with
/// `derive_seed(derive_seed(seed, i), k)` and dealt by seat `k % 2`.
#[derive(Clone, Debug)]
pub struct VecEnv {
    states: Vec<DealState>,
    deals: Vec<u64>,
    seed: u64,
    rules: Rules,
    /// For `random_actions`, seeded from the env's seed.
    sampler: GameRng,
}

/// Envs per parallel job: smaller batches run on the calling thread, where splitting
/// would cost more than it saves.
const PARALLEL_MIN: usize = 2048;

/// Applies a checked action to one env; scores a finished deal and deals the next.
fn advance(
    state: &mut DealState,
    deals: &mut u64,
    id: i64,
    rewards: &mut [f32],
    terminated: &mut bool,
    (seed, env): (u64, u64),
    rules: Rules,
) {
    if let Some(action) = Action::from_id(id as usize) {
        state.apply_unchecked(action);
    }
    rewards.fill(0.0);
    *terminated = false;
    if let Some(outcome) = state.outcome() {
        let points = f32::from(outcome.points);
        rewards[outcome.winner as usize] = points;
        rewards[1 - outcome.winner as usize] = -points;
        *terminated = true;
        *deals += 1;
        if let Ok(next) = match_deal(derive_seed(seed, env), 0, *deals, rules) {
            *state = next;
        }
    }
}

/// Output buffers of one step; every slice holds one row per env.
pub struct StepBuffers<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub players: &'a mut [i64],
}

impl VecEnv {
    pub fn new(n: usize, seed: u64, rules: Rules) -> Result<VecEnv, DuelError> {
        rules.validate().map_err(DuelError::InvalidRules)?;
        let mut env = VecEnv {
            states: Vec::with_capacity(n),
            deals: vec![0; n],
            seed,
            rules,
            sampler: rng_from_seed(derive_seed(seed, u64::MAX)),
        };
        for i in 0..n {
            env.states.push(env.deal(i, 0)?);
        }
        Ok(env)
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn states(&self) -> &[DealState] {
        &self.states
    }

    /// Deal `k` of env `i`.
    fn deal(&self, i: usize, k: u64) -> Result<DealState, DuelError> {
        match_deal(derive_seed(self.seed, i as u64), 0, k, self.rules)
    }

    /// One uniformly random legal action id per env, from the env's own seeded generator.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        for (state, a) in self.states.iter().zip(out.iter_mut()) {
            *a = random_action(state.legal_mask(), &mut self.sampler).id() as i64;
        }
    }

    /// Starts every env on its first deal again and writes the observations.
    pub fn reset(&mut self, out: &mut StepBuffers<'_>) -> Result<(), DuelError> {
        for i in 0..self.len() {
            self.deals[i] = 0;
            self.states[i] = self.deal(i, 0)?;
        }
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        self.write(out);
        Ok(())
    }

    /// Applies `actions[i]` (an action id) to env `i`. Every action is checked first; an
    /// illegal one is refused with no env changed.
    pub fn step(&mut self, actions: &[i64], out: &mut StepBuffers<'_>) -> Result<(), DuelError> {
        if actions.len() != self.len() {
            return Err(DuelError::IllegalAction {
                action: format!(
                    "a batch of {} actions for {} envs",
                    actions.len(),
                    self.len()
                ),
                legal: vec![],
            });
        }
        for (i, (&id, state)) in actions.iter().zip(&self.states).enumerate() {
            let action = usize::try_from(id).ok().and_then(Action::from_id);
            if !action.is_some_and(|a| state.is_legal(a)) {
                return Err(DuelError::IllegalAction {
                    action: format!("id {id} in env {i}"),
                    legal: state.legal_actions(),
                });
            }
        }
        let (seed, rules) = (self.seed, self.rules);
        self.states
            .par_iter_mut()
            .zip(self.deals.par_iter_mut())
            .zip(actions.par_iter())
            .zip(out.rewards.par_chunks_mut(2))
            .zip(out.terminated.par_iter_mut())
            .with_min_len(PARALLEL_MIN)
            .enumerate()
            .for_each(|(i, ((((state, deals), &id), rewards), done))| {
                advance(state, deals, id, rewards, done, (seed, i as u64), rules);
            });
        self.write(out);
        Ok(())
    }

    fn write(&self, out: &mut StepBuffers<'_>) {
        self.states
            .par_iter()
            .zip(out.obs.par_chunks_mut(OBSERVATION_SIZE))
            .zip(out.mask.par_chunks_mut(NUM_ACTIONS))
            .zip(out.players.par_iter_mut())
            .with_min_len(PARALLEL_MIN)
            .for_each(|(((state, obs), mask), player)| {
                let seat = state.current_player().unwrap_or(0);
                state.encode_observation(seat, [0, 0], obs);
                write_mask(state.legal_mask(), mask);
                *player = i64::from(seat);
            });
    }
}
