"""The server's check of a finished game: ``games.record.verify_record`` on its complete record.

The same check anyone runs offline with ``python -m games.verify``. A finished game never changes, so
its report is kept in the shared cache: asking again (a page reload, many readers) replays nothing.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy

from games import record as game_record
from turnbased.kit.http.limits import CACHE_ERRORS
from turnbased.play import records
from turnbased.play.models import Game

logger = logging.getLogger(__name__)

NOT_YET = gettext_lazy("The game is not over: its seed is revealed when the game ends, and only then can anyone "
                       "check it against the commitment published at the start.")
# What each check of ``games.record.verify_record`` is about, as the fairness page names it; the API answers
# the checks' own names (machine words: "format", "commitment"...).
CHECK_LABELS = {
    "format": pgettext_lazy("a check of a game's record", "Format"),
    "complete": pgettext_lazy("a check of a game's record", "Complete record"),
    "engine": pgettext_lazy("a check of a game's record", "Game engine"),
    "players": pgettext_lazy("a check of a game's record", "Players"),
    "options": pgettext_lazy("a check of a game's record", "Table options"),
    "commitment": pgettext_lazy("a check of a game's record", "Seed and commitment"),
    "seq": pgettext_lazy("a check of a game's record", "Move numbering"),
    "setup": pgettext_lazy("a check of a game's record", "Setup"),
    "seats": pgettext_lazy("a check of a game's record", "Whose turn"),
    "moves": pgettext_lazy("a check of a game's record", "Moves"),
    "events": pgettext_lazy("a check of a game's record", "Events"),
    "end": pgettext_lazy("a check of a game's record", "End of the game"),
    "result": pgettext_lazy("a check of a game's record", "Result"),
}


def check_label(name: str) -> str:
    """Return the name of a record check as the fairness page shows it (the machine name for one unknown)."""
    return str(CHECK_LABELS.get(name, name))


# A day: long enough that readers of a finished game share one replay, short enough to pick up an engine fix.
KEPT_FOR_SECONDS = 24 * 3600


def _key(game: Game) -> str:
    """Name the report by everything the check reads that could change: the log's length, the status, the seed."""
    commitment = records.commitment_of(game) or {}
    # The checks' details are worded for the reader: one report per language.
    return f"record-verification:{game.pk}:{game.seq}:{game.status}:{commitment.get('value')}:{get_language()}"


def verify_game(game: Game) -> dict:
    """Return the check of the game's complete record: ``{game, ok, checks, commitment, seed}``.

    Call only for a game that is over (``records.is_over``).
    """
    try:
        kept = cache.get(_key(game))
    except CACHE_ERRORS:
        logger.warning("cache unavailable: verifying game %s afresh", game.pk, exc_info=True)
        kept = None
    if kept is not None:
        return kept
    report = game_record.verify_record(records.complete_record(game))
    answer = {
        "game": game.pk,
        "ok": bool(report.ok),
        "checks": [{"name": name, "passed": bool(passed), "detail": detail or ""} for name, passed, detail in report.checks],
        "commitment": records.commitment_of(game),
        "seed": records.revealed_seed(game),
    }
    try:
        cache.set(_key(game), answer, timeout=KEPT_FOR_SECONDS)
    except CACHE_ERRORS:
        logger.warning("cache unavailable: game %s's check not kept", game.pk, exc_info=True)
    return answer
