"""CI runs the README's command, which runs the tests on the fast and the portable paths."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readmes_second_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    assert script[-1] == commands[1]
    passes = commands[1].split(" && ")
    assert passes.count("cargo test") == 1 and "pytest" in passes
    assert passes[-2:] == [
        "ECARTE_PORTABLE=1 cargo test",
        "ECARTE_PORTABLE=1 pytest tests/test_seed_pins.py",
    ]


def test_ci_installs_the_browser_first_as_the_readme_says() -> None:
    script = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert "apt-get install -y -q chromium" in script[-2]
    assert "apt-get install -y chromium" in (ROOT / "README.md").read_text()
