"""Trains the grandmaster's opponent model: a network that predicts a search agent's action
from its observation, the likelihood by which the grandmaster weights its worlds.

    pip install -e '.[test]'                          # torch comes with the test extra
    python examples/train_inference.py                # the shipped weights' recipe
    python examples/train_inference.py --out rust/src/play/grandmaster.weights

The data are the decisions with a choice of self-play matches between the search agents,
played natively and seeded (``ecarte.duel.self_play_decisions``): the master against
itself, against the expert with as many worlds and against the expert, and PIMC against
the expert, for variety. A held-out set comes from other matches (another seed). The model
is a multilayer perceptron over the observation tensor with a softmax over the legal
actions' logits (illegal actions masked out), trained with Adam on one seed, on the CPU.

It prints, on the held-out decisions, the network's accuracy (the share of decisions whose
likeliest action was the one taken) and log loss (the mean negative log-probability of the
action taken, in nats), beside those of the master's hand-written model, overall and by
kind of decision. ``--out`` writes the weights in the engine's format
(``rust/src/play/network.rs``); the engine compiles them in, so a rebuild ships them.
``--report FILE`` writes the figures as JSON. Figures: ``BENCHMARKS.md``, "Grandmaster".
"""

from __future__ import annotations

import argparse
import json
import struct
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from ecarte import duel

#: The pairs of agents whose matches make the data, in turn (seat 0, seat 1).
PAIRS = [
    ("master", "master"),
    ("master", "expert:40"),
    ("expert:40", "master"),
    ("expert", "master"),
    ("pimc", "expert"),
]


def decisions(
    matches: int, seed: int, threads: int | None, cache: Path | None
) -> dict[str, npt.NDArray[Any]]:
    """The decisions of ``matches`` self-play matches of the run with ``seed``, kept in
    ``cache`` (a directory) if given, so that a second training skips the self-play."""
    kept = cache / f"decisions-{matches}-{seed}.npz" if cache else None
    if kept is not None and kept.exists():
        with np.load(kept) as saved:
            return dict(saved)
    start = time.perf_counter()
    data = duel.self_play_decisions(matches, seed, PAIRS, threads=threads)
    took = time.perf_counter() - start
    print(f"{len(data['action']):,} decisions of {matches} matches (seed {seed}) in {took:.0f} s")
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        np.savez(kept, **data)
    return data


def build(hidden: list[int]) -> Any:
    """The network: ReLU layers of ``hidden`` units, then one logit per action."""
    import torch

    layers: list[Any] = []
    width = duel.OBSERVATION_SIZE
    for units in hidden:
        layers += [torch.nn.Linear(width, units), torch.nn.ReLU()]
        width = units
    layers.append(torch.nn.Linear(width, duel.NUM_ACTIONS))
    return torch.nn.Sequential(*layers)


def masked_log_softmax(logits: Any, mask: Any) -> Any:
    """Log-probabilities over the legal actions (``mask``), the others at about -1e9."""
    import torch

    return torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)


def train(
    data: dict[str, npt.NDArray[Any]],
    hidden: list[int],
    epochs: int,
    seed: int,
    batch: int,
    lr: float,
) -> Any:
    """The network trained on ``data`` with Adam and a cosine schedule, seeded."""
    import torch

    torch.manual_seed(seed)
    model = build(hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    x = torch.from_numpy(data["observation"])
    mask = torch.from_numpy(data["mask"])
    y = torch.from_numpy(data["action"])
    order = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        start = time.perf_counter()
        permutation = torch.randperm(len(y), generator=order)
        total = 0.0
        for i in range(0, len(y), batch):
            rows = permutation[i : i + batch]
            log_p = masked_log_softmax(model(x[rows]), mask[rows])
            loss = torch.nn.functional.nll_loss(log_p, y[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        scheduler.step()
        took = time.perf_counter() - start
        print(f"epoch {epoch + 1}/{epochs}: training log loss {total / len(y):.4f} ({took:.0f} s)")
    return model


def figures(model: Any, data: dict[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """Held-out accuracy and log loss of the network and of the master's model, overall
    and by kind."""
    import torch

    with torch.no_grad():
        log_p = masked_log_softmax(
            model(torch.from_numpy(data["observation"])), torch.from_numpy(data["mask"])
        ).numpy()
    action = data["action"]
    rows = np.arange(len(action))
    net_loss = -log_p[rows, action]
    net_hit = log_p.argmax(axis=1) == action
    master_loss = -data["master_log_probability"]
    choice = data["master_choice"]
    legal = data["mask"].sum(axis=1)
    # Where the master's model reads nothing it is uniform: a likeliest action drawn at
    # random is right one time in the number of legal actions.
    master_hit = np.where(choice >= 0, (choice == action).astype(float), 1.0 / legal)
    kind = np.asarray(duel.DECISION_KINDS)[data["kind"]]
    out: dict[str, Any] = {}
    for name in ("all", *duel.DECISION_KINDS):
        where = np.ones(len(action), bool) if name == "all" else kind == name
        if not where.any():
            continue
        out[name] = {
            "decisions": int(where.sum()),
            "network": {
                "accuracy": float(net_hit[where].mean()),
                "log_loss": float(net_loss[where].mean()),
            },
            "master": {
                "accuracy": float(master_hit[where].mean()),
                "log_loss": float(master_loss[where].mean()),
            },
        }
    return out


def weights_bytes(model: Any) -> bytes:
    """The network in the engine's format (``rust/src/play/network.rs``)."""
    import torch

    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    out = bytearray(b"ECNN") + struct.pack("<II", 1, len(linear))
    for layer in linear:
        weight = layer.weight.detach().numpy().astype("<f4")
        out += struct.pack("<II", weight.shape[1], weight.shape[0])
        out += weight.tobytes() + layer.bias.detach().numpy().astype("<f4").tobytes()
    return bytes(out)


def main() -> None:
    """Self-play, training, held-out figures, and the weights and report if asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1200, help="training matches (1200)")
    parser.add_argument("--held-out", type=int, default=100, help="held-out matches (100)")
    parser.add_argument("--seed", type=int, default=2026, help="the recipe's seed (2026)")
    parser.add_argument(
        "--hidden", type=int, nargs="+", default=[128], help="units of each hidden layer (128)"
    )
    parser.add_argument("--epochs", type=int, default=15, help="passes over the data (15)")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=None, help="threads (all cores)")
    parser.add_argument("--out", type=Path, help="write the weights here")
    parser.add_argument("--report", type=Path, help="write the figures here as JSON")
    parser.add_argument("--cache", type=Path, help="keep the self-play decisions here")
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    started = time.perf_counter()
    train_data = decisions(args.matches, args.seed, args.threads, args.cache)
    held_out = decisions(args.held_out, args.seed + 1, args.threads, args.cache)
    model = train(train_data, args.hidden, args.epochs, args.seed, args.batch, args.lr)
    result = figures(model, held_out)
    print(f"{'held out':<10} {'decisions':>9}  {'network':>15}  {'master model':>15}")
    print(f"{'':<10} {'':>9}  {'acc':>6} {'loss':>8}  {'acc':>6} {'loss':>8}")
    for name, row in result.items():
        net, master = row["network"], row["master"]
        print(
            f"{name:<10} {row['decisions']:>9,}  {net['accuracy']:>6.3f} {net['log_loss']:>8.4f}"
            f"  {master['accuracy']:>6.3f} {master['log_loss']:>8.4f}"
        )
    blob = weights_bytes(model)
    if args.out:
        args.out.write_bytes(blob)
        print(f"wrote {len(blob):,} bytes to {args.out}")
    if args.report:
        # The recipe is what decides the figures: not where files go, nor the threads.
        where = {"out", "report", "cache", "threads"}
        recipe = {k: v for k, v in vars(args).items() if k not in where}
        report = {"recipe": recipe, "pairs": PAIRS, "held_out": result, "bytes": len(blob)}
        args.report.write_text(json.dumps(report, indent=2) + "\n")
    print(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
