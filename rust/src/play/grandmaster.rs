//! The grandmaster: the expert's search with a learned model of the search agents' play,
//! which it uses twice.
//!
//! - **Inference.** The master weights each candidate world by hand-written likelihoods of
//!   the opponent's exchange decisions and follows ([`super::master`]). The grandmaster
//!   weights it by the probability a trained network ([`super::network`]) gives to every
//!   decision the opponent made in that world: its proposal or answer, each discard
//!   (hidden, so as the world holds it), each lead and each follow, each read from the
//!   opponent's own observation there. This is the policy-based inference of Skat's Kermit
//!   and its successors (Rebstock, Solinas, Buro and Sturtevant 2019). The pool is
//!   resampled as the expert's is ([`super::expert`]), but until it gives as many distinct
//!   worlds as are solved: the network is sharp, and plain resampling drew some worlds
//!   several times, leaving fewer to solve.
//! - **Rollouts.** An exchange option is valued by playing out the rest of the exchange
//!   phase in each world, then solving the play. The other search agents play it out by the
//!   heuristic's rules of thumb; the grandmaster by the network's likeliest action for
//!   each seat, so the opponent's answer in a world is the one a search agent would give
//!   with the hand it holds there.
//!
//! - **Worlds where the reading pays.** The grandmaster solves its N worlds in the play
//!   while the talon lasts, where a reading of the opponent's hand is worth most, and fewer
//!   elsewhere ([`Plan`]). Once the talon is empty it plays as the master: by then uniform
//!   worlds already hold most of the opponent's hand, seeing every card gains nothing
//!   measurable, and the network's likelihood, replayed over the whole deal's decisions,
//!   costs most.
//!
//! The screens that chose this design, the ablations and the variants dropped are in
//! docs/inference.md.

use std::cell::{Cell, RefCell};

use super::expert::{
    inference_spread, inferred_values_with, opponent_decided, opponent_log_sum, Inference,
};
use super::master::{master_search, master_spread};
use super::network::{SharedSums, SHIPPED};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::{Observation, OBSERVATION_SIZE, PRIVATE_ENTRIES};
use crate::duel::state::{DealState, Phase};
use crate::solver::pimc::Goal;
use crate::solver::sampler::{Draft, SampleError};

/// Worlds solved per decision of the grandmaster in the play while the talon lasts unless a
/// count is given (fewer elsewhere: [`Plan`]).
pub const DEFAULT_GRANDMASTER_SAMPLES: u16 = 72;

/// The network's first-layer sums over the opponent's public entries at each of its
/// decisions in the worlds of one observation, filled by the first world that reaches it.
type Shared = RefCell<Vec<Option<SharedSums>>>;

/// The log-likelihood of every decision of the opponent's in the world `draft` of `obs`.
#[cfg(test)]
fn log_likelihood(draft: &Draft, obs: &Observation) -> f64 {
    log_likelihood_sharing(&Shared::default(), draft, obs)
}

/// The log-likelihood of every decision of the opponent's in the world `draft` of `obs`,
/// with the network's first-layer sums over the opponent's public entries (those from
/// [`PRIVATE_ENTRIES`] on, the same in every world of `obs`) kept in `shared` for the
/// worlds of `obs` that follow: each world then adds only the columns of the opponent's
/// own cards (its five or so non-zero private entries, where the whole tensor has a few
/// dozen).
fn log_likelihood_sharing(shared: &Shared, draft: &Draft, obs: &Observation) -> f64 {
    let network = &*SHIPPED;
    let decision = Cell::new(0);
    opponent_log_sum(draft, obs, true, |state, action| {
        let k = decision.replace(decision.get() + 1);
        let mut shared = shared.borrow_mut();
        if shared.len() <= k {
            shared.resize(k + 1, None);
        }
        network.log_probability_sharing(state, obs.score, action, &mut shared[k], PRIVATE_ENTRIES)
    })
}

/// The network's likeliest action for the player to move in `state`: the grandmaster's
/// rollout of the exchange phase, both seats played as the search agents play (the match
/// score, which a rollout is not told, taken as 0–0).
fn network_rollout(state: &DealState) -> Action {
    let legal = state.legal_mask();
    let first = legal.trailing_zeros() as usize;
    let Some(player) = state.current_player().filter(|_| !legal.is_power_of_two()) else {
        return Action::from_id(first).unwrap_or(Action::Decline);
    };
    let mut x = [0.0f32; OBSERVATION_SIZE];
    state.encode_observation(player, [0, 0], &mut x);
    Action::from_id(SHIPPED.likeliest(&x, legal)).unwrap_or(Action::Decline)
}

/// How the grandmaster reads the opponent's decisions in `obs`: every one of them, once
/// the opponent has made any (an exchange decision, a discard, a card played), the pool
/// resampled until it gives as many distinct worlds as are solved.
fn grandmaster_inference(obs: &Observation) -> Inference<impl Fn(&Draft, &Observation) -> f64> {
    let shared = Shared::default();
    let key = obs.key();
    Inference {
        informative: opponent_decided(obs) || !obs.tricks.is_empty() || obs.lead.is_some(),
        log_likelihood: move |draft: &Draft, obs: &Observation| {
            debug_assert_eq!(obs.key(), key, "the sums shared are another observation's");
            log_likelihood_sharing(&shared, draft, obs)
        },
        distinct: true,
    }
}

/// The grandmaster's worlds in the exchange, as a fraction of its worlds in the play while
/// the talon lasts.
const EXCHANGE_SHARE: (usize, usize) = (2, 3);
/// The master's worlds the grandmaster solves once the talon is empty, as a fraction of its
/// worlds in the play while the talon lasts.
const END_SHARE: (usize, usize) = (5, 9);

/// What the grandmaster of `samples` worlds solves at one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Worlds resampled by the network's likelihood, the exchange played out by the network.
    Learned(usize),
    /// The master's search over this many worlds.
    Master(usize),
}

impl Plan {
    /// The plan at `obs` for the grandmaster of `samples` worlds: all of them in the play
    /// while the talon lasts, [`EXCHANGE_SHARE`] of them in the exchange, and the master's
    /// search over [`END_SHARE`] of them once the talon is empty (at least one world each).
    fn at(obs: &Observation, samples: usize) -> Plan {
        let share = |(times, per): (usize, usize)| (samples * times / per).max(1);
        match (obs.phase, obs.talon_size) {
            (Phase::Play, 0) => Plan::Master(share(END_SHARE)),
            (Phase::Play, _) => Plan::Learned(samples),
            _ => Plan::Learned(share(EXCHANGE_SHARE)),
        }
    }
}

/// Each legal action of the observing player with its value (for [`Goal::Values`]; what
/// the best action needs for [`Goal::Choice`]): the mean double-dummy points, the talon
/// drawn by seat, over worlds resampled by the learned model's likelihood of the
/// opponent's decisions, as many as [`Plan::at`] gives for `samples` (the master's search
/// once the talon is empty). Reproducible for a `seed`. Once `control` is cancelled it
/// returns at once, with no values.
pub fn grandmaster_search(
    obs: &Observation,
    samples: usize,
    seed: u64,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    match Plan::at(obs, samples) {
        Plan::Learned(worlds) => inferred_values_with(
            obs,
            worlds,
            seed,
            grandmaster_inference(obs),
            network_rollout,
            goal,
            control,
        ),
        Plan::Master(worlds) => master_search(obs, worlds, seed, goal, control),
    }
}

/// How the grandmaster weights its worlds for `obs`: the spread of the pool its search
/// resamples (see `expert::inference_spread`), the master's once the talon is empty.
pub fn grandmaster_spread(
    obs: &Observation,
    samples: usize,
    seed: u64,
) -> Result<Option<(f64, usize)>, SampleError> {
    match Plan::at(obs, samples) {
        Plan::Learned(worlds) => inference_spread(obs, worlds, seed, grandmaster_inference(obs)),
        Plan::Master(worlds) => master_spread(obs, worlds, seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Rules;
    use crate::play::expert::expert_values;
    use crate::play::expert::tests::checked_spreads;
    use crate::play::heuristic::{heuristic_action, View};
    use crate::play::policy::Policy;
    use crate::solver::sampler::Sampler;

    /// Before the opponent has done anything the grandmaster solves the expert's worlds:
    /// leading the first trick after a declined proposal (no exchange left to roll out),
    /// it values every card as the expert does.
    #[test]
    fn with_nothing_to_read_the_grandmaster_is_the_expert() {
        for seed in 0..6 {
            let mut state = DealState::from_seed(seed, 0, Rules::default()).expect("a deal");
            state.apply_unchecked(Action::Decline);
            let player = state.current_player().expect("the elder leads");
            let obs = state.observation(player, [0, 0]);
            assert!(!grandmaster_inference(&obs).informative);
            assert_eq!(
                grandmaster_search(&obs, 6, 11, Goal::Values, Control::NONE),
                expert_values(&obs, 6, 11, Control::NONE)
            );
        }
    }

    /// The grandmaster's reported spread is that of the pool its search resamples, until
    /// as many distinct worlds as it solves.
    #[test]
    fn the_grandmasters_spread_is_its_searchs_pool() {
        let deal = DealState::from_seed(3, 0, Rules::default()).expect("a deal");
        assert!(grandmaster_inference(&deal.observation(0, [0, 0])).distinct);
        let learned = |obs: &Observation, samples| match Plan::at(obs, samples) {
            Plan::Learned(worlds) => Some(worlds),
            Plan::Master(_) => None,
        };
        let weighted = checked_spreads(
            Policy::Grandmaster(3),
            grandmaster_inference,
            network_rollout,
            learned,
            4,
        );
        let exchange = weighted
            .iter()
            .filter(|(obs, _)| obs.phase != Phase::Play)
            .count();
        assert!(
            weighted.len() > 10 && exchange > 0,
            "{} weighted, {exchange} in the exchange",
            weighted.len()
        );
    }

    /// The plan spends every world in the play while the talon lasts, a share of them in
    /// the exchange, and the master's search over a share once the talon is empty: the
    /// grandmaster's values and spread there are the master's.
    #[test]
    fn the_plan_spends_the_worlds_where_the_reading_pays() {
        let mut seen = [false; 3];
        for seed in 0..4 {
            let mut state = DealState::from_seed(seed, 1, Rules::default()).expect("a deal");
            while let Some(player) = state.current_player() {
                let obs = state.observation(player, [0, 0]);
                let plan = Plan::at(&obs, 72);
                match (obs.phase, obs.talon_size) {
                    (Phase::Play, 0) => {
                        assert_eq!(plan, Plan::Master(40));
                        assert_eq!(Plan::at(&obs, 1), Plan::Master(1));
                        assert_eq!(
                            grandmaster_search(&obs, 9, 5, Goal::Values, Control::NONE),
                            master_search(&obs, 5, 5, Goal::Values, Control::NONE)
                        );
                        assert_eq!(grandmaster_spread(&obs, 9, 5), master_spread(&obs, 5, 5));
                        seen[2] = true;
                    }
                    (Phase::Play, _) => {
                        assert_eq!(plan, Plan::Learned(72));
                        seen[1] = true;
                    }
                    _ => {
                        assert_eq!(plan, Plan::Learned(48));
                        assert_eq!(Plan::at(&obs, 1), Plan::Learned(1));
                        seen[0] = true;
                    }
                }
                state.apply_unchecked(heuristic_action(&View::of_state(&state)));
            }
        }
        assert_eq!(seen, [true; 3]);
    }

    /// The registry's row states the plan's shares as the code has them.
    #[test]
    fn the_registry_states_the_plan() {
        let row = crate::play::registry::AGENTS
            .iter()
            .find(|a| a.name == "grandmaster")
            .expect("the grandmaster's row");
        for (share, stage) in [(EXCHANGE_SHARE, "exchange"), (END_SHARE, "empty")] {
            let said = format!("{}N/{}", share.0, share.1);
            assert!(
                row.description.contains(&said),
                "{stage}: {said} not in {}",
                row.description
            );
        }
    }

    /// How much of the opponent's hand each search's worlds hold, at the play decisions
    /// with a choice after the first trick of deals played by the master's search (40
    /// worlds, a seed per decision) in both seats: the mean share of the opponent's true
    /// cards in a world, weighted as the search counts its worlds, while the talon lasts
    /// and once it is empty, for uniform worlds (PIMC's), the master's and the
    /// grandmaster's. A diagnostic (docs/inference.md, "Where the hidden cards cost"), run
    /// with
    /// `cargo test --release --lib hand_overlap -- --ignored --nocapture` (150 deals, or
    /// `ECARTE_OVERLAP_DEALS`).
    #[test]
    #[ignore = "a diagnostic of about a minute in a release build"]
    fn hand_overlap() {
        use crate::play::expert::inferred_worlds;
        use crate::play::master::{master_search, master_worlds};
        use crate::play::policy::best_action;
        use crate::solver::sampler::sample_worlds;
        const WORLDS: usize = 40;
        let deals: u64 = std::env::var("ECARTE_OVERLAP_DEALS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(150);
        // [talon left, talon empty] x [uniform, master, grandmaster]
        let mut shares = [[0.0f64; 3]; 2];
        let mut decisions = [0usize; 2];
        for deal in 0..deals {
            let dealer = u8::from(deal % 2 == 1);
            let mut state =
                DealState::from_seed(900 + deal, dealer, Rules::default()).expect("a deal");
            while let Some(player) = state.current_player() {
                let obs = state.observation(player, [0, 0]);
                let seed = deal * 1000 + obs.history.len() as u64;
                let chooses = state.legal_mask().count_ones() > 1;
                if state.phase() == crate::duel::state::Phase::Play
                    && chooses
                    && !obs.tricks.is_empty()
                {
                    let truth = state.hand_set(1 - player);
                    let share = |worlds: &[DealState], counts: &[f64]| {
                        let held: f64 = worlds
                            .iter()
                            .zip(counts)
                            .map(|(w, c)| {
                                c * f64::from((w.hand_set(1 - player) & truth).count_ones())
                            })
                            .sum();
                        held / counts.iter().sum::<f64>() / f64::from(truth.count_ones())
                    };
                    let part = usize::from(obs.talon_size == 0);
                    let uniform = sample_worlds(&obs, WORLDS, seed).expect("worlds");
                    shares[part][0] += share(&uniform, &vec![1.0; uniform.len()]);
                    let (master, counts) = master_worlds(&obs, WORLDS, seed).expect("worlds");
                    shares[part][1] += share(&master, &counts);
                    let learned = inferred_worlds(&obs, WORLDS, seed, grandmaster_inference(&obs))
                        .expect("worlds");
                    shares[part][2] += share(&learned.states, &learned.counts);
                    decisions[part] += 1;
                }
                let values =
                    master_search(&obs, WORLDS, seed, Goal::Choice, Control::NONE).expect("values");
                state.apply_unchecked(best_action(&values).expect("an action"));
            }
        }
        for (part, name) in ["while the talon lasts", "once it is empty"]
            .iter()
            .enumerate()
        {
            let [uniform, master, learned] = shares[part].map(|s| s / decisions[part] as f64);
            eprintln!(
                "{name}, {} decisions: uniform {uniform:.3}, master {master:.3}, grandmaster {learned:.3}",
                decisions[part]
            );
            assert!(
                learned > uniform,
                "{name}: the learned weights hold more of the hand"
            );
        }
    }

    /// The rollout plays a legal action for either seat.
    #[test]
    fn the_rollout_plays_legal_actions() {
        for seed in 0..20 {
            let mut state = DealState::from_seed(seed, 1, Rules::default()).expect("a deal");
            while state.current_player().is_some() {
                let action = network_rollout(&state);
                assert!(state.is_legal(action), "{action}");
                state.apply_unchecked(action);
            }
        }
    }

    /// The first-layer sums one world of an observation shares with the next are those of
    /// every world: with them shared across a pool the likelihoods are, bit for bit, those
    /// each world gives alone (so the opponent's entries from `PRIVATE_ENTRIES` on are the
    /// same in every world), and they are the plain forward pass's within rounding.
    #[test]
    fn sharing_the_public_sums_changes_no_likelihood() {
        let network = &*SHIPPED;
        let mut compared = 0;
        for seed in 0..12 {
            let mut state = DealState::from_seed(seed, u8::from(seed % 2 == 1), Rules::default())
                .expect("a deal");
            while let Some(player) = state.current_player() {
                let obs = state.observation(player, [1, 4]);
                let mut drafts = Sampler::new(&obs, seed).expect("worlds");
                let shared = Shared::default();
                for _ in 0..6 {
                    let draft = drafts.draft().expect("a world");
                    let alone = log_likelihood(&draft, &obs);
                    let sharing = log_likelihood_sharing(&shared, &draft, &obs);
                    assert_eq!(alone.to_bits(), sharing.to_bits(), "{alone} {sharing}");
                    let plain = opponent_log_sum(&draft, &obs, true, |state, action| {
                        network.log_probability(state, obs.score, action)
                    });
                    assert!((plain - alone).abs() < 1e-4, "{plain} {alone}");
                    compared += usize::from(alone != 0.0);
                }
                state.apply_unchecked(heuristic_action(&View::of_state(&state)));
            }
        }
        assert!(compared > 300, "{compared}");
    }

    /// Every decision of the opponent's counts: once the opponent has chosen among several
    /// actions, each candidate world's log-likelihood is finite and at most zero, and below
    /// zero in nearly every world (a choice the network is sure of rounds to probability 1).
    #[test]
    fn the_likelihood_reads_the_opponents_decisions() {
        let (mut read, mut below) = (0, 0);
        for seed in 0..20 {
            let mut state = DealState::from_seed(seed, 1, Rules::default()).expect("a deal");
            let mut opponent_chose = [false; 2];
            while let Some(player) = state.current_player() {
                let obs = state.observation(player, [0, 0]);
                if opponent_chose[usize::from(1 - player)] {
                    let mut drafts = Sampler::new(&obs, seed).expect("worlds");
                    for _ in 0..4 {
                        let draft = drafts.draft().expect("a world");
                        let l = log_likelihood(&draft, &obs);
                        assert!(l.is_finite() && l <= 0.0, "{l}");
                        read += 1;
                        below += usize::from(l < 0.0);
                    }
                }
                opponent_chose[usize::from(player)] |= state.legal_mask().count_ones() > 1;
                state.apply_unchecked(heuristic_action(&View::of_state(&state)));
            }
        }
        assert!(read > 400 && below * 10 > read * 9, "{below} of {read}");
    }
}
