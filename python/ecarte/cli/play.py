"""``ecarte play``: a match against a built-in agent in the terminal (the game is
:mod:`ecarte.play`, its screen :mod:`ecarte.terminal`)."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte.agents import make_agent
from ecarte.cli.common import (
    ASCII_OPTION,
    ORDER_OPTION,
    OUTPUT,
    PLAYER,
    SEED,
    TARGET_OPTION,
    Whole,
    agent_name,
    ask,
    can_ask,
    check_output_path,
    console,
    make_player,
)
from ecarte.duel import DEFAULT_LEVEL, LEVELS, Match, Rules, parse_agent
from ecarte.seeding import agent_seed


def levels_help() -> str:
    """``--level``'s help: each level of the registry with the agent it plays."""
    levels = []
    for level, spec in LEVELS.items():
        _, worlds = parse_agent(spec)
        plays = spec if worlds is None or ":" in spec else f"{spec}, {worlds} worlds"
        levels.append(f"{level} ({plays})")
    return f"Opponent strength: {', '.join(levels)}; docs/agents.md tells them apart."


@click.command("play")
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default=DEFAULT_LEVEL,
    show_default=True,
    help=levels_help(),
)
@click.option(
    "--opponent",
    type=PLAYER,
    default=None,
    help="A built-in agent, or a model file (*.zip) saved by stable-baselines3, to play "
    "against instead of a level.",
)
@click.option("--seed", type=SEED, default=None, help="Seed of the match (random if omitted).")
@ORDER_OPTION
@TARGET_OPTION
@click.option(
    "--seat",
    type=Whole(0, 1),
    default=0,
    show_default=True,
    help="Your seat; seat 0 deals first.",
)
@ASCII_OPTION
@click.option(
    "--save",
    "save_path",
    type=OUTPUT,
    help="Save the match record here at the end without asking.",
)
def play_command(
    level: str,
    opponent: str | None,
    seed: int | None,
    order: str,
    target: int,
    seat: int,
    save_path: Path | None,
) -> None:
    """Play a match against a built-in agent in the terminal.

    Type a card (QH, q♥, 10s), propose/decline/accept/refuse, discard 7C, or a number from
    the list of legal moves; Enter alone plays the only legal move. Also: help, hint, undo,
    quit.
    """

    from ecarte.play import QUIT_WORDS, Game
    from ecarte.terminal import game_screen

    if save_path is not None:
        check_output_path(save_path, "--save")
    opponent = opponent or LEVELS[level]
    screen = console()
    match = Match(seed=seed, rules=Rules(order=order, target=target))
    names = ["You", "You"]
    names[1 - seat] = agent_name(opponent)
    match.players = (names[0], names[1])
    game = Game(
        match,
        make_player(opponent, agent_seed(match.seed, 1 - seat)),
        seat=seat,
        hint_agent=lambda: make_agent(HINT_AGENT, agent_seed(match.seed, 2)),
    )
    screen.print(
        f"ecarte: you play against {agent_name(opponent)}, match to {target}, "
        f"seed {match.seed}. Type help for the commands."
    )
    redraw = True
    while True:
        if redraw:
            screen.print(game_screen(game))
        if match.is_over():
            break
        if game.pending_banner:
            # A deal has just ended: its result stays on screen until the player goes on.
            answer = ask(NEXT_DEAL_PROMPT)
            if answer is None or answer.strip().lower() in QUIT_WORDS:
                screen.print("Bye.")
                break
            game.next_deal()
            redraw = True
            continue
        line = ask("> ")
        reply = game.handle("quit" if line is None else line)
        if reply.message:
            screen.print(reply.message)
        if reply.quit:
            break
        redraw = reply.redraw
    _offer_save(match, save_path)


#: The prompt after a deal, the one line that asks to go on.
NEXT_DEAL_PROMPT = "(Enter: next deal, q: quit) "


#: The default level's agent gives the hints (the expert, quick to answer).
HINT_AGENT = LEVELS[DEFAULT_LEVEL]


def _offer_save(match: Match, save_path: Path | None) -> None:
    """Saves the record to ``--save``, or asks where to save it, when a person can answer
    (stdin is a terminal); with neither, the game ends without a question."""
    if save_path is None:
        if not can_ask():
            return
        answer = ask("Save the match record to (Enter to skip): ")
        if answer is None or not answer.strip():
            return
        save_path = Path(answer.strip())
    try:
        save_path.write_text(match.to_json(), encoding="utf-8")
    except OSError as exc:
        # Too late to refuse: say so, and let the player try another name.
        click.echo(
            f"error: cannot write {save_path}: {exc.strerror or type(exc).__name__}", err=True
        )
        _offer_save(match, None)
        return
    click.echo(f"Record saved to {save_path}")
