//! The optional instructions the fast paths use, read from the CPU once: the AVX-512 and
//! AVX2 card planes (`duel::observe`), the SSE2 and AVX2 `ChaCha8` blocks (`rng::chacha`),
//! and the POPCNT count and BMI2 pick of the random policy (`play::random`).
//!
//! With `ECARTE_PORTABLE=1` in the environment (read once, at the first use) none of them
//! is used: every path takes its portable fallback, as on a CPU without the instructions.
//! The results are the same either way; CI runs the tests both ways, so the fallbacks are
//! tested on machines that have the instructions.

use std::sync::OnceLock;

/// The instruction sets the fast paths may use (all false off `x86_64` and under
/// `ECARTE_PORTABLE=1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // one flag per instruction set
pub struct Features {
    /// SSE2: on every `x86_64` CPU, so false only under `ECARTE_PORTABLE=1`.
    pub sse2: bool,
    /// AVX2 with AVX, which `target_feature(enable = "avx2")` also turns on.
    pub avx2: bool,
    /// AVX-512F with everything `target_feature(enable = "avx512f")` also turns on under
    /// rustc 1.95: AVX2, AVX, FMA and F16C. The compiler may use any of them in such a
    /// function, whatever its source calls, so each is checked: every CPU with AVX-512F
    /// has them, but a virtual machine's CPUID need not say so.
    pub avx512f: bool,
    pub popcnt: bool,
    /// BMI1 and BMI2, which the `pdep` pick is compiled for.
    pub bmi2: bool,
}

impl Features {
    /// The names of the instruction sets present, as the CPU's documentation writes them
    /// in lower case (`"avx2"`), in a fixed order.
    pub fn names(self) -> Vec<&'static str> {
        [
            ("sse2", self.sse2),
            ("popcnt", self.popcnt),
            ("bmi2", self.bmi2),
            ("avx2", self.avx2),
            ("avx512f", self.avx512f),
        ]
        .into_iter()
        .filter_map(|(name, present)| present.then_some(name))
        .collect()
    }
}

/// The features the fast paths use: [`on_this_cpu`], read once, or none under
/// `ECARTE_PORTABLE=1`.
#[inline]
pub fn features() -> Features {
    static FEATURES: OnceLock<Features> = OnceLock::new();
    *FEATURES.get_or_init(|| {
        if portable_requested() {
            Features::default()
        } else {
            on_this_cpu()
        }
    })
}

/// Whether `ECARTE_PORTABLE=1` is set. [`features`] reads it once; this reads it again.
pub fn portable_requested() -> bool {
    std::env::var_os("ECARTE_PORTABLE").is_some_and(|v| v == "1")
}

/// What this CPU has, whatever `ECARTE_PORTABLE` says: the tests compare each fast path
/// with its fallback wherever the CPU can run it.
#[cold]
pub fn on_this_cpu() -> Features {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("avx");
        Features {
            sse2: true,
            avx2,
            avx512f: has!("avx512f") && avx2 && has!("fma") && has!("f16c"),
            popcnt: has!("popcnt"),
            bmi2: has!("bmi1") && has!("bmi2"),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    Features::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Under `ECARTE_PORTABLE=1` (CI's second pass) no fast path is taken.
    #[test]
    fn the_portable_switch_turns_every_fast_path_off() {
        if portable_requested() {
            assert_eq!(features(), Features::default());
        } else {
            assert_eq!(features(), on_this_cpu());
        }
    }
}
