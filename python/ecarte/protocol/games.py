"""The games a session holds, each behind one interface: who may act, what a seat sees.

- :class:`OpenDuel`: a deal or a match whose every seat the client holds (``ecarte
  engine``'s own games): any seat's observation, the record, the solver.
- :class:`PlayDuel`: a match against a built-in agent, the client in one seat: the game
  of ``ecarte play``, :class:`ecarte.play.Game` (its log, its undo, its explanations).
- :class:`WatchDuel`: a match between two built-in agents, played a deal at a time for a
  spectator, who sees both hands (never the talon).
- :class:`BankTable`: a banking table, one seat per player; every seat sees the punters'
  view (the tableaux face down until the reveal).
"""

from __future__ import annotations

import json
import threading
from typing import Any, ClassVar

from ecarte._public import api_dir
from ecarte.agents import make_agent
from ecarte.bank import ACTION_RULES, Table
from ecarte.duel import Action, Deal, Match, Reason
from ecarte.errors import IllegalActionError, TableError
from ecarte.play import Game
from ecarte.protocol.views import (
    legal_action_view,
    match_frames,
    observation_view,
    outcome_view,
    public_view,
    punter_view,
)
from ecarte.protocol.wire import AccessError
from ecarte.seeding import agent_seed

__all__ = ["BankTable", "Holder", "OpenDuel", "PlayDuel", "WatchDuel"]
__dir__ = api_dir(globals())

#: Lines of a game's log a view carries.
LOG_LINES = 40


class Holder:
    """A game held by a session: its lock, its seats and what each seat sees."""

    kind: ClassVar[str]
    seats: int = 2

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def seat_names(self) -> list[str]:
        """Each seat's name, as the ``left`` event names a player who went."""
        return [f"seat {s}" for s in range(self.seats)]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (``None``: a client that holds every seat, or a spectator)."""
        raise NotImplementedError

    def legal(self, seat: int | None) -> list[Any]:
        raise NotImplementedError

    def apply(self, seat: int | None, action: object) -> None:
        raise AccessError(f"a {self.kind} game takes no actions from a client")

    def undo(self, seat: int | None) -> str:
        raise AccessError(f"a {self.kind} game has no undo")

    def seed(self) -> int | None:
        """The seed the game was dealt from (``None``: a deck or record laid it out)."""
        raise NotImplementedError

    def is_over(self) -> bool:
        """Whether nothing more can happen in the game."""
        raise NotImplementedError


def _parse_action(text: object) -> Action:
    if not isinstance(text, str):
        raise IllegalActionError(f"a duel action is text such as 'QH' or 'propose': {text!r}")
    return Action(text)


class OpenDuel(Holder):
    """A duel deal or match whose every seat the client holds."""

    def __init__(self, game: Deal | Match) -> None:
        super().__init__()
        self.game = game
        self.kind = "match" if isinstance(game, Match) else "deal"  # type: ignore[misc]

    @property
    def deal(self) -> Deal:
        return self.game.deal if isinstance(self.game, Match) else self.game

    def view(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        view = {"kind": self.kind, **public_view(self.deal)}
        if isinstance(game, Match):
            view.update(
                score=list(game.score),
                target=game.target,
                deal_number=len(game.deals),
                over=game.is_over(),
                winner=game.winner,
            )
        else:
            view["over"] = game.is_over()
        if seat is not None:
            obs = game.observation(seat)
            view["observation"] = observation_view(obs)
        view["legal"] = [str(a) for a in self.legal(seat)]
        return view

    def legal(self, seat: int | None) -> list[Any]:
        game = self.game
        if seat is not None and game.current_player != seat:
            return []
        return list(game.legal_actions())

    def apply(self, seat: int | None, action: object) -> None:
        # A seat named is held to its turn, as at a table: the engine refuses the others.
        self.game.apply(_parse_action(action), seat)

    def undo(self, seat: int | None) -> str:
        if not self.deal.history:
            raise IllegalActionError("nothing to undo in this deal")
        return str(self.game.undo())

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self.game.to_json())
        return record

    def seed(self) -> int | None:
        return self.game.seed

    def is_over(self) -> bool:
        return self.game.is_over()


class PlayDuel(Holder):
    """A match against a built-in agent: :class:`ecarte.play.Game`, the client in ``seat``.
    A finished deal is shown once (``finished``) and the next is dealt at once."""

    kind = "play"

    def __init__(self, match: Match, opponent: str, seat: int) -> None:
        super().__init__()
        self.opponent = opponent
        self.seat = seat
        agent = make_agent(opponent, agent_seed(match.seed, 1 - seat))
        self.game = Game(match, agent, seat=seat)
        self.finished: dict[str, Any] | None = None

    @property
    def match(self) -> Match:
        return self.game.match

    def view(self, seat: int | None) -> dict[str, Any]:
        match, me = self.match, self.seat
        return {
            "kind": self.kind,
            "seat": me,
            "opponent": self.opponent,
            "observation": observation_view(match.observation(me)),
            "legal": [str(a) for a in self.legal(me)],
            "score": list(match.score),
            "target": match.target,
            "deal_number": len(match.deals),
            "over": match.is_over(),
            "winner": match.winner,
            "log": self.game.log[-LOG_LINES:],
            "can_undo": self.game.can_undo,
            "finished": self.finished,
        }

    def legal(self, seat: int | None) -> list[Any]:
        if self.match.current_player != self.seat:
            return []
        return list(self.match.legal_actions())

    def apply(self, seat: int | None, action: object) -> None:
        match = self.match
        parsed = _parse_action(action)
        match.check(parsed, self.seat)  # the engine's refusal, with its reason
        index = len(match.deals) - 1
        self.finished = None
        self.game.handle(str(parsed))
        deal = match.deal_at(index)
        if deal.outcome() is not None:
            self.finished = {
                "deal_number": index + 1,
                "observation": observation_view(deal.observation(self.seat, match.score)),
                "outcome": outcome_view(deal.outcome()),
                "banner": self.game.last_banner,
            }
            if self.game.pending_banner:
                self.game.next_deal()

    def undo(self, seat: int | None) -> str:
        reply = self.game.undo()
        if not reply.redraw:
            raise IllegalActionError(reply.message.rstrip(".").lower())
        self.finished = None
        return reply.message

    def seed(self) -> int | None:
        return self.match.seed

    def is_over(self) -> bool:
        return self.match.is_over()


class WatchDuel(Holder):
    """A match between two built-in agents, advanced a deal at a time."""

    kind = "watch"

    def __init__(self, match: Match, agents: tuple[str, str]) -> None:
        super().__init__()
        self.match = match
        self.specs = agents
        self.agents = [make_agent(spec, agent_seed(match.seed, s)) for s, spec in enumerate(agents)]
        self.played = 0

    def view(self, seat: int | None) -> dict[str, Any]:
        match = self.match
        return {
            "kind": self.kind,
            "agents": list(self.specs),
            "score": list(match.score),
            "target": match.target,
            "deals_played": self.played,
            "over": match.is_over(),
            "winner": match.winner,
        }

    def legal(self, seat: int | None) -> list[Any]:
        return []

    def advance(self) -> dict[str, Any]:
        """Plays the next deal; the view with every step of it, for a spectator."""
        match = self.match
        if match.is_over():
            raise IllegalActionError("the match is over")
        match.advance(self.agents[0], self.agents[1], until="deal")
        frames = match_frames(match, self.played)
        self.played += 1
        return {**self.view(None), "deal_number": self.played, "frames": frames}

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self.match.to_json())
        return record

    def seed(self) -> int | None:
        return self.match.seed

    def is_over(self) -> bool:
        return self.match.is_over()


class BankTable(Holder):
    """A banking table; seat ``i`` is player ``i``; every seat sees the punters' view."""

    kind = "table"

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.seats = len(table.players)

    def seat_names(self) -> list[str]:
        return list(self.table.players)

    def view(self, seat: int | None) -> dict[str, Any]:
        table = self.table
        return {
            "kind": self.kind,
            "players": table.players,
            "you": None if seat is None else table.players[seat],
            "deals_played": table.deals_played,
            "bank_number": table.bank_number,
            "remaining": table.remaining,
            "ledger": table.ledger,
            "legal": self.legal(seat),
            "legal_actions": self.legal_actions(seat),
            **punter_view(table.punter_view()),
        }

    def legal(self, seat: int | None) -> list[Any]:
        """The actions the seat may try in this phase, by name (the phase machine's)."""
        table = self.table
        names = [name for name, rule in ACTION_RULES.items() if rule.phase == table.phase]
        if seat is None:
            return names
        role = "banker" if table.players[seat] == table.banker else "punter"
        return [name for name in names if ACTION_RULES[name].by == role]

    def legal_actions(self, seat: int | None) -> list[dict[str, Any]]:
        """The actions the seat may take now, with their bounds (every seat's for ``None``)."""
        player = None if seat is None else self.table.players[seat]
        return [legal_action_view(a) for a in self.table.legal_actions(player)]

    def apply(self, seat: int | None, action: object) -> None:
        table = self.table
        if seat is not None and (actor := table.player_of(action)) != table.players[seat]:
            name = action[0] if isinstance(action, list) else action
            if actor == table.banker:
                refused = TableError(f"{name}: it is not your turn: only the banker ({actor}) may")
                refused.reason = Reason("not_your_turn")  # type: ignore[attr-defined]
                raise refused
            raise AccessError(
                f"{name}: you hold the seat of {table.players[seat]} and act only for it"
            )
        table.apply(action)

    def undo(self, seat: int | None) -> str:
        if seat is not None:
            raise AccessError("undo at a shared table is not allowed")
        return json.dumps(self.table.undo())

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self.table.to_json())
        return record

    def seed(self) -> int | None:
        return self.table.seed

    def is_over(self) -> bool:
        return self.table.phase == "over"
