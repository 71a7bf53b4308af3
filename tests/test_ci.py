"""CI runs the README's command, which is one entry point, scripts/check; that runs the tests
against the installed wheel, on the fast and the portable paths."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK = (ROOT / "scripts" / "check").read_text()


def test_ci_runs_exactly_the_readmes_second_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    assert script[-1] == commands[1]
    assert len(commands[1]) < 100
    assert commands[1].split(" && ") == ["pip install -e '.[test]'", "scripts/check"]


def test_ci_installs_the_browser_first_as_the_readme_says() -> None:
    script = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert "apt-get install -y -q chromium" in script[-2]
    assert "apt-get install -y chromium" in (ROOT / "README.md").read_text()


def part(name: str) -> str:
    found = re.search(rf"^part_{name}\(\) \{{\n(.*?)^\}}$", CHECK, re.M | re.S)
    assert found is not None, name
    return found.group(1)


def test_the_check_runs_every_part_by_default() -> None:
    parts = re.search(r"^ALL=\((.*)\)$", CHECK, re.M)
    assert parts is not None
    assert parts.group(1).split() == ["lint", "rust", "wheel", "suite", "pythons"]
    for name in parts.group(1).split():
        part(name)


def test_the_rust_tests_and_the_seed_pins_run_on_the_portable_paths_too() -> None:
    assert part("rust").split("\n")[:2] == [
        "    run cargo test",
        "    ECARTE_PORTABLE=1 run cargo test",
    ]
    suite = part("suite")
    assert re.search(r"run env .* -m pytest -q\n", suite)
    assert re.search(r"ECARTE_PORTABLE=1 .* -m pytest -q tests/test_seed_pins.py\n", suite)
    # The suite runs once: against the wheel, nowhere else.
    assert CHECK.count("-m pytest -q\n") == 1
