"""The docs tell one truth: the `ecarte play` transcript of docs/cli.md is what the command
prints, every list of agents names every agent, the docs stand alone, and install commands
work from a checkout.

The transcript is regenerated from a real run with ``python tests/test_docs.py``, which
rewrites the page's block in place (the inputs are the block's own ``> `` lines)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import ecarte
import pytest
from cli_support import ECARTE
from ecarte.duel import AGENT_SPECS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The page that holds the `ecarte play` transcript.
TRANSCRIPT_PAGE = ROOT / "docs" / "cli.md"
AGENT_DOCS = [README, *(ROOT / "docs" / f"{n}.md" for n in ("api", "duel", "integrations"))]
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]

#: The transcript: the block after this sentence.
TRANSCRIPT_INTRO = "A real session (`ecarte play --seed 7`):"
PLAY_ARGS = ["play", "--seed", "7"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def transcript_block(text: str) -> tuple[int, int]:
    """The character span of the transcript inside its page's ```text block."""
    start = text.index("```text\n", text.index(TRANSCRIPT_INTRO)) + len("```text\n")
    return start, text.index("```", start)


def play_transcript(inputs: list[str]) -> str:
    """What ``ecarte play --seed 7`` prints in a 100-column terminal when it is given
    ``inputs`` at its prompts (then Enter at the offer to save), without colours and
    trailing blanks."""
    import pexpect

    child = pexpect.spawn(
        ECARTE[0],
        [*ECARTE[1:], *PLAY_ARGS],
        dimensions=(50, 100),
        env={**os.environ, "COLUMNS": "100", "LINES": "50", "TERM": "xterm"},
        encoding="utf-8",
        timeout=120,
    )
    shown = []
    for line in [*inputs, ""]:
        child.expect([r"\n> ", r"\(Enter to skip\): "])
        shown.append(child.before + child.after)
        child.sendline(line)
    child.expect(pexpect.EOF)
    shown.append(child.before)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", "".join(shown)).replace("\r\n", "\n").replace("\r", "")
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def block_inputs(block: str) -> list[str]:
    return [line[2:] for line in block.splitlines() if line.startswith("> ")]


def test_the_play_transcript_is_a_real_run() -> None:
    text = TRANSCRIPT_PAGE.read_text(encoding="utf-8")
    start, end = transcript_block(text)
    block = text[start:end]
    assert play_transcript(block_inputs(block)) == block, (
        "the transcript has drifted: regenerate it with python tests/test_docs.py"
    )


def agent_classes() -> list[str]:
    return sorted(n for n in ecarte.__all__ if n.endswith("Agent"))


def paragraphs(path: Path) -> list[str]:
    return re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", AGENT_DOCS, ids=lambda p: p.name)
def test_every_list_of_agents_names_every_agent(path: Path) -> None:
    """A paragraph that lists agents (three or more specs, or agent classes, named in
    backticks) lists all of them: every form of ``duel.AGENT_SPECS``, every ``...Agent``
    class."""
    specs = [f"`{s}`" for s in AGENT_SPECS]
    classes = [f"`{c}`" for c in agent_classes() if c != "BuiltinAgent"]
    listing = 0
    for paragraph in paragraphs(path):
        for names in (specs, classes):
            named = [n for n in names if n in paragraph]
            if len(named) >= 3:
                listing += 1
                missing = [n for n in names if n not in paragraph]
                assert not missing, f"{path.name}: {missing} missing from:\n{paragraph}"
    assert listing, f"{path.name} lists no agents"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_the_docs_stand_alone_and_install_from_a_checkout(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "RULES.md" not in text, "cites a file that is not in the repository"
    for paragraph in paragraphs(path):
        # `ecarte[...]` installs from a package index, and says so; a checkout installs '.[...]'.
        if "'ecarte[" in paragraph:
            assert "package index" in paragraph and "'.[" in paragraph, paragraph
    assert not (ROOT / "RULES.md").exists()


def test_the_readme_calls_only_the_grandmaster_the_strongest() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    found_any = False
    for found in re.finditer("strongest", text):
        around = text[max(0, found.start() - 40) : found.end() + 10]
        assert "the grandmaster, the strongest" in around, around
        found_any = True
    assert found_any


def regenerate() -> None:
    """Rewrites the transcript from a real run, with the block's own inputs."""
    text = TRANSCRIPT_PAGE.read_text(encoding="utf-8")
    start, end = transcript_block(text)
    fresh = play_transcript(block_inputs(text[start:end]))
    TRANSCRIPT_PAGE.write_text(text[:start] + fresh + text[end:], encoding="utf-8")
    print(f"docs/cli.md: the `ecarte {' '.join(PLAY_ARGS)}` transcript regenerated")


if __name__ == "__main__":
    regenerate()
