"""Each variant's registration (:mod:`ecarte.registry`): one module a variant, which says
once what the variant brings to the faces that every variant shares (its record formats and
their replays, the summary of its runs, the protocol's kinds of game). These modules sit
above the variants and the protocol's views they name; the registry loads them by name."""

from ecarte._public import api_dir

#: Nothing of its own: the registry imports each variant's module by name.
__all__: list[str] = []
__dir__ = api_dir(globals())
