//! The uniformly random policy's draw: one legal action, picked with one bounded draw from
//! the agent's stream, with the CPU's bit instructions where it has them.

use crate::duel::action::Action;
use crate::rng::GameRng;

/// A uniformly random legal action.
#[allow(clippy::inline_always)]
#[inline(always)] // as `random_action_id`
pub fn random_action(legal: u128, rng: &mut GameRng) -> Action {
    Action::from_id(random_action_id(legal, rng)).unwrap_or(Action::Decline)
}

/// The id of a uniformly random legal action: bit `k` of `legal`'s set bits, `k` drawn
/// from `0..count` (one draw even when `legal` is empty, which gives `Decline`).
// Into the playout loops: measured, a call costs a fifth of the draw.
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn random_action_id(legal: u128, rng: &mut GameRng) -> usize {
    // A state's legal actions lie in one 32-bit quarter of the mask (plays, discards or
    // the calls): count and pick in that `u32`, a third of the instructions of a `u128`
    // without a popcount instruction. The draw is the same.
    let (low, high) = (legal as u64, (legal >> 64) as u64);
    let quarter = match (low, high) {
        (half, 0) | (0, half) if half >> 32 == 0 => Some((half, 0)),
        (half, 0) | (0, half) if half as u32 == 0 => Some((half >> 32, 32)),
        _ => None,
    };
    let Some((bits, shift)) = quarter else {
        let k = rng.below(legal.count_ones());
        return nth_action(legal, k).id();
    };
    let quarter = shift + if low == 0 { 64 } else { 0 };
    let bits = bits as u32;
    let k = rng.below(bits.count_ones().max(1));
    if bits == 0 {
        return Action::Decline.id();
    }
    #[cfg(target_arch = "x86_64")]
    if fast_pdep() {
        // SAFETY: the CPU has BMI1 and BMI2 (`fast_pdep`).
        return quarter + unsafe { nth_set_bit_pdep(bits, k) } as usize;
    }
    quarter + nth_set_bit(bits, k) as usize
}

/// The position of set bit `k` (from 0, lowest first) of `bits`, which has more than `k`.
#[inline]
fn nth_set_bit(mut bits: u32, k: u32) -> u32 {
    // Clear the `k` lowest set bits. `k` is random, so a loop of `k` rounds mispredicts
    // its exit at nearly every move: 5 rounds (a hand of 6 needs at most 5) are
    // unconditional, each clearing a bit or nothing.
    for round in 0..5 {
        bits &= bits.wrapping_sub(u32::from(round < k));
    }
    for _ in 5..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// [`nth_set_bit`] in one instruction: BMI2's `pdep` deposits bit `k` onto the `k`-th set
/// bit of `bits`. A tenth of `simulate`'s time.
///
/// # Safety
/// The CPU must have BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "bmi1,bmi2")]
unsafe fn nth_set_bit_pdep(bits: u32, k: u32) -> u32 {
    std::arch::x86_64::_pdep_u32(1u32.wrapping_shl(k), bits).trailing_zeros()
}

/// Whether the CPU has BMI1 and a fast BMI2 `pdep`: AMD's before Zen 3 (and Hygon's)
/// compute it in microcode, a cycle or more per set bit, slower than [`nth_set_bit`]'s
/// rounds.
#[cfg(target_arch = "x86_64")]
#[inline]
fn fast_pdep() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    #[cfg(test)]
    if tests::NO_PDEP.with(std::cell::Cell::get) {
        return false;
    }
    *FAST.get_or_init(detect_fast_pdep)
}

/// [`fast_pdep`]'s answer, read from the CPU once: out of line, so that the check on every
/// draw stays a load and a branch. False under `ECARTE_PORTABLE=1` (see [`crate::cpu`]).
#[cfg(target_arch = "x86_64")]
#[cold]
fn detect_fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    if !crate::cpu::features().bmi2 {
        return false;
    }
    // `__cpuid` is safe since Rust 1.94 but unsafe in 1.89, the crate's minimum.
    // SAFETY: CPUID leaves 0 and 1 exist on every x86_64 CPU.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let microcoded = [*b"AuthenticAMD", *b"HygonGenuine"];
    let mut name = [0u8; 12];
    for (chunk, word) in name
        .chunks_exact_mut(4)
        .zip([vendor.ebx, vendor.edx, vendor.ecx])
    {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    let base_family = (signature >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((signature >> 20) & 0xff)
    } else {
        base_family
    };
    !microcoded.contains(&name) || family >= 0x19
}

/// Runs `f` compiled for the bit instructions the CPU has (none under `ECARTE_PORTABLE=1`):
/// POPCNT (nearly every `x86_64` CPU since 2008, but not the baseline that wheels
/// target), and BMI2 with it where `pdep` is fast. The random policy counts the legal actions at every move (the
/// portable count costs 17 instructions) and picks one of them ([`nth_set_bit_pdep`]).
/// Inlined code in `f`, such as [`random_action_id`], gets the instructions; the draws
/// are the same either way.
#[inline]
pub fn with_bit_instructions<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "popcnt,bmi1,bmi2")]
        unsafe fn with_bmi2<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
        #[target_feature(enable = "popcnt")]
        unsafe fn with_popcnt<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
        let popcnt = crate::cpu::features().popcnt;
        if fast_pdep() && popcnt {
            // SAFETY: the CPU has POPCNT, BMI1 and BMI2 (checked just above), the features
            // that `with_bmi2` is compiled for.
            return unsafe { with_bmi2(f) };
        }
        if popcnt {
            // SAFETY: the CPU has POPCNT (checked just above), the one feature that
            // `with_popcnt` is compiled for.
            return unsafe { with_popcnt(f) };
        }
    }
    f()
}

/// The `k`-th set bit of `mask`'s action ids.
pub(crate) fn nth_action(mut mask: u128, k: u32) -> Action {
    for _ in 0..k {
        mask &= mask - 1;
    }
    Action::from_id(mask.trailing_zeros() as usize).unwrap_or(Action::Decline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_action_draws_as_the_whole_mask_count_would() {
        use crate::rng::rng_from_seed;
        use rand::RngExt;
        let mut masks = rng_from_seed(3);
        let mut shapes: Vec<u128> = vec![0, 1, 1 << 64, 0b11 << 64, u128::MAX, (1 << 70) | 1];
        for _ in 0..2000 {
            let m: u128 = masks.random();
            let shift = masks.random_range(0..4u32) * 32;
            shapes.push(m & (u128::from(u32::MAX) << shift));
            shapes.push(m);
        }
        let (mut a, mut b) = (rng_from_seed(7), rng_from_seed(7));
        let mut c = a.clone();
        for &legal in &shapes {
            let expected = nth_action(legal, b.random_range(0..legal.count_ones().max(1)));
            assert_eq!(random_action(legal, &mut a), expected, "{legal:#x}");
            // The POPCNT and BMI2 build of the draw, where the CPU has them, draws the same.
            let id = with_bit_instructions(|| random_action_id(legal, &mut c));
            assert_eq!(Action::from_id(id).unwrap_or(Action::Decline), expected);
        }
        assert_eq!(a, b);
        assert_eq!(a, c);
    }

    thread_local! {
        /// Makes [`fast_pdep`] false on this test thread.
        pub(super) static NO_PDEP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    #[test]
    fn both_picks_find_the_same_set_bit() {
        use crate::rng::rng_from_seed;
        use rand::RngExt;
        let mut words = rng_from_seed(5);
        let mut masks: Vec<u32> = vec![1, 1 << 31, u32::MAX, 0b1010_0110];
        masks.extend((0..3000).map(|_| words.random::<u32>() & words.random::<u32>()));
        for bits in masks {
            let mut rest = bits;
            for k in 0..bits.count_ones() {
                let expected = rest.trailing_zeros();
                rest &= rest - 1;
                assert_eq!(nth_set_bit(bits, k), expected, "{bits:#x} {k}");
                // Whatever `ECARTE_PORTABLE` says, where the CPU can run it.
                #[cfg(target_arch = "x86_64")]
                if crate::cpu::on_this_cpu().bmi2 {
                    // SAFETY: the CPU has BMI1 and BMI2 (checked just above).
                    assert_eq!(unsafe { nth_set_bit_pdep(bits, k) }, expected);
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn random_actions_are_the_same_with_and_without_pdep() {
        if !fast_pdep() {
            return; // Only the portable pick runs here: nothing to compare it with.
        }
        let legal = [0b1011_0110u128, 0b11 << 64, 0x8000_0001 << 32, 1];
        let draw = |no_pdep: bool| {
            NO_PDEP.with(|flag| flag.set(no_pdep));
            let mut rng = crate::rng::rng_from_seed(9);
            let ids: Vec<usize> = (0..400)
                .map(|i| with_bit_instructions(|| random_action_id(legal[i % 4], &mut rng)))
                .collect();
            NO_PDEP.with(|flag| flag.set(false));
            ids
        };
        assert_eq!(draw(true), draw(false));
    }
}
