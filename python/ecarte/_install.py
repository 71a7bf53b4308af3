"""How to install an optional extra, said one way by every message that needs one (a
missing framework, ``ecarte serve`` without its web extra, ``--plot``, Ray)."""

from __future__ import annotations

from ecarte._public import api_dir

__all__ = ["install_hint"]
__dir__ = api_dir(globals())


def install_hint(extra: str) -> str:
    """How to install the ``extra``, whether ecarte came from a package index or from a
    checkout of its source: both commands."""
    return f"pip install 'ecarte[{extra}]' (in a checkout of ecarte: pip install '.[{extra}]')"
