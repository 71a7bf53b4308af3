//! Runs PIMC's or the expert's evaluator over recorded decisions and checks their values:
//! a small binary to profile (`perf record`, `valgrind --tool=callgrind`) the search
//! agents' decisions without Python.
//!
//! `decision_profile FILE pimc|expert|pimc-choice|expert-choice|sample|parse [REPEAT [EVERY]]`: FILE holds JSON lines
//! `{"obs": <observation JSON>, "seed": N, "phase": "play"|"exchange", "pimc": [[id, v], ...],
//! "expert": [[id, v], ...]}` (`python benches/decision_set.py dump FILE` writes them), of
//! which every `EVERY`-th is run `REPEAT` times. Prints the time per phase and how many
//! decisions gave the recorded values and choice (`-choice`: the agents' search for the best
//! action alone, whose choice must be the recorded one); `sample` only samples the expert's pool of
//! worlds and prints a checksum of their decks, `parse` only reads the file.

use ecarte::control::Control;
use ecarte::duel::{Action, Observation};
use ecarte::internals::{
    bit, expert_search, expert_values, heuristic_rollout, pimc_search, pimc_values, sample_worlds,
    Goal, CANDIDATES_PER_WORLD,
};

const SAMPLES: usize = 24;

struct Decision {
    obs: Observation,
    seed: u64,
    play: bool,
    want: Vec<(usize, f64)>,
}

fn read(path: &str, which: &str, every: usize) -> Vec<Decision> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .step_by(every)
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let want = record[which.trim_end_matches("-choice")]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap_or(0) as usize,
                        p[1].as_f64().unwrap_or(0.0),
                    )
                })
                .collect();
            Decision {
                obs: serde_json::from_value(record["obs"].clone()).expect("an observation"),
                seed: record["seed"].as_u64().expect("a seed"),
                play: record["phase"] == "play",
                want,
            }
        })
        .collect()
}

/// The agents' choice: the best value, ties to the lowest action id.
fn chosen(values: &[(usize, f64)]) -> Option<usize> {
    values
        .iter()
        .rev()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|&(a, _)| a)
}

/// The same values as recorded: `serde_json`'s float parsing can be one unit in the last
/// place off Python's.
fn same(got: &[(usize, f64)], want: &[(usize, f64)]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.0 == w.0 && (g.1 - w.1).abs() < 1e-12)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(which)) = (args.get(1), args.get(2)) else {
        eprintln!(
            "usage: decision_profile FILE pimc|expert|pimc-choice|expert-choice|sample|parse \
             [REPEAT [EVERY]]"
        );
        std::process::exit(2);
    };
    let repeat: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(1);
    let every: usize = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(1);
    let decisions = read(path, which, every.max(1));
    let (mut same_values, mut same_choice, mut checksum) = (0, 0, 0u64);
    let mut seconds = [0.0f64; 2];
    let mut counts = [0usize; 2];
    for round in 0..repeat {
        for d in &decisions {
            let start = std::time::Instant::now();
            let values = match which.as_str() {
                "pimc" => pimc_values(&d.obs, SAMPLES, d.seed, heuristic_rollout, Control::NONE),
                "expert" => expert_values(&d.obs, SAMPLES, d.seed, Control::NONE),
                "pimc-choice" => pimc_search(
                    &d.obs,
                    SAMPLES,
                    d.seed,
                    heuristic_rollout,
                    Goal::Choice,
                    Control::NONE,
                ),
                "expert-choice" => {
                    expert_search(&d.obs, SAMPLES, d.seed, Goal::Choice, Control::NONE)
                }
                "parse" => Ok(Vec::new()),
                _ => {
                    let pool = std::env::var("NW")
                        .ok()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(SAMPLES * CANDIDATES_PER_WORLD);
                    for w in sample_worlds(&d.obs, pool, d.seed).expect("worlds") {
                        for (i, &c) in w.deck().iter().enumerate() {
                            checksum =
                                checksum.wrapping_mul(31) ^ (i as u64) << 32 ^ u64::from(bit(c));
                        }
                    }
                    Ok(Vec::new())
                }
            }
            .expect("values");
            seconds[usize::from(d.play)] += start.elapsed().as_secs_f64();
            counts[usize::from(d.play)] += 1;
            if round == 0 {
                let got: Vec<(usize, f64)> = values
                    .iter()
                    .map(|&(a, v): &(Action, f64)| (a.id(), v))
                    .collect();
                same_values += usize::from(same(&got, &d.want));
                same_choice += usize::from(chosen(&got) == chosen(&d.want));
            }
        }
    }
    for (name, i) in [("exchange", 0), ("play", 1)] {
        println!(
            "{which} {name}: {} decisions, mean {:.3} ms",
            counts[i],
            1e3 * seconds[i] / counts[i].max(1) as f64
        );
    }
    println!(
        "{which}: {} decisions, {same_values} same values, {same_choice} same choice, worlds checksum {checksum:x}",
        decisions.len(),
    );
}
