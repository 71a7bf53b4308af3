"""The executable examples of docs/bank.md."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_bank_docs_examples() -> None:
    path = Path(__file__).resolve().parent.parent / "docs" / "bank.md"
    result = doctest.testfile(str(path), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
