"""Pure-Python game engines, one package per game, found by slug.

Each game package exposes ``ENGINE``, an instance of ``games.base.Engine``.
A new game is a new package here: nothing outside ``games/`` needs to change.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from games.base import Engine


@cache
def engines() -> dict[str, Engine]:
    """Return every installed engine keyed by slug."""
    found: dict[str, Engine] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        engine = getattr(importlib.import_module(f"{__name__}.{module.name}"), "ENGINE", None)
        if isinstance(engine, Engine):
            found[engine.slug] = engine
    return dict(sorted(found.items()))


def get_engine(slug: str) -> Engine:
    """Return the engine for ``slug``; raise ``KeyError`` for an unknown game."""
    return engines()[slug]
