//! The built-in agents, one row each: the one list that the spec grammar, Python's agents,
//! the chunk sizing of batch runs, the protocol's `go` time ladder, its `hello`, `ecarte play
//! --level`, the command line's help and the web page read.
//!
//! Adding a built-in agent: its [`Policy`] variant, its row here (listed in [`AGENTS`] and
//! named in [`Policy::row`]), and its docs (docs/agents.md).

use super::expert::{expert_search, expert_spread, DEFAULT_EXPERT_SAMPLES};
use super::grandmaster::{grandmaster_search, grandmaster_spread, DEFAULT_GRANDMASTER_SAMPLES};
use super::heuristic::heuristic_rollout;
use super::master::{master_search, master_spread, DEFAULT_MASTER_SAMPLES};
use super::policy::{Policy, DEFAULT_PIMC_SAMPLES, MAX_SAMPLES};
use crate::control::Control;
use crate::duel::action::Action;
use crate::duel::observe::Observation;
use crate::solver::pimc::{pimc_search, Goal};
use crate::solver::sampler::SampleError;

/// One built-in agent.
#[derive(Debug)]
pub struct AgentInfo {
    /// The name its spec begins with.
    pub name: &'static str,
    /// How it searches, for an agent that samples worlds; `None` for one that does not.
    pub search: Option<Search>,
    /// Single-thread CPU seconds of one deal against the heuristic: per world of its
    /// decisions for a search agent (a deal of `pimc:24` costs 24 times this), per deal
    /// otherwise. Sizes the chunks of batch runs and the first rung of `go`'s time ladder.
    pub deal_seconds: f64,
    /// The levels of `ecarte play --level` and the protocol that play this agent, easiest
    /// first.
    pub levels: &'static [Level],
    /// What it does, in one line.
    pub description: &'static str,
    /// Its policy with this many worlds per decision (ignored by an agent that does not
    /// search).
    policy: fn(u16) -> Policy,
}

/// How a search agent searches: over how many worlds, and its search.
#[derive(Debug)]
pub struct Search {
    /// Worlds per decision of the spec that names none.
    pub default_worlds: u16,
    /// The most worlds per decision a spec may name (at most [`MAX_SAMPLES`]).
    pub max_worlds: u16,
    /// Each legal action's value (or, for [`Goal::Choice`], what the best one needs) over
    /// this many worlds drawn from this decision seed.
    pub run: SearchFn,
    /// How it weights the worlds it samples for this many worlds from this decision seed:
    /// the effective sample size of the weighted pool that `run` resamples its worlds from
    /// for the same worlds and seed, and the pool's size; `None` where it solves unweighted
    /// worlds.
    pub spread: SpreadFn,
}

/// A search agent's search: `(observation, worlds, decision seed, goal, control)`.
pub type SearchFn =
    fn(&Observation, usize, u64, Goal, Control<'_>) -> Result<Vec<(Action, f64)>, SampleError>;

/// A search agent's spread of weights: `(observation, worlds, decision seed)`.
pub type SpreadFn = fn(&Observation, usize, u64) -> Result<Option<(f64, usize)>, SampleError>;

/// PIMC's worlds are never weighted.
#[allow(clippy::unnecessary_wraps)] // a `SpreadFn`
fn unweighted(_: &Observation, _: usize, _: u64) -> Result<Option<(f64, usize)>, SampleError> {
    Ok(None)
}

/// A level that plays an agent: its name and the worlds of its spec (`None`: the default).
#[derive(Debug)]
pub struct Level {
    pub name: &'static str,
    pub worlds: Option<u16>,
}

/// Every built-in agent, weakest first; the grandmaster, last, is confirmed a level above
/// the master (docs/inference.md).
pub static AGENTS: [&AgentInfo; 6] = [&RANDOM, &HEURISTIC, &PIMC, &EXPERT, &MASTER, &GRANDMASTER];

// The costs: measured in one run, side by side, on one thread (CPU time, deals against the
// heuristic: `RAYON_NUM_THREADS=1 python benches/ray_scale.py costs`, three runs, and
// `simulate(40, 1, (spec, "heuristic"), threads=1)` for the master and the grandmaster): pimc
// 0.018 s a deal at 24 worlds, expert 0.014 s at 24, master 0.023 s at 40, grandmaster
// 0.036 s at 72 (the master 0.020 s beside it: 1.8 times) (docs/scale.md, "Chunk sizing"). A
// search has a fixed part too (at 4 worlds: 0.005 s a deal for pimc), which is left out: the
// estimate errs by less than 2x there, and chunks need no more.

static RANDOM: AgentInfo = AgentInfo {
    name: "random",
    search: None,
    deal_seconds: 0.8e-6,
    levels: &[],
    description: "uniform among the legal actions",
    policy: |_| Policy::Random,
};

static HEURISTIC: AgentInfo = AgentInfo {
    name: "heuristic",
    search: None,
    deal_seconds: 1.6e-6,
    levels: &[Level {
        name: "easy",
        worlds: None,
    }],
    description: "rules of thumb for the exchange and the play",
    policy: |_| Policy::Heuristic,
};

static PIMC: AgentInfo = AgentInfo {
    name: "pimc",
    search: Some(Search {
        default_worlds: DEFAULT_PIMC_SAMPLES,
        max_worlds: MAX_SAMPLES,
        run: pimc,
        spread: unweighted,
    }),
    deal_seconds: 0.018 / 24.0,
    levels: &[
        Level {
            name: "medium",
            worlds: Some(8),
        },
        Level {
            name: "hard",
            worlds: None,
        },
    ],
    description: "Perfect-Information Monte Carlo: the best mean double-dummy value over N \
                  sampled worlds",
    policy: Policy::Pimc,
};

static EXPERT: AgentInfo = AgentInfo {
    name: "expert",
    search: Some(Search {
        default_worlds: DEFAULT_EXPERT_SAMPLES,
        max_worlds: MAX_SAMPLES,
        run: expert_search,
        spread: expert_spread,
    }),
    deal_seconds: 0.014 / 24.0,
    levels: &[Level {
        name: "expert",
        worlds: None,
    }],
    description: "PIMC over N worlds solved with the talon drawn by seat, resampled by \
                  inference on the opponent's exchange decisions",
    policy: Policy::Expert,
};

static MASTER: AgentInfo = AgentInfo {
    name: "master",
    search: Some(Search {
        default_worlds: DEFAULT_MASTER_SAMPLES,
        max_worlds: MAX_SAMPLES,
        run: master_search,
        spread: master_spread,
    }),
    deal_seconds: 0.023 / 40.0,
    levels: &[Level {
        name: "master",
        worlds: None,
    }],
    description: "the expert's search over N worlds, resampled by inference on the \
                  opponent's follows as well as its exchange decisions",
    policy: Policy::Master,
};

static GRANDMASTER: AgentInfo = AgentInfo {
    name: "grandmaster",
    search: Some(Search {
        default_worlds: DEFAULT_GRANDMASTER_SAMPLES,
        max_worlds: MAX_SAMPLES,
        run: grandmaster_search,
        spread: grandmaster_spread,
    }),
    deal_seconds: 0.036 / 72.0,
    levels: &[Level {
        name: "grandmaster",
        worlds: None,
    }],
    description: "the expert's search, its worlds resampled by a network trained on the \
                  search agents' play that reads every decision of the opponent's: N worlds \
                  in the play while the talon lasts, 2N/3 in the exchange, and the master's \
                  search over 5N/9 once the talon is empty",
    policy: Policy::Grandmaster,
};

/// PIMC's search: the exchange's rest played out by the heuristic.
fn pimc(
    obs: &Observation,
    worlds: usize,
    seed: u64,
    goal: Goal,
    control: Control<'_>,
) -> Result<Vec<(Action, f64)>, SampleError> {
    pimc_search(obs, worlds, seed, heuristic_rollout, goal, control)
}

/// Why an agent spec names no agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// No agent has this name.
    Unknown(String),
    /// A search agent's world count outside `1..=max`.
    Samples {
        /// The agent's name.
        name: &'static str,
        /// The world count as given.
        given: String,
        /// The most worlds the agent takes.
        max: u16,
    },
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::Unknown(spec) => {
                let mut forms = spec_forms();
                let last = forms.pop().unwrap_or_default();
                write!(
                    f,
                    "unknown agent {spec:?}: choose {} or {last} (N worlds per decision, 1 to \
                     {MAX_SAMPLES})",
                    forms.join(", ")
                )
            }
            SpecError::Samples { name, given, max }
                if given.bytes().all(|b| b.is_ascii_digit()) =>
            {
                write!(
                    f,
                    "{name}:{given} is out of range: {name}:N takes 1 to {max} worlds per \
                     decision"
                )
            }
            SpecError::Samples { name, given, max } => write!(
                f,
                "{name}:{given:?}: in {name}:N, N is a whole number of worlds per decision, 1 \
                 to {max}"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl Policy {
    /// An agent spec: the name of a built-in agent (`AGENTS`), and for a search
    /// agent, optionally `:N` (N worlds per decision, 1 to its most): `"random"`,
    /// `"pimc"`, `"pimc:8"`, ... This is the one grammar of agent specs: Python's agents,
    /// the arena and the CLI read it here.
    pub fn parse(spec: &str) -> Result<Policy, SpecError> {
        let (name, worlds) = match spec.split_once(':') {
            None => (spec, None),
            Some((name, n)) => (name, Some(n)),
        };
        let unknown = || SpecError::Unknown(spec.to_string());
        let row = AgentInfo::named(name).ok_or_else(unknown)?;
        let Some(n) = worlds else {
            return Ok(row.policy(None));
        };
        let search = row.search.as_ref().ok_or_else(unknown)?;
        Some(n)
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u16>().ok())
            .filter(|n| (1..=search.max_worlds).contains(n))
            .map(|n| row.policy(Some(n)))
            .ok_or_else(|| SpecError::Samples {
                name: row.name,
                given: n.to_string(),
                max: search.max_worlds,
            })
    }

    /// This policy's row of the registry, and its worlds per decision if it searches.
    pub(crate) fn row(self) -> (&'static AgentInfo, Option<u16>) {
        match self {
            Policy::Random => (&RANDOM, None),
            Policy::Heuristic => (&HEURISTIC, None),
            Policy::Pimc(n) => (&PIMC, Some(n)),
            Policy::Expert(n) => (&EXPERT, Some(n)),
            Policy::Master(n) => (&MASTER, Some(n)),
            Policy::Grandmaster(n) => (&GRANDMASTER, Some(n)),
        }
    }
}

impl AgentInfo {
    /// The row whose agent is named `name`.
    pub fn named(name: &str) -> Option<&'static AgentInfo> {
        AGENTS.into_iter().find(|row| row.name == name)
    }

    /// The agent's policy with `worlds` per decision (its default for `None`), for a
    /// search agent; the agent's one policy otherwise.
    pub fn policy(&self, worlds: Option<u16>) -> Policy {
        let default = self.search.as_ref().map_or(0, |s| s.default_worlds);
        (self.policy)(worlds.unwrap_or(default))
    }

    /// The forms of its specs: `"pimc"` and `"pimc:N"` for a search agent, its name alone
    /// otherwise.
    pub fn spec_forms(&self) -> Vec<String> {
        let mut forms = vec![self.name.to_string()];
        if self.search.is_some() {
            forms.push(format!("{}:N", self.name));
        }
        forms
    }

    /// The spec of `level`, one of its levels: the name alone for the default worlds.
    pub fn level_spec(&self, level: &Level) -> String {
        match level.worlds {
            Some(n) => format!("{}:{n}", self.name),
            None => self.name.to_string(),
        }
    }
}

/// The forms of every agent spec, in the registry's order (`N`: worlds per decision).
pub fn spec_forms() -> Vec<String> {
    AGENTS.iter().flat_map(|row| row.spec_forms()).collect()
}

/// The level a person meets when they name none (`ecarte play`, the web page, the
/// protocol's hints): the expert, next to the master in strength at about 0.6 of its time
/// per move (docs/agents.md).
pub const DEFAULT_LEVEL: &str = "expert";

/// Every level with the spec it plays, easiest first.
pub fn levels() -> Vec<(&'static str, String)> {
    AGENTS
        .iter()
        .flat_map(|row| row.levels.iter().map(|l| (l.name, row.level_spec(l))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_policy_names() {
        assert_eq!(
            Policy::parse("pimc"),
            Ok(Policy::Pimc(DEFAULT_PIMC_SAMPLES))
        );
        assert_eq!(Policy::parse("pimc:8"), Ok(Policy::Pimc(8)));
        assert_eq!(
            Policy::parse("expert"),
            Ok(Policy::Expert(DEFAULT_EXPERT_SAMPLES))
        );
        assert_eq!(Policy::parse("expert:12"), Ok(Policy::Expert(12)));
        assert_eq!(Policy::parse("pimc:10000"), Ok(Policy::Pimc(MAX_SAMPLES)));
        assert_eq!(
            Policy::parse("master"),
            Ok(Policy::Master(DEFAULT_MASTER_SAMPLES))
        );
        assert_eq!(Policy::parse("master:30"), Ok(Policy::Master(30)));
        for bad in [
            "oracle",
            "random:3",
            "",
            "heuristic:1",
            ":",
            "Pimc",
            "masters",
        ] {
            assert!(
                matches!(Policy::parse(bad), Err(SpecError::Unknown(_))),
                "{bad}"
            );
        }
        for bad in [
            "pimc:0",
            "pimc:x",
            "expert:0",
            "expert:",
            "pimc:10001",
            "pimc:+5",
            "pimc:99999999999",
            "master:0",
        ] {
            assert!(
                matches!(Policy::parse(bad), Err(SpecError::Samples { .. })),
                "{bad}"
            );
        }
        for policy in [
            Policy::Random,
            Policy::Heuristic,
            Policy::Pimc(3),
            Policy::Expert(9),
            Policy::Master(5),
        ] {
            assert_eq!(Policy::parse(&policy.spec()), Ok(policy));
        }
    }

    #[test]
    fn every_row_names_its_own_policies() {
        for row in AGENTS {
            assert_eq!(AgentInfo::named(row.name).map(|r| r.name), Some(row.name));
            let policy = row.policy(None);
            let (found, worlds) = policy.row();
            assert_eq!(found.name, row.name);
            assert_eq!(worlds, row.search.as_ref().map(|s| s.default_worlds));
            assert_eq!(Policy::parse(row.name), Ok(policy));
            if let Some(search) = &row.search {
                assert!((1..=MAX_SAMPLES).contains(&search.default_worlds));
                assert!((search.default_worlds..=MAX_SAMPLES).contains(&search.max_worlds));
                let (found, worlds) = row.policy(Some(3)).row();
                assert_eq!((found.name, worlds), (row.name, Some(3)));
            }
            assert!(row.deal_seconds > 0.0 && !row.description.is_empty());
        }
    }

    #[test]
    fn levels_are_unique_and_parse() {
        let levels = levels();
        let names: Vec<&str> = levels.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            ["easy", "medium", "hard", "expert", "master", "grandmaster"]
        );
        for (_, spec) in &levels {
            assert!(Policy::parse(spec).is_ok(), "{spec}");
        }
        assert_eq!(levels[1].1, "pimc:8");
        assert!(names.contains(&DEFAULT_LEVEL));
    }
}
