//! A batch of duel deals stepped in lockstep, writing observations into caller-owned
//! buffers (EnvPool/pgx style). A finished deal is scored and replaced by the next one at
//! once, so every env always has a player to move.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::random::{random_action_id, with_bit_instructions};
use crate::duel::action::{write_mask, Action, NUM_ACTIONS};
use crate::duel::matches::Match;
use crate::duel::observe::{COMPACT_OBSERVATION_SIZE, OBSERVATION_SIZE};
use crate::duel::refusal::{Reason, ReasonCode, Refusal};
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError};
use crate::rng::{self, GameRng, SeedDeriver};

/// Env `i` plays the endless match ([`Match::endless`]) with seed `derive_seed(seed, i)`
/// and first dealer 0: its `k`-th deal is shuffled with `derive_seed(derive_seed(seed, i), k)`
/// and dealt by seat `k % 2`. Both seats are the caller's; each deal's points are the
/// rewards.
#[derive(Clone, Debug)]
pub struct VecEnv {
    games: Vec<Match>,
    rules: Rules,
    /// For `random_actions`, seeded from the env's seed.
    sampler: GameRng,
    /// Each env's legal actions (`legal_mask`), kept for the checks and `random_actions`.
    legal: Vec<u128>,
}

/// Applies a checked action to one env's match, which scores a finished deal and deals the
/// next; the rewards are the deal's points, won and lost.
fn advance(game: &mut Match, id: i64, rewards: &mut [f32], terminated: &mut u8) {
    rewards.fill(0.0);
    *terminated = 0;
    let Some(action) = Action::from_id(id as usize) else {
        return;
    };
    if let Ok(Some(outcome)) = game.apply_unchecked(action) {
        let points = f32::from(outcome.points);
        rewards[outcome.winner as usize] = points;
        rewards[1 - outcome.winner as usize] = -points;
        *terminated = 1;
    }
}

/// Where the observations go: the float32 tensor ([`OBSERVATION_SIZE`] entries per env)
/// or the compact layout ([`COMPACT_OBSERVATION_SIZE`] bytes per env), see
/// [`crate::duel::observe`].
pub enum ObsBuffer<'a> {
    Float32(&'a mut [f32]),
    Compact(&'a mut [u8]),
}

/// Output buffers of one step; every slice holds one row per env. The flags (`mask`,
/// `terminated`) are bytes 0 and 1: Python's `bool` arrays view them, and Python may store
/// any byte there, which a `u8` can hold and a `bool` cannot.
pub struct StepBuffers<'a> {
    pub obs: ObsBuffer<'a>,
    pub mask: &'a mut [u8],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [u8],
    pub players: &'a mut [i64],
}

/// How a `StepBuffers` takes its observations (see `ObsBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObsLayout {
    /// The float32 tensor, `OBSERVATION_SIZE` entries an env.
    Float32,
    /// The compact bytes, `COMPACT_OBSERVATION_SIZE` an env.
    Compact,
}

/// Owned output buffers for `n` envs, for Rust callers (benches, profilers, tests).
pub struct OwnedBuffers {
    layout: ObsLayout,
    obs: Vec<f32>,
    compact: Vec<u8>,
    /// The legal actions of each env, one byte an action.
    pub mask: Vec<u8>,
    /// Each env's reward for its last step.
    pub rewards: Vec<f32>,
    /// 1 where the env's last step ended an episode.
    pub terminated: Vec<u8>,
    /// The seat to move in each env.
    pub players: Vec<i64>,
}

impl OwnedBuffers {
    /// Buffers for `n` envs in `layout`.
    pub fn new(n: usize, layout: ObsLayout) -> OwnedBuffers {
        // Only the layout's observation buffer is allocated.
        let (floats, bytes) = match layout {
            ObsLayout::Compact => (0, n * COMPACT_OBSERVATION_SIZE),
            ObsLayout::Float32 => (n * OBSERVATION_SIZE, 0),
        };
        OwnedBuffers {
            layout,
            obs: vec![0.0; floats],
            compact: vec![0; bytes],
            mask: vec![0; n * NUM_ACTIONS],
            rewards: vec![0.0; n * 2],
            terminated: vec![0; n],
            players: vec![0; n],
        }
    }

    /// The float32 observations (empty in the compact layout).
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }

    /// The compact observations (empty in the float32 layouts).
    pub fn compact(&self) -> &[u8] {
        &self.compact
    }

    /// The buffers as a step writes them.
    pub fn buffers(&mut self) -> StepBuffers<'_> {
        StepBuffers {
            obs: match self.layout {
                ObsLayout::Float32 => ObsBuffer::Float32(&mut self.obs),
                ObsLayout::Compact => ObsBuffer::Compact(&mut self.compact),
            },
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            players: &mut self.players,
        }
    }
}

impl VecEnv {
    /// `n` envs, env `i` playing the endless match of `derive_seed(seed, i)`.
    pub fn new(n: usize, seed: u64, rules: Rules) -> Result<VecEnv, DuelError> {
        rules.validate().map_err(DuelError::InvalidRules)?;
        let deriver = SeedDeriver::new(seed);
        let games = (0..n as u64)
            .map(|i| Match::endless(deriver.derive(i), rules))
            .collect::<Result<Vec<Match>, DuelError>>()?;
        Ok(VecEnv {
            legal: games.iter().map(|g| g.deal.legal_mask()).collect(),
            games,
            rules,
            sampler: rng::sampler_rng(seed),
        })
    }

    /// How many envs.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The rules every env plays.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether there are no envs.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The deal in progress of env `i`.
    pub fn state(&self, i: usize) -> Option<&DealState> {
        self.games.get(i).map(|g| &g.deal)
    }

    /// Copies of every env's deal in progress (for tests and tools; the step never copies).
    pub fn states(&self) -> Vec<DealState> {
        self.games.iter().map(|g| g.deal).collect()
    }

    /// One uniformly random legal action id per env, from the env's own seeded generator.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        let sampler = &mut self.sampler;
        with_bit_instructions(
            #[inline(always)]
            || {
                for (&legal, a) in self.legal.iter().zip(out.iter_mut()) {
                    *a = random_action_id(legal, sampler) as i64;
                }
            },
        );
    }

    /// Starts every env on its first deal again and writes the observations.
    pub fn reset(&mut self, out: &mut StepBuffers<'_>) -> Result<(), DuelError> {
        for game in &mut self.games {
            *game = Match::endless(game.seed, self.rules)?;
        }
        out.rewards.fill(0.0);
        out.terminated.fill(0);
        self.write(None, out);
        Ok(())
    }

    /// Applies `actions[i]` (an action id) to env `i`. Every action is checked first; an
    /// illegal one is refused with no env changed.
    pub fn step(&mut self, actions: &[i64], out: &mut StepBuffers<'_>) -> Result<(), DuelError> {
        check_batch_len(actions.len(), self.len())?;
        for (i, (&id, &legal)) in actions.iter().zip(&self.legal).enumerate() {
            let is_legal = u32::try_from(id).is_ok_and(|id| id < 128 && legal >> id & 1 == 1);
            if !is_legal {
                let action = usize::try_from(id).ok().and_then(Action::from_id);
                return Err(illegal_action_in_env(id, action, i, &self.games[i].deal));
            }
        }
        self.write(Some(actions), out);
        Ok(())
    }

    /// Applies `actions` (checked) if given, then writes every env's outputs, in one pass
    /// over the envs.
    fn write(&mut self, actions: Option<&[i64]>, out: &mut StepBuffers<'_>) {
        // The observation rows of each block, in the buffer's layout.
        let obs: Vec<ObsRows<'_>> = match &mut out.obs {
            ObsBuffer::Compact(obs) => obs
                .chunks_mut(BLOCK * COMPACT_OBSERVATION_SIZE)
                .map(ObsRows::Compact)
                .collect(),
            // Every entry is rewritten each step: the caller may have written to the
            // buffer (a NumPy array handed to a learner), so nothing in it is trusted.
            ObsBuffer::Float32(obs) => obs
                .chunks_mut(BLOCK * OBSERVATION_SIZE)
                .map(ObsRows::Float32)
                .collect(),
        };
        let blocks: Vec<Block<'_>> = self
            .games
            .chunks_mut(BLOCK)
            .zip(self.legal.chunks_mut(BLOCK))
            .zip(out.rewards.chunks_mut(BLOCK * 2))
            .zip(out.terminated.chunks_mut(BLOCK))
            .zip(out.mask.chunks_mut(BLOCK * NUM_ACTIONS))
            .zip(out.players.chunks_mut(BLOCK))
            .zip(obs)
            .enumerate()
            .map(
                |(b, ((((((games, legal), rewards), terminated), mask), players), obs))| Block {
                    actions: actions.map(|a| &a[b * BLOCK..b * BLOCK + games.len()]),
                    games,
                    legal,
                    rewards,
                    terminated,
                    mask,
                    players,
                    obs,
                },
            )
            .collect();
        run_blocks(blocks);
    }
}

/// The error for the action id `id` (as the caller gave it) in env `env`, whose deal is
/// `state`: why the action it names is refused there, or that it names none. Cold: out of
/// the loops that check every env's action.
#[cold]
pub fn illegal_action_in_env(
    id: impl std::fmt::Display,
    action: Option<Action>,
    env: usize,
    state: &DealState,
) -> DuelError {
    let turn = state.turn();
    let mut refusal = match action {
        Some(action) => turn.refusal(None, action),
        None => Refusal {
            reason: Reason::new(ReasonCode::NotAnAction, None, Some(state.phase())),
            named: String::new(),
            legal: turn.legal_actions(),
        },
    };
    refusal.named = format!("id {id} in env {env}");
    DuelError::IllegalAction(Box::new(refusal))
}

/// An error unless a batch holds one action per env.
pub fn check_batch_len(actions: usize, envs: usize) -> Result<(), DuelError> {
    if actions == envs {
        return Ok(());
    }
    Err(DuelError::InvalidBatch { actions, envs })
}

/// Envs per job: a step costs some 50 to 100 ns of CPU per env, so a job of 256 envs is
/// 13 to 26 µs of work, and a step of 4 096 envs is 16 jobs to balance over the threads
/// (with 512 envs a job, steps of 4 096 envs scattered more; with 128, they were slower).
const BLOCK: usize = 256;

/// Runs every block on the calling thread and on `threads - 1` jobs handed to rayon's
/// pool. Each of them starts at its own share of the blocks (the caller at the first) and
/// goes on round the list, taking every block not yet taken, so a worker that wakes late
/// leaves its share to the others (the step still waits for it to start, then to find
/// nothing left). Measured on 4 096 envs on these 2-core machines
/// (`BENCHMARKS.md`, third speed pass):
/// - the caller working too, rather than waiting for two workers to be woken (`par_iter`
///   from outside the pool; a wake-up here takes tens of µs), saved about 5 ns per
///   env-step;
/// - starting each one at its own share, so that a block is mostly stepped by the same
///   core from step to step and its envs stay in that core's cache, saved 5 to 7 ns more
///   than all of them taking blocks from one shared counter;
/// - keeping a worker awake after each step ([`KEEP_AWAKE`]) saved about 10 ns more.
///
/// Which thread steps which env changes no result.
fn run_blocks(blocks: Vec<Block<'_>>) {
    let blocks: Vec<Mutex<Option<Block<'_>>>> =
        blocks.into_iter().map(|b| Mutex::new(Some(b))).collect();
    let participants = rayon::current_num_threads().clamp(1, blocks.len().max(1));
    let work = |p: usize| {
        let start = p * blocks.len() / participants;
        for k in 0..blocks.len() {
            let slot = &blocks[(start + k) % blocks.len()];
            // The guard is dropped before the block runs, so a panicking block cannot
            // poison it.
            let block = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(block) = block {
                block.run();
            }
        }
    };
    let epoch = STEP_EPOCH.fetch_add(1, Ordering::Relaxed) + 1;
    rayon::in_place_scope(|scope| {
        for p in 1..participants {
            let work = &work;
            scope.spawn(move |_| work(p));
        }
        work(0);
    });
    if participants > 1 {
        // Keep a worker awake for the next step: it spins until a step starts or
        // `KEEP_AWAKE` has passed, and then finds that step's job at once instead of
        // being woken for it. While it spins it runs any job queued in the pool (the next
        // step's, another call's), so it delays none.
        rayon::spawn(move || {
            let start = Instant::now();
            while STEP_EPOCH.load(Ordering::Relaxed) == epoch && start.elapsed() < KEEP_AWAKE {
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    std::hint::spin_loop();
                }
            }
        });
    }
}

/// Steps started by any `VecEnv`: a change ends the spin of the worker kept awake. Only
/// the change matters (no data is passed through it), so every access is relaxed.
static STEP_EPOCH: AtomicUsize = AtomicUsize::new(0);

/// How long a worker stays awake after a step, waiting for the next one. A learner's
/// loop that comes back within it (the bench's `random_actions` and Python's own overhead
/// take some 40 µs on 4 096 envs) gets a worker at once; a slower loop costs at most this
/// much spinning of one core per step. Measured (`BENCHMARKS.md`, third speed pass): 100
/// and 200 µs did equally well, about 10 ns per env-step better than no spin.
const KEEP_AWAKE: Duration = Duration::from_micros(100);

/// The observation rows of one block of envs.
enum ObsRows<'a> {
    Compact(&'a mut [u8]),
    Float32(&'a mut [f32]),
}

/// One block of envs with their actions and output slots, stepped on one thread.
struct Block<'a> {
    actions: Option<&'a [i64]>,
    games: &'a mut [Match],
    legal: &'a mut [u128],
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    mask: &'a mut [u8],
    players: &'a mut [i64],
    obs: ObsRows<'a>,
}

impl Block<'_> {
    /// Applies the actions if any, then writes the outputs of every env of the block.
    fn run(mut self) {
        for (j, game) in self.games.iter_mut().enumerate() {
            if let Some(actions) = self.actions {
                advance(
                    game,
                    actions[j],
                    &mut self.rewards[2 * j..2 * j + 2],
                    &mut self.terminated[j],
                );
            }
            let state = &game.deal;
            let seat = state.current_player().unwrap_or(0);
            self.legal[j] = state.legal_mask();
            write_mask(
                self.legal[j],
                &mut self.mask[j * NUM_ACTIONS..(j + 1) * NUM_ACTIONS],
            );
            self.players[j] = i64::from(seat);
            match &mut self.obs {
                ObsRows::Compact(rows) => state.encode_compact(
                    seat,
                    [0, 0],
                    &mut rows[j * COMPACT_OBSERVATION_SIZE..(j + 1) * COMPACT_OBSERVATION_SIZE],
                ),
                ObsRows::Float32(rows) => state.encode_observation(
                    seat,
                    [0, 0],
                    &mut rows[j * OBSERVATION_SIZE..(j + 1) * OBSERVATION_SIZE],
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::observe::{expand_compact, Compact};

    /// Step 0 resets `env`; every later step applies `actions`.
    fn reset_or_step(env: &mut VecEnv, step: usize, actions: &[i64], out: &mut OwnedBuffers) {
        if step == 0 {
            env.reset(&mut out.buffers()).unwrap();
        } else {
            env.step(actions, &mut out.buffers()).unwrap();
        }
    }

    #[test]
    fn both_layouts_give_the_same_observations() {
        let n = 16;
        let layouts = [ObsLayout::Float32, ObsLayout::Compact];
        let mut envs: Vec<VecEnv> = (0..2)
            .map(|_| VecEnv::new(n, 9, Rules::default()).unwrap())
            .collect();
        let mut buffers: Vec<OwnedBuffers> =
            layouts.map(|layout| OwnedBuffers::new(n, layout)).into();
        let mut actions = vec![0i64; n];
        let mut finished = 0;
        for step in 0..600 {
            for (env, out) in envs.iter_mut().zip(&mut buffers) {
                reset_or_step(env, step, &actions, out);
            }
            let [full, compact] = &buffers[..] else {
                unreachable!()
            };
            assert_eq!(full.mask, compact.mask);
            assert_eq!(full.rewards, compact.rewards);
            assert_eq!(full.players, compact.players);
            let mut expanded = vec![0.0; OBSERVATION_SIZE];
            for (row, packed) in full
                .obs()
                .chunks(OBSERVATION_SIZE)
                .zip(compact.compact().chunks(COMPACT_OBSERVATION_SIZE))
            {
                let packed: Compact = packed.try_into().unwrap();
                expand_compact(&packed, &mut expanded);
                assert_eq!(row, &expanded[..], "step {step}");
            }
            finished += full
                .terminated
                .iter()
                .map(|&t| usize::from(t))
                .sum::<usize>();
            envs[0].random_actions(&mut actions);
            for env in &mut envs[1..] {
                env.random_actions(&mut vec![0; n]);
            }
        }
        assert!(finished > 100, "only {finished} deals finished");
    }

    /// Several blocks, the last one partial, stepped on one thread and on three: every
    /// env steps once, by its own action, and both give the same outputs and deals.
    #[test]
    fn thread_count_changes_no_output() {
        let n = 2 * BLOCK + 17;
        let pools = [1, 3].map(|threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        });
        let mut envs: Vec<VecEnv> = (0..2)
            .map(|_| VecEnv::new(n, 5, Rules::default()).unwrap())
            .collect();
        let mut buffers: Vec<OwnedBuffers> = (0..2)
            .map(|_| OwnedBuffers::new(n, ObsLayout::Float32))
            .collect();
        let mut actions = vec![0i64; n];
        for step in 0..60 {
            let before = envs[0].states();
            for ((env, out), pool) in envs.iter_mut().zip(&mut buffers).zip(&pools) {
                pool.install(|| reset_or_step(env, step, &actions, out));
            }
            let [one, three] = &buffers[..] else {
                unreachable!()
            };
            assert_eq!(envs[0].states(), envs[1].states(), "step {step}");
            for (i, (after, mut expected)) in envs[0].states().iter().zip(before).enumerate() {
                if step > 0 && one.terminated[i] == 0 {
                    expected.apply_unchecked(Action::from_id(actions[i] as usize).unwrap());
                    assert_eq!(after, &expected, "env {i} at step {step}");
                }
            }
            assert_eq!(one.obs(), three.obs(), "step {step}");
            assert_eq!(one.mask, three.mask);
            assert_eq!(one.rewards, three.rewards);
            assert_eq!(one.terminated, three.terminated);
            assert_eq!(one.players, three.players);
            envs[0].random_actions(&mut actions);
            envs[1].random_actions(&mut vec![0; n]);
        }
    }
}
