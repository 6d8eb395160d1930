"""What Django's template language does not say when it goes wrong: a ``{# ... #}`` comment is one line only; spread
over two, it is no comment and its words are printed into the page (a style sheet's note once showed on every game
page). Every template of the project keeps its single-line comments on one line."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPENED = re.compile(r"\{#")


def templates() -> list[Path]:
    return sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "turnbased").glob("*/templates/**/*.html"),
                   *(ROOT / "turnbased").glob("*/templates/**/*.txt")])


def unclosed(text: str) -> list[str]:
    """Return each ``{#`` whose ``#}`` is not on its line."""
    found = []
    for match in OPENED.finditer(text):
        line_end = text.find("\n", match.start())
        line = text[match.start():line_end if line_end != -1 else len(text)]
        if "#}" not in line:
            found.append(line[:80])
    return found


def test_no_template_spreads_a_one_line_comment_over_two():
    assert len(templates()) > 100
    problems = {str(path.relative_to(ROOT)): found for path in templates() if (found := unclosed(path.read_text()))}
    assert problems == {}


def test_the_check_finds_a_comment_spread_over_two_lines():
    assert unclosed("{# one\ntwo #}") == ["{# one"] and unclosed("{# one #}\n{# two #}") == []
