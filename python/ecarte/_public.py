"""What ``dir()`` shows of a public module: its API, its ``__all__``, and not the names it
imports for its own use (``Any``, ``np``, ``functools``), so that tab completion lists only
what the module offers. Each public module sets ``__dir__ = api_dir(globals())``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["api_dir"]


def api_dir(namespace: Mapping[str, Any]) -> Callable[[], list[str]]:
    """The module ``__dir__`` of the module whose globals are ``namespace``: its
    ``__all__``, sorted, read when asked (so ``__all__`` may be defined after)."""

    def __dir__() -> list[str]:
        return sorted(namespace["__all__"])

    return __dir__


__dir__ = api_dir(globals())
