//! Agents and batch play: the native policies, whole deals and matches simulated in
//! parallel, and the vector environment. This layer uses the rules (`duel`) and the search
//! (`solver`); neither of them knows of it.

pub mod agent;
pub mod expert;
pub mod heuristic;
pub mod master;
pub mod opponent;
pub mod opponent_record;
pub mod policy;
pub mod random;
pub mod registry;
pub mod run;
pub mod runner;
pub mod simulate;
pub mod vecenv;
