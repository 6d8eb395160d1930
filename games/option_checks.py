"""The checks every game's ``validate_options`` makes alike: options come as an object, and a scripted first
seat (``first_player``, an engine-internal option for tests and bug reports) names a seat at the table.

Their reasons are the contract's words (``games/locale``), worded in the reader's language like a game's own.
"""

from __future__ import annotations

from typing import Any

from games.base import InvalidOptions
from games.i18n import catalog_of

_ = catalog_of(__name__)


def options_object(options: Any) -> dict[str, Any]:
    """Return ``options`` (none given: no options), or raise ``InvalidOptions`` for anything but an object."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidOptions(_("Options must be an object"))
    return options


def first_player(options: dict[str, Any], players: int) -> int | None:
    """Return the scripted first seat, None when there is none, or raise ``InvalidOptions`` for a seat not at a
    table of ``players``."""
    first = options.get("first_player")
    if first is None:
        return None
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise InvalidOptions(_("first_player must be a seat from 0 to {last}").format(last=players - 1))
    return first
