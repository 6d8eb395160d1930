"""The game record's pure parts: the seed commitment that makes a shuffle provably fair.

When a game starts the platform publishes ``seed_commitment(...)``; when it ends it reveals the
seed. Anyone holding the record can then recompute the commitment and replay the moves from the
seed (``python -m games.verify``). Nothing here imports Django, so a player can check a finished
game with only ``games/`` and the standard library.

The committed bytes are exactly (UTF-8, ``\\n`` line ends, no trailing newline)::

    turnbased-seed-commitment/1
    <game id in decimal>
    <engine slug>
    <engine version in decimal>
    <seed>

and the commitment is their SHA-256 in lowercase hexadecimal. Binding the game id, engine and
version into the hash means a seed cannot be reused for another table or replayed through other
rules and still match.
"""

from __future__ import annotations

import hashlib

COMMITMENT_SCHEME = "turnbased-seed-commitment/1"
COMMITMENT_ALGORITHM = "sha256"


def commitment_bytes(*, seed: str, game_id: int, engine: str, engine_version: int) -> bytes:
    """Return the exact bytes a game's seed commitment hashes (see the module's docstring)."""
    return "\n".join([COMMITMENT_SCHEME, str(int(game_id)), engine, str(int(engine_version)), seed]).encode("utf-8")


def seed_commitment(*, seed: str, game_id: int, engine: str, engine_version: int) -> str:
    """Return the published commitment to a game's secret seed: SHA-256 of ``commitment_bytes``, in hex."""
    data = commitment_bytes(seed=seed, game_id=game_id, engine=engine, engine_version=engine_version)
    return hashlib.sha256(data).hexdigest()
