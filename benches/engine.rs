//! Criterion micro-benchmarks of the engine's hot paths (duel, and the bank's exact odds).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ndarray::{Array1, Array2};

use ecarte::bank::{odds, Composition};
use ecarte::card::{Card, Suit};
use ecarte::control::Control;
use ecarte::duel::{DealState, Rules, OBSERVATION_SIZE, PRIVATE_ENTRIES};
use ecarte::internals::{
    derive_seed, play_deal, random_action, rng_from_seed, shuffle_with_seed, simulate_deals,
    ObsLayout, OwnedBuffers, SeedDeriver, VecEnv, View, SHIPPED,
};
use ecarte::play::Policy;

fn engine(c: &mut Criterion) {
    let pack = ecarte::card::piquet_pack();
    c.bench_function("shuffle 32", |b| {
        let mut deck = pack.clone();
        b.iter(|| shuffle_with_seed(black_box(&mut deck), 7));
    });
    let state = DealState::from_seed(3, 0, Rules::default()).unwrap();
    let mut play = state;
    play.apply("decline".parse().unwrap()).unwrap();
    c.bench_function("legal mask", |b| b.iter(|| black_box(&play).legal_mask()));
    c.bench_function("random deal (state machine + policy)", |b| {
        let mut rng = rng_from_seed(1);
        b.iter(|| {
            let mut s = state;
            while !s.is_over() {
                let a = random_action(s.legal_mask(), &mut rng);
                s.apply_unchecked(a);
            }
            black_box(s.outcome())
        });
    });
    c.bench_function("heuristic deal via play_deal", |b| {
        b.iter(|| {
            let state = DealState::from_seed(black_box(5), 0, Rules::default());
            play_deal(state.unwrap(), (6, 0), [Policy::Heuristic; 2])
        });
    });
    c.bench_function("observation tensor", |b| {
        let mut out = vec![0f32; OBSERVATION_SIZE];
        b.iter(|| black_box(&play).encode_observation(0, [0, 0], &mut out));
    });
    c.bench_function("derive_seed (one ChaCha8 set-up and block)", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            derive_seed(black_box(7), i)
        });
    });
    // Seeding, against `rand_chacha::ChaCha8Rng` (four blocks per refill) beside it.
    c.bench_function("derive_seed via SeedDeriver (one block)", |b| {
        let deriver = SeedDeriver::new(7);
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            black_box(&deriver).derive(i)
        });
    });
    c.bench_function("derive_seed with rand_chacha::ChaCha8Rng", |b| {
        use rand::{Rng, SeedableRng};
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(black_box(7));
            rng.set_stream(i);
            rng.next_u64()
        });
    });
    c.bench_function("shuffle 32 with rand_chacha::ChaCha8Rng", |b| {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut deck = pack.clone();
        b.iter(|| deck.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(black_box(7))));
    });
    c.bench_function("deal from seed", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            DealState::from_seed(black_box(i), 0, Rules::default())
        });
    });
    c.bench_function("simulate 1000 random deals", |b| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            pool.install(|| {
                simulate_deals(
                    0,
                    1000,
                    seed,
                    Rules::default(),
                    [Policy::Random; 2],
                    Control::NONE,
                )
            })
        });
    });
    c.bench_function("heuristic view", |b| {
        b.iter(|| View::of_state(black_box(&play)));
    });
}

fn vecenv(c: &mut Criterion) {
    let n = 1024;
    for (name, layout) in [
        ("float32", ObsLayout::Float32),
        ("compact", ObsLayout::Compact),
    ] {
        let mut env = VecEnv::new(n, 1, Rules::default()).unwrap();
        let mut buffers = OwnedBuffers::new(n, layout);
        let mut out = buffers.buffers();
        let mut actions = vec![0i64; n];
        env.reset(&mut out).unwrap();
        c.bench_function(&format!("vecenv step x1024 ({name})"), |b| {
            b.iter(|| {
                env.random_actions(&mut actions);
                env.step(&actions, &mut out).unwrap();
            });
        });
    }
}

fn bank_odds(c: &mut Criterion) {
    // A fresh shoe with the turn-up 7H out: the largest case the calculator meets.
    let mut full = Composition::full();
    full.remove(&["7H".parse::<Card>().unwrap()]).unwrap();
    c.bench_function("bank odds, full shoe", |b| {
        b.iter(|| odds(black_box(Suit::Hearts), black_box(&full)).unwrap());
    });
}

/// The grandmaster's opponent model on one follow: the engine's sparse pass over the legal
/// actions, the same with the first layer's sums over the public entries shared (as the
/// grandmaster's likelihood passes every world after the first of a decision), the same
/// network dense with every weight, and dense through `ndarray`.
fn network(c: &mut Criterion) {
    let net = &*SHIPPED;
    let mut state = DealState::from_seed(9, 1, Rules::default()).unwrap();
    while state.lead().is_none() || state.legal_mask().count_ones() < 2 {
        let action = state.legal_actions()[0];
        state.apply_unchecked(action);
    }
    let player = state.current_player().unwrap();
    let mut x = [0.0f32; OBSERVATION_SIZE];
    state.encode_observation(player, [0, 0], &mut x);
    let legal = state.legal_mask();
    c.bench_function("network: sparse pass, legal actions (the engine's)", |b| {
        b.iter(|| net.log_probabilities(black_box(&x), legal));
    });
    let shared = net.shared_sums(&x, PRIVATE_ENTRIES);
    let taken = legal.trailing_zeros() as usize;
    c.bench_function("network: sparse pass, one action's log-probability", |b| {
        b.iter(|| net.action_log_probability(black_box(&x), legal, taken));
    });
    c.bench_function("network: sparse pass, public sums shared", |b| {
        b.iter(|| net.action_log_probability_sharing(Some(&shared), black_box(&x), legal, taken));
    });
    c.bench_function("network: dense pass, every action", |b| {
        b.iter(|| net.dense_logits(black_box(&x)));
    });
    let layers: Vec<(Array2<f32>, Array1<f32>)> = net
        .layers()
        .map(|(inputs, outputs, weights, bias)| {
            (
                Array2::from_shape_vec((outputs, inputs), weights.to_vec()).unwrap(),
                Array1::from(bias.to_vec()),
            )
        })
        .collect();
    c.bench_function("network: dense pass through ndarray", |b| {
        b.iter(|| {
            let mut h = Array1::from(black_box(&x).to_vec());
            for (i, (w, bias)) in layers.iter().enumerate() {
                h = w.dot(&h) + bias;
                if i + 1 < layers.len() {
                    h.mapv_inplace(|v| v.max(0.0));
                }
            }
            h
        });
    });
}

criterion_group!(benches, engine, vecenv, bank_odds, network);
criterion_main!(benches);
