"""The two-player écarté (``duel``): the Rust deal engine and the match flow.

The deal (:class:`Deal`), its actions, observations and records are native; this module adds
the match: deals to a target score with the dealer alternating every deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._core import (
    DUEL_NUM_ACTIONS as NUM_ACTIONS,
    DUEL_OBSERVATION_SIZE as OBSERVATION_SIZE,
    DuelAction as Action,
    DuelDeal as Deal,
    DuelObservation as Observation,
    DuelOutcome as Outcome,
    DuelRules as Rules,
    DuelSolution as Solution,
    DuelTrick as Trick,
    DuelVecEnv as VecEnv,
    EcarteError,
    IllegalActionError,
    InvalidRecordError,
    derive_seed,
    duel_simulate,
    duel_action_values as action_values,
    duel_pimc_values as pimc_values,
    duel_sample_worlds as sample_worlds,
    duel_solve as solve,
    duel_solve_many as solve_many,
)
from ecarte.agents import Agent

__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "Action",
    "Deal",
    "Match",
    "MatchResult",
    "Observation",
    "Outcome",
    "Rules",
    "Solution",
    "Trick",
    "VecEnv",
    "simulate",
    "action_values",
    "pimc_values",
    "sample_worlds",
    "solve",
    "solve_many",
]

MATCH_FORMAT = "ecarte.duel.match"
MATCH_VERSION = 1


@dataclass(frozen=True)
class MatchResult:
    """The end of a match: the winner, the final score and every deal's outcome."""

    winner: int
    score: tuple[int, int]
    outcomes: tuple[Outcome, ...]


class Match:
    """A duel match to ``rules.target`` points (7 by default).

    The dealer alternates every deal, starting with ``first_dealer``. Deal ``i`` is shuffled
    with ``derive_seed(seed, i)``. Play it with :meth:`play`, or step by step with
    :meth:`apply` on :attr:`deal`; a finished deal is scored and the next one dealt at once.
    """

    def __init__(
        self,
        target: int | None = None,
        first_dealer: int = 0,
        seed: int | None = None,
        rules: Rules | None = None,
    ) -> None:
        rules = rules or Rules()
        if target is not None:
            rules = Rules(
                order=rules.order,
                allow_trump_discard=rules.allow_trump_discard,
                max_exchanges=rules.max_exchanges,
                target=target,
            )
        if first_dealer not in (0, 1):
            raise EcarteError(f"invalid first_dealer {first_dealer!r}: seats are 0 and 1")
        if seed is None:
            seed = _fresh_seed()
        self.rules: Rules = rules
        self.first_dealer = first_dealer
        self.seed: int = seed
        self._score = [0, 0]
        self.deals: list[Deal] = []
        self._start_deal()

    # -- state ---------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal in progress (the last, finished one once the match is over)."""
        return self.deals[-1]

    @property
    def score(self) -> tuple[int, int]:
        return (self._score[0], self._score[1])

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def winner(self) -> int | None:
        """The seat that reached the target, or ``None`` while the match goes on."""
        for seat in (0, 1):
            if self._score[seat] >= self.rules.target:
                return seat
        return None

    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current_player(self) -> int | None:
        return None if self.is_over() else self.deal.current_player

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over() else self.deal.legal_actions()

    def observation(self, player: int) -> Observation:
        """``player``'s view of the current deal, with the match score."""
        return self.deal.observation(player, self.score)

    def outcomes(self) -> list[Outcome]:
        return [o for d in self.deals if (o := d.outcome()) is not None]

    # -- play ----------------------------------------------------------------------------

    def apply(self, action: Action | str | int) -> None:
        """Applies ``action`` to the current deal; scores it and deals the next when it
        ends. Raises :class:`IllegalActionError` (nothing changed) when illegal."""
        if self.is_over():
            raise IllegalActionError(f"illegal action {action}: the match is over")
        self.deal.apply(action)
        outcome = self.deal.outcome()
        if outcome is not None:
            self._score[outcome.winner] += outcome.points
            if not self.is_over():
                self._start_deal()

    def undo(self) -> Action:
        """Takes back the last action of the current deal (a finished deal stays scored)."""
        if self.is_over() or not self.deal.history:
            raise EcarteError("nothing to undo in the current deal")
        return self.deal.undo()

    def play(
        self,
        agent0: Agent,
        agent1: Agent,
        on_deal: Callable[[Deal, Match], None] | None = None,
    ) -> MatchResult:
        """Plays to the end; ``on_deal(deal, match)`` is called after each finished deal."""
        agents = (agent0, agent1)
        while not self.is_over():
            deal = self.deal
            player = deal.current_player
            assert player is not None
            legal = deal.legal_actions()
            action = agents[player](self.observation(player), legal)
            self.apply(action)
            if on_deal is not None and deal.is_over():
                on_deal(deal, self)
        return self.result()

    def result(self) -> MatchResult:
        winner = self.winner
        if winner is None:
            raise EcarteError("the match is not over")
        return MatchResult(winner, self.score, tuple(self.outcomes()))

    def _start_deal(self) -> None:
        index = len(self.deals)
        dealer = (self.first_dealer + index) % 2
        self.deals.append(Deal(seed=derive_seed(self.seed, index), dealer=dealer, rules=self.rules))

    # -- records -------------------------------------------------------------------------

    @property
    def record(self) -> dict[str, Any]:
        """The versioned match record: rules, seed, first dealer and every deal's record."""
        return {
            "format": MATCH_FORMAT,
            "version": MATCH_VERSION,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "rules": _rules_dict(self.rules),
            "deals": [json.loads(d.to_json()) for d in self.deals],
        }

    def to_json(self) -> str:
        return json.dumps(self.record)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Match:
        """Replays a record: every deal must be the seeded deal with the alternating dealer,
        every action legal, and only the last deal unfinished."""
        try:
            if record.get("format") != MATCH_FORMAT or record.get("version") != MATCH_VERSION:
                raise InvalidRecordError(
                    f"invalid record: expected format {MATCH_FORMAT!r} version {MATCH_VERSION}"
                )
            match = cls(
                seed=int(record["seed"]),
                first_dealer=int(record["first_dealer"]),
                rules=Rules(**record["rules"]),
            )
            deals: Sequence[dict[str, Any]] = record["deals"]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, EcarteError):
                raise
            raise InvalidRecordError(f"invalid record: {exc!r}") from None
        for i, deal_record in enumerate(deals):
            if match.is_over():
                raise InvalidRecordError(f"invalid record: deal {i} comes after the match ended")
            replayed = Deal.from_json(json.dumps(deal_record))
            if replayed.deck != match.deal.deck or replayed.dealer != match.deal.dealer:
                raise InvalidRecordError(
                    f"invalid record: deal {i} is not the deal of seed {match.seed} "
                    f"with dealer {match.deal.dealer}"
                )
            if i + 1 < len(deals) and not replayed.is_over():
                raise InvalidRecordError(f"invalid record: deal {i} is unfinished")
            for action in replayed.history:
                match.apply(action)
        return match

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecordError(f"invalid record: {exc}") from None
        if not isinstance(record, dict):
            raise InvalidRecordError("invalid record: expected a JSON object")
        return cls.from_record(record)

    def __repr__(self) -> str:
        return (
            f"<Match seed={self.seed} score={self.score[0]}-{self.score[1]} "
            f"target={self.target} deals={len(self.deals)}>"
        )


def _fresh_seed() -> int:
    seed = Deal().seed
    assert seed is not None  # a shuffled deal always knows its seed
    return seed


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {
        "order": rules.order,
        "allow_trump_discard": rules.allow_trump_discard,
        "max_exchanges": rules.max_exchanges,
        "target": rules.target,
    }


NATIVE_AGENTS = ("random", "heuristic", "pimc")


def is_native_agent(name: object) -> bool:
    """Whether ``name`` is a built-in agent that runs natively: ``"random"``,
    ``"heuristic"``, ``"pimc"`` or ``"pimc:N"`` (N worlds per decision)."""
    if not isinstance(name, str):
        return False
    base, sep, arg = name.partition(":")
    if sep:
        return base == "pimc" and arg.isdigit() and int(arg) > 0
    return base in NATIVE_AGENTS


def simulate(
    n: int,
    seed: int,
    agents: tuple[str, str] = ("random", "random"),
    rules: Rules | None = None,
    threads: int | None = None,
    matches: bool = False,
    start: int = 0,
) -> dict[str, npt.NDArray[Any]]:
    """Plays ``n`` whole deals (or, with ``matches=True``, whole matches) natively between
    two built-in agents named in ``agents`` (``"random"``, ``"heuristic"``, ``"pimc"`` or
    ``"pimc:N"`` for N worlds per decision), in parallel with the GIL released. Each agent
    sees only its own player's information; the native PIMC is the algorithm of
    :class:`~ecarte.pimc.PimcAgent` with its worlds drawn from the deal's policy seed.

    Deal ``i`` is shuffled with ``derive_seed(seed, i)`` and dealt by seat ``i % 2``; match
    ``i`` has seed ``derive_seed(seed, i)`` and first dealer ``i % 2``, its deals seeded as
    :class:`Match` seeds them. The result is identical whatever ``threads`` is (``None``:
    all cores). ``start`` offsets the indices, so a long run can be split into pieces (for
    progress reporting) with the same result.

    Returns NumPy arrays: for deals ``dealer``, ``winner``, ``points``, ``exchanges`` of
    shape ``(n,)`` and ``cards``, ``tricks`` of shape ``(n, 2)``; for matches ``winner``,
    ``deals`` of shape ``(n,)`` and ``score``, ``deals_won`` of shape ``(n, 2)``.
    """
    if n < 0 or start < 0:
        raise EcarteError(f"n and start must be at least 0, got n={n}, start={start}")
    for name in agents:
        if not is_native_agent(name):
            raise EcarteError(
                f"unknown native agent {name!r}: choose one of {', '.join(NATIVE_AGENTS)} "
                "or pimc:N"
            )
    columns = duel_simulate(n, seed, (agents[0], agents[1]), rules, threads, matches, start)
    return {name: np.asarray(values) for name, values in columns}
