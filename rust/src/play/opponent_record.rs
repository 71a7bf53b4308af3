//! The versioned JSON record of an [`OpponentVecEnv`] at any point, from which it is
//! rebuilt to play on identically: how the environments pickle and deep-copy.
//!
//! An env keeps no history, so its record holds what its state follows from: its seed and
//! the number of matches it has started (which give the match's seed and first dealer),
//! the match score and the index of the deal in progress, that deal's actions, the place of
//! the opponent in its stream, and the deal that ended at the last step. Loading replays
//! every action, checked, so a tampered record is refused, never half-loaded.

use serde::{Deserialize, Serialize};

use super::agent::BuiltinAgent;
use super::opponent::{Autoreset, Ended, Game, OpponentVecEnv, Setup};
use super::policy::Policy;
use super::run::RunMatch;
use crate::duel::action::Action;
use crate::duel::matches::Match;
use crate::duel::record::DealRecord;
use crate::duel::rules::Rules;
use crate::duel::state::DuelError;

pub const ENV_FORMAT: &str = "ecarte.duel.opponent_vec_env";
pub const ENV_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentEnvRecord {
    pub format: String,
    pub version: u32,
    /// The opponent's agent spec.
    pub opponent: String,
    /// The learner's seat.
    pub seat: u8,
    pub rules: Rules,
    /// `"next_step"` or `"same_step"`.
    pub autoreset: String,
    pub envs: Vec<EnvRecord>,
}

/// One env of the batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvRecord {
    /// The env's seed: its match `j` is match `j` of the run with this seed.
    pub seed: u64,
    /// Matches started: the match in progress is number `matches - 1`, from 0.
    pub matches: u64,
    /// The match score before the deal in progress.
    pub score: [u8; 2],
    /// The index of the deal in progress in its match, from 0.
    pub deal: u64,
    /// The actions of the deal in progress so far.
    pub actions: Vec<Action>,
    /// Words the opponent has drawn from its stream (as text: it may exceed 2**64).
    pub opponent_drawn: String,
    /// The deal that ended at the last step.
    pub ended: Option<EndedRecord>,
    /// The env shows `ended` and goes on at the next step (next-step autoreset).
    pub waiting: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndedRecord {
    pub deal: DealRecord,
    /// The match score after it.
    pub score: [u8; 2],
    /// Abandoned at the learner's illegal action.
    pub forfeit: bool,
}

impl OpponentEnvRecord {
    pub fn of(env: &OpponentVecEnv) -> OpponentEnvRecord {
        let setup = env.setup;
        OpponentEnvRecord {
            format: ENV_FORMAT.to_string(),
            version: ENV_VERSION,
            opponent: setup.opponent.spec(),
            seat: setup.seat,
            rules: setup.rules,
            autoreset: setup.autoreset.name().to_string(),
            envs: env.games.iter().map(EnvRecord::of).collect(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses a record and rebuilds the env it describes, every action replayed and checked.
    pub fn load(text: &str) -> Result<OpponentVecEnv, DuelError> {
        let bad = |why: String| DuelError::InvalidRecord(why);
        let record: OpponentEnvRecord =
            serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if record.format != ENV_FORMAT || record.version != ENV_VERSION {
            return Err(bad(format!(
                "format {:?} version {} is not {ENV_FORMAT:?} version {ENV_VERSION}",
                record.format, record.version
            )));
        }
        let opponent = Policy::parse(&record.opponent).map_err(|e| bad(e.to_string()))?;
        let autoreset = Autoreset::parse(&record.autoreset).ok_or_else(|| {
            bad(format!(
                "autoreset {:?}: choose {}",
                record.autoreset,
                Autoreset::NAMES
            ))
        })?;
        let setup = Setup {
            rules: record.rules,
            opponent,
            seat: record.seat,
            autoreset,
        };
        // Checks the rules and the seat.
        OpponentVecEnv::new(0, 0, setup).map_err(|e| bad(e.to_string()))?;
        if record.envs.is_empty() {
            return Err(bad("an env record holds at least one env".into()));
        }
        let games = record
            .envs
            .iter()
            .enumerate()
            .map(|(i, env)| {
                env.game(&setup)
                    .map_err(|e| bad(format!("env {i}: {}", strip(&e))))
            })
            .collect::<Result<_, _>>()?;
        Ok(OpponentVecEnv { games, setup })
    }
}

/// An error's text without the "invalid record: " it would repeat.
fn strip(e: &DuelError) -> String {
    match e {
        DuelError::InvalidRecord(why) => why.clone(),
        other => other.to_string(),
    }
}

impl EnvRecord {
    fn of(game: &Game) -> EnvRecord {
        EnvRecord {
            seed: game.seed,
            matches: game.matches,
            score: game.play.score.score,
            deal: game.play.deal_index(),
            actions: game.play.deal.actions().collect(),
            opponent_drawn: game.opponent.drawn().to_string(),
            ended: game.ended.map(|e| EndedRecord {
                deal: DealRecord::of(&e.deal),
                score: e.score,
                forfeit: e.forfeit,
            }),
            waiting: game.waiting,
        }
    }

    fn game(&self, setup: &Setup) -> Result<Game, DuelError> {
        let bad = |why: &str| DuelError::InvalidRecord(why.to_string());
        let Some(started) = self.matches.checked_sub(1) else {
            return Err(bad("matches is at least 1"));
        };
        let game = RunMatch::of(self.seed, started);
        let play = Match::resume(
            game.seed,
            game.first_dealer,
            setup.rules,
            self.score,
            self.deal,
            &self.actions,
        )?;
        if play.deal_index() != self.deal || play.deal.is_over() {
            return Err(bad("the deal in progress is over"));
        }
        let drawn: u128 = self
            .opponent_drawn
            .parse()
            .map_err(|_| bad("opponent_drawn is a whole number"))?;
        let ended = self.ended.as_ref().map(EndedRecord::ended).transpose()?;
        if self.waiting && (ended.is_none() || setup.autoreset == Autoreset::SameStep) {
            return Err(bad(
                "only an env that ended a deal waits, in next-step mode",
            ));
        }
        if !self.waiting && play.current_player() != Some(setup.seat) {
            return Err(bad("the learner is not to move"));
        }
        Ok(Game {
            seed: self.seed,
            opponent: BuiltinAgent::resumed(
                setup.opponent,
                game.agent_seed(u64::from(1 - setup.seat)),
                drawn,
            ),
            play,
            matches: self.matches,
            ended,
            waiting: self.waiting,
        })
    }
}

impl EndedRecord {
    fn ended(&self) -> Result<Ended, DuelError> {
        let deal = self.deal.replay()?;
        if deal.is_over() == self.forfeit {
            return Err(DuelError::InvalidRecord(
                "an ended deal is over unless forfeited".into(),
            ));
        }
        Ok(Ended {
            deal,
            score: self.score,
            forfeit: self.forfeit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::play::opponent::{Seeds, ENDED_ACTION};

    /// Copies taken at every step, mid-deal, waiting or not, play on exactly as the env.
    #[test]
    fn a_rebuilt_env_plays_on_identically() {
        for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
            let setup = Setup {
                rules: Rules::default(),
                opponent: Policy::Random,
                seat: 1,
                autoreset,
            };
            let n = 4;
            let mut env = OpponentVecEnv::new(n, 8, setup).unwrap();
            let mut out = super::super::opponent::tests::Owned::new(n);
            env.reset(Seeds::Keep, &mut out.buffers(), Control::NONE)
                .unwrap();
            let mut rng = crate::rng::rng_from_seed(2);
            for step in 0..120 {
                let text = OpponentEnvRecord::of(&env).to_json();
                let mut copy = OpponentEnvRecord::load(&text).unwrap();
                assert_eq!(OpponentEnvRecord::of(&copy).to_json(), text);
                let actions: Vec<i64> = (0..n)
                    .map(|i| match env.awaiting_action(i) {
                        None => ENDED_ACTION as i64,
                        Some(d) => {
                            // Now and then an illegal action, which forfeits the deal.
                            if step % 37 == 5 {
                                return -1;
                            }
                            crate::play::random::random_action(d.legal_mask(), &mut rng).id() as i64
                        }
                    })
                    .collect();
                let mut copied = super::super::opponent::tests::Owned::new(n);
                env.step(&actions, Some(-2.0), &mut out.buffers(), Control::NONE)
                    .unwrap();
                copy.step(&actions, Some(-2.0), &mut copied.buffers(), Control::NONE)
                    .unwrap();
                assert_eq!(out.obs, copied.obs);
                assert_eq!(out.mask, copied.mask);
                assert_eq!(out.rewards, copied.rewards);
                assert_eq!(out.terminated, copied.terminated);
                for i in 0..n {
                    assert_eq!(env.ended(i), copy.ended(i));
                }
            }
        }
    }

    #[test]
    fn a_tampered_record_is_refused() {
        let setup = Setup {
            rules: Rules::default(),
            opponent: Policy::Heuristic,
            seat: 0,
            autoreset: Autoreset::NextStep,
        };
        let mut env = OpponentVecEnv::new(1, 3, setup).unwrap();
        let mut out = super::super::opponent::tests::Owned::new(1);
        env.reset(Seeds::Keep, &mut out.buffers(), Control::NONE)
            .unwrap();
        let good = OpponentEnvRecord::of(&env);
        let load = |change: &dyn Fn(&mut OpponentEnvRecord)| {
            let mut record = good.clone();
            change(&mut record);
            OpponentEnvRecord::load(&record.to_json())
        };
        assert!(load(&|_| {}).is_ok());
        assert!(load(&|r| r.version = 2).is_err());
        assert!(load(&|r| r.opponent = "oracle".into()).is_err());
        assert!(load(&|r| r.seat = 2).is_err());
        assert!(load(&|r| r.autoreset = "later".into()).is_err());
        assert!(load(&|r| r.envs.clear()).is_err());
        assert!(load(&|r| r.envs[0].matches = 0).is_err());
        assert!(load(&|r| r.envs[0].score = [9, 0]).is_err());
        assert!(load(&|r| r.envs[0].actions.push(Action::Refuse)).is_err());
        assert!(load(&|r| r.envs[0].opponent_drawn = "-1".into()).is_err());
        assert!(load(&|r| r.envs[0].waiting = true).is_err());
        assert!(OpponentEnvRecord::load("{").is_err());
    }
}
