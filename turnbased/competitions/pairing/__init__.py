"""Pairing for competitions, pure Python: who meets whom in round robins, Swiss rounds and elimination brackets, and
a league's divisions from one season to the next.

Nothing here touches Django or the database: the competitions app hands in players as entrant ids, the standing
and what earlier rounds did (``History``), and stores what comes back. All randomness comes from a
``random.Random`` the caller passes, so a round is the same every time it is drawn from the same seed.
"""

from __future__ import annotations

from .elimination import (
    Match, Slot, advancing, bracket_from_json, bracket_order, bracket_to_json, double_elimination,
    elimination_tables, final_reached, placings, playable, resolved, single_elimination,
)
from .divisions import Carried, divisions, next_order
from .history import History
from .round_robin import all_at_once, pools, round_robin
from .swiss import Pairing, swiss_pairs, swiss_tables

__all__ = [
    "Carried", "History", "Match", "Pairing", "Slot", "advancing", "all_at_once", "bracket_from_json", "bracket_order",
    "bracket_to_json", "divisions", "double_elimination", "elimination_tables", "final_reached", "next_order",
    "placings", "playable", "pools", "resolved", "round_robin", "single_elimination", "swiss_pairs", "swiss_tables",
]
