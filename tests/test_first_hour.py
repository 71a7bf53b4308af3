"""What a newcomer meets in the first hour, tried as they try it: every command in a
pseudo-terminal of 80 columns, piped, or with its input closed, and the Python API through
the calls one makes in a REPL. Ctrl-C and closed input, one way to write a card, progress
that counts right, the API's edges and the command line's wording."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import time
from pathlib import Path

import ecarte
import pexpect
import pytest
from cli_support import ECARTE, run_ecarte
from ecarte import RandomAgent, duel
from ecarte.duel import Deal, Match, Rules

#: Seconds from Ctrl-C to the end of the command: about one, with slack for a loaded machine.
BOUND = 2.5

#: A card as the player sees it, with suit symbols and ``10`` (never ``T``), or in ASCII.
SYMBOL_CARD = r"(?:10|[7-9JQKA])[♣♦♥♠]"
ASCII_CARD = r"(?:10|[7-9JQKA])[CDHS]"


def spawn(*args: str, columns: int = 80) -> pexpect.spawn:
    """``ecarte ARGS`` in a pseudo-terminal ``columns`` wide, without colours."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return pexpect.spawn(
        sys.executable,
        [*ECARTE[1:], *args],
        env={**env, "TERM": "xterm", "NO_COLOR": "1"},
        dimensions=(40, columns),
        encoding="utf-8",
        timeout=60,
    )


def ctrl_c(child: pexpect.spawn) -> float:
    """Sends Ctrl-C, waits for the end and returns the seconds it took; the command must
    have said ``interrupted`` and ended with status 130."""
    sent = time.perf_counter()
    child.sendintr()
    child.expect(pexpect.EOF, timeout=30)
    seconds = time.perf_counter() - sent
    child.close()
    assert "interrupted" in child.before, child.before
    assert "Traceback" not in child.before
    assert child.exitstatus == 130, (child.exitstatus, child.before)
    return seconds


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r\n", "\n")


@pytest.fixture(scope="module")
def match_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(seed=2, rules=Rules(target=2))
    match.play(RandomAgent(1), RandomAgent(2))
    path = tmp_path_factory.mktemp("records") / "match.json"
    path.write_text(match.to_json())
    return path


# -- 1. Every figure whole ------------------------------------------------------------------
# `ecarte bank` at 80 columns and with 2 to 20 players, in a terminal and piped:
# test_cli_output.py::test_the_bank_ledger_shows_every_figure_whole_in_80_columns.


# -- 2. Ctrl-C and closed input ---------------------------------------------------------------


def test_ctrl_c_at_the_play_prompt_is_interrupted_not_bye() -> None:
    child = spawn("play", "--seed", "3", "--opponent", "random")
    child.expect("> ")
    assert ctrl_c(child) < BOUND
    assert "Bye." not in child.before and "Save the match record" not in child.before


def test_ctrl_c_while_the_opponent_thinks_in_play() -> None:
    # Seat 1 is the elder and moves first: the opponent thinks before the first prompt.
    child = spawn("play", "--seed", "3", "--opponent", "pimc:10000", "--seat", "0")
    child.expect("Type help")
    time.sleep(1.0)
    assert child.isalive()
    assert ctrl_c(child) < BOUND


def play_until_a_deal_ends(child: pexpect.spawn) -> None:
    """Plays the first legal move at every prompt until the prompt for the next deal."""
    for _ in range(200):
        if child.expect(["> ", r"\(Enter: next deal, q: quit\) "]) == 1:
            return
        child.sendline("1")
    raise AssertionError("no deal ended")


def test_ctrl_c_at_the_next_deal_prompt_in_play() -> None:
    child = spawn("play", "--seed", "3", "--opponent", "random", "--target", "3")
    play_until_a_deal_ends(child)
    assert ctrl_c(child) < BOUND


def test_ctrl_c_in_replay_step(match_record: Path) -> None:
    child = spawn("replay", "--step", str(match_record))
    child.expect(r"\(Enter: next, q: quit\) ")
    assert ctrl_c(child) < BOUND


def test_ctrl_c_while_the_engine_waits_for_a_request() -> None:
    child = spawn("engine")
    child.sendline("not json")  # answered once the engine is up
    child.expect(r"\{.*\}\r\n")
    time.sleep(0.5)
    assert ctrl_c(child) < BOUND


def test_play_with_closed_input_ends_without_asking() -> None:
    proc = run_ecarte("play", "--seed", "3", stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Save the match record" not in proc.stdout
    assert proc.stdout.rstrip().endswith("Bye.")
    assert proc.stderr == ""


def test_play_with_piped_moves_saves_only_when_told(tmp_path: Path) -> None:
    # A script of moves, then the end of its input: the game ends without a question, and
    # --save still saves.
    record = tmp_path / "m.json"
    proc = run_ecarte(
        "play", "--seed", "3", "--opponent", "random", "--save", str(record),
        input="1\n1\n", timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Save the match record to" not in proc.stdout
    assert Match.from_json(record.read_text()).players == ("You", "random")


def test_replay_step_with_closed_input_shows_the_first_step(match_record: Path) -> None:
    proc = run_ecarte("replay", "--step", str(match_record), stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("Match to 2, seed 2")
    assert "wins the match" not in proc.stdout  # it stopped at the end of the input


# -- 3. One way to write a card ---------------------------------------------------------------


def play_texts(*options: str) -> str:
    """What ``ecarte play`` says to a hint, to an unreadable move and to a card the
    player does not hold, once the play phase starts."""
    # Seed 3, seat 1: the player is the elder; declining starts the play.
    child = spawn("play", "--seed", "3", "--opponent", "random", "--seat", "1", *options)
    child.expect("> ")
    child.sendline("decline")
    child.expect("> ")
    hand = re.search(r"Your hand: (.*)", plain(child.before))
    assert hand is not None
    held = hand.group(1).split()
    missing = next(
        f"{rank}{suit}"
        for rank in "789TJQKA"
        for suit in "CDHS"
        if not any(
            card.replace("10", "T")
            .replace("♣", "C")
            .replace("♦", "D")
            .replace("♥", "H")
            .replace("♠", "S")
            == f"{rank}{suit}"
            for card in held
        )
    )
    said = []
    for line in ("hint", "XYZ", missing):
        child.sendline(line)
        child.expect("> ")
        said += plain(child.before).splitlines()[1:]  # the answer, after the echoed line
    child.sendline("quit")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)
    return "\n".join(said)


@pytest.mark.parametrize(
    ("options", "card"), [((), SYMBOL_CARD), (("--ascii",), ASCII_CARD)], ids=["symbols", "ascii"]
)
def test_play_writes_every_card_the_tables_way(options: tuple[str, ...], card: str) -> None:
    said = play_texts(*options)
    hint = re.search(r"Hint: (\S+)", said)
    assert hint is not None and re.fullmatch(card, hint.group(1)), said
    legal = re.findall(r"Legal: (.*)", said)
    assert len(legal) == 2, said
    for listed in legal:
        assert all(re.fullmatch(card, c) for c in listed.strip().split(", ")), listed
    # The refusal of a card not held names it as the table writes it.
    refusal = said.splitlines()
    assert any(re.search(card, line) and "Legal:" in line for line in refusal[-3:]), said
    assert not re.search(r"\b[7-9TJQKA][CDHS]\b", said) or options, said
    assert "Error" not in said


# -- 5. Progress that counts right --------------------------------------------------------------


def bar_counts(child: pexpect.spawn, total: str, seconds: float) -> list[int]:
    """The counts the bar shows as ``N/TOTAL`` for ``seconds``."""
    counts = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        try:
            child.expect(rf"([\d,]+)/{total}", timeout=seconds)
        except pexpect.TIMEOUT:
            break
        counts.append(int(child.match.group(1).replace(",", "")))
    return counts


@pytest.mark.parametrize(
    "args",
    [["simulate", "--deals", "1000000000"], ["bank", "--simulate", "1000000000"]],
    ids=" ".join,
)
def test_a_billion_deals_count_with_separators_and_move(args: list[str]) -> None:
    child = spawn(*args, columns=120)
    counts = bar_counts(child, "1,000,000,000", 4.0)
    ctrl_c(child)
    moving = sorted({c for c in counts if c > 0})
    assert len(moving) >= 3, counts  # it moves, a few times a second
    # In steps finer than a piece of the run, however fast the machine.
    steps = [b - a for a, b in zip([0, *moving], moving, strict=False)]
    assert max(steps) < 10_000_000, steps


def test_solve_positions_shows_progress_from_the_start() -> None:
    child = spawn("solve", "--seed", "1", "--positions", "10000000", columns=120)
    counts = bar_counts(child, "10,000,000", 4.0)
    ctrl_c(child)
    assert len({c for c in counts if c > 0}) >= 2, counts


def test_the_arena_bar_counts_the_deals_of_both_seatings() -> None:
    child = spawn("arena", "heuristic", "random", "--matches", "20", columns=160)
    child.expect(pexpect.EOF)
    child.close()
    out = plain(child.before)
    noted = [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) deals", out)]
    result = re.search(r"deals\s*│\s*(\d+)", out) or re.search(r"deals\s+(\d+)", out)
    assert noted and result is not None, out
    assert max(noted) == int(result.group(1)), out


def test_a_long_run_says_how_long_before_it_starts() -> None:
    child = spawn(
        "simulate",
        "--deals",
        "2000",
        "--agents",
        "master",
        "heuristic",
        "--matches",
        # One thread: the run is long on any machine, however many cores it has.
        "--threads",
        "1",
        columns=120,
    )
    child.expect(r"Matches: 2,000 to go, about (\d+) (s|min|h) in all", timeout=30)
    estimate = int(child.match.group(1)) * {"s": 1, "min": 60, "h": 3600}[child.match.group(2)]
    assert estimate >= 30
    ctrl_c(child)
    short = spawn("simulate", "--deals", "1000", columns=120)
    short.expect(pexpect.EOF)
    assert "to go" not in short.before


# -- 6. The API's edges, as a REPL calls them ---------------------------------------------------


def test_a_match_record_read_as_a_deal_says_what_it_is() -> None:
    match = Match(seed=1)
    with pytest.raises(ecarte.InvalidRecordError) as caught:
        Deal.from_json(match.to_json())
    message = str(caught.value)
    assert "match record" in message and "Match.from_json" in message
    assert "unknown field" not in message
    with pytest.raises(ecarte.InvalidRecordError, match=r"deal record.*Deal\.from_json"):
        Match.from_json(Deal(seed=1).to_json())


def test_a_deal_record_keeps_its_seed() -> None:
    deal = Deal(seed=12345)
    deal.apply("decline")
    again = Deal.from_json(deal.to_json())
    assert again.seed == 12345 and again == deal
    assert Deal.from_json(Deal.from_deck(deal.deck).to_json()).seed is None
    # A seed that did not shuffle the deck is refused.
    forged = deal.to_json().replace('"seed":12345', '"seed":12346')
    with pytest.raises(ecarte.InvalidRecordError, match="not the shuffle of seed 12346"):
        Deal.from_json(forged)


def public_modules() -> list[str]:
    """Every module of the API: not private (``_core``, ``_frameworks``), not the command
    line's modules or the benchmark harness (their API is the command)."""
    names = ["ecarte"]
    for info in pkgutil.walk_packages(ecarte.__path__, "ecarte."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or parts[1] in ("cli", "bench"):
            continue
        names.append(info.name)
    # The one module of the harness that is API: the shipped solver positions.
    return [*names, "ecarte.cli", "ecarte.bench.positions"]


def importable(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ImportError as exc:  # an optional framework that is not installed
        pytest.skip(str(exc))


@pytest.mark.parametrize("name", public_modules())
def test_dir_of_a_public_module_shows_only_its_api(name: str) -> None:
    module = importable(name)
    api = sorted(module.__all__)  # type: ignore[attr-defined]
    assert dir(module) == api
    for attribute in api:
        assert getattr(module, attribute) is not None or attribute.isupper()


#: The modules of the API a REPL meets (docs/api.md): not the servers' inner parts, the
#: protocol's and the web app's submodules, which only their commands drive.
REPL_MODULES = [
    name for name in public_modules() if not name.startswith(("ecarte.protocol.", "ecarte.web"))
]


@pytest.mark.parametrize("name", REPL_MODULES)
def test_every_public_class_has_a_readable_repr(name: str) -> None:
    module = importable(name)
    for attribute in module.__all__:  # type: ignore[attr-defined]
        value = getattr(module, attribute)
        if (
            inspect.isclass(value)
            and not issubclass(value, BaseException)
            and not getattr(value, "_is_protocol", False)  # a Protocol has no instances
        ):
            assert value.__repr__ is not object.__repr__, f"{name}.{attribute}"


def test_reprs_show_what_the_values_hold() -> None:
    from ecarte.duel import OpponentVecEnv, VecEnv

    deal = Deal(seed=3)
    deal.apply("decline")
    while not deal.tricks:
        deal.apply(deal.legal_actions()[0])
    trick = deal.tricks[0]
    assert repr(trick) == (
        f"Trick(leader={trick.leader}, cards=({trick.cards[0]!r}, {trick.cards[1]!r}), "
        f"winner={trick.winner})"
    )
    assert repr(trick).count("Card('") == 2
    env = VecEnv(4, seed=1, observation="compact")
    assert repr(env).startswith("<VecEnv n=4 observation=compact Rules(")
    opponent = OpponentVecEnv(2, 1, "heuristic")
    assert repr(opponent).startswith("<OpponentVecEnv n=2 seat=0 opponent=heuristic")
    assert " object at 0x" not in repr(env) + repr(opponent)


@pytest.mark.parametrize(
    "make",
    [
        "ecarte.gymnasium:DuelEnv()",
        "ecarte.gymnasium:DuelVectorEnv(2)",
        "ecarte.pettingzoo:raw_env()",
        "ecarte.sb3:DuelVecEnv(2, seed=1)",
        "ecarte.openspiel:AgentBot('random', 1)",
        "ecarte.protocol:Session()",
        "ecarte.protocol:Client()",
    ],
)
def test_the_integrations_values_have_readable_reprs(make: str) -> None:
    name, call = make.split(":")
    module = importable(name)
    value = eval(call, vars(module))  # a fixed call of the module's own API
    shown = repr(value)
    assert " object at 0x" not in shown and type(value).__name__ in shown, shown


def test_an_illegal_move_of_an_agent_names_its_seat_and_agent() -> None:
    class Stubborn:
        name = "stubborn"

        def __call__(self, observation: object, legal: object) -> str:
            return "propose" if observation.phase != "proposal" else "QH"  # type: ignore[attr-defined]

    def first(observation: object, legal: list[object]) -> object:
        return legal[0]

    with pytest.raises(ecarte.EcarteError) as caught:
        Match(seed=1).play(first, Stubborn())
    assert str(caught.value).startswith("seat 1's agent stubborn: ")
    with pytest.raises(ecarte.IllegalActionError) as caught:
        Match(seed=1).play(lambda obs, legal: "discard 7C", first)
    message = str(caught.value)
    assert message.startswith("seat 1's agent ") or message.startswith("seat 0's agent "), message
    assert "<lambda>" in message
    assert caught.value.legal  # the error keeps its fields


@pytest.mark.parametrize(
    "make",
    [
        lambda: Deal(seed="abc"),
        lambda: Match(seed="abc"),
        lambda: Match(seed=1.5),
        lambda: ecarte.duel.VecEnv(2, seed="1"),
        lambda: ecarte.bank.Shoe(seed=[1]),
        lambda: RandomAgent(seed="x"),
    ],
)
def test_a_seed_of_the_wrong_type_is_a_type_error(make: object) -> None:
    with pytest.raises(TypeError, match="seed must be a whole number"):
        make()  # type: ignore[operator]


def test_a_missing_extra_says_both_ways_to_install_it() -> None:
    from ecarte._frameworks import missing
    from ecarte._install import install_hint

    hint = install_hint("web")
    assert "pip install 'ecarte[web]'" in hint and "pip install '.[web]'" in hint
    assert str(missing("starlette", "web")).endswith(hint)
    code = (
        "import sys\nsys.modules['uvicorn'] = None\n"
        "from ecarte.cli import run\nsys.argv = ['ecarte', 'serve']\nrun()"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: ecarte serve needs the web extra: {hint}"


# -- 7. The command line's wording ----------------------------------------------------------------


def test_help_summaries_are_whole_at_80_columns() -> None:
    child = spawn("--help")
    child.expect(pexpect.EOF)
    out = plain(child.before)
    commands = out.split("Commands:")[1]
    assert "..." not in commands
    # Each summary ends its sentence, however many lines it takes.
    summaries = re.split(r"\n  (?=\w)", commands.strip())
    assert len(summaries) >= 11
    for summary in summaries:
        assert summary.rstrip().endswith((".", ")")), summary
    assert max(len(line) for line in out.splitlines()) <= 80


def test_the_match_header_and_result_lines_read_plainly() -> None:
    proc = run_ecarte(
        "match", "--seed", "3", "--agents", "master:100", "random", "--target", "2",
        timeout=None, check=True,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert lines[0] == "Match to 2, seed 3: Master-0 (master:100) v Random-1"
    assert "order" not in lines[0] and ":100-" not in proc.stdout
    results = [line for line in lines if "wins the deal" in line]
    assert results
    for line in results:
        assert re.fullmatch(
            r"  \S+ wins the deal, [12] points?: (\d+-\d+ on cards: .*\(tricks \d+-\d+\)|.*vole.*)",
            line,
        ), line
    assert "–" not in proc.stdout  # one dash style


def test_play_says_against_and_records_the_names(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    child = spawn("play", "--seed", "5", "--level", "easy", "--save", str(record))
    child.expect("you play against heuristic")
    child.expect("> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    replay = run_ecarte("replay", str(record), timeout=None, check=True)
    assert ": You v heuristic" in replay.stdout.splitlines()[0]
    assert "Seat 0" not in replay.stdout


def test_between_deals_one_prompt_and_a_fresh_log() -> None:
    child = spawn("play", "--seed", "3", "--opponent", "random", "--target", "3", columns=100)
    play_until_a_deal_ends(child)
    assert "Press Enter" not in child.before  # the prompt is the one line that asks
    child.sendline("")
    child.expect("> ")
    screen = plain(child.before)
    log = screen.split("Log")[1] if "Log" in screen else ""
    assert "Deal 2" in log and "the deal, " not in log  # the first deal's lines are gone
    child.sendline("quit")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)


def test_a_forced_move_is_played_by_enter() -> None:
    from ecarte.play import Game

    for seed in range(40):
        match = Match(seed=seed, rules=Rules(target=1))
        game = Game(match, RandomAgent(1), seat=0)
        while not match.is_over() and not game.pending_banner:
            legal = match.legal_actions()
            if len(legal) == 1:
                before = len(match.deal.history)
                reply = game.handle("")
                assert reply.redraw and len(match.deal.history) > before
                return
            game.handle("1")
    pytest.fail("no forced move in 40 matches")


def test_the_table_keeps_its_width_when_the_turn_up_is_drawn() -> None:
    from ecarte.play import Game
    from ecarte.terminal import game_screen, table_text

    for seed in range(60):
        match = Match(seed=seed)
        game = Game(match, RandomAgent(seed), seat=0)
        first = table_text(game_screen(game), width=80).splitlines()
        for _ in range(40):
            if match.observation(0).turn_up_holder is not None or game.pending_banner:
                break
            game.handle("1")
        if match.observation(0).turn_up_holder is None:
            continue
        later = table_text(game_screen(game), width=80).splitlines()
        assert [len(line.rstrip()) for line in later[:3]] <= [80] * 3
        # The three status rows keep their columns: each column starts where it did.
        for a, b in zip(first[:3], later[:3], strict=True):
            starts = [m.start() for m in re.finditer(r"(?<=  )\S", a)]
            assert starts == [m.start() for m in re.finditer(r"(?<=  )\S", b)], (a, b)
        assert any("was drawn by" in line for line in later)
        return
    pytest.fail("the turn-up was never drawn")


def test_option_ranges_and_the_samples_help_read_one_way() -> None:
    serve = run_ecarte("serve", "--help", timeout=None)
    assert "0 to 65,535" in serve.stdout and "<=" not in serve.stdout
    arena = run_ecarte("arena", "--help", timeout=None)
    samples = " ".join(arena.stdout.split("--samples")[1].split("--target")[0].split())
    searching = ", ".join(agent.name for agent in duel.AGENTS if agent.searches)
    assert searching.count(",") >= 3 and f"({searching})" in samples


def test_solve_keeps_the_talon_on_one_line_at_80_columns() -> None:
    child = spawn("solve", "--seed", "1")
    child.expect(pexpect.EOF)
    lines = plain(child.before).splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("Trump "))
    count = int(lines[heading].split("talon of ")[1].rstrip(":"))
    assert re.fullmatch(rf"  {SYMBOL_CARD}( {SYMBOL_CARD}){{{count - 1}}}", lines[heading + 1])


def test_the_bench_memory_rows_read_as_what_they_measure() -> None:
    from ecarte.bench.harness import NOTES, format_table, memory_rows

    table = format_table(memory_rows(2_000))
    float32 = [line for line in table.splitlines() if "VecEnv (float32) of 1,000,000" in line]
    compact = [line for line in table.splitlines() if "VecEnv (compact) of 1,000,000" in line]
    assert float32 and "of the budget" not in float32[0] and "envs fit in 1 GiB" in float32[0]
    assert compact and "of the budget" in compact[0]
    assert "compact layout" in NOTES
