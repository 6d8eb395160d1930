"""Halali! (Tally Ho!): the Kosmos 2000 two-player tile game, played as a two-leg match."""

from games.halali.engine import HalaliEngine

ENGINE = HalaliEngine()

__all__ = ["ENGINE", "HalaliEngine"]
