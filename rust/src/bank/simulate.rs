//! Monte Carlo of whole deals: four tableaux and a trump card from a shuffled shoe, with
//! T2, T3 and T4 each resolved against T1.
//!
//! Determinism: the `n` deals are split into fixed chunks of [`CHUNK`] deals. Chunk `k` uses
//! its own `ChaCha8Rng`, seeded with `seed_from_u64(seed)` and then `set_stream(k)`, so its
//! deals do not depend on which thread runs it. Chunk results are integer counts, summed in
//! chunk order. The result is the same for any number of threads.

use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::error::BankError;
use super::shoe::{check_copies, Deal, DEAL_SIZE};
use crate::card::{shoe_pack, Card, GameRng};

/// Deals per chunk: the unit of parallel work and of seeding.
pub const CHUNK: u64 = 4096;

/// The z value of the 95% Wilson intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Counts from `n` simulated deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub n: u64,
    pub seed: u64,
    /// `counts[t][o]`: deals where tableau `T(t + 2)` had outcome `o` ([`super::Outcome::index`]).
    pub counts: [[u64; 3]; 3],
    /// `joint[9·o2 + 3·o3 + o4]`: deals with outcomes `o2`, `o3`, `o4` on T2, T3, T4.
    pub joint: [u64; 27],
}

impl Simulation {
    fn empty(n: u64, seed: u64) -> Simulation {
        Simulation {
            n,
            seed,
            counts: [[0; 3]; 3],
            joint: [0; 27],
        }
    }

    fn add(&mut self, other: &Simulation) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x += y;
            }
        }
        for (x, y) in self.joint.iter_mut().zip(other.joint.iter()) {
            *x += y;
        }
    }
}

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Simulates `n` deals. Each deal shuffles `shoe` (the cards left; the full 104-card shoe
/// when `None`) afresh and deals from the top. `threads`: `None` uses rayon's global pool,
/// `Some(k)` a local pool of `k` threads; the result does not depend on it.
pub fn simulate(
    n: u64,
    seed: u64,
    shoe: Option<&[Card]>,
    threads: Option<usize>,
) -> Result<Simulation, BankError> {
    simulate_from(n, seed, 0, shoe, threads)
}

/// Deals `start..start + n` of the run [`simulate`] makes with `seed`, for splitting a long
/// run across machines. `start` must be a multiple of [`CHUNK`] (deals of one chunk share a
/// random stream, so a run splits only between chunks); the pieces' counts add up to the
/// whole run's, exactly.
pub fn simulate_from(
    n: u64,
    seed: u64,
    start: u64,
    shoe: Option<&[Card]>,
    threads: Option<usize>,
) -> Result<Simulation, BankError> {
    if start % CHUNK != 0 {
        return Err(BankError::InvalidArgument(format!(
            "start must be a multiple of {CHUNK} (a whole chunk), got {start}"
        )));
    }
    let first = start / CHUNK;
    let cards = match shoe {
        Some(cards) => {
            check_copies(cards)?;
            cards.to_vec()
        }
        None => shoe_pack(),
    };
    if cards.len() < DEAL_SIZE {
        return Err(BankError::TooFewCards {
            needed: DEAL_SIZE,
            left: cards.len(),
        });
    }
    let run = || run_chunks(n, seed, first, &cards);
    match threads {
        None => Ok(run()),
        Some(0) => Err(BankError::InvalidArgument(
            "threads must be at least 1 (or None for the default pool)".into(),
        )),
        Some(k) => rayon::ThreadPoolBuilder::new()
            .num_threads(k)
            .build()
            .map(|pool| pool.install(run))
            .map_err(|e| BankError::InvalidArgument(format!("cannot start {k} threads: {e}"))),
    }
}

fn run_chunks(n: u64, seed: u64, first: u64, cards: &[Card]) -> Simulation {
    let chunks = n.div_ceil(CHUNK);
    let parts: Vec<Simulation> = (0..chunks)
        .into_par_iter()
        .map(|k| run_chunk(seed, first + k, CHUNK.min(n - k * CHUNK), cards))
        .collect();
    let mut total = Simulation::empty(n, seed);
    for part in &parts {
        total.add(part);
    }
    total
}

fn run_chunk(seed: u64, chunk: u64, deals: u64, cards: &[Card]) -> Simulation {
    let mut rng = GameRng::seed_from_u64(seed);
    rng.set_stream(chunk);
    let mut cards = cards.to_vec();
    let mut out = Simulation::empty(deals, seed);
    for _ in 0..deals {
        // A partial Fisher–Yates shuffle: the top 17 cards are a uniform ordered sample,
        // whatever order the previous deal left.
        for i in 0..DEAL_SIZE {
            let j = rng.random_range(i..cards.len());
            cards.swap(i, j);
        }
        let results = Deal::from_top(&cards).results();
        let mut cell = 0;
        for (t, r) in results.iter().enumerate() {
            let o = r.outcome.index();
            out.counts[t][o] += 1;
            cell = cell * 3 + o;
        }
        out.joint[cell] += 1;
    }
    out
}
