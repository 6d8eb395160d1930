"""What a table allows: the term a table is made with (a competition's organiser decides for its tables), the bots' rule,
how long a proposal waits, what lapses it, and how often a seat may ask (docs/players.md, "Agreements at the
table")."""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext

from turnbased.agreements.models import ProposalKind
from turnbased.play.models import Game
from turnbased.ratings.selectors import table_is_rated

# The table term (``play.facts.table_term``): {"forbidden": [kinds], "bots_agree": bool}. A competition writes it
# on each table it makes, as its organiser chose (a competition's game is never cancelled: its round needs a
# result); a table made without it allows every kind, and its bots agree when it is unrated.
TERM = "agreements"
# How long a proposal waits for the others' answers; a move lapses a takeback or a draw sooner.
WINDOW = {kind: timedelta(days=2) for kind in ProposalKind.values}
# The proposals made for a position: any move makes them moot.
LAPSES_ON_MOVE = frozenset({ProposalKind.TAKE_BACK, ProposalKind.DRAW})
# The proposals bots accept wherever they are asked: time costs a bot nothing. The others they accept as
# ``bots_agree`` says.
BOTS_ALWAYS_ACCEPT = frozenset({ProposalKind.PAUSE, ProposalKind.EXTRA_TIME})
# How many takebacks a seat may ask for at one game within a day (one move is asked about once), and how many of
# the other proposals, together.
ASKS_PER_DAY = 3
PROPOSALS_PER_DAY = 3


def settings_of(game: Game) -> dict:
    return game.terms.get(TERM) or {}


def forbidden_reason(game: Game, kind: str) -> str | None:
    """Why the table allows no proposal of ``kind`` (its competition's organiser forbade it), or None."""
    if kind not in settings_of(game).get("forbidden", ()):
        return None
    reasons = {
        ProposalKind.TAKE_BACK: gettext("The organiser of this table's competition allows no takebacks."),
        ProposalKind.PAUSE: gettext("The organiser of this table's competition allows no pauses."),
        ProposalKind.EXTRA_TIME: gettext("The organiser of this table's competition allows no extra time."),
        ProposalKind.DRAW: gettext("The organiser of this table's competition allows no draws by agreement."),
        ProposalKind.CANCEL: gettext("A competition's game cannot be cancelled: its round needs a result."),
    }
    return reasons[kind]


def bots_agree(game: Game) -> bool:
    """Whether the bots at the table accept a takeback, a draw or a cancel: at an unrated table yes; at a rated
    table never; at an event's table as its organiser chose (never unless they allowed it)."""
    settings = settings_of(game)
    if "bots_agree" in settings:
        return bool(settings["bots_agree"])
    return not table_is_rated(game)


def bots_accept(game: Game, kind: str) -> bool:
    """Whether the bots at the table accept a proposal of ``kind`` (the rule the players' guide writes)."""
    return kind in BOTS_ALWAYS_ACCEPT or bots_agree(game)


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
