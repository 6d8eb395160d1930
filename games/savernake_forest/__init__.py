"""Savernake Forest: draft path and animal cards into a 4×4 forest (Devir 2023), 2 to 4 players."""

from games.savernake_forest.engine import SavernakeForestEngine

ENGINE = SavernakeForestEngine()

__all__ = ["ENGINE", "SavernakeForestEngine"]
