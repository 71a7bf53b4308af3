//! Solves BENCHMARKS.md's 100 solver positions once (0 exchanges by default, or the count
//! given as the first argument) and prints the total and median nodes: a small binary to run
//! under `valgrind --tool=callgrind` or `perf stat -e instructions` for instruction counts,
//! which a shared machine's wall times cannot give reliably.

use ecarte::solver::{bench_position, solve, Objective};

fn main() {
    let exchanges: u8 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let positions: Vec<_> = (0..100)
        .map(|seed| bench_position(seed, exchanges))
        .collect();
    let mut nodes = Vec::with_capacity(positions.len());
    let mut checksum = 0i64;
    let start = std::time::Instant::now();
    for p in &positions {
        match solve(p, Objective::Points) {
            Ok(s) => {
                nodes.push(s.nodes);
                checksum = checksum * 31 + i64::from(s.value) + s.best_actions.len() as i64;
            }
            Err(e) => eprintln!("{e}"),
        }
    }
    let elapsed = start.elapsed();
    if std::env::args().nth(2).is_some() {
        // Best of 3 per position, as the Python benchmark figures are taken.
        let mut times: Vec<f64> = positions
            .iter()
            .map(|p| {
                (0..3)
                    .map(|_| {
                        let start = std::time::Instant::now();
                        std::hint::black_box(solve(p, Objective::Points).ok());
                        start.elapsed().as_secs_f64() * 1e3
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "best of 3: median {:.3} ms, p90 {:.3} ms, max {:.3} ms",
            times[50], times[89], times[99]
        );
    }
    let total: u64 = nodes.iter().sum();
    nodes.sort_unstable();
    println!(
        "exchanges {exchanges}: {total} nodes, median {}, max {}, checksum {checksum}, {:.1} ms",
        nodes[nodes.len() / 2],
        nodes[nodes.len() - 1],
        elapsed.as_secs_f64() * 1e3
    );
}
