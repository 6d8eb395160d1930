"""The game's catalogs: every marked text is there, translated in Hungarian and German, none fuzzy, placeholders kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from games.carcassonne_hg import ENGINE
from games.i18n import language
from turnbased.kit.texts.catalogs import GAME_KEYWORDS

PACKAGE = Path(ENGINE.catalog.folder)
LANGUAGES = ("hu", "de")
PLACEHOLDER = re.compile(r"{(\w*)(?:![rsa])?(?::[^}]*)?}")


def _catalog(code: str):
    with (PACKAGE / "locale" / code / "LC_MESSAGES" / "game.po").open("rb") as source:
        return read_po(source, locale=code, domain="game")


def _entries():
    for code in LANGUAGES:
        for message in _catalog(code):
            if message.id:
                english = message.id if isinstance(message.id, str) else message.id[0]
                yield pytest.param(code, message, id=f"{code}:{message.context or ''}:{english[:40]}")


def _forms(message) -> list[tuple[str, str]]:
    """Return (English, translation) pairs: the singular and plural forms side by side."""
    if isinstance(message.id, str):
        return [(message.id, message.string)]
    singular, plural = message.id
    return [(singular if index == 0 else plural, text) for index, text in enumerate(message.string)]


@pytest.mark.parametrize(("code", "message"), list(_entries()))
def test_every_message_is_translated_not_fuzzy_and_keeps_its_placeholders(code, message):
    assert not message.fuzzy
    for english, translated in _forms(message):
        assert translated.strip(), f"{english!r} has no {code} translation"
        assert set(PLACEHOLDER.findall(english)) <= set(PLACEHOLDER.findall(translated)), (english, translated)
        assert set(PLACEHOLDER.findall(translated)) <= set(PLACEHOLDER.findall(english)), (english, translated)


def test_every_text_the_code_marks_is_in_both_catalogs():
    marked = set()
    for module in sorted(PACKAGE.rglob("*.py")):
        for _line, message, _comments, context in extract_from_file(
                "python", str(module), keywords=GAME_KEYWORDS, options={"encoding": "utf-8"}):
            marked.add((context, message if isinstance(message, str) else message[0]))
    assert len(marked) > 300
    for code in LANGUAGES:
        known = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _catalog(code) if m.id}
        assert marked <= known, f"run: python -m turnbased.kit.texts.catalogs extract-games carcassonne_hg ({code})"


def test_how_to_play_is_written_in_each_language_with_the_same_parts():
    texts = {}
    for code in ("en", *LANGUAGES):
        with language(code):
            texts[code] = ENGINE.how_to_play()
    assert len(set(texts.values())) == 3
    headings = {code: re.findall(r"^\*\*[^*]+\*\*", text, re.M) for code, text in texts.items()}
    assert all(len(found) == 5 for found in headings.values()), headings  # the fifth: the bonus tiles
    assert "Vadászok" not in texts["en"] and "gyűjtögető" in texts["hu"] and "Sammler" in texts["de"]
