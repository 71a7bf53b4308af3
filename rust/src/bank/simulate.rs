//! Monte Carlo of whole deals: four tableaux and a trump card from a shuffled shoe, with
//! T2, T3 and T4 each resolved against T1.
//!
//! Determinism: the `n` deals are split into fixed chunks of [`CHUNK`] deals. Chunk `k` uses
//! its own `ChaCha8Rng`, seeded with `seed_from_u64(seed)` and then `set_stream(k)`, so its
//! deals do not depend on which thread runs it. Chunk results are integer counts, summed in
//! chunk order. The result is the same for any number of threads, and a run can be split
//! at chunk boundaries (`start`, a multiple of [`CHUNK`]) with the same total.

use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::error::BankError;
use super::shoe::{check_copies, Deal, DEAL_SIZE};
use crate::card::{shoe_pack, Card};
use crate::control::Control;
use crate::rng::GameRng;

/// Deals per chunk: the unit of parallel work and of seeding.
pub const CHUNK: u64 = 4096;

/// Counts from `n` simulated deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    /// How many deals were simulated.
    pub n: u64,
    /// The seed of the run.
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

/// Simulates deals `start .. start + n` of the run with `seed` (`start` a multiple of
/// `CHUNK`). Each deal shuffles `shoe` (the cards left; the full 104-card shoe when
/// `None`) afresh and deals from the top. Runs on the current rayon pool; the result does
/// not depend on its size. Each deal counts one on `control`; once it is cancelled, the
/// counts are empty.
pub fn simulate(
    n: u64,
    seed: u64,
    shoe: Option<&[Card]>,
    start: u64,
    control: Control<'_>,
) -> Result<Simulation, BankError> {
    if !start.is_multiple_of(CHUNK) || start.checked_add(n).is_none() {
        return Err(BankError::InvalidArgument(format!(
            "start must be a multiple of {CHUNK} with start + n below 2**64, got start={start}"
        )));
    }
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
    Ok(run_chunks(n, seed, start / CHUNK, &cards, control))
}

fn run_chunks(n: u64, seed: u64, first: u64, cards: &[Card], control: Control<'_>) -> Simulation {
    // Counts add up in any order, so a parallel reduce needs no buffer of chunk results.
    let total = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            // `None` ends the other chunks' jobs too.
            (!control.cancelled()).then(|| {
                let deals = CHUNK.min(n - k * CHUNK);
                let counts = run_chunk(seed, first + k, deals, cards);
                control.advance(deals);
                counts
            })
        })
        .try_reduce(
            || Simulation::empty(0, seed),
            |mut a, b| {
                a.add(&b);
                Some(a)
            },
        );
    let mut total = total.unwrap_or_else(|| Simulation::empty(0, seed));
    total.n = n;
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
