//! The decisions of self-play between built-in agents, recorded for learning: each one the
//! observation of the seat to move, the legal actions and the action taken. The grandmaster's
//! opponent model is trained on them (`examples/train_inference.py`).

use std::cell::RefCell;

use rayon::prelude::*;

use super::agent::BuiltinAgent;
use super::master::modelled_decision;
use super::policy::Policy;
use super::run::{Run, RunMatch};
use super::runner::{self, Controlled, Player};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::matches::Match;
use crate::duel::observe::Compact;
use crate::duel::rules::Rules;
use crate::duel::state::{DealState, DuelError, Phase};

/// What a decision decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// A proposal or an answer to one.
    Exchange = 0,
    /// A discard.
    Discard = 1,
    /// A card led to a trick.
    Lead = 2,
    /// A card played to a trick already led.
    Follow = 3,
}

impl DecisionKind {
    /// Every kind, by code.
    pub const ALL: [DecisionKind; 4] = [
        DecisionKind::Exchange,
        DecisionKind::Discard,
        DecisionKind::Lead,
        DecisionKind::Follow,
    ];

    /// The kind of the decision of the player to move in `state`.
    pub fn of(state: &DealState) -> DecisionKind {
        match state.phase() {
            Phase::Proposal | Phase::Response => DecisionKind::Exchange,
            Phase::Discard => DecisionKind::Discard,
            _ if state.lead().is_some() => DecisionKind::Follow,
            _ => DecisionKind::Lead,
        }
    }

    /// Its name: `"exchange"`, `"discard"`, `"lead"` or `"follow"`.
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Exchange => "exchange",
            DecisionKind::Discard => "discard",
            DecisionKind::Lead => "lead",
            DecisionKind::Follow => "follow",
        }
    }
}

/// One decision with a choice (two legal actions or more) of a self-play match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The observation of the seat to move, in the compact layout (match score included).
    pub observation: Compact,
    /// The legal actions, a mask by action id.
    pub legal: u128,
    /// The action taken.
    pub action: Action,
    /// The match of the run it was made in.
    pub game: u64,
    /// The seat that made it.
    pub seat: u8,
    /// What it decides.
    pub kind: DecisionKind,
    /// The log-probability the master's hand-written model gives to the action, and the
    /// action it finds likeliest (`None` where it reads nothing: discards and leads).
    pub master_model: (f64, Option<Action>),
}

/// A built-in agent that writes down each decision it makes with a choice, in the one
/// list both seats write to (in the order the decisions were made).
struct Recorder<'a> {
    player: Controlled<'a>,
    game: u64,
    seat: u8,
    decisions: &'a RefCell<Vec<Decision>>,
}

impl Player for Recorder<'_> {
    type Error = DuelError;

    fn act(&mut self, game: &Match) -> Result<Action, DuelError> {
        let action = self.player.act(game)?;
        let legal = game.deal.legal_mask();
        if legal.count_ones() > 1 {
            self.decisions.borrow_mut().push(Decision {
                observation: game.deal.compact_observation(self.seat, game.score.score),
                legal,
                action,
                game: self.game,
                seat: self.seat,
                kind: DecisionKind::of(&game.deal),
                master_model: modelled_decision(&game.deal, action),
            });
        }
        Ok(action)
    }
}

/// The decisions with a choice of `game`, match `index` of a run, between `policies`.
fn play_recorded(
    game: RunMatch,
    index: u64,
    rules: Rules,
    policies: [Policy; 2],
    control: Control<'_>,
) -> Result<Vec<Decision>, DuelError> {
    let mut agents: [BuiltinAgent; 2] =
        [0, 1].map(|seat| game.agent(seat, policies[seat as usize]));
    let mut play = game.start(rules)?.without_history();
    let decisions = RefCell::new(Vec::new());
    let [first, second] = &mut agents;
    let mut recorders = [(first, 0), (second, 1)].map(|(agent, seat)| Recorder {
        player: Controlled { agent, control },
        game: index,
        seat,
        decisions: &decisions,
    });
    let [a, b] = &mut recorders;
    runner::play_match(&mut play, [a, b], |_, _| Ok(()))?;
    Ok(decisions.take())
}

/// The decisions with a choice of matches `start .. start + n` of the run with seed `seed`
/// ([`super::run::RunMatch`]), match `i` played by `pairs[i % pairs.len()]` (seat 0's
/// policy, seat 1's), in match order and within a match in the order they were made. The
/// same for any thread count. Each match counts one on `control`; once it is cancelled no
/// further match begins and the result is empty.
pub fn self_play_decisions(
    start: u64,
    n: usize,
    seed: u64,
    rules: Rules,
    pairs: &[[Policy; 2]],
    control: Control<'_>,
) -> Result<Vec<Decision>, DuelError> {
    rules.validate().map_err(DuelError::InvalidRules)?;
    if pairs.is_empty() {
        return Err(DuelError::InvalidRecord(
            "no pair of agents to play the matches".into(),
        ));
    }
    let run = Run::new(seed);
    let played: Result<Vec<Vec<Decision>>, Option<DuelError>> = (start..start + n as u64)
        .into_par_iter()
        .map(|i| {
            if control.cancelled() {
                return Err(None);
            }
            let policies = pairs[(i % pairs.len() as u64) as usize];
            let decisions =
                play_recorded(run.game(i), i, rules, policies, control).map_err(Some)?;
            control.advance(1);
            Ok(decisions)
        })
        .collect();
    match played {
        Ok(matches) => Ok(matches.into_iter().flatten().collect()),
        Err(Some(error)) => Err(error),
        Err(None) => Ok(Vec::new()),
    }
}
