//! Agents and batch play: the [`Agent`] trait a program implements and [`play_match`],
//! which plays it; the built-in agents ([`BuiltinAgent`], each playing a [`Policy`]); whole
//! deals and matches simulated in parallel ([`simulate_matches`]); and, inside the crate,
//! the vector environment. This layer uses the rules (`duel`) and the search (`solver`);
//! neither of them knows of it.

pub(crate) mod agent;
mod custom;
pub(crate) mod decisions;
pub(crate) mod expert;
pub(crate) mod grandmaster;
pub(crate) mod heuristic;
pub(crate) mod master;
pub(crate) mod network;
pub(crate) mod opponent;
pub(crate) mod opponent_record;
pub(crate) mod policy;
pub(crate) mod random;
pub(crate) mod registry;
pub(crate) mod run;
pub(crate) mod runner;
pub(crate) mod simulate;
pub(crate) mod vecenv;

pub use agent::BuiltinAgent;
pub use custom::{play_match, Agent};
pub use policy::{Policy, DEFAULT_PIMC_SAMPLES, MAX_SAMPLES};
pub use registry::SpecError;
pub use simulate::{simulate_deals, simulate_matches, DealSummary, MatchSummary};
