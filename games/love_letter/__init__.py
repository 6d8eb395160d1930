"""Love Letter: the classic 2012 16-card game (default) and the 2019 21-card edition."""

from games.love_letter.engine import LoveLetterEngine

ENGINE = LoveLetterEngine()

__all__ = ["ENGINE", "LoveLetterEngine"]
