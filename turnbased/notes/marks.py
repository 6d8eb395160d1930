"""How a player's marks on the board's cards and tiles are drawn (issue 46): each symbol's glyph and its name in the
reader's language, and the marks listed with the card or tile each is on."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

# The glyph the board and the list draw for each symbol; its name is what a screen reader says.
GLYPHS = {"question": "?", "attention": "!", "yes": "✓", "no": "✗", "star": "★"}
SYMBOL_NAMES = {
    "question": pgettext_lazy("a mark on a card or tile", "a question"),
    "attention": pgettext_lazy("a mark on a card or tile", "watch out"),
    "yes": pgettext_lazy("a mark on a card or tile", "yes"),
    "no": pgettext_lazy("a mark on a card or tile", "no"),
    "star": pgettext_lazy("a mark on a card or tile", "a star"),
}


def marks_shown(marks: list[dict], spots: list[tuple[str, str]]) -> dict:
    """The player's marks for their notes panel: ``marks`` listed (each with the card or tile it is on, empty once it
    is no longer on the board), ``board_marks`` for the board's script (the marks whose card or tile is there), and
    ``symbols`` to choose from."""
    names = dict(spots)
    listed = [{**mark, "glyph": GLYPHS[mark["symbol"]], "symbol_name": str(SYMBOL_NAMES[mark["symbol"]]),
               "name": names.get(mark["spot"], "")} for mark in marks if mark.get("symbol") in GLYPHS]
    return {
        "marks": listed,
        "board_marks": [{"spot": mark["spot"], "glyph": mark["glyph"],
                         "title": " · ".join(part for part in (mark["symbol_name"], mark["label"]) if part)}
                        for mark in listed if mark["name"]],
        "symbols": [(symbol, glyph, str(SYMBOL_NAMES[symbol])) for symbol, glyph in GLYPHS.items()],
    }
