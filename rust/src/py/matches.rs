//! The duel match for Python: `Match` and `MatchResult`, over the engine's one match flow
//! (`duel::matches`) and its strict record (`duel::record::MatchRecord`).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::action::{extract_action_or_list_legal, PyAction, PyOutcome};
use super::deal::{entropy_seed, PyDeal};
use super::errors::{extract_u64, int_u8, EcarteError, IllegalActionError};
use super::observe::{seat, PyObservation};
use super::rules::PyRules;
use crate::duel::{DealState, Match, MatchRecord, Rules};

/// `MatchResult(winner, score, outcomes)`'s arguments, for pickling.
type ResultArgs = (u8, (u8, u8), Vec<PyOutcome>);

/// The end of a match: the winner, the final score and every deal's outcome.
#[pyclass(name = "MatchResult", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyMatchResult {
    #[pyo3(get)]
    winner: u8,
    #[pyo3(get)]
    score: (u8, u8),
    outcomes: Vec<PyOutcome>,
}

#[pymethods]
impl PyMatchResult {
    #[new]
    fn new(winner: &Bound<'_, PyAny>, score: (u8, u8), outcomes: Vec<PyOutcome>) -> PyResult<Self> {
        Ok(PyMatchResult {
            winner: int_u8(winner, "winner", 0, 1)?,
            score,
            outcomes,
        })
    }
    /// Every deal's outcome, in order.
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.outcomes.iter().copied())
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, ResultArgs) {
        let me = slf.get();
        (
            slf.get_type().into_any(),
            (me.winner, me.score, me.outcomes.clone()),
        )
    }
    fn __repr__(&self) -> String {
        format!(
            "MatchResult(winner={}, score=({}, {}), deals={})",
            self.winner,
            self.score.0,
            self.score.1,
            self.outcomes.len()
        )
    }
}

/// A duel match to `rules.target` points (7 by default).
///
/// The dealer alternates every deal, starting with `first_dealer`; deal `i` is shuffled
/// with `derive_seed(seed, i)`. Play it with `play`, or step by step with `apply`: the
/// action that ends a deal scores it and deals the next at once.
#[pyclass(name = "Match", module = "ecarte.duel", eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyMatch {
    game: Match,
    /// The finished deals before the current one, oldest first.
    finished: Vec<DealState>,
}

impl PyMatch {
    fn outcomes(&self) -> Vec<PyOutcome> {
        self.finished
            .iter()
            .chain(std::iter::once(&self.game.deal))
            .filter_map(DealState::outcome)
            .map(PyOutcome)
            .collect()
    }

    /// Applies an action; returns the deal it finished, if any.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Option<DealState>> {
        if self.game.is_over() {
            return Err(IllegalActionError::new_err(format!(
                "illegal action {}: the match is over",
                super::errors::describe(action)
            )));
        }
        let action = extract_action_or_list_legal(&self.game.deal, action)?;
        let before = self.game.deal;
        let ended = self.game.apply(action)?;
        Ok(ended.map(|_| {
            let mut done = before;
            done.apply_unchecked(action);
            if !self.game.is_over() {
                self.finished.push(done);
            }
            done
        }))
    }
}

#[pymethods]
impl PyMatch {
    /// A new match; `seed=None` draws a fresh random seed (read it back from `.seed`).
    /// `target` overrides `rules.target`.
    #[new]
    #[pyo3(signature = (target = None, first_dealer = None, seed = None, rules = None))]
    fn new(
        target: Option<&Bound<'_, PyAny>>,
        first_dealer: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        rules: Option<PyRules>,
    ) -> PyResult<PyMatch> {
        let mut rules: Rules = rules.map_or_else(Rules::default, |r| r.0);
        if let Some(target) = target.filter(|t| !t.is_none()) {
            rules = PyRules::with_target(rules, target)?;
        }
        let first_dealer = match first_dealer {
            Some(d) if !d.is_none() => int_u8(d, "first_dealer", 0, 1)?,
            _ => 0,
        };
        let seed = match seed {
            Some(s) if !s.is_none() => extract_u64(s, "seed")?,
            _ => entropy_seed(),
        };
        Ok(PyMatch {
            game: Match::new(seed, first_dealer, rules)?,
            finished: Vec::new(),
        })
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.game.rules)
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed
    }
    #[getter]
    fn first_dealer(&self) -> u8 {
        self.game.score.first_dealer
    }
    #[getter]
    fn target(&self) -> u8 {
        self.game.rules.target
    }
    /// Match points of seat 0 and seat 1.
    #[getter]
    fn score(&self) -> (u8, u8) {
        (self.game.score.score[0], self.game.score.score[1])
    }
    /// The seat that reached the target, or `None` while the match goes on.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.game.winner()
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    /// A copy of the deal in progress (the last, finished one once the match is over);
    /// act through `Match.apply`.
    #[getter]
    fn deal(&self) -> PyDeal {
        PyDeal::from_state(&self.game.deal, None)
    }
    /// Copies of every deal so far, the current one last.
    #[getter]
    fn deals(&self) -> Vec<PyDeal> {
        self.finished
            .iter()
            .chain(std::iter::once(&self.game.deal))
            .map(|d| PyDeal::from_state(d, None))
            .collect()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        if self.game.is_over() {
            None
        } else {
            self.game.deal.current_player()
        }
    }
    fn legal_actions(&self) -> Vec<PyAction> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game
            .deal
            .legal_actions()
            .into_iter()
            .map(PyAction)
            .collect()
    }
    /// `player`'s view of the current deal, with the match score.
    fn observation(&self, player: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
        Ok(PyObservation(
            self.game
                .deal
                .observation(seat(player)?, self.game.score.score),
        ))
    }
    /// The outcome of every finished deal, in order.
    #[pyo3(name = "outcomes")]
    fn py_outcomes(&self) -> Vec<PyOutcome> {
        self.outcomes()
    }
    /// Applies `action` to the current deal; scores it and deals the next when it ends.
    /// Raises `IllegalActionError` (nothing changed) when illegal.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.step(action).map(|_| ())
    }
    /// Takes back the last action of the current deal (a finished deal stays scored).
    fn undo(&mut self) -> PyResult<PyAction> {
        let undone = if self.game.is_over() {
            None
        } else {
            self.game.deal.before_last()
        };
        let (before, action) =
            undone.ok_or_else(|| EcarteError::new_err("nothing to undo in the current deal"))?;
        self.game.deal = before;
        Ok(PyAction(action))
    }
    /// Plays to the end, `agent0` and `agent1` choosing for seats 0 and 1 from
    /// `(observation, legal_actions)`; `on_deal(deal, match)` is called after each
    /// finished deal.
    #[pyo3(signature = (agent0, agent1, on_deal = None))]
    fn play(
        slf: &Bound<'_, Self>,
        agent0: &Bound<'_, PyAny>,
        agent1: &Bound<'_, PyAny>,
        on_deal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMatchResult> {
        let seats = [agent0, agent1];
        loop {
            let (player, observation, legal) = {
                let me = slf.borrow();
                let Some(player) = me.current_player() else {
                    break;
                };
                (player, me.observation_of(player), me.legal_actions())
            };
            let action = seats[player as usize].call1((observation, legal))?;
            let ended = slf.borrow_mut().step(&action)?;
            if let (Some(callback), Some(deal)) = (on_deal.filter(|c| !c.is_none()), ended) {
                callback.call1((PyDeal::from_state(&deal, None), slf))?;
            }
        }
        slf.borrow().result()
    }
    /// The result; `EcarteError` while the match goes on.
    fn result(&self) -> PyResult<PyMatchResult> {
        let winner = self
            .game
            .winner()
            .ok_or_else(|| EcarteError::new_err("the match is not over"))?;
        Ok(PyMatchResult {
            winner,
            score: self.score(),
            outcomes: self.outcomes(),
        })
    }
    /// The versioned match record: seed, first dealer, rules and every deal's record.
    fn to_json(&self) -> String {
        MatchRecord::of(&self.game, &self.finished).to_json()
    }
    /// Replays a record made by `to_json`. Every deal must be the seeded deal with the
    /// alternating dealer and the match's rules, every action legal, and only the last
    /// deal unfinished; anything else raises `InvalidRecordError`.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyMatch> {
        let record = super::errors::text(text, "a match record")?;
        let (game, finished) = MatchRecord::from_json(&record)?.replay()?;
        Ok(PyMatch { game, finished })
    }
    fn copy(&self) -> PyMatch {
        self.clone()
    }
    fn __copy__(&self) -> PyMatch {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        self.clone()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.borrow().to_json(),)))
    }
    fn __repr__(&self) -> String {
        let (a, b) = self.score();
        format!(
            "<Match seed={} score={a}-{b} target={} deals={}>",
            self.game.seed,
            self.game.rules.target,
            self.finished.len() + 1
        )
    }
}

impl PyMatch {
    fn observation_of(&self, player: u8) -> PyObservation {
        PyObservation(self.game.deal.observation(player, self.game.score.score))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMatch>()?;
    m.add_class::<PyMatchResult>()?;
    Ok(())
}
