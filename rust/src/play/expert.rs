//! The expert: Perfect-Information Monte Carlo over worlds whose talon is drawn by seat,
//! with inference on the opponent's exchange decisions.
//!
//! Two changes to PIMC, each aimed at one of its known flaws:
//! - **Draws by seat** (against strategy fusion). Solving a sampled world double-dummy
//!   lets the solver win or lose a trick for the talon card it knows is coming, a
//!   clairvoyance no player has, and one that rewards the actions that keep it most room.
//!   The expert solves each world with [`Draws::BySeat`]: each seat's draws are fixed in
//!   advance, whoever wins the tricks (the two cards of a pair are exchangeable in a world
//!   sampled uniformly, so each seat's draws are distributed as under the rules), and only
//!   the last pair, whose turn-up both players see, follows the rules.
//! - **Inference** (against ignoring the opponent's choices). Plain PIMC samples worlds
//!   uniformly among those consistent with the rules, so it ignores what the opponent's
//!   proposals, declines, acceptances and refusals say about their hand. The expert samples
//!   a larger pool of candidate worlds (sampling is cheap next to solving), weights each by
//!   the likelihood of the opponent's past exchange decisions under a model of the opponent
//!   (a logistic in the heuristic's hand value, fitted to PIMC's own decisions), and
//!   resamples the pool down to the usual number of worlds by systematic resampling. This
//!   is the inference of Skat's Kermit (Buro, Long, Furtak and Sturtevant 2009; Solinas,
//!   Rebstock and Buro 2019), restricted to the decisions that carry most information in
//!   écarté.
//!
//! Every action is then valued as PIMC values it (the solver for the play, the heuristic as
//! exchange rollout), over the same number of worlds as PIMC by default.

use rand::RngExt;

use super::heuristic::{hand_value, heuristic_rollout, View};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::duel::state::{DealState, Phase};
use crate::rng::{self, GameRng};
use crate::solver::pimc::{weighted_values, Goal, Rollout};
use crate::solver::sampler::{sample_worlds, Draft, SampleError, Sampler, MAX_WORLDS};
use crate::solver::Draws;

/// Worlds solved per decision of the expert unless a count is given: PIMC's default, so
/// the expert costs at most what PIMC(24) costs: about half, measured (docs/agents.md,
/// "Cost per decision").
pub const DEFAULT_EXPERT_SAMPLES: u16 = 24;

/// Candidate worlds sampled per world solved, when the opponent's decisions are informative.
pub const CANDIDATES_PER_WORLD: usize = 8;

/// The opponent model: `logit P(propose) = a + b v` for the elder and
/// `logit P(accept) = a + b v` for the dealer, with `v` the heuristic's hand value at the
/// decision. Fitted by logistic regression to PIMC(24)'s first exchange decisions over 150
/// deals (`python benches/expert_calibration.py 150`, seeds 1000 to 1149): PIMC proposes
/// rarely whatever its hand (21% of deals), so a decline says little, while a proposal,
/// an acceptance or a refusal says more.
pub const PROPOSE_MODEL: (f64, f64) = (-0.63, -0.24);
/// See [`PROPOSE_MODEL`].
pub const ACCEPT_MODEL: (f64, f64) = (1.23, -0.37);

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model's probability of `action` (an exchange decision) by a player whose hand has
/// heuristic value `value`; 1 for any other action.
pub fn decision_probability(action: Action, value: f64) -> f64 {
    let (a, b) = match action {
        Action::Propose | Action::Decline => PROPOSE_MODEL,
        Action::Accept | Action::Refuse => ACCEPT_MODEL,
        _ => return 1.0,
    };
    let change = logistic(a + b * value);
    match action {
        Action::Propose | Action::Accept => change,
        _ => 1.0 - change,
    }
}

/// The log-likelihood of `opponent`'s exchange decisions (propose, decline, accept,
/// refuse) in the world `draft` of `obs`, under the opponent model. Only the exchange phase
/// is replayed: the decisions all lie in it.
pub fn opponent_log_likelihood(draft: &Draft, obs: &Observation) -> f64 {
    opponent_log_sum(draft, obs, false, |state, action| match state.phase() {
        Phase::Proposal | Phase::Response => exchange_log_probability(state, action),
        _ => 0.0,
    })
}

/// The sum of `log_probability(state, action)` over the opponent's actions in the world
/// `draft` of `obs`, the deal replayed from its deck up to the observation (up to the play
/// phase unless `into_play`).
pub(crate) fn opponent_log_sum(
    draft: &Draft,
    obs: &Observation,
    into_play: bool,
    log_probability: impl Fn(&DealState, Action) -> f64,
) -> f64 {
    let opponent = 1 - obs.player;
    let Ok(mut state) = DealState::from_deck(&draft.deck, obs.dealer, obs.rules) else {
        return 0.0;
    };
    let mut total = 0.0;
    for action in draft.history(obs) {
        let (Some(action), Some(player)) = (action, state.current_player()) else {
            break;
        };
        if !into_play && state.phase() == Phase::Play {
            break;
        }
        if player == opponent {
            total += log_probability(&state, action);
        }
        state.apply_unchecked(action);
    }
    total
}

/// The log of the opponent model's probability of `action`, an exchange decision by the
/// player to move in `state`.
pub(crate) fn exchange_log_probability(state: &DealState, action: Action) -> f64 {
    let value = f64::from(hand_value(&View::of_state(state)));
    decision_probability(action, value).max(1e-12).ln()
}

/// Whether the opponent of the observing player made an exchange decision so far.
pub(crate) fn opponent_decided(obs: &Observation) -> bool {
    let opponent_is_elder = obs.dealer == obs.player;
    obs.history.iter().flatten().any(|a| match a {
        Action::Propose | Action::Decline => opponent_is_elder,
        Action::Accept | Action::Refuse => !opponent_is_elder,
        _ => false,
    })
}

/// The weights `exp(log_weights)`, scaled so that the heaviest is 1.
fn relative_weights(log_weights: &[f64]) -> Vec<f64> {
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    log_weights.iter().map(|&l| (l - top).exp()).collect()
}

/// How many times each of `weights.len()` candidates is drawn when `n` are drawn by
/// systematic resampling proportional to `weights` (see [`relative_weights`]).
fn systematic_counts(weights: &[f64], n: usize, rng: &mut GameRng) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    let mut counts = vec![0.0; weights.len()];
    if !(total.is_finite() && total > 0.0) || n == 0 {
        counts.iter_mut().take(n).for_each(|c| *c = 1.0);
        return counts;
    }
    let step = total / n as f64;
    let mut point = rng.random::<f64>() * step;
    let mut cumulative = 0.0;
    let mut drawn = 0;
    for (count, w) in counts.iter_mut().zip(weights) {
        cumulative += w;
        while drawn < n && point < cumulative {
            *count += 1.0;
            drawn += 1;
            point += step;
        }
    }
    // Rounding can leave the last draw undrawn: it goes to the heaviest candidate.
    if drawn < n {
        if let Some(i) = (0..weights.len()).max_by(|&a, &b| weights[a].total_cmp(&weights[b])) {
            counts[i] += (n - drawn) as f64;
        }
    }
    counts
}

/// Each legal action of the observing player with its value: the mean double-dummy points,
/// the talon drawn by seat, over `samples` worlds resampled by the likelihood of the
/// opponent's exchange decisions. Reproducible for a `seed`. Once `control` is cancelled it
/// returns at once, with no values.
pub fn expert_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    expert_search(obs, samples, seed, Goal::Values, control)
}

/// [`expert_values`] for `goal`: all the values, or what the best action needs.
pub fn expert_search(
    obs: &Observation,
    samples: usize,
    seed: u64,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    inferred_values(obs, samples, seed, expert_inference(obs), goal, control)
}

/// [`inference_spread`] for the expert: that of the pool [`expert_search`] resamples.
pub fn expert_spread(
    obs: &Observation,
    samples: usize,
    seed: u64,
) -> Result<Option<(f64, usize)>, SampleError> {
    inference_spread(obs, samples, seed, expert_inference(obs))
}

/// How the expert reads the opponent's decisions in `obs`: the exchange decisions, once
/// the opponent has made one.
fn expert_inference(obs: &Observation) -> Inference<LogLikelihood> {
    Inference {
        informative: opponent_decided(obs),
        log_likelihood: opponent_log_likelihood,
        distinct: false,
    }
}

/// The log-likelihood of the opponent's decisions in a world of an observation.
pub(crate) type LogLikelihood = fn(&Draft, &Observation) -> f64;

/// How a search reads the opponent's decisions: by `log_likelihood`, where `informative`
/// says they say something; with `distinct`, the pool is resampled until it gives as many
/// different worlds as the search solves (see [`resampled_counts`]).
pub(crate) struct Inference<L> {
    pub informative: bool,
    pub log_likelihood: L,
    pub distinct: bool,
}

/// The expert's search (see [`expert_values`]) with the opponent's decisions read as
/// `inference` says, PIMC's worlds where they say nothing, for `goal`.
pub(crate) fn inferred_values(
    obs: &Observation,
    samples: usize,
    seed: u64,
    inference: Inference<impl Fn(&Draft, &Observation) -> f64>,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    inferred_values_with(
        obs,
        samples,
        seed,
        inference,
        heuristic_rollout,
        goal,
        control,
    )
}

/// [`inferred_values`] with the exchange phase of each world played out by `rollout`.
pub(crate) fn inferred_values_with(
    obs: &Observation,
    samples: usize,
    seed: u64,
    inference: Inference<impl Fn(&Draft, &Observation) -> f64>,
    rollout: Rollout,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    if control.cancelled() {
        return Ok(Vec::new());
    }
    let worlds = inferred_worlds(obs, samples, seed, inference)?;
    let values = weighted_values(
        &worlds.states,
        &worlds.counts,
        rollout,
        Draws::BySeat,
        goal,
        control,
    );
    Ok(values.unwrap_or_default())
}

/// The worlds a search solves for one decision, with the pool they were resampled from.
#[derive(Debug)]
pub(crate) struct Worlds {
    /// The worlds solved.
    pub states: Vec<DealState>,
    /// How many times each world of `states` counts.
    pub counts: Vec<f64>,
    /// The log-weight of each candidate world of the pool that `states` were resampled
    /// from, in the order drawn; `None` where the search solves unweighted worlds (the
    /// opponent's decisions say nothing, or no pool of worlds can be drawn).
    pub pool: Option<Vec<f64>>,
}

impl Worlds {
    /// The effective sample size of the pool the worlds were resampled from, and the
    /// pool's size; `None` where they were not resampled.
    pub fn spread(&self) -> Option<(f64, usize)> {
        let pool = self.pool.as_deref()?;
        Some((effective_sample_size(pool), pool.len()))
    }
}

/// The worlds the expert's search (see [`expert_values`]) solves for `obs`, the opponent's
/// decisions read as `inference` says: what the search solves and what
/// [`inference_spread`] reports, both from this one draw.
pub(crate) fn inferred_worlds(
    obs: &Observation,
    samples: usize,
    seed: u64,
    inference: Inference<impl Fn(&Draft, &Observation) -> f64>,
) -> Result<Worlds, SampleError> {
    let samples = samples.max(1);
    // The worlds come from `seed` as PIMC's do, so where the opponent has not decided
    // anything yet the expert solves PIMC's worlds (only the draws differ).
    let world_seed = seed;
    let resampled = if inference.informative {
        // A pool the sampler cannot fill falls back to plain PIMC's worlds.
        resampled_worlds(obs, samples, seed, inference).ok()
    } else {
        None
    };
    Ok(match resampled {
        Some(resampled) => resampled,
        None => Worlds {
            states: sample_worlds(obs, samples, world_seed)?,
            counts: vec![1.0; samples],
            pool: None,
        },
    })
}

/// The candidate worlds sampled for `samples` worlds solved.
fn pool_size(samples: usize) -> Result<usize, SampleError> {
    let size = samples * CANDIDATES_PER_WORLD;
    if size > MAX_WORLDS {
        return Err(SampleError::TooMany {
            wanted: size,
            max: MAX_WORLDS,
        });
    }
    Ok(size)
}

/// A pool of `size` candidate worlds of `obs` drawn from `seed`, with the sampler that
/// drew them and each one's `log_likelihood`.
fn weighted_pool(
    obs: &Observation,
    size: usize,
    seed: u64,
    log_likelihood: impl Fn(&Draft, &Observation) -> f64,
) -> Result<(Sampler<'_>, Vec<Draft>, Vec<f64>), SampleError> {
    let mut drafts = Sampler::new(obs, seed)?;
    let pool = (0..size)
        .map(|_| drafts.draft())
        .collect::<Result<Vec<Draft>, SampleError>>()?;
    let log_weights: Vec<f64> = pool
        .iter()
        .map(|draft| log_likelihood(draft, obs))
        .collect();
    Ok((drafts, pool, log_weights))
}

/// The effective sample size of weights `exp(log_weights)`: `(sum w)^2 / sum w^2`, from 1
/// (one world carries all the weight) to the pool's size (all alike).
pub fn effective_sample_size(log_weights: &[f64]) -> f64 {
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let (sum, squares) = log_weights.iter().fold((0.0, 0.0), |(s, q), &l| {
        let w = (l - top).exp();
        (s + w, q + w * w)
    });
    if squares > 0.0 {
        sum * sum / squares
    } else {
        0.0
    }
}

/// How a search weights the worlds of `obs` for `samples` worlds solved, from the decision
/// seed `seed`: the effective sample size of the pool its worlds are resampled from
/// (the same draw, see [`inferred_worlds`]), and the pool's size; `None` where it solves
/// unweighted worlds (the opponent's decisions say nothing, or no pool of worlds can be
/// drawn). An error where the search has no world to solve.
pub(crate) fn inference_spread(
    obs: &Observation,
    samples: usize,
    seed: u64,
    inference: Inference<impl Fn(&Draft, &Observation) -> f64>,
) -> Result<Option<(f64, usize)>, SampleError> {
    Ok(inferred_worlds(obs, samples, seed, inference)?.spread())
}

/// How many times each candidate of a pool weighted by `exp(log_weights)` counts when the
/// search resamples `samples` worlds from it by systematic resampling with the decision
/// generator of `seed`: `samples` draws, or with `distinct` the fewest draws of a sequence
/// growing by a quarter that give `samples` different worlds, or that first reach eight
/// times the pool's size. A pool whose weight lies on few candidates then still gives the
/// search as many worlds to solve (or a few more, where the last step overshoots), each
/// counted as often as it was drawn.
pub(crate) fn resampled_counts(
    log_weights: &[f64],
    samples: usize,
    distinct: bool,
    seed: u64,
) -> Vec<f64> {
    // The weights once: each larger draw starts again from the decision's generator.
    let weights = relative_weights(log_weights);
    let mut draws = samples;
    loop {
        let counts = systematic_counts(&weights, draws, &mut rng::decision_rng(seed));
        let worlds = counts.iter().filter(|&&c| c > 0.0).count();
        if !distinct || worlds >= samples || draws >= log_weights.len() * 8 {
            return counts;
        }
        draws = draws * 5 / 4 + 1;
    }
}

/// The worlds drawn at least once when `samples` are resampled from a pool of
/// `CANDIDATES_PER_WORLD` times as many by `inference`'s log-likelihood (see
/// [`resampled_counts`]), with how many times each was drawn. Only the drawn worlds are
/// replayed into deal states: the likelihood reads the pool's drafts (decks and hidden
/// discards).
fn resampled_worlds(
    obs: &Observation,
    samples: usize,
    seed: u64,
    inference: Inference<impl Fn(&Draft, &Observation) -> f64>,
) -> Result<Worlds, SampleError> {
    let size = pool_size(samples)?;
    let (drafts, pool, log_weights) = weighted_pool(obs, size, seed, inference.log_likelihood)?;
    let counts = resampled_counts(&log_weights, samples, inference.distinct, seed);
    let (mut states, mut drawn) = (Vec::new(), Vec::new());
    for (draft, count) in pool.iter().zip(counts) {
        if count > 0.0 {
            states.push(drafts.world(draft)?);
            drawn.push(count);
        }
    }
    Ok(Worlds {
        states,
        counts: drawn,
        pool: Some(log_weights),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::duel::Rules;
    use crate::play::heuristic::heuristic_action;
    use crate::play::policy::Policy;

    /// Checks, for the search agent `policy` whose search reads the opponent as `inference`
    /// says and rolls the exchange out by `rollout`, at `obs` with the agent's seed
    /// `agent_seed`, that the spread it reports is that of the pool its search resamples:
    /// the search's values are those of the worlds drawn for it; the pool is the sampler's
    /// first candidates from the decision seed, weighted by the likelihood; the worlds
    /// solved are those systematic resampling by these weights draws; and the spread is the
    /// pool's effective sample size. Returns the spread. `worlds` gives the worlds the
    /// search solves so at `obs` for the agent's count, and `None` where it searches
    /// otherwise (then nothing is checked).
    fn check_spread_is_the_searchs_pool<L: Fn(&Draft, &Observation) -> f64>(
        policy: Policy,
        inference: fn(&Observation) -> Inference<L>,
        rollout: Rollout,
        worlds: WorldsAt,
        obs: &Observation,
        agent_seed: u64,
    ) -> Option<(f64, usize)> {
        let samples = worlds(obs, usize::from(policy.samples().expect("a search agent")))?;
        let seed = rng::decision_seed(agent_seed, obs.key());
        let worlds = inferred_worlds(obs, samples, seed, inference(obs)).expect("worlds");
        let spread = worlds.spread();
        assert_eq!(policy.inference_spread(obs, agent_seed), Some(Ok(spread)));
        let values = weighted_values(
            &worlds.states,
            &worlds.counts,
            rollout,
            Draws::BySeat,
            Goal::Values,
            Control::NONE,
        );
        assert_eq!(
            policy.values(obs, agent_seed, Control::NONE),
            Some(Ok(values.unwrap_or_default()))
        );
        let Some(log_weights) = &worlds.pool else {
            assert_eq!(worlds.counts.iter().sum::<f64>() as usize, samples);
            return None;
        };
        let mut drafter = Sampler::new(obs, seed).expect("a sampler");
        let drafts: Vec<Draft> = (0..samples * CANDIDATES_PER_WORLD)
            .map(|_| drafter.draft().expect("a draft"))
            .collect();
        let Inference {
            log_likelihood,
            distinct,
            ..
        } = inference(obs);
        let pool: Vec<f64> = drafts.iter().map(|d| log_likelihood(d, obs)).collect();
        assert_eq!(&pool, log_weights);
        // The worlds solved are the candidates that systematic resampling by these weights,
        // from the decision's own generator, draws, each as many times: `samples` draws,
        // or with `distinct` at least `samples` worlds where the pool has them.
        let counts = resampled_counts(&pool, samples, distinct, seed);
        let total_draws = counts.iter().sum::<f64>() as usize;
        let worlds_drawn = counts.iter().filter(|&&c| c > 0.0).count();
        if distinct {
            assert!(
                total_draws >= samples && worlds_drawn >= samples.min(drafts.len())
                    || total_draws >= 8 * drafts.len()
            );
        } else {
            assert_eq!(total_draws, samples);
        }
        let drawn: Vec<(DealState, f64)> = drafts
            .iter()
            .zip(counts)
            .filter(|&(_, count)| count > 0.0)
            .map(|(d, count)| (drafter.world(d).expect("a world"), count))
            .collect();
        let solved: Vec<(DealState, f64)> = worlds.states.into_iter().zip(worlds.counts).collect();
        assert_eq!(solved, drawn);
        spread
    }

    /// The worlds a search agent of a count solves at an observation by the inference
    /// checked, `None` where it searches otherwise.
    pub(crate) type WorldsAt = fn(&Observation, usize) -> Option<usize>;

    /// The [`WorldsAt`] of an agent that solves its count everywhere.
    pub(crate) const EVERYWHERE: WorldsAt = |_, samples| Some(samples);

    /// [`check_spread_is_the_searchs_pool`] at every decision of `deals` deals played by
    /// the heuristic in both seats, with the agent's seed 7: each decision where the search
    /// weights its worlds, with the spread reported there.
    pub(crate) fn checked_spreads<L: Fn(&Draft, &Observation) -> f64>(
        policy: Policy,
        inference: fn(&Observation) -> Inference<L>,
        rollout: Rollout,
        worlds: WorldsAt,
        deals: u64,
    ) -> Vec<(Observation, (f64, usize))> {
        let mut weighted = Vec::new();
        for seed in 0..deals {
            let mut state = DealState::from_seed(seed, u8::from(seed % 2 == 1), Rules::default())
                .expect("a deal");
            while let Some(player) = state.current_player() {
                let obs = state.observation(player, [0, 0]);
                if let Some(spread) =
                    check_spread_is_the_searchs_pool(policy, inference, rollout, worlds, &obs, 7)
                {
                    weighted.push((obs, spread));
                }
                state.apply_unchecked(heuristic_action(&View::of_state(&state)));
            }
        }
        weighted
    }

    /// The expert's reported spread is that of the pool its search resamples, from the
    /// same decision seed, and another seed draws another pool.
    #[test]
    fn the_experts_spread_is_its_searchs_pool() {
        let policy = Policy::Expert(3);
        let weighted = checked_spreads(policy, expert_inference, heuristic_rollout, EVERYWHERE, 6);
        let mut moved = 0;
        for (obs, (size, pool)) in &weighted {
            assert_eq!(*pool, 3 * CANDIDATES_PER_WORLD);
            assert!((1.0..=*pool as f64 + 1e-9).contains(size), "{size}");
            moved += usize::from(policy.inference_spread(obs, 8) != Some(Ok(Some((*size, *pool)))));
        }
        assert!(
            weighted.len() > 10 && moved > 0,
            "{} weighted, {moved} moved",
            weighted.len()
        );
    }

    #[test]
    fn systematic_counts_sum_to_n() {
        let mut rng = crate::rng::rng_from_seed(3);
        for n in [1, 5, 24] {
            let logs = [0.0, -1.0, -50.0, 2.0, 0.5, -3.0];
            let counts = systematic_counts(&relative_weights(&logs), n, &mut rng);
            assert_eq!(counts.iter().sum::<f64>() as usize, n);
            let flat = systematic_counts(&relative_weights(&[0.0; 48]), n, &mut rng);
            assert_eq!(flat.iter().sum::<f64>() as usize, n);
            assert!(flat.iter().all(|&c| c <= 1.0));
        }
    }

    /// Resampled plainly, a pool whose weight lies on a few candidates gives fewer worlds
    /// than asked for; resampled for distinct worlds it gives as many, drawn at least as
    /// often as the plain draws drew them, and the heaviest still counts most. A pool with
    /// fewer candidates of any weight than asked for stops at its bound.
    #[test]
    fn distinct_resampling_gives_as_many_worlds() {
        let logs: Vec<f64> = (0..80).map(|i| -0.15 * f64::from(i)).collect();
        let plain = resampled_counts(&logs, 12, false, 5);
        let distinct = resampled_counts(&logs, 12, true, 5);
        let worlds = |c: &[f64]| c.iter().filter(|&&n| n > 0.0).count();
        assert_eq!(plain.iter().sum::<f64>() as usize, 12);
        assert!(worlds(&plain) < 12, "{plain:?}");
        assert!(worlds(&distinct) >= 12, "{distinct:?}");
        assert!(distinct[0] >= plain[0] && distinct[0] >= distinct[11]);
        let mut narrow = vec![f64::NEG_INFINITY; 40];
        narrow[..3].fill(0.0);
        let capped = resampled_counts(&narrow, 12, true, 5);
        assert_eq!(worlds(&capped), 3);
        assert!(capped.iter().sum::<f64>() as usize >= 8 * 40);
    }

    #[test]
    fn keeping_is_likelier_with_a_strong_hand() {
        for (change, keep) in [
            (Action::Propose, Action::Decline),
            (Action::Accept, Action::Refuse),
        ] {
            assert!(decision_probability(change, 1.0) > decision_probability(change, 6.0));
            assert!(decision_probability(keep, 6.0) > decision_probability(keep, 1.0));
            let total = decision_probability(change, 3.0) + decision_probability(keep, 3.0);
            assert!((total - 1.0).abs() < 1e-12);
        }
        assert!(decision_probability(Action::Decline, 2.0).ln().is_finite());
    }
}
