//! The `ChaCha8` keystream behind every random draw: one or two 64-byte blocks at a time
//! (SSE2 rows, or AVX2 pairs where the CPU has AVX2), word for word the stream of
//! `rand_chacha::ChaCha8Rng` with the same seed, stream and position.

use rand::SeedableRng;

const CHACHA_CONSTANTS: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The eight rounds of `ChaCha8` on the rows `a`, `b`, `c`, `d` of the state held in
/// vectors (each lane one column; two blocks side by side in 256-bit vectors), given the
/// vector operations: lane-wise `add` and `xor`, a `rotate!(x, bits)` macro and the
/// in-lane word `shuffle`. Each row is an array with one vector per independent chain: the
/// rounds of one chain wait on each other, so every step is taken on all chains in turn,
/// and the CPU runs them side by side. One definition for the SSE2 and AVX2 blocks.
#[cfg(target_arch = "x86_64")]
macro_rules! chacha8_rounds {
    ($add:ident, $xor:ident, $rotate:ident, $shuffle:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        for _ in 0..4 {
            chacha8_rounds!(@quarters $add, $xor, $rotate; $a, $b, $c, $d);
            // Lane i of the rotated rows holds diagonal i: words (0, 5, 10, 15), ...
            for k in 0..$a.len() {
                $b[k] = $shuffle($b[k], 0b00_11_10_01);
                $c[k] = $shuffle($c[k], 0b01_00_11_10);
                $d[k] = $shuffle($d[k], 0b10_01_00_11);
            }
            chacha8_rounds!(@quarters $add, $xor, $rotate; $a, $b, $c, $d);
            for k in 0..$a.len() {
                $b[k] = $shuffle($b[k], 0b10_01_00_11);
                $c[k] = $shuffle($c[k], 0b01_00_11_10);
                $d[k] = $shuffle($d[k], 0b00_11_10_01);
            }
        }
    };
    // A quarter round on every lane: a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12;
    // then the same with rotations by 8 and 7.
    (@quarters $add:ident, $xor:ident, $rotate:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        for k in 0..$a.len() { $a[k] = $add($a[k], $b[k]); }
        for k in 0..$a.len() { $d[k] = $rotate!($xor($d[k], $a[k]), 16); }
        for k in 0..$a.len() { $c[k] = $add($c[k], $d[k]); }
        for k in 0..$a.len() { $b[k] = $rotate!($xor($b[k], $c[k]), 12); }
        for k in 0..$a.len() { $a[k] = $add($a[k], $b[k]); }
        for k in 0..$a.len() { $d[k] = $rotate!($xor($d[k], $a[k]), 8); }
        for k in 0..$a.len() { $c[k] = $add($c[k], $d[k]); }
        for k in 0..$a.len() { $b[k] = $rotate!($xor($b[k], $c[k]), 7); }
    };
}

/// Block `counter` of `ChaCha8` under `key` on stream `nonce`, as 16 little-endian words.
/// On `x86_64` the rows of the state are SSE2 vectors (SSE2 is part of the baseline), about
/// half the instructions of the scalar rounds; elsewhere, or under `ECARTE_PORTABLE=1`
/// (see [`crate::cpu`]), the scalar rounds.
#[inline]
pub(crate) fn chacha8_block(key: &[u32; 8], counter: u64, nonce: u64) -> [u32; 16] {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::features().sse2 {
        return chacha8_block_sse2(key, counter, nonce);
    }
    chacha8_block_portable(key, counter, nonce)
}

/// [`chacha8_block`] with the rows of the state in SSE2 vectors.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(clippy::cast_ptr_alignment)] // `_mm_storeu_si128` is an unaligned store
fn chacha8_block_sse2(key: &[u32; 8], counter: u64, nonce: u64) -> [u32; 16] {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_or_si128, _mm_set_epi32, _mm_shuffle_epi32, _mm_slli_epi32,
        _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
    };
    macro_rules! rotate {
        ($x:expr, $bits:literal) => {{
            let x = $x;
            _mm_or_si128(_mm_slli_epi32(x, $bits), _mm_srli_epi32(x, 32 - $bits))
        }};
    }
    let row = |w: [u32; 4]| -> __m128i {
        // SAFETY: SSE2 is enabled on every x86_64 target; the intrinsic reads no memory.
        unsafe { _mm_set_epi32(w[3] as i32, w[2] as i32, w[1] as i32, w[0] as i32) }
    };
    let init = [
        row(CHACHA_CONSTANTS),
        row([key[0], key[1], key[2], key[3]]),
        row([key[4], key[5], key[6], key[7]]),
        row([
            counter as u32,
            (counter >> 32) as u32,
            nonce as u32,
            (nonce >> 32) as u32,
        ]),
    ];
    let mut out = [0u32; 16];
    // SAFETY: SSE2 is enabled on every x86_64 target. The only memory access is the
    // unaligned 16-byte store of row `i` into `out[4 * i..4 * i + 4]`, inside `out`.
    unsafe {
        let [mut a, mut b, mut c, mut d] = init.map(|row| [row]);
        chacha8_rounds!(_mm_add_epi32, _mm_xor_si128, rotate, _mm_shuffle_epi32; a, b, c, d);
        for (i, (x, start)) in [a[0], b[0], c[0], d[0]].into_iter().zip(init).enumerate() {
            _mm_storeu_si128(
                out[4 * i..].as_mut_ptr().cast::<__m128i>(),
                _mm_add_epi32(x, start),
            );
        }
    }
    out
}

/// [`chacha8_block`] in scalar rounds, one word at a time: the portable path, compiled and
/// tested everywhere.
#[inline]
fn chacha8_block_portable(key: &[u32; 8], counter: u64, nonce: u64) -> [u32; 16] {
    #[inline]
    #[allow(clippy::many_single_char_names)]
    fn quarter(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(16);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(12);
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(8);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(7);
    }
    let mut init = [0u32; 16];
    init[..4].copy_from_slice(&CHACHA_CONSTANTS);
    init[4..12].copy_from_slice(key);
    init[12] = counter as u32;
    init[13] = (counter >> 32) as u32;
    init[14] = nonce as u32;
    init[15] = (nonce >> 32) as u32;
    let mut x = init;
    for _ in 0..4 {
        quarter(&mut x, 0, 4, 8, 12);
        quarter(&mut x, 1, 5, 9, 13);
        quarter(&mut x, 2, 6, 10, 14);
        quarter(&mut x, 3, 7, 11, 15);
        quarter(&mut x, 0, 5, 10, 15);
        quarter(&mut x, 1, 6, 11, 12);
        quarter(&mut x, 2, 7, 8, 13);
        quarter(&mut x, 3, 4, 9, 14);
    }
    for (out, start) in x.iter_mut().zip(init) {
        *out = out.wrapping_add(start);
    }
    x
}

/// Where a `ChaCha8` block starts: its key, its block counter and its stream (the nonce).
#[derive(Clone, Copy, Debug)]
pub struct BlockStart<'a> {
    pub key: &'a [u32; 8],
    pub counter: u64,
    pub stream: u64,
}

/// `P` pairs of `ChaCha8` blocks, each block from its own start, as 32 words per pair (the
/// first block's 16, then the second's). With AVX2 a pair is one chain of 256-bit
/// vectors, and the `P` chains are computed side by side: a chain's rounds wait on each
/// other and leave most of the CPU idle, which the other chains fill. Without
/// AVX2, block by block.
#[inline]
pub fn chacha8_pairs<const P: usize>(starts: &[[BlockStart<'_>; 2]; P]) -> [[u32; 32]; P] {
    let mut out = [[0u32; 32]; P];
    #[cfg(target_arch = "x86_64")]
    if two_blocks_at_once() {
        // SAFETY: the CPU has AVX2 (`two_blocks_at_once`).
        unsafe { chacha8_pairs_avx2(starts, &mut out) };
        return out;
    }
    for (pair, words) in starts.iter().zip(&mut out) {
        for (start, block) in pair.iter().zip(words.chunks_exact_mut(16)) {
            block.copy_from_slice(&chacha8_block(start.key, start.counter, start.stream));
        }
    }
    out
}

/// [`chacha8_pairs`] on AVX2: [`chacha8_block`]'s rounds on 256-bit vectors, a pair's first
/// block in the low 128-bit lane of each row and its second in the high one. The
/// rotations by 16 and 8 bits are byte shuffles. `tests::block_pairs_are_blocks` checks it
/// against the SSE2 path.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_ptr_alignment)] // unaligned loads and stores
unsafe fn chacha8_pairs_avx2<const P: usize>(
    starts: &[[BlockStart<'_>; 2]; P],
    out: &mut [[u32; 32]; P],
) {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256,
        _mm256_setr_epi8, _mm256_shuffle_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32,
        _mm256_srli_epi32, _mm256_storeu_si256, _mm256_xor_si256,
    };
    let rotate_16 = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    let rotate_8 = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    );
    macro_rules! rotate {
        ($x:expr, 16) => {
            _mm256_shuffle_epi8($x, rotate_16)
        };
        ($x:expr, 8) => {
            _mm256_shuffle_epi8($x, rotate_8)
        };
        ($x:expr, $bits:literal) => {{
            let x = $x;
            _mm256_or_si256(
                _mm256_slli_epi32(x, $bits),
                _mm256_srli_epi32(x, 32 - $bits),
            )
        }};
    }
    // Row `r` of pair `k`: the low words from its first block's start, the high words
    // from its second's.
    let row = |k: usize, r: usize| -> __m256i {
        let mut words = [0u32; 8];
        for (lane, start) in starts[k].iter().enumerate() {
            let lane = &mut words[4 * lane..4 * lane + 4];
            match r {
                0 => lane.copy_from_slice(&CHACHA_CONSTANTS),
                1 => lane.copy_from_slice(&start.key[..4]),
                2 => lane.copy_from_slice(&start.key[4..]),
                _ => lane.copy_from_slice(&[
                    start.counter as u32,
                    (start.counter >> 32) as u32,
                    start.stream as u32,
                    (start.stream >> 32) as u32,
                ]),
            }
        }
        // SAFETY: an unaligned 32-byte load of `words`.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast::<__m256i>()) }
    };
    let init: [[__m256i; P]; 4] = std::array::from_fn(|r| std::array::from_fn(|k| row(k, r)));
    let [mut a, mut b, mut c, mut d] = init;
    chacha8_rounds!(_mm256_add_epi32, _mm256_xor_si256, rotate, _mm256_shuffle_epi32; a, b, c, d);
    for (k, words) in out.iter_mut().enumerate() {
        let [a, b, c, d] = [(a[k], 0), (b[k], 1), (c[k], 2), (d[k], 3)]
            .map(|(x, r)| _mm256_add_epi32(x, init[r][k]));
        // Rows 0-1 then 2-3 of the low lanes (the first block), then of the high lanes.
        let outputs = [
            _mm256_permute2x128_si256(a, b, 0x20),
            _mm256_permute2x128_si256(c, d, 0x20),
            _mm256_permute2x128_si256(a, b, 0x31),
            _mm256_permute2x128_si256(c, d, 0x31),
        ];
        for (i, x) in outputs.into_iter().enumerate() {
            // SAFETY: an unaligned 32-byte store into `words[8 * i..8 * i + 8]`, inside it.
            unsafe { _mm256_storeu_si256(words[8 * i..].as_mut_ptr().cast::<__m256i>(), x) };
        }
    }
}

/// Whether [`ChaCha8Stream`] computes two blocks at a time (with AVX2).
#[cfg(target_arch = "x86_64")]
#[inline]
fn two_blocks_at_once() -> bool {
    #[cfg(test)]
    if tests::ONE_BLOCK_AT_ONCE.with(std::cell::Cell::get) {
        return false;
    }
    crate::cpu::features().avx2
}

/// The `ChaCha8` keystream as a generator, one or two blocks at a time: the same words, in
/// the same order, as `rand_chacha::ChaCha8Rng` with the same seed, stream and position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaCha8Stream {
    key: [u32; 8],
    stream: u64,
    /// The block after those in `buf`: the next to compute.
    next_block: u64,
    buf: [u32; 32],
    /// The words in `buf`: 0, or one or two blocks' worth.
    len: usize,
    /// The next unread word of `buf`; `len` when none is left.
    index: usize,
}

impl ChaCha8Stream {
    /// Moves to stream `stream` at the same word position, as `ChaCha8Rng::set_stream`.
    pub fn set_stream(&mut self, stream: u64) {
        self.stream = stream;
        if self.index < self.len {
            self.fill(self.buffer_start());
        }
    }

    pub fn get_stream(&self) -> u64 {
        self.stream
    }

    /// The offset from the start of the stream, in words.
    pub fn get_word_pos(&self) -> u128 {
        if self.index < self.len {
            u128::from(self.buffer_start()) * 16 + self.index as u128
        } else {
            u128::from(self.next_block) * 16
        }
    }

    /// Moves to word `pos` of the stream (modulo 2**68), as `ChaCha8Rng::set_word_pos`.
    pub fn set_word_pos(&mut self, pos: u128) {
        let block = (pos / 16) as u64;
        if pos.is_multiple_of(16) {
            self.next_block = block;
            (self.len, self.index) = (0, 0);
        } else {
            self.fill(block);
            self.index = (pos % 16) as usize;
        }
    }

    /// The key of `rng_from_seed(seed)`.
    pub fn key_of_seed(seed: u64) -> [u32; 8] {
        ChaCha8Stream::seed_from_u64(seed).key
    }

    /// The key of this generator.
    pub fn key(&self) -> &[u32; 8] {
        &self.key
    }

    /// Where the first two blocks of stream `stream` under `key` start, to compute them
    /// alongside others (see [`chacha8_pairs`]).
    pub fn first_blocks(key: &[u32; 8], stream: u64) -> [BlockStart<'_>; 2] {
        [0, 1].map(|counter| BlockStart {
            key,
            counter,
            stream,
        })
    }

    /// The generator with `key` at the start of stream `stream`, given the stream's first
    /// two blocks: `words` must be the pair computed from [`ChaCha8Stream::first_blocks`].
    pub fn at_start(key: [u32; 8], stream: u64, words: &[u32; 32]) -> ChaCha8Stream {
        ChaCha8Stream {
            key,
            stream,
            next_block: 2,
            buf: *words,
            len: 32,
            index: 0,
        }
    }

    /// The block in `buf[..16]`.
    fn buffer_start(&self) -> u64 {
        self.next_block.wrapping_sub(self.len as u64 / 16)
    }

    /// Computes the keystream from block `block` into `buf`, as many blocks as one pass
    /// gives.
    fn fill(&mut self, block: u64) {
        #[cfg(target_arch = "x86_64")]
        if two_blocks_at_once() {
            let start = |counter| BlockStart {
                key: &self.key,
                counter,
                stream: self.stream,
            };
            [self.buf] = chacha8_pairs(&[[start(block), start(block.wrapping_add(1))]]);
            self.len = 32;
            self.next_block = block.wrapping_add(2);
            return;
        }
        self.buf[..16].copy_from_slice(&chacha8_block(&self.key, block, self.stream));
        self.len = 16;
        self.next_block = block.wrapping_add(1);
    }

    // Out of line, so that the draws that call it stay small enough to inline.
    #[inline(never)]
    fn refill(&mut self) {
        self.fill(self.next_block);
        self.index = 0;
    }

    #[inline]
    fn word(&mut self) -> u32 {
        if self.index >= self.len {
            self.refill();
        }
        let w = self.buf[self.index];
        self.index += 1;
        w
    }

    /// A draw from `0..range` (`range` at least 1): `rand`'s `random_range(0..range)` for
    /// `u32`, word for word. That is Canon's method: the high half of one word times
    /// `range`, corrected by a second word when the low half falls in the top `range`
    /// values. Inlined here, it skips `rand`'s generic range checks.
    #[inline]
    pub fn below(&mut self, range: u32) -> u32 {
        let wide = u64::from(self.word()) * u64::from(range);
        let (high, low) = ((wide >> 32) as u32, wide as u32);
        if low <= range.wrapping_neg() {
            return high;
        }
        let carry_in = ((u64::from(self.word()) * u64::from(range)) >> 32) as u32;
        high + u32::from(low.checked_add(carry_in).is_none())
    }
}

impl rand::SeedableRng for ChaCha8Stream {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> ChaCha8Stream {
        let mut key = [0u32; 8];
        for (k, chunk) in key.iter_mut().zip(seed.chunks_exact(4)) {
            *k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        ChaCha8Stream {
            key,
            stream: 0,
            next_block: 0,
            buf: [0; 32],
            len: 0,
            index: 0,
        }
    }
}

impl rand::TryRng for ChaCha8Stream {
    type Error = std::convert::Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.word())
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let lo = self.word();
        let hi = self.word();
        Ok(u64::from(lo) | (u64::from(hi) << 32))
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Self::Error> {
        // Whole words, little-endian; the unused bytes of a last partial word are dropped.
        for chunk in dest.chunks_mut(4) {
            let bytes = self.word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::piquet_pack;
    use crate::rng::{derive_seed, rng_from_seed, shuffle_with_seed, GameRng};
    use rand::seq::SliceRandom;

    thread_local! {
        /// Makes [`two_blocks_at_once`] false on this test thread.
        pub(super) static ONE_BLOCK_AT_ONCE: std::cell::Cell<bool> = const {
            std::cell::Cell::new(false)
        };
    }

    #[test]
    fn block_pairs_are_blocks() {
        use rand::Rng;
        let mut words = rng_from_seed(11);
        for step in 0..500 {
            let keys: [[u32; 8]; 6] =
                std::array::from_fn(|_| std::array::from_fn(|_| words.next_u32()));
            let starts: [BlockStart<'_>; 6] = std::array::from_fn(|i| BlockStart {
                key: &keys[if step % 2 == 0 { 0 } else { i }],
                counter: match (step + i) % 3 {
                    0 => u64::MAX,
                    1 => u64::from(u32::MAX),
                    _ => words.next_u64(),
                },
                stream: words.next_u64(),
            });
            let pairs = [
                [starts[0], starts[1]],
                [starts[2], starts[3]],
                [starts[4], starts[5]],
            ];
            // The AVX2 chains where the CPU has AVX2, then block by block.
            for one_at_once in [false, true] {
                ONE_BLOCK_AT_ONCE.with(|one| one.set(one_at_once));
                let out = chacha8_pairs(&pairs);
                ONE_BLOCK_AT_ONCE.with(|one| one.set(false));
                for (i, start) in starts.iter().enumerate() {
                    let block = &out[i / 2][16 * (i % 2)..16 * (i % 2) + 16];
                    assert_eq!(block, chacha8_block(start.key, start.counter, start.stream));
                }
            }
        }
    }

    /// The portable block is the SSE2 block and the AVX2 pairs' blocks, word for word, on
    /// every path this CPU can run (whatever `ECARTE_PORTABLE` says).
    #[test]
    fn portable_block_is_the_vector_blocks() {
        use rand::Rng;
        let mut words = rng_from_seed(12);
        for step in 0..2000 {
            let key: [u32; 8] = std::array::from_fn(|_| words.next_u32());
            let counter = match step % 4 {
                0 => u64::MAX,
                1 => u64::from(u32::MAX),
                _ => words.next_u64(),
            };
            let nonce = words.next_u64();
            let portable = chacha8_block_portable(&key, counter, nonce);
            assert_ne!(portable, [0; 16]);
            #[cfg(target_arch = "x86_64")]
            {
                assert_eq!(chacha8_block_sse2(&key, counter, nonce), portable);
                if crate::cpu::on_this_cpu().avx2 {
                    let start = |counter| BlockStart {
                        key: &key,
                        counter,
                        stream: nonce,
                    };
                    let mut pair = [[0u32; 32]];
                    // SAFETY: the CPU has AVX2, checked just above.
                    unsafe {
                        chacha8_pairs_avx2(&[[start(counter), start(counter ^ 1)]], &mut pair);
                    }
                    assert_eq!(pair[0][..16], portable);
                    assert_eq!(
                        pair[0][16..],
                        chacha8_block_portable(&key, counter ^ 1, nonce)
                    );
                }
            }
        }
        // The first words of the `ChaCha8` stream of an all-zero key, stream and counter.
        let zero = chacha8_block_portable(&[0; 8], 0, 0);
        let mut reference = rand_chacha::ChaCha8Rng::from_seed([0; 32]);
        assert!(zero.iter().all(|&w| w == reference.next_u32()));
    }

    #[test]
    fn streams_started_with_their_blocks_are_fresh_streams() {
        use rand::Rng;
        for (seed, stream) in [(0, 0), (5, 1), (u64::MAX, 77)] {
            let key = GameRng::key_of_seed(seed);
            let [words] = chacha8_pairs(&[GameRng::first_blocks(&key, stream)]);
            let mut started = GameRng::at_start(key, stream, &words);
            let mut fresh = rng_from_seed(seed);
            fresh.set_stream(stream);
            for _ in 0..100 {
                assert_eq!(started.next_u32(), fresh.next_u32());
            }
            assert_eq!(started.get_word_pos(), fresh.get_word_pos());
        }
    }

    #[test]
    fn game_rng_is_chacha8rng_word_for_word() {
        game_rng_matches_chacha8rng();
        ONE_BLOCK_AT_ONCE.with(|one| one.set(true));
        game_rng_matches_chacha8rng();
        ONE_BLOCK_AT_ONCE.with(|one| one.set(false));
    }

    #[allow(clippy::many_single_char_names)]
    fn game_rng_matches_chacha8rng() {
        use rand::{Rng, SeedableRng};
        let mut reference_rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let mut script = GameRng::seed_from_u64(99);
        for seed in [0, 1, 7, 12_345, u64::MAX, 1 << 63] {
            for stream in [0, 1, 3, u64::MAX] {
                let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut b = GameRng::seed_from_u64(seed);
                a.set_stream(stream);
                b.set_stream(stream);
                assert_eq!(b.get_stream(), a.get_stream());
                for step in 0..400 {
                    // A random mix of calls, crossing block and buffer boundaries.
                    match script.next_u32() % 7 {
                        0..=2 => assert_eq!(a.next_u32(), b.next_u32()),
                        3 | 4 => assert_eq!(a.next_u64(), b.next_u64()),
                        5 => {
                            let n = (reference_rng.next_u32() % 70) as usize;
                            let (mut x, mut y) = (vec![0u8; n], vec![0u8; n]);
                            a.fill_bytes(&mut x);
                            b.fill_bytes(&mut y);
                            assert_eq!(x, y);
                        }
                        _ => {
                            if step % 3 == 0 {
                                let s = u64::from(reference_rng.next_u32());
                                a.set_stream(s);
                                b.set_stream(s);
                            } else {
                                let p = u128::from(reference_rng.next_u32() % 300);
                                a.set_word_pos(p);
                                b.set_word_pos(p);
                            }
                        }
                    }
                    assert_eq!(a.get_word_pos(), b.get_word_pos());
                }
            }
        }
        for seed in 0..200 {
            for index in [0, 1, seed, u64::MAX] {
                let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                r.set_stream(index);
                assert_eq!(derive_seed(seed, index), r.next_u64());
            }
            let mut a = piquet_pack();
            let mut b = piquet_pack();
            a.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
            shuffle_with_seed(&mut b, seed);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn below_draws_as_rand_random_range() {
        use rand::{Rng, RngExt};
        let mut ranges = rng_from_seed(5);
        let (mut a, mut b) = (rng_from_seed(6), rng_from_seed(6));
        for step in 0..20_000 {
            // Small ranges, and large ones whose second word is often needed.
            let range = match step % 3 {
                0 => ranges.next_u32() % 70 + 1,
                1 => u32::MAX - ranges.next_u32() % 1000,
                _ => ranges.next_u32().max(1),
            };
            assert_eq!(a.below(range), b.random_range(0..range), "{range}");
            assert_eq!(a, b);
        }
    }
}
