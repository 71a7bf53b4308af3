//! The learned opponent model of the grandmaster: a small multilayer perceptron over the
//! observation tensor of the player to move ([`OBSERVATION_SIZE`] floats) that gives a
//! probability to each of its legal actions, a softmax over the legal actions' logits.
//!
//! It is trained by `examples/train_inference.py` (PyTorch) on decisions of the search
//! agents' self-play (`ecarte.duel.self_play_decisions`), and shipped as
//! [`SHIPPED_WEIGHTS`], compiled into the engine: playing needs no PyTorch.
//!
//! The forward pass is written here, not taken from a linear-algebra crate: a few dozen of the
//! 214 inputs are non-zero (card planes and one-hot fields; a few are fractions), so the
//! first layer adds only their weight columns (a later hidden layer skips the units a ReLU
//! zeroed), and only the legal actions' logits are computed (`benches/engine.rs`,
//! "network", measures it against the dense product, by hand and through `ndarray`).
//! Tensors that agree on all but their first entries (the opponent's tensors in the worlds
//! of one decision, which differ only in its own cards) share the first layer's sums over
//! the rest ([`Network::shared_sums`]), and each adds only its own columns.
//!
//! File layout (little-endian): the magic `ECNN`, a `u32` version (1), a `u32` layer count,
//! then for each layer a `u32` input count, a `u32` output count, the weight matrix as
//! `f32`s row by row (one row per output, PyTorch's `Linear.weight`) and the `f32` biases.
//! Every layer but the last is followed by a ReLU.

use std::sync::LazyLock;

use crate::duel::action::{Action, NUM_ACTIONS};
use crate::duel::observe::{OBSERVATION_SIZE, PRIVATE_ENTRIES};
use crate::duel::state::DealState;

/// The weights the engine ships, trained by `examples/train_inference.py`.
pub const SHIPPED_WEIGHTS: &[u8] = include_bytes!("grandmaster.weights");

const MAGIC: &[u8; 4] = b"ECNN";
const VERSION: usize = 1;
/// The most units a hidden layer may have (its activations live on the stack), and a bound
/// on what a weights file may make us allocate.
const MAX_HIDDEN: usize = 512;
/// The most layers a network may have.
const MAX_LAYERS: usize = 8;

/// The shipped network, read once.
pub static SHIPPED: LazyLock<Network> = LazyLock::new(|| {
    // The bytes are compiled in and a test reads them: this cannot fail at run time.
    Network::from_bytes(SHIPPED_WEIGHTS).expect("the shipped weights are a network")
});

/// One fully connected layer.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    inputs: usize,
    outputs: usize,
    /// The weights by input: entry `i * outputs + o` joins input `i` to output `o`, so each
    /// input's column is contiguous (the sparse sum adds whole columns).
    by_input: Vec<f32>,
    /// The weights by output (PyTorch's layout), for the last layer's per-action dot products.
    by_output: Vec<f32>,
    bias: Vec<f32>,
}

/// The first layer's sums over the entries of a tensor from `from` on, with its bias: see
/// [`Network::shared_sums`].
#[derive(Clone, Debug)]
pub struct SharedSums {
    sums: [f32; MAX_HIDDEN],
    from: usize,
}

/// Adds to `acc` the weight columns of `layer` for the entries `entries` of `x`, each
/// scaled by its entry, skipping the zeros.
#[allow(clippy::inline_always)] // compiled into each caller's instruction set
#[inline(always)]
fn add_columns(layer: &Layer, x: &[f32], entries: std::ops::Range<usize>, acc: &mut [f32]) {
    let width = layer.outputs;
    let start = entries.start;
    for (offset, &v) in x[entries].iter().enumerate() {
        if v != 0.0 {
            let i = start + offset;
            let column = &layer.by_input[i * width..(i + 1) * width];
            for (o, w) in acc.iter_mut().zip(column) {
                *o += v * w;
            }
        }
    }
}

/// A multilayer perceptron from the observation tensor to one logit per action.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    layers: Vec<Layer>,
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not an ecarte network: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

/// Reads little-endian words from a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetworkError> {
        if self.bytes.len() < n {
            return Err(NetworkError(format!(
                "{} bytes short",
                n - self.bytes.len()
            )));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<usize, NetworkError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    fn floats(&mut self, n: usize) -> Result<Vec<f32>, NetworkError> {
        let bytes = self.take(n * 4)?;
        let floats: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if floats.iter().all(|x| x.is_finite()) {
            Ok(floats)
        } else {
            Err(NetworkError("a weight is not finite".into()))
        }
    }
}

impl Network {
    /// The network in `bytes` (the layout of the module docs): its first layer takes the
    /// observation tensor, its last gives one logit per action.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut reader = Reader { bytes };
        if reader.take(4)? != MAGIC {
            return Err(NetworkError("no ECNN magic".into()));
        }
        let version = reader.u32()?;
        if version != VERSION {
            return Err(NetworkError(format!(
                "version {version}, this engine reads {VERSION}"
            )));
        }
        let count = reader.u32()?;
        if !(1..=MAX_LAYERS).contains(&count) {
            return Err(NetworkError(format!(
                "{count} layers, 1 to {MAX_LAYERS} allowed"
            )));
        }
        let mut layers = Vec::with_capacity(count);
        let mut width = OBSERVATION_SIZE;
        for index in 0..count {
            let (inputs, outputs) = (reader.u32()?, reader.u32()?);
            if inputs != width || !(1..=MAX_HIDDEN).contains(&outputs) {
                return Err(NetworkError(format!(
                    "layer {index} is {inputs} x {outputs}, its input must be {width} and \
                     its output 1 to {MAX_HIDDEN}"
                )));
            }
            let by_output = reader.floats(inputs * outputs)?;
            let bias = reader.floats(outputs)?;
            let mut by_input = vec![0.0; inputs * outputs];
            for o in 0..outputs {
                for i in 0..inputs {
                    by_input[i * outputs + o] = by_output[o * inputs + i];
                }
            }
            layers.push(Layer {
                inputs,
                outputs,
                by_input,
                by_output,
                bias,
            });
            width = outputs;
        }
        if width != NUM_ACTIONS {
            return Err(NetworkError(format!(
                "{width} outputs, one per action ({NUM_ACTIONS}) needed"
            )));
        }
        if !reader.bytes.is_empty() {
            return Err(NetworkError(format!(
                "{} bytes after the last layer",
                reader.bytes.len()
            )));
        }
        Ok(Network { layers })
    }

    /// The number of weights and biases.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.inputs * l.outputs + l.outputs)
            .sum()
    }

    /// Each layer as `(inputs, outputs, weights row by row per output, biases)`.
    pub fn layers(&self) -> impl Iterator<Item = (usize, usize, &[f32], &[f32])> {
        self.layers.iter().map(|l| {
            (
                l.inputs,
                l.outputs,
                l.by_output.as_slice(),
                l.bias.as_slice(),
            )
        })
    }

    /// The first layer's sums (bias included, before its ReLU) over the entries of `x` from
    /// `from` on: what tensors that agree there share, computed once for all of them. (A
    /// network with no hidden layer shares nothing: its one layer gives the logits from the
    /// whole tensor.)
    pub fn shared_sums(&self, x: &[f32], from: usize) -> SharedSums {
        let first = &self.layers[0];
        let from = from.min(first.inputs);
        let mut sums = [0.0f32; MAX_HIDDEN];
        let acc = &mut sums[..first.outputs];
        acc.copy_from_slice(&first.bias);
        add_columns(first, x, from..first.inputs, acc);
        SharedSums { sums, from }
    }

    /// The last hidden layer's activations for the tensor `x`, in `out` (its width), the
    /// first layer's sums starting from `shared` where given (then only the entries before
    /// its `from` are added): compiled for AVX2 where the CPU has it (twice the lanes of the
    /// portable SSE2 code, the same floats: no fused multiply-add, so every lane adds as the
    /// portable one does).
    fn hidden(&self, shared: Option<&SharedSums>, x: &[f32], out: &mut [f32; MAX_HIDDEN]) -> usize {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::features().avx2 {
            // SAFETY: the CPU has AVX2 (checked at run time just above).
            return unsafe { self.hidden_avx2(shared, x, out) };
        }
        self.hidden_portable(shared, x, out)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn hidden_avx2(
        &self,
        shared: Option<&SharedSums>,
        x: &[f32],
        out: &mut [f32; MAX_HIDDEN],
    ) -> usize {
        self.hidden_portable(shared, x, out)
    }

    /// [`Network::hidden`] in the instructions of its caller.
    #[allow(clippy::inline_always)] // compiled into each caller's instruction set
    #[inline(always)]
    fn hidden_portable(
        &self,
        shared: Option<&SharedSums>,
        x: &[f32],
        out: &mut [f32; MAX_HIDDEN],
    ) -> usize {
        let mut input = [0.0f32; MAX_HIDDEN];
        let hidden = &self.layers[..self.layers.len() - 1];
        for (index, layer) in hidden.iter().enumerate() {
            let width = layer.outputs;
            let acc = &mut out[..width];
            if index == 0 {
                // The first layer reads the tensor, from the shared sums where given.
                let entries = if let Some(shared) = shared {
                    acc.copy_from_slice(&shared.sums[..width]);
                    0..shared.from
                } else {
                    acc.copy_from_slice(&layer.bias);
                    0..layer.inputs
                };
                add_columns(layer, x, entries, acc);
            } else {
                // The others read the last layer's output.
                acc.copy_from_slice(&layer.bias);
                add_columns(layer, &input, 0..layer.inputs, acc);
            }
            for o in acc.iter_mut() {
                *o = o.max(0.0);
            }
            input[..width].copy_from_slice(acc);
        }
        if let Some(layer) = hidden.last() {
            layer.outputs
        } else {
            out[..OBSERVATION_SIZE].copy_from_slice(&x[..OBSERVATION_SIZE]);
            OBSERVATION_SIZE
        }
    }

    /// Each action of `legal` (a mask by action id) with its logit for the tensor `x` (the
    /// first layer starting from `shared` where given), in action-id order, into `out`; how
    /// many there are.
    fn legal_logits(
        &self,
        shared: Option<&SharedSums>,
        x: &[f32],
        legal: u128,
        out: &mut [(usize, f32); NUM_ACTIONS],
    ) -> usize {
        let mut h = [0.0f32; MAX_HIDDEN];
        let width = self.hidden(shared, x, &mut h);
        let h = &h[..width];
        let last = &self.layers[self.layers.len() - 1];
        let mut count = 0;
        let mut rest = legal & ((1u128 << NUM_ACTIONS) - 1);
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let row = &last.by_output[a * last.inputs..(a + 1) * last.inputs];
            out[count] = (a, last.bias[a] + dot(row, h));
            count += 1;
        }
        count
    }

    /// The softmax's denominator over `logits`, as the top logit and the log of the sum
    /// of the exponentials of the logits less the top.
    fn log_total(logits: &[(usize, f32)]) -> (f32, f32) {
        let top = logits.iter().map(|l| l.1).fold(f32::NEG_INFINITY, f32::max);
        (
            top,
            logits.iter().map(|l| (l.1 - top).exp()).sum::<f32>().ln(),
        )
    }

    /// The log-probability of each action of `legal` (a mask by action id) for the tensor
    /// `x`, in action-id order: the log-softmax of the legal actions' logits.
    pub fn log_probabilities(&self, x: &[f32], legal: u128) -> Vec<(usize, f32)> {
        let mut logits = [(0, 0.0f32); NUM_ACTIONS];
        let count = self.legal_logits(None, x, legal, &mut logits);
        let logits = &logits[..count];
        let (top, rest) = Network::log_total(logits);
        let log_total = top + rest;
        logits.iter().map(|&(a, l)| (a, l - log_total)).collect()
    }

    /// The likeliest action of `legal` (a non-empty mask by action id) for the tensor `x`,
    /// ties to the lowest id.
    pub fn likeliest(&self, x: &[f32], legal: u128) -> usize {
        let mut logits = [(0, 0.0f32); NUM_ACTIONS];
        let count = self.legal_logits(None, x, legal, &mut logits);
        let mut best = (legal.trailing_zeros() as usize, f32::NEG_INFINITY);
        for &(a, l) in &logits[..count] {
            if l > best.1 {
                best = (a, l);
            }
        }
        best.0
    }

    /// The log-probability of `action` (an id among `legal`) for the tensor `x`, with no
    /// allocation.
    pub fn action_log_probability(&self, x: &[f32], legal: u128, action: usize) -> f32 {
        self.action_log_probability_sharing(None, x, legal, action)
    }

    /// [`Network::action_log_probability`] with the first layer's sums over the entries of
    /// `x` from `shared.from` on taken from `shared` (computed by [`Network::shared_sums`]
    /// for a tensor that agrees with `x` there): what the grandmaster asks at every decision
    /// of every world, where only the opponent's own cards differ from world to world.
    pub fn action_log_probability_sharing(
        &self,
        shared: Option<&SharedSums>,
        x: &[f32],
        legal: u128,
        action: usize,
    ) -> f32 {
        let mut logits = [(0, 0.0f32); NUM_ACTIONS];
        let count = self.legal_logits(shared, x, legal, &mut logits);
        let logits = &logits[..count];
        let taken = logits
            .iter()
            .find(|l| l.0 == action)
            .map_or(f32::NEG_INFINITY, |l| l.1);
        let (top, rest) = Network::log_total(logits);
        taken - top - rest
    }

    /// The log-probability the network gives to `action` by the player to move in `state`
    /// (a deal of a match whose score is `score`); 0 where it is the only legal action.
    pub fn log_probability(&self, state: &DealState, score: [u8; 2], action: Action) -> f64 {
        self.log_probability_sharing(state, score, action, &mut None, OBSERVATION_SIZE)
    }

    /// [`Network::log_probability`] with the first layer's sums over the entries of the
    /// tensor from `from` on taken from `shared`, or computed from this tensor into it where
    /// it is empty: for states whose tensors agree there (with `from` the tensor's size
    /// nothing is shared, and the sums are the plain pass's, bit for bit).
    pub fn log_probability_sharing(
        &self,
        state: &DealState,
        score: [u8; 2],
        action: Action,
        shared: &mut Option<SharedSums>,
        from: usize,
    ) -> f64 {
        let legal = state.legal_mask();
        let (Some(player), false) = (state.current_player(), legal.is_power_of_two()) else {
            return 0.0;
        };
        if let Some(sums) = shared.as_ref().filter(|s| s.from <= PRIVATE_ENTRIES) {
            // The pass reads only the entries before the shared ones: the player's own cards.
            let mut x = [0.0f32; PRIVATE_ENTRIES];
            state.encode_private(player, &mut x);
            return f64::from(self.action_log_probability_sharing(
                Some(sums),
                &x,
                legal,
                action.id(),
            ));
        }
        let mut x = [0.0f32; OBSERVATION_SIZE];
        state.encode_observation(player, score, &mut x);
        let sums = shared.get_or_insert_with(|| self.shared_sums(&x, from));
        f64::from(self.action_log_probability_sharing(Some(sums), &x, legal, action.id()))
    }

    /// The logits of every action for `x` by dense products, every weight used: the
    /// reference the sparse pass is checked and measured against.
    pub fn dense_logits(&self, x: &[f32]) -> Vec<f32> {
        let mut input: Vec<f32> = x[..OBSERVATION_SIZE].to_vec();
        for (index, layer) in self.layers.iter().enumerate() {
            let mut out: Vec<f32> = (0..layer.outputs)
                .map(|o| {
                    let row = &layer.by_output[o * layer.inputs..(o + 1) * layer.inputs];
                    layer.bias[o] + row.iter().zip(&input).map(|(w, v)| w * v).sum::<f32>()
                })
                .collect();
            if index + 1 < self.layers.len() {
                for o in &mut out {
                    *o = o.max(0.0);
                }
            }
            input = out;
        }
        input
    }
}

/// The dot product of `a` and `b` in eight running sums added in a fixed order: the
/// compiler keeps the sums in vector lanes, and the result does not depend on them.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for lane in 0..8 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::observe::PRIVATE_ENTRIES;
    use crate::duel::Rules;

    #[test]
    fn the_shipped_weights_are_a_network() {
        let network = Network::from_bytes(SHIPPED_WEIGHTS).expect("a network");
        assert!(network.parameters() > 1000);
        // A few hundred KB at most, as shipped in the wheel.
        assert!(SHIPPED_WEIGHTS.len() < 400_000, "{}", SHIPPED_WEIGHTS.len());
    }

    #[test]
    fn the_sparse_pass_is_the_dense_one_and_sums_to_one() {
        let network = &*SHIPPED;
        let mut checked = 0;
        for seed in 0..30 {
            let mut state =
                DealState::from_seed(seed, (seed % 2) as u8, Rules::default()).expect("a deal");
            while let Some(player) = state.current_player() {
                let legal = state.legal_mask();
                let mut x = [0.0f32; OBSERVATION_SIZE];
                state.encode_observation(player, [1, 3], &mut x);
                let dense = network.dense_logits(&x);
                let sparse = network.log_probabilities(&x, legal);
                let top = sparse.iter().map(|l| l.1).fold(f32::NEG_INFINITY, f32::max);
                let total: f32 = sparse.iter().map(|l| l.1.exp()).sum();
                assert!((total - 1.0).abs() < 1e-4, "{total}");
                // Log-probabilities differ from logits by one constant.
                let shift = sparse[0].1 - dense[sparse[0].0];
                for (a, l) in &sparse {
                    assert!(
                        (l - dense[*a] - shift).abs() < 1e-3,
                        "{a}: {l} {}",
                        dense[*a]
                    );
                }
                assert!(top <= 0.0);
                checked += 1;
                let action = state.legal_actions()[0];
                state.apply_unchecked(action);
            }
        }
        assert!(checked > 300);
    }

    /// The AVX2 pass and the portable one give the same floats, bit for bit.
    #[test]
    fn both_instruction_sets_give_the_same_bits() {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::on_this_cpu().avx2 {
            let network = &*SHIPPED;
            for seed in 0..20 {
                let mut state = DealState::from_seed(seed, 0, Rules::default()).expect("a deal");
                while let Some(player) = state.current_player() {
                    let mut x = [0.0f32; OBSERVATION_SIZE];
                    state.encode_observation(player, [2, 5], &mut x);
                    let (mut a, mut b) = ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]);
                    // SAFETY: the CPU has AVX2 (checked above).
                    let wide = unsafe { network.hidden_avx2(None, &x, &mut a) };
                    let narrow = network.hidden_portable(None, &x, &mut b);
                    assert_eq!(wide, narrow);
                    assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()));
                    // And from shared first-layer sums.
                    let shared = network.shared_sums(&x, PRIVATE_ENTRIES);
                    // SAFETY: as above.
                    let wide = unsafe { network.hidden_avx2(Some(&shared), &x, &mut a) };
                    let narrow = network.hidden_portable(Some(&shared), &x, &mut b);
                    assert_eq!(wide, narrow);
                    assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()));
                    let action = state.legal_actions()[0];
                    state.apply_unchecked(action);
                }
            }
        }
    }

    /// A weights file with `layers` as (inputs, outputs), every weight `value`.
    fn weights(layers: &[(u32, u32)], value: f32) -> Vec<u8> {
        let mut out = b"ECNN".to_vec();
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(layers.len() as u32).to_le_bytes());
        for &(inputs, outputs) in layers {
            out.extend_from_slice(&inputs.to_le_bytes());
            out.extend_from_slice(&outputs.to_le_bytes());
            for _ in 0..(inputs * outputs + outputs) {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    #[test]
    fn bad_bytes_are_refused() {
        assert!(Network::from_bytes(&weights(&[(214, 16), (16, 68)], 0.5)).is_ok());
        assert!(Network::from_bytes(&weights(&[(214, 68)], 0.5)).is_ok());
        for bad in [
            weights(&[(214, 16), (16, 68)], f32::NAN),
            weights(&[(214, 16), (16, 68)], f32::INFINITY),
            weights(&[(213, 16), (16, 68)], 0.5),
            weights(&[(214, 16), (16, 67)], 0.5),
            weights(&[(214, 0), (0, 68)], 0.5),
            weights(&[(214, 513), (513, 68)], 0.5),
            weights(&[], 0.5),
        ] {
            assert!(Network::from_bytes(&bad).is_err());
        }
        assert!(Network::from_bytes(b"").is_err());
        assert!(Network::from_bytes(b"ECNN\x02\0\0\0").is_err());
        let mut truncated = SHIPPED_WEIGHTS.to_vec();
        truncated.pop();
        assert!(Network::from_bytes(&truncated).is_err());
        let mut longer = SHIPPED_WEIGHTS.to_vec();
        longer.push(0);
        assert!(Network::from_bytes(&longer).is_err());
        // A layer count that would ask for more than the bound.
        let mut many = b"ECNN\x01\0\0\0".to_vec();
        many.extend_from_slice(&1000u32.to_le_bytes());
        assert!(Network::from_bytes(&many).is_err());
    }
}
