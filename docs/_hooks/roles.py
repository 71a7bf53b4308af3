"""A griffe extension for the API reference (mkdocs.yml, the mkdocstrings handler's
``extensions``): the package's docstrings name objects with reStructuredText roles
(``:class:`Deal```, ``:func:`~ecarte.duel.simulate```), which Markdown would show raw;
each becomes a code span of the name (its last part where the role says ``~``)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain(match: re.Match[str]) -> str:
    short, name = match.group(1), match.group(2)
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


class Roles(griffe.Extension):
    """Rewrites the roles of every docstring griffe reads."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(plain, obj.docstring.value)
