"""Pure-Python game engines, one package per game, found by slug.

Each game package exposes ``ENGINE``, an instance of ``games.base.Engine``.
A new game is a new package here: nothing outside ``games/`` needs to change.

``get_engine(slug)`` is the newest version of a game, for new tables;
``engine_at(slug, version)`` is the engine a game pinned to ``version`` is
played and replayed with (see ``Engine.at_version``).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from games.base import Engine, UnknownEngineVersion

__all__ = ["Engine", "UnknownEngineVersion", "engine_at", "engines", "get_engine"]


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


def engine_at(slug: str, version: int) -> Engine:
    """Return the engine that plays ``slug`` exactly as its ``version`` did (one instance per pair, per process).

    Raises ``UnknownEngineVersion`` (a ``LookupError``) for a slug no engine has
    or a version the engine does not know: a game is never played by rules
    other than the ones it started with.
    """
    engine = engines().get(slug) if isinstance(slug, str) else None
    if engine is None:
        raise UnknownEngineVersion(str(slug), version)
    if isinstance(version, bool) or not isinstance(version, int):  # a record's wrong type: nothing to cache
        raise UnknownEngineVersion(slug, version, tuple(engine.supported_versions))
    return _engine_at(slug, version)


@cache
def _engine_at(slug: str, version: int) -> Engine:
    return engines()[slug].at_version(version)
