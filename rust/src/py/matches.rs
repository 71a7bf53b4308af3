//! The duel match for Python: `Match` and `MatchResult`, over the engine's one match flow
//! (`duel::matches`) and its strict record (`duel::record::MatchRecord`).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::action::{extract_action_or_list_legal, PyAction, PyOutcome};
use super::agents::PyAgent;
use super::deal::{seed_or_fresh, PyDeal};
use super::errors::{int_in, int_u8, pair, record_text, with_reader, EcarteError};
use super::frame::PyFrame;
use super::interrupt::decision;
use super::observe::{optional_seat, seat, PyObservation};
use super::refusal::{extract_legal_action, illegal_action_error};
use super::rules::PyRules;
use crate::control::Control;
use crate::duel::record::check_player_name;
use crate::duel::{Action, Match, MatchRecord, MatchResult, Rules};
use crate::play::runner::{self, Player, Stop};

/// The end of a match: the winner, the final score and every deal's outcome.
#[pyclass(name = "MatchResult", module = "ecarte.duel", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyMatchResult(MatchResult);

#[pymethods]
impl PyMatchResult {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::duel::result::RESULT_FORMAT;

    /// The result with these parts, which some match must be able to end with (see
    /// `duel::MatchResult::new`); `EcarteError` otherwise.
    #[new]
    fn new(
        winner: &Bound<'_, PyAny>,
        score: &Bound<'_, PyAny>,
        outcomes: Vec<PyOutcome>,
    ) -> PyResult<Self> {
        let winner = int_u8(winner, "winner", 0, 1)?;
        let [a, b] = pair(score, "score")?;
        let score = [int_u8(&a, "score", 0, 255)?, int_u8(&b, "score", 0, 255)?];
        let outcomes = outcomes.into_iter().map(|o| o.0).collect();
        MatchResult::new(winner, score, outcomes)
            .map(PyMatchResult)
            .map_err(|e| EcarteError::new_err(format!("impossible match result: {e}")))
    }
    /// The seat that won the match.
    #[getter]
    fn winner(&self) -> u8 {
        self.0.winner
    }
    /// Match points of seat 0 and seat 1.
    #[getter]
    fn score(&self) -> (u8, u8) {
        (self.0.score[0], self.0.score[1])
    }
    /// Every deal's outcome, in order.
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.outcomes.iter().copied().map(PyOutcome))
    }
    /// The versioned record: winner, score and every deal's outcome.
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    /// Reads what `to_json` wrote: every outcome possible, the score the points of the deals
    /// each seat won, the winner ahead and the winner of the last deal; anything else raises
    /// `InvalidRecordError`.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyMatchResult> {
        let record = super::errors::record_text(text, "a match result record")?;
        let result = MatchResult::from_json(&record)
            .map_err(|e| with_reader(e.into(), &record, Self::RECORD_FORMAT))?;
        Ok(PyMatchResult(result))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().to_json(),)))
    }
    fn __repr__(&self) -> String {
        format!(
            "MatchResult(winner={}, score=({}, {}), deals={})",
            self.0.winner,
            self.0.score[0],
            self.0.score[1],
            self.0.outcomes.len()
        )
    }
}

/// A duel match to `rules.target` points (7 by default).
///
/// The dealer alternates every deal, starting with `first_dealer`; deal `i` is shuffled
/// with `derive_seed(seed, i)`. Play it with `play`, step by step with `apply`, or with
/// agents in some seats with `advance`: the action that ends a deal scores it and deals
/// the next at once.
#[pyclass(name = "Match", module = "ecarte.duel", eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyMatch {
    game: Match,
    /// The names of the players in seat 0 and seat 1, kept in the record.
    players: Option<[String; 2]>,
}

/// An agent as the match runner calls it: a built-in agent, called natively, or any
/// Python callable `agent(observation, legal_actions) -> action`.
enum Seat<'py> {
    Native(Bound<'py, PyAgent>),
    Callback(Bound<'py, PyAny>),
}

impl<'py> Seat<'py> {
    fn of(agent: Bound<'py, PyAny>) -> PyResult<Seat<'py>> {
        let py = agent.py();
        if let Ok(native) = agent.cast::<PyAgent>() {
            // A subclass that overrides `__call__` is called as Python code.
            let base_call = py.get_type::<PyAgent>().getattr("__call__")?;
            if agent.get_type().getattr("__call__")?.is(&base_call) {
                return Ok(Seat::Native(native.clone()));
            }
        }
        if !agent.is_callable() {
            return Err(EcarteError::new_err(format!(
                "an agent is a callable agent(observation, legal_actions) -> action, got {}",
                super::errors::describe(&agent)
            )));
        }
        Ok(Seat::Callback(agent))
    }
}

impl Player for Seat<'_> {
    type Error = PyErr;

    fn act(&mut self, game: &Match) -> PyResult<Action> {
        match self {
            Seat::Native(agent) => {
                let py = agent.py();
                let mut agent = agent.borrow_mut();
                let (deal, score) = (game.deal, game.score.score);
                let agent = &mut agent.0;
                if let Some(samples) = agent.policy().samples() {
                    decision(py, usize::from(samples), |control| {
                        agent.act(&deal, score, control)
                    })
                } else {
                    Ok(agent.act(&deal, score, Control::NONE))
                }
            }
            Seat::Callback(agent) => {
                let seat = game.current_player().unwrap_or(0);
                let legal: Vec<PyAction> = game
                    .deal
                    .legal_actions()
                    .into_iter()
                    .map(PyAction)
                    .collect();
                let action = agent.call1((PyObservation(game.observation(seat)), legal))?;
                extract_legal_action(&game.deal, &action).map_err(|err| {
                    let py = agent.py();
                    let message = format!(
                        "seat {seat}'s agent {}: {}",
                        agent_label(agent),
                        err.value(py)
                    );
                    // The same error type and fields (`reason`, `legal`, ...), its message
                    // naming the seat and the agent.
                    match err.value(py).setattr("args", (message,)) {
                        Ok(()) => err,
                        Err(failed) => failed,
                    }
                })
            }
        }
    }
}

/// How an error names a Python agent: its `name` if it has one as text, else its class's
/// (or a function's) qualified name.
fn agent_label(agent: &Bound<'_, PyAny>) -> String {
    let text = |obj: PyResult<Bound<'_, PyAny>>| obj.ok().and_then(|o| o.extract::<String>().ok());
    text(agent.getattr("name"))
        .or_else(|| text(agent.getattr("__qualname__")))
        .or_else(|| text(agent.get_type().getattr("__qualname__")))
        .unwrap_or_else(|| "?".to_string())
}

/// The agents of both seats, `None` where nobody plays for the runner.
fn seats(agents: [Option<Bound<'_, PyAny>>; 2]) -> PyResult<[Option<Seat<'_>>; 2]> {
    let [a, b] = agents.map(|a| a.filter(|a| !a.is_none()).map(Seat::of).transpose());
    Ok([a?, b?])
}

impl PyMatch {
    /// A match from the engine, with no players' names.
    pub fn from_match(game: Match) -> PyMatch {
        PyMatch {
            game,
            players: None,
        }
    }

    /// Runs the match forward on a copy kept in step with `slf` after every action, so
    /// that agents and callbacks may read the match while it plays.
    fn run(
        slf: &Bound<'_, Self>,
        agents: &mut [Option<Seat<'_>>; 2],
        stop_at_deal_end: bool,
        on_action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Stop> {
        let mut game = slf.borrow().game.clone();
        let [a, b] = agents;
        runner::advance(
            &mut game,
            [a.as_mut(), b.as_mut()],
            stop_at_deal_end,
            |game, seat, action| {
                slf.borrow_mut().game = game.clone();
                // Between moves, Ctrl-C ends a match of quick agents too.
                slf.py().check_signals()?;
                match on_action {
                    Some(callback) => callback.call1((seat, PyAction(action))).map(|_| ()),
                    None => Ok(()),
                }
            },
        )
    }
}

#[pymethods]
impl PyMatch {
    /// The `format` of this class's records (`to_json`, `from_json`).
    #[classattr]
    const RECORD_FORMAT: &'static str = crate::duel::record::MATCH_FORMAT;

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
        let seed = seed_or_fresh(seed)?;
        Ok(PyMatch {
            game: Match::new(seed, first_dealer, rules)?,
            players: None,
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
        self.game
            .deals()
            .map(|d| PyDeal::from_state(d, None))
            .collect()
    }
    /// A copy of deal `index` (from 0): a finished deal or the deal in progress.
    fn deal_at(&self, index: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let last = self.game.deal_index();
        let k = int_in(index, "deal index", 0, i128::from(last))?;
        self.game
            .deal_at(k as usize)
            .map(|d| PyDeal::from_state(d, None))
            .ok_or_else(|| {
                EcarteError::new_err(format!("deal index {k} (deal {}) is not kept", k + 1))
            })
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.game.current_player()
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
        Ok(PyObservation(self.game.observation(seat(player)?)))
    }
    /// The outcome of every finished deal, in order.
    fn outcomes(&self) -> Vec<PyOutcome> {
        self.game.outcomes().map(PyOutcome).collect()
    }
    /// Applies `action` to the current deal; scores it and deals the next when it ends.
    /// Raises `IllegalActionError` (its reason, the legal actions; nothing changed) when
    /// illegal or when the match is over. With `player`, the action is that seat's: refused
    /// as `not_your_turn` unless it is to move.
    #[pyo3(signature = (action, player = None))]
    fn apply(
        &mut self,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let player = optional_seat(player)?;
        let action = extract_action_or_list_legal(&self.game.deal, action)?;
        self.game.apply_by(player, action)?;
        Ok(())
    }
    /// Raises what `apply(action, player)` would raise, and changes nothing: an
    /// `IllegalActionError` with the reason the action is refused; `None` when it is legal.
    #[pyo3(signature = (action, player = None))]
    fn check(&self, action: &Bound<'_, PyAny>, player: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let player = optional_seat(player)?;
        let action = extract_action_or_list_legal(&self.game.deal, action)?;
        match self.game.refusal(player, action) {
            Some(refusal) => Err(illegal_action_error(&refusal)),
            None => Ok(()),
        }
    }
    /// The steps of deal `index` (from 0; every deal when `None`) as a spectator who holds
    /// the record follows them (`Frame`), each with its deal number and the match score
    /// after it.
    #[pyo3(signature = (index = None))]
    fn frames(&self, index: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyFrame>> {
        let index = match index.filter(|i| !i.is_none()) {
            None => None,
            Some(i) => {
                Some(int_in(i, "deal index", 0, i128::from(self.game.deal_index()))? as usize)
            }
        };
        let frames = self
            .game
            .frames(index)
            .ok_or_else(|| EcarteError::new_err("that deal is not kept"))?;
        Ok(frames.into_iter().map(PyFrame).collect())
    }
    /// Takes back the last action of the current deal (a finished deal stays scored).
    fn undo(&mut self) -> PyResult<PyAction> {
        self.game
            .undo()
            .map(PyAction)
            .ok_or_else(|| EcarteError::new_err("nothing to undo in the current deal"))
    }
    /// Plays on with `agent0` and `agent1` choosing for the seats that have one (`None`:
    /// nobody plays that seat here). Stops when a seat without an agent is to move, when
    /// the match is over, or, with `until="deal"`, when a deal ends; returns that deal's
    /// outcome then, else `None`. `on_action(seat, action)` is called after every action.
    /// The one match runner (as `play`, `simulate` and the arena use it).
    #[pyo3(signature = (agent0 = None, agent1 = None, until = "match", on_action = None))]
    fn advance<'py>(
        slf: &Bound<'py, Self>,
        agent0: Option<Bound<'py, PyAny>>,
        agent1: Option<Bound<'py, PyAny>>,
        until: &str,
        on_action: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<PyOutcome>> {
        let stop_at_deal_end = match until {
            "match" => false,
            "deal" => true,
            other => {
                return Err(EcarteError::new_err(format!(
                    "until must be 'match' or 'deal', got {other:?}"
                )))
            }
        };
        let mut players = seats([agent0, agent1])?;
        let on_action = on_action.filter(|c| !c.is_none());
        Ok(
            match PyMatch::run(slf, &mut players, stop_at_deal_end, on_action)? {
                Stop::DealEnded(outcome) => Some(PyOutcome(outcome)),
                Stop::MatchOver | Stop::Outside(_) => None,
            },
        )
    }
    /// Plays to the end, `agent0` and `agent1` choosing for seats 0 and 1 from
    /// `(observation, legal_actions)`; `on_deal(deal, match)` is called after each
    /// finished deal.
    #[pyo3(signature = (agent0, agent1, on_deal = None))]
    fn play<'py>(
        slf: &Bound<'py, Self>,
        agent0: Bound<'py, PyAny>,
        agent1: Bound<'py, PyAny>,
        on_deal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyMatchResult> {
        let mut players = seats([Some(agent0), Some(agent1)])?;
        loop {
            let stop = PyMatch::run(slf, &mut players, true, None)?;
            if let (Some(callback), Stop::DealEnded(_) | Stop::MatchOver) =
                (on_deal.filter(|c| !c.is_none()), stop)
            {
                let finished = slf.borrow().game.last_finished().copied();
                if let Some(deal) = finished {
                    callback.call1((PyDeal::from_state(&deal, None), slf))?;
                }
            }
            if !matches!(stop, Stop::DealEnded(_)) {
                break;
            }
        }
        slf.borrow().result()
    }
    /// The result; `EcarteError` while the match goes on.
    fn result(&self) -> PyResult<PyMatchResult> {
        MatchResult::of(&self.game)
            .map(PyMatchResult)
            .ok_or_else(|| EcarteError::new_err("the match is not over"))
    }
    /// The versioned match record: seed, first dealer, rules, every deal's record and the
    /// players' names, if set.
    fn to_json(&self) -> String {
        MatchRecord {
            players: self.players.clone(),
            ..MatchRecord::of(&self.game)
        }
        .to_json()
    }
    /// The names of the players in seat 0 and seat 1, for the record and its replay
    /// (`None` until set): each 1 to 40 characters on one line.
    #[getter]
    fn players(&self) -> Option<(String, String)> {
        self.players.clone().map(|[a, b]| (a, b))
    }
    #[setter]
    fn set_players(&mut self, names: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let Some(names) = names.filter(|n| !n.is_none()) else {
            self.players = None;
            return Ok(());
        };
        let [a, b] = pair(names, "players (the names of seat 0 and seat 1)")?;
        let name = |n: Bound<'_, PyAny>| super::errors::text(&n, "a player's name");
        let names = [name(a)?, name(b)?];
        for name in &names {
            check_player_name(name).map_err(EcarteError::new_err)?;
        }
        self.players = Some(names);
        Ok(())
    }
    /// Replays a record made by `to_json`. Every deal must be the seeded deal with the
    /// alternating dealer and the match's rules, every action legal, and only the last
    /// deal unfinished; anything else raises `InvalidRecordError` (anything but text,
    /// `TypeError`).
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyMatch> {
        let text = record_text(text, "a match record")?;
        let record = MatchRecord::from_json(&text)
            .map_err(|e| with_reader(e.into(), &text, Self::RECORD_FORMAT))?;
        Ok(PyMatch {
            game: record.replay()?,
            players: record.players,
        })
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
            self.game.deal_index() + 1
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMatch>()?;
    m.add_class::<PyMatchResult>()?;
    Ok(())
}
