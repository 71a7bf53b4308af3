//! A small driver of the batch hot paths for profilers (callgrind, perf), without Python:
//!
//! ```text
//! cargo build --release --example hot_paths
//! valgrind --tool=callgrind target/release/examples/hot_paths vecenv 1024 200
//! valgrind --tool=callgrind target/release/examples/hot_paths simulate 20000
//! ```
//!
//! `vecenv N STEPS [float32|compact]` steps `N` envs `STEPS` times with random
//! actions, writing float32 or compact observations; `simulate N` plays `N` random deals on one thread; `sizes` prints the size of a
//! deal state. Running with `STEPS` or `N` at 0 gives the set-up cost to subtract.

use ecarte::control::Control;
use ecarte::duel::Rules;
use ecarte::internals::{simulate_deals, ObsLayout, OwnedBuffers, VecEnv};
use ecarte::play::Policy;

fn arg(args: &[String], i: usize, default: usize) -> usize {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    match args.get(1).map(String::as_str) {
        Some("vecenv") => {
            let (n, steps) = (arg(&args, 2, 1024), arg(&args, 3, 200));
            let layout = match args.get(4).map_or("float32", String::as_str) {
                "compact" => ObsLayout::Compact,
                _ => ObsLayout::Float32,
            };
            let mut env = VecEnv::new(n, 1, Rules::default()).expect("valid rules");
            let mut buffers = OwnedBuffers::new(n, layout);
            let mut out = buffers.buffers();
            let mut actions = vec![0i64; n];
            pool.install(|| {
                env.reset(&mut out).expect("reset");
                for _ in 0..steps {
                    env.random_actions(&mut actions);
                    env.step(&actions, &mut out).expect("legal actions");
                }
            });
            println!("{}", out.players.iter().sum::<i64>());
        }
        Some("simulate") => {
            let n = arg(&args, 2, 20_000);
            let result = pool
                .install(|| {
                    simulate_deals(
                        0,
                        n,
                        1,
                        Rules::default(),
                        [Policy::Random; 2],
                        Control::NONE,
                    )
                })
                .expect("valid rules");
            println!(
                "{}",
                result.iter().map(|d| u64::from(d.points)).sum::<u64>()
            );
        }
        Some("sizes") => println!(
            "DealState: {} bytes",
            std::mem::size_of::<ecarte::duel::DealState>()
        ),
        _ => eprintln!("usage: hot_paths vecenv N STEPS [LAYOUT] | simulate N | sizes"),
    }
}
