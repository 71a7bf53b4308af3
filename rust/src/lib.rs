//! ecarte: a fast, faithful engine for the card game écarté.
//!
//! The duel (two players, 32 cards) and the Russian banking game (a shoe of 104 cards):
//! their rules, a perfect-information solver, built-in agents from uniform random to a
//! sampling search, and batch play. Start with the [`guide`].
//!
//! - [`card`]: cards, suits, ranks and the packs.
//! - [`duel`]: a deal ([`duel::DealState`]), a match ([`duel::Match`]), what each player
//!   may know ([`duel::Observation`]) and the JSON records.
//! - [`play`]: the [`play::Agent`] trait a program implements, the built-in agents, the
//!   match runner and batch simulation.
//! - [`solver`]: the exact value of a play-phase position with every card known.
//! - [`bank`]: the banking game's shoe, deals, odds and simulation.
//! - [`control`]: cancelling a long run and watching it advance.
//! - [`analysis`]: every decision of a deal played, valued double-dummy and under the
//!   mover's information.
//!
//! Every random thing takes a seed, and the same seed gives the same result on every
//! platform.
//!
//! Inside, each layer uses only those above it: the CPU's optional instructions, the random
//! streams and what every JSON record shares; the rules; the search; agents and batch play;
//! the analysis of deals played.
//! The engine knows nothing of Python; the Python module `ecarte._core` is built from the
//! same crate with the `python` feature, which maturin turns on.

#![warn(missing_docs)]
// Items that only the Python bindings call are unused in a build without them.
#![cfg_attr(not(feature = "python"), allow(dead_code))]

pub mod analysis;
pub mod bank;
pub mod card;
pub mod control;
mod cpu;
pub mod duel;
pub mod play;
#[cfg(feature = "python")]
mod py;
mod record;
mod rng;
pub mod solver;

#[doc = include_str!("../../docs/rust.md")]
pub mod guide {}

/// Engine internals for the crate's own benchmarks and profiling examples: no stable API.
#[doc(hidden)]
pub mod internals {
    pub use crate::duel::action::bit;
    pub use crate::play::expert::{expert_search, expert_values, CANDIDATES_PER_WORLD};
    pub use crate::play::heuristic::{heuristic_rollout, View};
    pub use crate::play::network::{Network, SHIPPED};
    pub use crate::play::random::random_action;
    pub use crate::play::simulate::{play_deal, simulate_deals};
    pub use crate::play::vecenv::{ObsLayout, OwnedBuffers, VecEnv};
    pub use crate::rng::{derive_seed, rng_from_seed, shuffle_with_seed, SeedDeriver};
    pub use crate::solver::pimc::{pimc_search, pimc_values, Goal};
    pub use crate::solver::sampler::sample_worlds;
}
