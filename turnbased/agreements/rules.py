"""What a table allows: the term a table is made with (a competition's organiser decides for its tables), the bots' rule,
how long a proposal waits and how often a seat may ask (docs/players.md, "Agreements at the table")."""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext

from turnbased.agreements.models import ProposalKind
from turnbased.play.models import Game
from turnbased.ratings.selectors import table_is_rated

# The table term (``play.facts.table_term``): {"forbidden": [kinds], "bots_agree": bool}. A competition writes it
# on each table it makes, as its organiser chose; a table made without it allows every kind, and its bots agree
# when it is unrated.
TERM = "agreements"
# How long a takeback waits for the others' answers; any move lapses it sooner.
WINDOW = {ProposalKind.TAKE_BACK: timedelta(days=2)}
# How many takebacks a seat may ask for at one game within a day (one move is asked about once).
ASKS_PER_DAY = 3


def settings_of(game: Game) -> dict:
    return game.terms.get(TERM) or {}


def forbidden_reason(game: Game, kind: str) -> str | None:
    """Why the table allows no proposal of ``kind`` (its competition's organiser forbade it), or None."""
    if kind in settings_of(game).get("forbidden", ()):
        return gettext("The organiser of this table's competition allows no takebacks.")
    return None


def bots_agree(game: Game) -> bool:
    """Whether the bots at the table accept a proposal: at an unrated table yes; at a rated table never; at an
    event's table as its organiser chose (never unless they allowed it)."""
    settings = settings_of(game)
    if "bots_agree" in settings:
        return bool(settings["bots_agree"])
    return not table_is_rated(game)


def checked_term(value) -> dict:
    """Return the term as kept, or raise ``ValueError`` for a value it does not take."""
    if not isinstance(value, dict) or set(value) - {"forbidden", "bots_agree"}:
        raise ValueError
    forbidden = value.get("forbidden", [])
    if not isinstance(forbidden, list) or any(kind not in ProposalKind.values for kind in forbidden):
        raise ValueError
    if not isinstance(value.get("bots_agree", False), bool):
        raise ValueError
    return value
