"""A duel match against a built-in agent, for a human or a client in one seat: the match,
the agent, the log and undo (:class:`Game`).

``ecarte play`` draws it in the terminal (:mod:`ecarte.terminal`), and the engine protocol
serves it as its ``play`` games (``ecarte.protocol.games.PlayDuel``): this module draws
nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ecarte._public import api_dir
from ecarte.agents import Agent
from ecarte.display import (
    action_str,
    card_str,
    card_style,
    cards_text,
    counted,
    outcome_reason,
)
from ecarte.duel import Action, Deal, Match, Observation
from ecarte.errors import EcarteError

__all__ = ["QUIT_WORDS", "Game", "Reply", "parse_move", "result_banner"]
__dir__ = api_dir(globals())

HUMAN_COMMANDS = (
    "a number from the list, a card (QH, q♥, 10s), propose/decline/accept/refuse, "
    "discard 7C, Enter for the only legal move, or: help, hint, undo, quit"
)

#: What ends the game, at any prompt.
QUIT_WORDS = ("quit", "q", "exit")


def parse_move(text: str, legal: list[Action], observation: Observation | None = None) -> Action:
    """The legal action meant by ``text``: a 1-based number from the list, an action's text,
    or a bare card during the discards. Raises ``EcarteError`` with a one-line reason: the
    engine's reason the move is refused (``Observation.refusal``), in the cards shown, when
    the mover's ``observation`` is given."""
    words = text.strip()
    if words.isdigit():
        index = int(words)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise EcarteError(f"{words} is not in the list (1-{len(legal)})")
    try:
        action = Action(words)
    except EcarteError:
        raise EcarteError(f"cannot read {words!r}") from None
    if action.kind == "play" and action not in legal and legal and legal[0].kind == "discard":
        action = Action(f"discard {action.card}")
    if action not in legal:
        reason = observation.refusal(action) if observation is not None else None
        if reason is not None:
            raise EcarteError(reason.text(card_style()))
        raise EcarteError(f"{action_str(action)} is not legal now")
    return action


def result_banner(outcome_deal: Deal, seat: int, score: tuple[int, int], target: int) -> str:
    """The end of a deal from ``seat``'s side: who won, why, the points and the score."""
    outcome = outcome_deal.outcome()
    assert outcome is not None
    names = ["you", "the opponent"] if seat == 0 else ["the opponent", "you"]
    who = "You win" if outcome.winner == seat else "The opponent wins"
    points = counted(outcome.points, "point")
    reason = outcome_reason(outcome, names)
    return (
        f"{who} the deal, {points}: {reason}. "
        f"Score: you {score[seat]}, opponent {score[1 - seat]} (to {target})."
    )


@dataclass
class Reply:
    """What the game says back to one line of input."""

    message: str = ""
    quit: bool = False
    #: Whether the table changed and should be drawn again.
    redraw: bool = False
    #: The result of a deal that just ended (see :func:`result_banner`), or "".
    banner: str = ""


@dataclass
class Game:
    """A match between the human (``seat``) and ``opponent``."""

    match: Match
    opponent: Agent
    seat: int = 0
    hint_agent: Callable[[], Agent] | None = None
    log: list[str] = field(default_factory=list)
    #: The banner of the deal that just ended, while the game waits for the next deal to
    #: be started with :meth:`next_deal` (the human reads the result first).
    pending_banner: str = ""
    #: The banner of the last deal that ended.
    last_banner: str = ""
    #: The log's length before each of the human's moves in this deal: undo cuts the log
    #: back to it, so that nothing the undone moves showed (a talon card drawn) stays.
    _log_before_move: list[int] = field(default_factory=list, init=False, repr=False)
    #: Where the log of the deal in play starts: each deal after the first opens with a
    #: line ``Deal N``, so that the deals' entries stand apart.
    _deal_log_start: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._seen = self._snapshot()
        self.advance()

    @property
    def deal(self) -> Deal:
        return self.match.deal

    def human_to_move(self) -> bool:
        return self.match.current_player == self.seat

    def advance(self) -> None:
        """Lets the opponent act until it is the human's turn, a deal ends (the game then
        waits for :meth:`next_deal`) or the match is over: the one match runner
        (``Match.advance``), the human's seat without an agent."""
        if self.pending_banner or self.match.is_over():
            return
        agents: list[Agent | None] = [None, None]
        agents[1 - self.seat] = self.opponent
        self.match.advance(
            agents[0],
            agents[1],
            until="deal",
            on_action=lambda _seat, action: self._log(f"Opponent: {self._describe(action)}"),
        )

    def next_deal(self) -> None:
        """Starts play of the next deal after a finished one has been shown."""
        self.pending_banner = ""
        self._deal_log_start = len(self.log)
        self.log.append(f"Deal {len(self.match.deals)}")
        self.advance()

    @property
    def deal_log(self) -> list[str]:
        """The log of the deal on the table (the one just finished while the game waits to
        go on), from its ``Deal N`` line."""
        return self.log[self._deal_log_start :]

    def _snapshot(self) -> tuple[int, int, int | None]:
        """The deal in progress, how many cards the human has drawn in it and who holds
        the turn-up: what the next action's log entry is measured against."""
        index = len(self.match.deals) - 1
        obs = self.match.deal.observation(self.seat)
        return index, len(obs.draws), obs.turn_up_holder

    def _apply(self, action: Action, entry: str) -> None:
        """Applies the human's ``action`` to the match and logs it."""
        self.match.apply(action)
        self._log(entry)

    def _log(self, entry: str) -> None:
        """Logs the action just applied, the cards the human drew, who drew the turn-up,
        and the end of the deal."""
        index, drawn_before, holder_before = self._seen
        self.log.append(entry)
        deal = self.match.deal_at(index)  # the deal acted in, finished or not
        obs = deal.observation(self.seat)
        drawn = obs.draws[drawn_before:]
        if drawn:
            self.log.append(f"You draw {cards_text(drawn)}")
        holder = obs.turn_up_holder
        if holder is not None and holder_before is None and holder != self.seat:
            self.log.append(f"The opponent draws the turn-up {card_str(deal.turn_up)}")
        self._note_end_of_deal(deal)
        self._seen = self._snapshot()

    def _describe(self, action: Action) -> str:
        # The opponent's discards are face down.
        if action.kind == "discard":
            return "discards a card"
        return action_str(action)

    def _note_end_of_deal(self, deal: Deal) -> None:
        if deal.outcome() is None:
            return
        self._log_before_move.clear()  # undo stays within a deal
        banner = result_banner(deal, self.seat, self.match.score, self.match.target)
        self.log.append(banner.split(":")[0] + ".")
        self.last_banner = banner
        if not self.match.is_over():
            self.pending_banner = banner

    def handle(self, line: str) -> Reply:
        """Acts on one line of the human's input."""
        command = line.strip().lower()
        if command in QUIT_WORDS:
            return Reply("Bye.", quit=True)
        if command in ("help", "?", "h"):
            return Reply(f"Type {HUMAN_COMMANDS}.")
        if self.match.is_over():
            return Reply("The match is over: type quit.")
        if self.pending_banner:
            self.next_deal()
            return Reply("", redraw=True)
        legal = self.match.legal_actions()
        if command == "hint":
            agent = self.hint_agent() if self.hint_agent else None
            if agent is None:
                return Reply("No hint available.")
            suggestion = agent(self.match.observation(self.seat), legal)
            return Reply(f"Hint: {action_str(suggestion)}")
        if command == "undo":
            return self.undo()
        if not command and len(legal) != 1:
            return Reply("")
        try:
            # Enter alone plays a forced move.
            action = (
                legal[0]
                if not command
                else parse_move(line, legal, self.match.observation(self.seat))
            )
        except EcarteError as exc:
            choices = ", ".join(action_str(a) for a in legal)
            return Reply(f"{exc}. Legal: {choices}")
        self.last_banner = ""
        self._log_before_move.append(len(self.log))
        self._apply(action, f"You: {action_str(action)}")
        self.advance()
        return Reply("", redraw=True, banner=self.last_banner)

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has a move to take back: one of the human's in the deal in
        play (undo stays within a deal, and a finished match stays finished)."""
        if self.match.is_over() or self.pending_banner:
            return False
        return any(player == self.seat for player, _ in self.match.deal.moves)

    def undo(self) -> Reply:
        """Takes back the human's last decision in this deal, and the opponent's replies."""
        if not self.can_undo:
            return Reply("Nothing to undo in this deal.")
        seats = [player for player, _ in self.match.deal.moves]
        while seats:
            self.match.undo()
            if seats.pop() == self.seat:
                break
        self._seen = self._snapshot()
        if self._log_before_move:
            del self.log[self._log_before_move.pop() :]
        self.log.append("You take back your last move.")
        return Reply("Move taken back.", redraw=True)

    @property
    def shown_index(self) -> int:
        """The index of the deal on the table: the one just finished while the game waits
        to go on, else the current one."""
        last = len(self.match.deals) - 1
        return last - 1 if self.pending_banner and last > 0 else last
