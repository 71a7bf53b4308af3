"""The Russian banking écarté (docs/rules.md, "Bank"; docs/bank.md).

The engine (resolution, exact odds, simulation, the shoe) is Rust, re-exported here under
clean names (:mod:`~ecarte.bank.native`); :class:`Table` runs the game flow, the chips and
the records in Python (:mod:`~ecarte.bank.table`), keeping its stakes, settlements and
session record in the forms of :mod:`~ecarte.bank.ledger`. :mod:`~ecarte.bank.session`
plays whole sessions with a simple seeded staking policy (``ecarte bank``).
"""

from __future__ import annotations

from ecarte._core import Card, Suit
from ecarte._public import api_dir
from ecarte.bank.ledger import PUNTER_TABLEAUX as PUNTER_TABLEAUX
from ecarte.bank.ledger import RECORD_FORMAT as RECORD_FORMAT
from ecarte.bank.ledger import RECORD_VERSION as RECORD_VERSION
from ecarte.bank.ledger import Bounds, LegalAction, PunterView, Settlement, Stake
from ecarte.bank.ledger import Mode as Mode
from ecarte.bank.ledger import Phase as Phase
from ecarte.bank.ledger import SettlementResult as SettlementResult
from ecarte.bank.native import (
    CHUNK,
    MAX_DEALS,
    OUTCOMES,
    Deal,
    Odds,
    Resolution,
    Shoe,
    deal_from_shoe,
    odds,
    resolve,
    simulate,
)

# Public too, outside __all__: the table's types, phase machine and record format, the chunk
# cost.
from ecarte.bank.native import SIMULATED_DEAL_SECONDS as SIMULATED_DEAL_SECONDS
from ecarte.bank.table import ACTION_RULES as ACTION_RULES
from ecarte.bank.table import ACTIONS as ACTIONS
from ecarte.bank.table import ActionRule as ActionRule
from ecarte.bank.table import Step, Table, session_steps
from ecarte.errors import EcarteError, InvalidShoeError, InvalidStakeError, TableError
from ecarte.results import SimulationResult

__all__ = [
    "CHUNK",
    "MAX_DEALS",
    "OUTCOMES",
    "Bounds",
    "Card",
    "Deal",
    "EcarteError",
    "InvalidShoeError",
    "InvalidStakeError",
    "LegalAction",
    "Odds",
    "PunterView",
    "Resolution",
    "Settlement",
    "Shoe",
    "SimulationResult",
    "Stake",
    "Step",
    "Suit",
    "Table",
    "TableError",
    "deal_from_shoe",
    "odds",
    "resolve",
    "session_steps",
    "simulate",
]
__dir__ = api_dir(globals())
