"""What ``ecarte bench`` measures with, and nothing users import: :mod:`~ecarte.bench.harness`
(the comparison table), :mod:`~ecarte.bench.timing` (how a figure is taken),
:mod:`~ecarte.bench.workloads` (what is timed, shared with ``benches/``),
:mod:`~ecarte.bench.reference` (a pure-Python reference of the rules: the speed baseline and
the tests' oracle), :mod:`~ecarte.bench.positions` (the solver's shipped position set,
behind ``ecarte bench solver`` and ``ecarte solve --batch``), :mod:`~ecarte.bench.solver`
(``ecarte bench solver`` and ``ecarte bench compare``) and :mod:`~ecarte.bench.metadata`
(what every ``--json`` benchmark records first: the build, the machine and the run)."""
