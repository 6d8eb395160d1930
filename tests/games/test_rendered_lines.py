"""Every history line of every golden record, as each viewer reads it, in each language the site speaks, kept as a
reviewed list (``tests/games/rendered_lines/<game>.<language>.txt``): a change to a wording shows in the diff.

Each file lists the distinct lines, sorted, that the game's records render for a spectator and for every seat, with
the results' summaries. A line that reads as built from parts is fixed in the catalog (or the sentence pattern),
the file rewritten with ``UPDATE_RENDERED_LINES=1`` and the new lines read by a native player before they land.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from games import get_engine
from games.base import Event
from games.i18n import language
from games.takebacks import describe

RECORDS = Path(__file__).resolve().parents[1] / "records"
KEPT = Path(__file__).resolve().parent / "rendered_lines"
LANGUAGES = ("en", "hu", "de")


def _records_of(slug: str) -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(RECORDS.glob(f"{slug}-*.json"))]


def rendered(slug: str, code: str) -> list[str]:
    """Return the distinct lines the game's golden records render in language ``code``, for every viewer, sorted."""
    lines: set[str] = set()
    with language(code):
        for record in _records_of(slug):
            engine = get_engine(slug).at_version(record["game"]["engine_version"])
            players = [player["name"] for player in record["players"]]
            for viewer in (None, *range(len(players))):
                for entry in record["moves"]:
                    for raw in entry["events"]:
                        event = Event.from_json(raw)
                        if event.visible_for(viewer):
                            lines.add(describe(engine, event, players, viewer))
            lines.add(engine.describe_result(record["result"], players))
    return sorted(lines)


SLUGS = sorted({path.name.rsplit("-", 1)[0] for path in RECORDS.glob("*.json")})


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_rendered_line_is_the_reviewed_one(slug, code):
    path = KEPT / f"{slug}.{code}.txt"
    lines = rendered(slug, code)
    assert lines, f"the golden records of {slug} render no line"
    if os.environ.get("UPDATE_RENDERED_LINES") == "1":
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kept = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    assert lines == kept, (f"{path.name} differs from what the records render: rewrite it with "
                           f"UPDATE_RENDERED_LINES=1 and have the changed lines read")


def test_every_line_is_in_the_language_asked():
    """A Hungarian or German file holds no line that is the English one (a message the catalog lacks)."""
    for slug in SLUGS:
        english = set(rendered(slug, "en"))
        for code in ("hu", "de"):
            untranslated = [line for line in rendered(slug, code) if line in english and any(c.isalpha() for c in line)
                            and len(line.split()) > 2]
            assert not untranslated, (slug, code, untranslated[:5])
