"""The notation in Hungarian and German: written in the reader's language, read back in it and in English.

Accents are optional, Hungarian accusatives are read, and where a word means one thing in the
reader's language and another in English (a player called "Mich", "Me"), the reader's language wins.
"""

from __future__ import annotations

import random
import unicodedata

import pytest

from games.base import BadNotation
from games.i18n import in_english, language
from games.love_letter import ENGINE

from . import act, deal

LANGUAGES = ("en", "hu", "de")


def seeded_positions(players: int, edition: str, seed: int, moves: int = 60):
    """Yield (state, seat) at each move of a seeded random game."""
    rng = random.Random(seed)
    state = ENGINE.setup(["Ann", "Bob", "Éva", "Dan"][:players], {"edition": edition}, f"notation-{seed}")
    for _ in range(moves):
        if not ENGINE.to_move(state):
            return
        seat = ENGINE.to_move(state)[0]
        yield state, seat
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


GAMES = [(2, "classic", 1), (3, "2019", 2), (4, "2019", 3), (4, "classic", 4)]


def without_accents(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


@pytest.mark.parametrize(("players", "edition", "seed"), GAMES)
@pytest.mark.parametrize("code", LANGUAGES)
def test_every_legal_move_reads_back_in_each_language_in_english_and_without_accents(code, players, edition, seed):
    chancellor = 0
    for state, seat in seeded_positions(players, edition, seed):
        for move in ENGINE.legal_moves(state, seat):
            with in_english():
                english = ENGINE.describe_move(state, move)
            with language(code):
                text = ENGINE.describe_move(state, move)
                assert ENGINE.parse_move(text, state, seat) == move, text
                assert ENGINE.parse_move(english, state, seat) == move, english
                assert ENGINE.parse_move(without_accents(text).upper(), state, seat) == move, text
            chancellor += "keep" in move
    assert chancellor or edition == "classic" or players == 4


def test_english_is_written_as_it_always_was():
    state = deal(["guard", "priest", "baron"], ["prince"])
    with language("hu"), in_english():
        assert ENGINE.describe_move(state, {"card": "guard", "target": 1, "guess": "priest"}) == "guard bob priest"
        assert ENGINE.describe_move(state, {"card": "prince", "target": 0}) == "prince self"
        assert ENGINE.describe_move(state, {"keep": "baron", "bottom": ["guard", "priest"]}) == (
            "keep baron bottom guard priest")


@pytest.mark.parametrize(("code", "guard", "prince", "keep"), [
    ("hu", "őr bob pap", "herceg magam", "megtart báró alulra őr pap"),
    ("de", "wächterin bob priester", "prinz mich", "behalte baron unten wächterin priester"),
])
def test_each_language_writes_its_own_words(code, guard, prince, keep):
    state = deal(["guard", "priest", "baron"], ["prince"])
    with language(code):
        assert ENGINE.describe_move(state, {"card": "guard", "target": 1, "guess": "priest"}) == guard
        assert ENGINE.describe_move(state, {"card": "prince", "target": 0}) == prince
        assert ENGINE.describe_move(state, {"keep": "baron", "bottom": ["guard", "priest"]}) == keep


@pytest.mark.parametrize(("code", "text", "move"), [
    ("hu", "őr bob papot", {"card": "guard", "target": 1, "guess": "priest"}),
    ("hu", "Őr Bob Hercegnőt", {"card": "guard", "target": 1, "guess": "princess"}),
    ("hu", "or bob baro", {"card": "guard", "target": 1, "guess": "baron"}),
    ("hu", "herceget én", {"card": "prince", "target": 0}),
    ("hu", "herceg engem", {"card": "prince", "target": 0}),
    ("hu", "szobalány", {"card": "handmaid"}),
    ("hu", "megtartom a bárót, alulra az őrt és a papot", {"keep": "baron", "bottom": ["guard", "priest"]}),
    ("de", "Wächterin Bob König", {"card": "guard", "target": 1, "guess": "king"}),
    ("de", "waechterin bob koenig", {"card": "guard", "target": 1, "guess": "king"}),
    ("de", "wachterin bob konig", {"card": "guard", "target": 1, "guess": "king"}),
    ("de", "wächterin bob prinzen", {"card": "guard", "target": 1, "guess": "prince"}),
    ("de", "prinz ich", {"card": "prince", "target": 0}),
    ("de", "behalte den baron, unten die wächterin und den priester", {"keep": "baron", "bottom": ["guard", "priest"]}),
    ("de", "guard bob priest", {"card": "guard", "target": 1, "guess": "priest"}),
])
def test_the_forms_a_native_player_types_are_read(code, text, move):
    state = deal(["guard", "priest", "baron"], ["prince"])
    with language(code):
        assert ENGINE.parse_move(text, state, 0) == move


def test_a_word_for_yourself_in_the_readers_language_wins_over_a_name_and_a_name_over_english():
    state = ENGINE.setup(["Ann", "Mich", "Me"], {"first_player": 0}, "names")
    state["hands"] = [["prince", "guard"], ["priest"], ["baron"]]  # surgery: Ann may choose anyone
    with language("de"):
        assert ENGINE.parse_move("prinz mich", state, 0) == {"card": "prince", "target": 0}
        assert ENGINE.describe_move(state, {"card": "prince", "target": 1}) == "prinz #2"
        assert ENGINE.parse_move("prinz me", state, 0) == {"card": "prince", "target": 2}
    with language("hu"):
        assert ENGINE.parse_move("herceg me", state, 0) == {"card": "prince", "target": 2}
        assert ENGINE.parse_move("herceg mich", state, 0) == {"card": "prince", "target": 1}
        assert ENGINE.describe_move(state, {"card": "prince", "target": 2}) == "herceg #3"
    with language("en"):
        assert ENGINE.parse_move("prince mich", state, 0) == {"card": "prince", "target": 1}
        assert ENGINE.parse_move("prince me", state, 0) == {"card": "prince", "target": 0}
        assert ENGINE.describe_move(state, {"card": "prince", "target": 1}) == "prince mich"


def test_a_name_typed_without_its_accents_still_names_the_player():
    state = ENGINE.setup(["Ann", "Éva"], {"first_player": 0}, "names")
    state["hands"] = [["guard", "priest"], ["baron"]]
    with language("hu"):
        assert ENGINE.parse_move("pap eva", state, 0) == {"card": "priest", "target": 1}
        assert ENGINE.describe_move(state, {"card": "priest", "target": 1}) == "pap éva"


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_help_explains_the_languages_words_and_its_examples_read(code):
    state = ENGINE.setup(["Me", "bob", "carol"], {"first_player": 0, "edition": "2019"}, "help")
    with in_english():
        english = ENGINE.notation_help()
    with language(code):
        text = ENGINE.notation_help()
        assert text != english and "guard bob priest" in text and "#N" in text
        examples = [example.split("(")[0].strip() for line in text.splitlines()[1:3] for example in line.split("|")]
        for example in examples:
            ENGINE.parse_move(example, state, 0)  # every example reads as a move
    assert len(examples) == 11


@pytest.mark.parametrize(("code", "text", "reason"), [
    ("hu", "bolond bob", "Ismeretlen lap: 'bolond'; a lapok: őr, pap, báró"),
    ("de", "narr bob", "Unbekannte Karte 'narr'; die Karten sind: wächterin, priester, baron"),
    ("hu", "kém", "A klasszikus kiadásban nincs ilyen lap: Kém"),
    ("hu", "komorna bob", "A Komorna senkit sem választ: csak ennyit írj: „komorna”"),
    ("de", "zofe bob", "Die Zofe wählt niemanden: Schreibe nur „zofe“"),
    ("de", "wächterin zoe priester", "Kein Spieler heißt 'zoe'; Spieler: Alice, Bob, Carol \\(oder mich, oder #N\\)"),
])
def test_unreadable_text_is_explained_in_the_language(code, text, reason):
    state = deal(["guard", "priest", "baron"], ["guard"])
    with language(code), pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, state, 0)


def test_the_chancellors_choice_reads_in_each_language():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    for code in LANGUAGES:
        with language(code):
            for move in ENGINE.legal_moves(state, 0):
                assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, 0) == move
