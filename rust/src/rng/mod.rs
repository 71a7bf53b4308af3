//! Every random stream of ecarte, in one place: the generator, how seeds derive from
//! seeds, and which stream each random thing draws from.
//!
//! **The generator.** [`GameRng`] is the `ChaCha8` stream of `rand_chacha`'s
//! `ChaCha8Rng`, seeded with `seed_from_u64`, word for word (see [`chacha`]). Its output is
//! specified and portable, so a seed gives the same draws on every platform; the crate
//! versions are pinned in `Cargo.toml`.
//!
//! **Derived seeds.** [`derive_seed`]`(seed, index)` is the first `u64` of stream `index`
//! of the generator seeded with `seed`: independent children of one seed, whatever the
//! thread count or the order in which they are made.
//!
//! **The stream layout.** Under a run's seed `s`:
//! - item `i` of a batch (a match, an env of a vector env, a seed of the arena, a chunk):
//!   [`item_seed`]`(s, i)` = `derive_seed(s, i)`;
//! - deal `k` of the match with seed `m` is shuffled by `rng_from_seed(derive_seed(m, k))`
//!   (`duel::matches::match_deal`);
//! - the agent in seat `t` of the match with seed `m` draws from
//!   `rng_from_seed(`[`agent_seed`]`(m, t))`, `derive_seed(m, 2**63 + t)`, for the whole
//!   match; seat 2 and up are helpers (a hint agent);
//! - a search agent (PIMC, the expert) draws the worlds of one decision from
//!   [`decision_seed`]`(agent seed, observation key)`: the same observation gives the same
//!   decision, whatever deal it came from;
//! - deal `i` of a batch of independent deals (`simulate` without matches) is deal `i` of
//!   the match with seed `s`, and both policies share stream `i` of the generator seeded
//!   with `s ^ POLICY_KEY` ([`policy_rng`]): one generator set-up per deal;
//! - a bank shoe with seed `s` is shuffled by stream 0 of `rng_from_seed(s)` and its
//!   `n`-th run-out reshuffle by stream `n` ([`run_out_rng`]); a punter's shuffle that
//!   names no seed uses [`punter_shuffle_seed`]`(s, deals played)`.

pub(crate) mod chacha;

use rand::seq::SliceRandom;
use rand::SeedableRng;

use chacha::chacha8_block;
pub use chacha::{chacha8_pairs, BlockStart, ChaCha8Stream};

/// The generator behind every random draw (see the module docs). It computes one 64-byte
/// block at a time, or two with AVX2, where `ChaCha8Rng` computes four: a deal draws a few
/// words from each of its generators, so most of those four blocks went unused.
/// `chacha::tests::game_rng_is_chacha8rng_word_for_word` checks the equality, both ways.
pub type GameRng = ChaCha8Stream;

/// A generator for `seed`.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The seed of child `index` of `seed`: the first output of `ChaCha8Rng` seeded with
/// `seed` on stream `index`. Independent of thread count and of every other child.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    SeedDeriver::new(seed).derive(index)
}

/// [`derive_seed`] for one `seed` and many indices: the key is expanded once, and each
/// index costs one `ChaCha8` block.
#[derive(Clone, Copy, Debug)]
pub struct SeedDeriver {
    key: [u32; 8],
}

impl SeedDeriver {
    /// The deriver of the children of `seed`.
    pub fn new(seed: u64) -> SeedDeriver {
        SeedDeriver {
            key: ChaCha8Stream::key_of_seed(seed),
        }
    }

    /// `derive_seed(seed, index)`.
    pub fn derive(&self, index: u64) -> u64 {
        let start = self.block_start(index);
        Self::seed_of_block(&chacha8_block(start.key, start.counter, start.stream))
    }

    /// The block whose first words are `derive(index)`, to compute alongside others (see
    /// [`chacha8_pairs`]).
    pub fn block_start(&self, index: u64) -> BlockStart<'_> {
        BlockStart {
            key: &self.key,
            counter: 0,
            stream: index,
        }
    }

    /// The derived seed in the words of its block.
    pub fn seed_of_block(words: &[u32]) -> u64 {
        u64::from(words[0]) | (u64::from(words[1]) << 32)
    }
}

/// The seed of item `index` of a batch run with `seed`: a match of `simulate`, an env of
/// a vector env, a seed of the arena.
pub fn item_seed(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index)
}

/// The first [`derive_seed`] index of agents' seeds; the deals of a match use the indices
/// from 0 up, so an agent never shares a stream with a deal.
pub const AGENT_STREAM: u64 = 1 << 63;

/// The seed of the agent in `seat` (0 or 1; 2 and up for helpers such as a hint agent) of
/// the match with seed `match_seed`. The seed belongs to the seat, not to the agent: in the
/// arena's seat-swapped rematch each agent draws what the other drew in that seat.
pub fn agent_seed(match_seed: u64, seat: u64) -> u64 {
    derive_seed(match_seed, AGENT_STREAM.wrapping_add(seat))
}

/// Mixed into a batch's seed for the key of its policy streams.
const POLICY_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// The key of the generator whose stream `i` both policies of deal `i` of a batch of
/// independent deals draw from (see [`policy_rng`]).
pub fn policy_key(batch_seed: u64) -> [u32; 8] {
    ChaCha8Stream::key_of_seed(batch_seed ^ POLICY_KEY)
}

/// The generator both policies of deal `index` of a batch of independent deals draw from.
pub fn policy_rng(batch_seed: u64, index: u64) -> GameRng {
    let mut rng = rng_from_seed(batch_seed ^ POLICY_KEY);
    rng.set_stream(index);
    rng
}

/// The seed of the worlds a search agent with seed `agent_seed` samples for the
/// observation whose stable key is `observation_key` (see
/// `duel::observe::Observation::key`).
pub fn decision_seed(agent_seed: u64, observation_key: u64) -> u64 {
    derive_seed(agent_seed, observation_key)
}

/// The generator of a search decision's own draws beyond its worlds (the expert's
/// resampling), from the decision's seed.
pub fn decision_rng(decision_seed: u64) -> GameRng {
    rng_from_seed(derive_seed(decision_seed, 1))
}

/// The generator of the `n`-th run-out reshuffle (n = 1, 2, …) of the bank shoe with seed
/// `shoe_seed`: stream `n` of its generator, so it never repeats the initial shuffle
/// (stream 0).
pub fn run_out_rng(shoe_seed: u64, n: u32) -> GameRng {
    let mut rng = rng_from_seed(shoe_seed);
    rng.set_stream(u64::from(n));
    rng
}

/// The first [`derive_seed`] index of the punters' shuffles of a bank table.
const PUNTER_SHUFFLE_STREAM: u64 = 1 << 62;

/// The seed of a punter's shuffle that names none, after `deals` deals at the table with
/// seed `table_seed`: a session replays from its seed alone.
pub fn punter_shuffle_seed(table_seed: u64, deals: u64) -> u64 {
    derive_seed(table_seed, PUNTER_SHUFFLE_STREAM.wrapping_add(deals))
}

/// The generator of a vector env's `random_actions`, from the env's seed.
pub fn sampler_rng(seed: u64) -> GameRng {
    rng_from_seed(derive_seed(seed, u64::MAX))
}

/// Slices this long or longer fall back to `rand`'s own shuffle.
const SHUFFLE_TABLE_LEN: usize = 128;

/// For `n` in `2..SHUFFLE_TABLE_LEN`: `rand`'s `IncreasingUniform` chunk that starts at
/// `n`, the largest product `n (n + 1) ... (n + count - 1)` below 2^32 and its `count`;
/// and `ceil(2^64 / n)`, with which a `u32` divides by `n` as one multiplication (Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019).
const SHUFFLE_TABLE: [(u32, u8, u64); SHUFFLE_TABLE_LEN] = {
    let mut table = [(0, 0, 0); SHUFFLE_TABLE_LEN];
    let mut n = 2;
    while n < SHUFFLE_TABLE_LEN {
        let mut product = n as u32;
        let mut current = n as u32 + 1;
        while let Some(p) = product.checked_mul(current) {
            product = p;
            current += 1;
        }
        table[n] = (product, (current - n as u32) as u8, u64::MAX / n as u64 + 1);
        n += 1;
    }
    table
};

/// Shuffles `items` as `rand`'s `SliceRandom::shuffle` does with `rng`, draw for draw: a
/// Fisher–Yates pass whose swap indices are unpacked from one draw per chunk
/// (`IncreasingUniform`). Here the chunks come from a table and the divisions are
/// multiplications, a third of the shuffle's instructions.
pub fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    if items.len() >= SHUFFLE_TABLE_LEN {
        items.shuffle(rng);
        return;
    }
    // Index 0 swaps with itself and draws nothing.
    let mut chunk = 0u32;
    let mut left = 0u8;
    for i in 1..items.len() {
        let n = i as u32 + 1;
        let (bound, count, inverse) = SHUFFLE_TABLE[n as usize];
        if left == 0 {
            chunk = rng.below(bound);
            left = count;
        }
        left -= 1;
        let index = if left == 0 {
            chunk
        } else {
            let quotient = ((u128::from(inverse) * u128::from(chunk)) >> 64) as u32;
            let index = chunk - quotient * n;
            chunk = quotient;
            index
        };
        items.swap(i, index as usize);
    }
}

/// Shuffles `items` in place with the generator for `seed`.
pub fn shuffle_with_seed<T>(items: &mut [T], seed: u64) {
    shuffle(items, &mut rng_from_seed(seed));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::piquet_pack;

    #[test]
    fn derived_seeds_differ_by_index_and_seed() {
        assert_eq!(derive_seed(1, 2), derive_seed(1, 2));
        assert_ne!(derive_seed(1, 2), derive_seed(1, 3));
        assert_ne!(derive_seed(1, 2), derive_seed(2, 2));
    }

    #[test]
    fn shuffle_is_rand_shuffle() {
        for len in 0..=SHUFFLE_TABLE_LEN + 2 {
            for seed in 0..20 {
                let mut a: Vec<usize> = (0..len).collect();
                let mut b = a.clone();
                let (mut x, mut y) = (rng_from_seed(seed), rng_from_seed(seed));
                a.shuffle(&mut x);
                shuffle(&mut b, &mut y);
                assert_eq!(a, b, "{len} {seed}");
                assert_eq!(x, y);
            }
        }
        for seed in 0..5000 {
            let mut a = piquet_pack();
            let mut b = piquet_pack();
            a.shuffle(&mut rng_from_seed(seed));
            shuffle_with_seed(&mut b, seed);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn shuffle_table_divides_exactly() {
        use rand::Rng;
        let mut words = rng_from_seed(1);
        for (n, &(_, _, inverse)) in SHUFFLE_TABLE.iter().enumerate().skip(2) {
            let n = n as u32;
            for x in [0, 1, n - 1, n, n + 1, u32::MAX, u32::MAX - 1]
                .into_iter()
                .chain((0..2000).map(|_| words.next_u32()))
            {
                let quotient = ((u128::from(inverse) * u128::from(x)) >> 64) as u32;
                assert_eq!(quotient, x / n, "{x} / {n}");
            }
        }
    }

    #[test]
    fn shuffle_is_seeded() {
        let mut a = piquet_pack();
        let mut b = piquet_pack();
        shuffle_with_seed(&mut a, 7);
        shuffle_with_seed(&mut b, 7);
        assert_eq!(a, b);
        shuffle_with_seed(&mut b, 8);
        assert_ne!(a, b);
    }
}
