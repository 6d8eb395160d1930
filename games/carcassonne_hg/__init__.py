"""Carcassonne: Hunters and Gatherers: the revised edition (2020, as on Board Game Arena), classic as an option."""

from games.carcassonne_hg.engine import CarcassonneHGEngine

ENGINE = CarcassonneHGEngine()

__all__ = ["ENGINE", "CarcassonneHGEngine"]
