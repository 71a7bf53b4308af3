"""``.ci/run`` runs exactly the README's second set-up command, after the browser the web
tests need (the README says so too)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_ci_runs_the_readme_set_up_command_after_the_browser_install() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert ci[-1] == commands[1]
    assert "apt-get install -y -q chromium" in ci[-2]
    assert "apt-get install -y chromium" in readme
