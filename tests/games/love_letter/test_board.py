"""The board's words come from ``board_data``, in the reader's language; the template and its script hold none.

The board template and script are checked as text: once Django's tags, the markup and the
comments are taken out, nothing readable is left, and no string in the script is a sentence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.i18n import in_english, language
from games.love_letter import ENGINE

from . import act, deal

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = sorted((ROOT / "turnbased" / "play" / "templates" / "games" / "love-letter").glob("*.html"))
SCRIPT = ROOT / "static" / "js" / "love-letter-board.js"


def visible_text(template: str) -> str:
    """Return what a template would show of its own: no Django tags, comments, markup or attribute values."""
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", template, flags=re.S)
    text = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text, flags=re.S)
    return text


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_the_board_templates_hold_no_words_of_their_own(path):
    template = path.read_text(encoding="utf-8")
    assert not re.findall(r"[^\W\d_]{2,}", visible_text(template))
    # Attributes a person reads (aria-label, title, alt, placeholder) are filled from board_data only.
    for attribute in re.findall(r'(?:aria-label|title|alt|placeholder)="([^"]*)"', template):
        assert not re.findall(r"[^\W\d_]{2,}", re.sub(r"{{.*?}}|{%.*?%}", " ", attribute)), attribute


def test_the_boards_script_writes_no_sentence_of_its_own():
    script = re.sub(r"/\*.*?\*/|//[^\n]*", " ", SCRIPT.read_text(encoding="utf-8"), flags=re.S)
    literals = re.findall(r'"((?:[^"\\]|\\.)*)"', script)
    assert literals
    code = {"use strict"}  # the one literal of two words that is code
    for literal in literals:
        assert literal in code or literal.startswith((".", "#", "button", "input")) or not re.search(
            r"[A-Za-z]{2,} [a-z]{2,}", literal), literal


def test_board_data_words_the_table_for_its_viewer():
    state = deal(["guard", "priest", "baron"], ["handmaid"])
    state, _ = act(state, {"card": "handmaid"})
    view = ENGINE.view(state, 0)
    with in_english():
        english = ENGINE.board_data(view, [])
    with language("de"):
        german = ENGINE.board_data(view, [])
    assert english["last_play"] == "Last play: you played the Handmaid."
    assert german["last_play"] == "Letzter Zug: Du hast die Zofe ausgespielt."
    assert german["seats"][0]["choose"] == "Dich selbst wählen" and german["seats"][1]["choose"] == "Bob wählen"
    assert german["cards"]["handmaid"]["name"] == "Zofe" and german["cards"]["handmaid"]["value"] == 4
    assert german["private_log"] == ["Zug 0: Du hast die Wächterin bekommen.", "Zug 1: Du hast die Zofe gezogen."]
    assert german["words"]["your_hand"] == "Deine Hand" and english["words"]["your_hand"] == "Your hand"
    assert german["script"]["cards"]["prince"] == {"name": "Prinz", "subject": "der Prinz", "object": "den Prinzen"}
    json.dumps(german)  # the script's words go into the page as JSON


def test_the_scripts_sentences_fill_in_the_names_the_board_gives_them():
    with language("hu"):
        words = ENGINE.board_data(ENGINE.view(deal(["guard", "priest"], ["baron"]), 0), [])["script"]
    sentence = words["guard"].format(player="bob", guess=words["cards"]["baron"]["object"])
    assert sentence == ("Kijátszod az Őrt bob ellen, és megnevezed a Bárót: ha bob a Bárót tartja a kezében, bob "
                        "kiesik a fordulóból.")
    assert words["princess_word"] == "hercegnő"


def test_the_replay_words_what_was_hidden():
    state = deal(["guard", "priest", "baron"], ["priest"])
    state, _ = act(state, {"card": "priest", "target": 1})
    shown = ENGINE.view_after_end(state)
    assert all("text" not in entry for entry in shown["revealed"]["private_log"])
    with language("hu"):
        revealed = ENGINE.board_data(shown, [])["revealed"]
    assert revealed["hands"][1] == {"heading": "Bob keze", "cards": ["priest", "guard"]}
    assert "1. kör: Alice látta Bob lapját: Pap." in revealed["private_log"]  # worded for a spectator
