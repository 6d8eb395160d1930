"""Duplicate rounds: every table of a round deals from one seed, so the same seat holds the same cards (or draws the
same tiles) at every table of its size, and the seats are compared across tables once the round is over.

- **Paired**: the round draws its seed (``new_seed``) and publishes a commitment to it (a hash that binds the
  competition, the stage, the round and the game: ``selectors.round_commitment``), so the deal cannot change.
- **In play**: each table's game is made from that seed and held by the core (``create_game(held=True)``): only its
  seats see it, and once it is over its secrets stay hidden, for the other tables are still dealing the same cards.
  A finished table records nothing the others could read: its places and points wait for the round's close.
- **Closed** (``round_revealed``, under the round's lock as it closes): each table's result counts, in table order,
  the games are let go (``play.services.game_release``: seen by anyone the competition's tables are for, every
  hand shown, rated), and the seed is shown beside its commitment for anyone to check.
"""

from __future__ import annotations

import secrets

from turnbased.competitions.models import EventTable, Placement, Round, TableStatus
from turnbased.competitions.services.outcomes import outcome_recorded
from turnbased.play.models import Game
from turnbased.play.services import game_release


def new_seed() -> str:
    """Draw a round's seed: the same shape as a game's (``create_game``)."""
    return secrets.token_hex(16)


def round_revealed(played: Round) -> None:
    """Count the closing round's results, table by table in their order, and let its games go (call under the round's
    lock, every table finished)."""
    tables = list(EventTable.objects.filter(round=played, status=TableStatus.FINISHED).exclude(game=None)
                  .exclude(pk__in=Placement.objects.filter(table__round=played).values("table_id"))
                  .order_by("number"))
    games = Game.objects.in_bulk([table.game_id for table in tables])
    for table in tables:
        outcome_recorded(played, table, games[table.game_id])
    game_release(game_ids=list(EventTable.objects.filter(round=played).exclude(game=None)
                               .values_list("game_id", flat=True)))
