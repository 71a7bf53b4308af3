//! The analysis of deals already played: for each decision, what every legal action was
//! worth and how much the action taken lost (docs/analysis.md).
//!
//! Two measures, as bridge and chess analysis give them:
//! - **Double-dummy** (play-phase decisions only): every card and the talon order known,
//!   each action valued exactly by the solver ([`crate::solver::action_values`]). It says
//!   what was lost against a perfect player who sees everything, which no player is.
//! - **Under the mover's information**: each action's mean value over worlds consistent
//!   with what the mover knew, chosen and solved as the master agent chooses and solves
//!   them (the `master` agent: the opponent's decisions read by its inference, the talon
//!   drawn by seat, the exchange rolled out by the heuristic), with the mean's standard
//!   error. It covers the exchange phase too, and is the fair measure of a mistake in a game
//!   of hidden information: the means are exactly the master's values at that decision.
//!
//! Each decision's worlds are seeded from the analysis seed and the mover's observation
//! (as every search agent seeds a decision), so a result depends on the seed and the worlds' count
//! alone, not on the threads or the order the decisions run in.

use std::fmt;

use rayon::prelude::*;
use serde::Serialize;

use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::record::{DealRecord, MatchRecord};
use crate::duel::state::{DealState, Outcome, Phase};
use crate::duel::{DuelError, Match, MatchScore};
use crate::play::heuristic::heuristic_rollout;
use crate::play::master::{master_worlds, DEFAULT_MASTER_SAMPLES};
use crate::play::policy::MAX_SAMPLES;
use crate::rng;
use crate::solver::pimc::weighted_spreads;
use crate::solver::{action_values, Draws, Objective};

/// Worlds per decision unless a count is given: the master's own.
pub const DEFAULT_WORLDS: u16 = DEFAULT_MASTER_SAMPLES;
/// The most worlds per decision: the one limit of every search.
pub const MAX_WORLDS: u16 = MAX_SAMPLES;
/// The loss under the mover's information, in deal points, from which a decision counts
/// as a mistake unless a threshold is given.
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// How an analysis runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Worlds per decision, 1 to [`MAX_WORLDS`].
    pub worlds: u16,
    /// The seed each decision's worlds derive from.
    pub seed: u64,
    /// The smallest `loss_info` that makes a mistake; at least 0.
    pub threshold: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            worlds: DEFAULT_WORLDS,
            seed: 0,
            threshold: DEFAULT_THRESHOLD,
        }
    }
}

/// Why an analysis gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisError {
    /// Options out of range.
    Options(String),
    /// Text that is not a duel deal or match record (`DuelError::InvalidRecord`), or a
    /// record that does not replay.
    Record(DuelError),
    /// No world consistent with a mover's information was found (not on a legal deal).
    Sample(String),
    /// The caller cancelled the run.
    Cancelled,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Options(why) | AnalysisError::Sample(why) => f.write_str(why),
            AnalysisError::Record(e) => write!(f, "{e}"),
            AnalysisError::Cancelled => f.write_str("the analysis was cancelled"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// A deal as played, up to its last action (finished or not), with the match score before
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The deal with its action log.
    pub state: DealState,
    /// The match score before the deal (seat 0's, seat 1's).
    pub score: [u8; 2],
}

impl Played {
    /// A deal on its own: the score before it is 0-0.
    pub fn deal(state: DealState) -> Played {
        Played {
            state,
            score: [0, 0],
        }
    }

    /// Every deal of `game` that has begun (the deal in progress, if it has an action),
    /// with the score before each.
    pub fn of_match(game: &Match) -> Vec<Played> {
        let mut score = MatchScore::new(game.rules.target, game.score.first_dealer);
        let mut played = Vec::new();
        for state in game.deals() {
            if state.actions().next().is_none() {
                continue;
            }
            played.push(Played {
                state: *state,
                score: score.score,
            });
            if let Some(outcome) = state.outcome() {
                score.record(&outcome);
            }
        }
        played
    }

    /// The deals of a deal record or a match record, told apart by the record's `format`.
    pub fn of_record(text: &str) -> Result<Vec<Played>, AnalysisError> {
        #[derive(serde::Deserialize)]
        struct Header {
            format: Option<String>,
        }
        let bad = |why: String| AnalysisError::Record(DuelError::InvalidRecord(why));
        let header: Header = serde_json::from_str(text)
            .map_err(|_| bad("not a record: the text is not a JSON object".to_string()))?;
        let format = header.format.unwrap_or_default();
        if format == crate::duel::record::MATCH_FORMAT {
            let game = MatchRecord::from_json(text)
                .and_then(|r| r.replay())
                .map_err(AnalysisError::Record)?;
            Ok(Played::of_match(&game))
        } else if format == crate::duel::record::RECORD_FORMAT {
            let state = DealRecord::from_json(text)
                .and_then(|r| r.replay())
                .map_err(AnalysisError::Record)?;
            Ok(vec![Played::deal(state)])
        } else {
            Err(bad(format!(
                "not a duel deal or match record: its format is {format:?}, where {:?} or {:?} \
                 is analysed",
                crate::duel::record::RECORD_FORMAT,
                crate::duel::record::MATCH_FORMAT
            )))
        }
    }
}

/// One decision of a deal with its analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The deal's number in the record, from 1.
    pub deal: usize,
    /// The index of the action in the deal's action list, from 0.
    pub ply: usize,
    /// The seat that decided.
    pub seat: u8,
    /// The phase the decision was taken in.
    pub phase: Phase,
    /// The action taken.
    pub action: Action,
    /// The legal actions, in action-id order; the values below are in the same order.
    pub legal: Vec<Action>,
    /// Each legal action's double-dummy value in deal points for the mover; `None` outside
    /// the play phase.
    pub values: Option<Vec<i32>>,
    /// Each legal action's mean value for the mover over the worlds of the mover's
    /// information.
    pub values_info: Vec<f64>,
    /// The standard errors of `values_info`.
    pub values_info_se: Vec<f64>,
    /// The action with the highest `values_info` (ties to the lowest action id).
    pub best: Action,
    /// The best double-dummy value minus the action's; `None` outside the play phase.
    pub loss: Option<i32>,
    /// The highest `values_info` minus the action's.
    pub loss_info: f64,
    /// Whether the action was the only legal one.
    pub forced: bool,
}

impl Decision {
    /// The index of the action taken in `legal`.
    pub fn taken(&self) -> usize {
        self.legal
            .iter()
            .position(|&a| a == self.action)
            .unwrap_or(0)
    }

    /// Whether the decision is a mistake at `threshold`: not forced and `loss_info` at
    /// least `threshold`.
    pub fn is_mistake(&self, threshold: f64) -> bool {
        !self.forced && self.loss_info >= threshold
    }
}

/// One deal's decisions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealAnalysis {
    /// The deal's number in the record, from 1.
    pub deal: usize,
    /// The dealer's seat.
    pub dealer: u8,
    /// The outcome, `None` for an unfinished deal (analysed up to its last action).
    pub outcome: Option<Outcome>,
    /// Every decision of the deal, in the order taken.
    pub decisions: Vec<Decision>,
}

/// One seat's decisions summed up. Forced decisions are counted apart: they are no choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat summed up.
    pub seat: u8,
    /// The seat's decisions with a choice (more than one legal action).
    pub decisions: usize,
    /// The seat's forced decisions.
    pub forced: usize,
    /// Decisions with a choice whose `loss_info` reaches the threshold.
    pub mistakes: usize,
    /// The sum of `loss_info` over the decisions with a choice.
    pub points_lost: f64,
    /// The share of the decisions with a choice whose `loss_info` is 0; `None` without one.
    pub accuracy: Option<f64>,
}

impl SeatSummary {
    fn of(seat: u8, deals: &[DealAnalysis], threshold: f64) -> SeatSummary {
        let mine = || {
            deals
                .iter()
                .flat_map(|d| &d.decisions)
                .filter(move |d| d.seat == seat)
        };
        let choices: Vec<&Decision> = mine().filter(|d| !d.forced).collect();
        let perfect = choices.iter().filter(|d| d.loss_info == 0.0).count();
        SeatSummary {
            seat,
            decisions: choices.len(),
            forced: mine().filter(|d| d.forced).count(),
            mistakes: choices.iter().filter(|d| d.is_mistake(threshold)).count(),
            points_lost: choices.iter().map(|d| d.loss_info).sum(),
            accuracy: (!choices.is_empty()).then(|| perfect as f64 / choices.len() as f64),
        }
    }
}

/// The analysis of a deal or a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Worlds per decision.
    pub worlds: u16,
    /// The seed the worlds derive from.
    pub seed: u64,
    /// The smallest `loss_info` counted as a mistake.
    pub threshold: f64,
    /// Each deal analysed, in the record's order.
    pub deals: Vec<DealAnalysis>,
    /// Seat 0's summary, then seat 1's.
    pub summary: [SeatSummary; 2],
}

impl Analysis {
    /// The JSON of the whole analysis.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Checks the options: a worlds' count from 1 to [`MAX_WORLDS`], a finite threshold of at
/// least 0.
pub fn check_options(options: &Options) -> Result<(), AnalysisError> {
    if !(1..=MAX_WORLDS).contains(&options.worlds) {
        return Err(AnalysisError::Options(format!(
            "worlds must be a whole number from 1 to {MAX_WORLDS}, got {}",
            options.worlds
        )));
    }
    if !(options.threshold.is_finite() && options.threshold >= 0.0) {
        return Err(AnalysisError::Options(format!(
            "threshold must be a number of points of at least 0, got {}",
            options.threshold
        )));
    }
    Ok(())
}

/// The decisions an analysis of `deals` makes: one per action.
pub fn decision_count(deals: &[Played]) -> usize {
    deals.iter().map(|p| p.state.actions().count()).sum()
}

/// Analyses every decision of `deals` (numbered from 1 in order), in parallel on rayon's
/// pool. Each decision analysed counts one on `control`; once it is cancelled no further
/// decision is analysed and the result is [`AnalysisError::Cancelled`].
pub fn analyse(
    deals: &[Played],
    options: &Options,
    control: Control<'_>,
) -> Result<Analysis, AnalysisError> {
    check_options(options)?;
    let mut positions = Vec::with_capacity(decision_count(deals));
    for (index, played) in deals.iter().enumerate() {
        let mut state = DealState::from_deck(
            played.state.deck(),
            played.state.dealer(),
            played.state.rules(),
        )
        .map_err(AnalysisError::Record)?;
        for (ply, action) in played.state.actions().enumerate() {
            positions.push((index, ply, state, action, played.score));
            state.apply_unchecked(action);
        }
    }
    let decisions: Vec<Result<Decision, AnalysisError>> = positions
        .par_iter()
        .map(|&(index, ply, state, action, score)| {
            (!control.cancelled()).then(|| {
                let decision = decide(&state, action, score, options, control).map(|d| Decision {
                    deal: index + 1,
                    ply,
                    ..d
                });
                control.advance(1);
                decision
            })
        })
        .while_some()
        .collect();
    if control.cancelled() || decisions.len() < positions.len() {
        return Err(AnalysisError::Cancelled);
    }
    let mut analysed: Vec<DealAnalysis> = deals
        .iter()
        .enumerate()
        .map(|(index, played)| DealAnalysis {
            deal: index + 1,
            dealer: played.state.dealer(),
            outcome: played.state.outcome(),
            decisions: Vec::new(),
        })
        .collect();
    for decision in decisions {
        let decision = decision?;
        analysed[decision.deal - 1].decisions.push(decision);
    }
    let summary = [0, 1].map(|seat| SeatSummary::of(seat, &analysed, options.threshold));
    Ok(Analysis {
        worlds: options.worlds,
        seed: options.seed,
        threshold: options.threshold,
        deals: analysed,
        summary,
    })
}

/// The analysis of `action` taken in `state` (its `deal` and `ply` left at 0).
fn decide(
    state: &DealState,
    action: Action,
    score: [u8; 2],
    options: &Options,
    control: Control<'_>,
) -> Result<Decision, AnalysisError> {
    let seat = state.current_player().unwrap_or(0);
    let legal = state.legal_actions();
    let obs = state.observation(seat, score);
    let seed = rng::decision_seed(options.seed, obs.key());
    let (worlds, counts) = master_worlds(&obs, usize::from(options.worlds), seed)
        .map_err(|e| AnalysisError::Sample(e.to_string()))?;
    let spreads = weighted_spreads(&worlds, &counts, heuristic_rollout, Draws::BySeat, control)
        .ok_or(AnalysisError::Cancelled)?;
    // The worlds' legal actions are the mover's, in the same order; read them by action all
    // the same.
    let spread_of = |a: Action| spreads.iter().find(|s| s.action == a);
    let values_info: Vec<f64> = legal
        .iter()
        .map(|&a| spread_of(a).map_or(0.0, |s| s.mean))
        .collect();
    let values_info_se: Vec<f64> = legal
        .iter()
        .map(|&a| spread_of(a).map_or(0.0, |s| s.se))
        .collect();
    let values = (state.phase() == Phase::Play)
        .then(|| action_values(state, Objective::Points))
        .transpose()
        .map_err(|e| AnalysisError::Sample(e.to_string()))?
        .map(|(values, _)| values.into_iter().map(|(_, v)| v).collect::<Vec<i32>>());
    let taken = legal.iter().position(|&a| a == action).unwrap_or(0);
    // The first of the highest values: ties go to the lowest action id.
    let best_index = (0..legal.len()).fold(0, |best, i| {
        if values_info[i] > values_info[best] {
            i
        } else {
            best
        }
    });
    let loss = values.as_ref().map(|values| {
        values.iter().copied().max().unwrap_or(0) - values.get(taken).copied().unwrap_or(0)
    });
    Ok(Decision {
        deal: 0,
        ply: 0,
        seat,
        phase: state.phase(),
        action,
        best: legal.get(best_index).copied().unwrap_or(action),
        loss,
        loss_info: values_info[best_index] - values_info.get(taken).copied().unwrap_or(0.0),
        forced: legal.len() == 1,
        legal,
        values,
        values_info,
        values_info_se,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Rules;
    use crate::play::master::master_values;
    use crate::play::random::nth_action;

    /// A deal played to its end by a fixed pseudo-random choice among the legal actions.
    fn played(seed: u64) -> DealState {
        let mut state = DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).unwrap();
        let mut rng = crate::rng::rng_from_seed(seed);
        while state.current_player().is_some() {
            let legal = state.legal_mask();
            let n = legal.count_ones();
            let i = rand::RngExt::random_range(&mut rng, 0..n);
            state.apply_unchecked(nth_action(legal, i));
        }
        state
    }

    fn quick(seed: u64) -> Options {
        Options {
            worlds: 6,
            seed,
            threshold: DEFAULT_THRESHOLD,
        }
    }

    #[test]
    fn every_decision_is_valued_as_the_solver_and_the_master_value_it() {
        for seed in 0..3 {
            let deal = played(seed);
            let analysis = analyse(&[Played::deal(deal)], &quick(seed), Control::NONE).unwrap();
            let decisions = &analysis.deals[0].decisions;
            assert_eq!(decisions.len(), deal.actions().count());
            let mut state = DealState::from_deck(deal.deck(), deal.dealer(), deal.rules()).unwrap();
            for (ply, (d, action)) in decisions.iter().zip(deal.actions()).enumerate() {
                assert_eq!((d.ply, d.action, d.deal), (ply, action, 1));
                assert_eq!(d.legal, state.legal_actions());
                let obs = state.observation(d.seat, [0, 0]);
                let seed = rng::decision_seed(seed, obs.key());
                let master = master_values(&obs, 6, seed, Control::NONE).unwrap();
                let means: Vec<f64> = master.iter().map(|&(_, v)| v).collect();
                assert_eq!(d.values_info, means, "ply {ply}");
                if state.phase() == Phase::Play {
                    let (exact, _) = action_values(&state, Objective::Points).unwrap();
                    let exact: Vec<i32> = exact.into_iter().map(|(_, v)| v).collect();
                    let best = *exact.iter().max().unwrap();
                    assert_eq!(d.loss, Some(best - exact[d.taken()]));
                    assert_eq!(d.values.as_ref(), Some(&exact));
                } else {
                    assert_eq!((d.values.as_ref(), d.loss), (None, None));
                }
                assert!(d.loss_info >= 0.0 && d.values_info_se.iter().all(|&s| s >= 0.0));
                state.apply_unchecked(action);
            }
        }
    }

    #[test]
    fn the_result_depends_on_the_seed_not_the_threads() {
        let deals: Vec<Played> = (10..13).map(|s| Played::deal(played(s))).collect();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| analyse(&deals, &quick(5), Control::NONE).unwrap());
        let many = analyse(&deals, &quick(5), Control::NONE).unwrap();
        assert_eq!(one, many);
        let other = analyse(&deals, &quick(6), Control::NONE).unwrap();
        assert_ne!(one.deals, other.deals);
    }

    #[test]
    fn options_out_of_range_are_refused() {
        let deal = [Played::deal(played(1))];
        for options in [
            Options {
                worlds: 0,
                ..Options::default()
            },
            Options {
                threshold: f64::NAN,
                ..Options::default()
            },
            Options {
                threshold: -1.0,
                ..Options::default()
            },
        ] {
            assert!(matches!(
                analyse(&deal, &options, Control::NONE),
                Err(AnalysisError::Options(_))
            ));
        }
    }
}
