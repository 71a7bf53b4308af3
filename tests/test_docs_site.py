"""The docs site builds strictly (every link resolves, every page is in the nav, the API
reference is generated from the docstrings and stubs), and the front door stays short: the
README, BENCHMARKS.md and docs/agents.md within their word counts, each set-up command within
100 characters."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The most words each front-door page may hold.
WORD_LIMITS = {"README.md": 1_500, "BENCHMARKS.md": 4_000, "docs/agents.md": 1_500}
#: The longest a set-up command may be, in characters.
COMMAND_LIMIT = 100


def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The API reference is generated: the native classes come from the stubs, with their
    # docstrings.
    duel = (site / "reference" / "duel" / "index.html").read_text(encoding="utf-8")
    for name in ("ecarte.duel.Deal", "ecarte.duel.VecEnv", "ecarte.duel.solve"):
        assert f'id="{name}"' in duel, name
    bank = (site / "reference" / "bank" / "index.html").read_text(encoding="utf-8")
    assert 'id="ecarte.bank.odds"' in bank
    # The docstrings' reStructuredText roles are shown as code, not raw.
    for page in (site / "reference").glob("*/index.html"):
        raw = re.findall(r":(?:class|func|meth|mod|data|attr|exc|obj):<code>", page.read_text())
        assert not raw, f"{page.parent.name}: {len(raw)} roles shown raw"
    # BENCHMARKS.md is on the site, and a guide page's link to it lands there.
    assert (site / "benchmarks" / "index.html").is_file()
    agents = (site / "agents" / "index.html").read_text(encoding="utf-8")
    assert 'href="../benchmarks/#agents"' in agents
    # The README is the site's home page, its links to docs/NAME.md made site links.
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="duel/"' in home and "docs/duel.md" not in home


def words(text: str) -> int:
    return len(text.split())


@pytest.mark.parametrize("name", sorted(WORD_LIMITS))
def test_the_front_door_pages_stay_short(name: str) -> None:
    count = words((ROOT / name).read_text(encoding="utf-8"))
    assert count <= WORD_LIMITS[name], f"{name}: {count} words, at most {WORD_LIMITS[name]}"


def test_the_readme_has_two_short_set_up_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", text, re.S)
    assert len(commands) >= 2
    for command in commands[:2]:
        assert "\n" not in command and len(command) <= COMMAND_LIMIT, command
    assert commands[1] == "pip install -e '.[test]' && scripts/check"
