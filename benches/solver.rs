//! Criterion benchmarks of the double-dummy solver on fixed seeded positions: the opening
//! play position after 0, 4, 8 and 11 exchanges (`solver::bench_position`), the deals of
//! seeds 0..99: BENCHMARKS.md's 100 positions per row. One iteration solves all 100, so
//! the time per position is the reported time / 100.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use ecarte::solver::{bench_position, solve, Objective};

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for exchanges in [0u8, 4, 8, 11] {
        let positions: Vec<_> = (0..100)
            .map(|seed| bench_position(seed, exchanges))
            .collect();
        group.bench_with_input(
            BenchmarkId::new("exchanges", exchanges),
            &positions,
            |b, positions| {
                b.iter(|| {
                    for p in positions {
                        std::hint::black_box(solve(p, Objective::Points).ok());
                    }
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
