"""The notation in the reader's language: it parses back in every language, English is read too, accents are
optional, the forms a Hungarian or German player types are understood, and a word means what it means in the
reader's language (German "den" is an article, English "den" a burrow)."""

from __future__ import annotations

import random
import re
import unicodedata

import pytest

from games.base import BadNotation
from games.i18n import in_english, language
from games.savernake_forest import ENGINE

from . import ALICE, deal

LANGUAGES = ("en", "hu", "de")


def without_accents(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def positions(seed: int, players: int, **options):
    """Yield (state, seat, legal moves) through a seeded random game, every third turn."""
    state = ENGINE.setup(["A", "B", "C", "D"][:players], ENGINE.validate_options(players, options), seed)
    rng = random.Random(seed)
    turn = 0
    while ENGINE.to_move(state):
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        if turn % 3 == 0:
            yield state, seat, moves
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))
        turn += 1


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize(("seed", "players"), [(11, 2), (12, 3)])
def test_every_legal_move_reads_back_in_the_language_in_capitals_and_without_accents(code, seed, players):
    checked = 0
    for state, seat, moves in positions(seed, players):
        for move in moves:
            with in_english():
                english = ENGINE.describe_move(state, move)
            with language(code):
                text = ENGINE.describe_move(state, move)
                assert ENGINE.parse_move(text, state, seat) == move, text
                assert ENGINE.parse_move(text.upper(), state, seat) == move, text
                assert ENGINE.parse_move(without_accents(text), state, seat) == move, text
                assert ENGINE.parse_move(english, state, seat) == move, english  # English works in every language
            assert (text == english) == (code == "en")
            checked += 1
    assert checked > 500


@pytest.mark.parametrize(("code", "text"), [
    ("hu", "vedd a kecskét 1,0 90° víztoken AN05 F"),
    ("hu", "vedd el a kecskét, az 1,0-ra, 90 fokkal elforgatva, víztoken a sünre a féreghez"),
    ("hu", "kecske 1,0 90°-kal viztokent sunre fereg"),
    ("hu", "VEDD A KECSKÉT 1,0 R90 VÍZTOKEN AN05-öt F"),
    ("hu", "ke (1, 0) 90 fok víz sün W"),
    ("de", "nimm die Ziege 1,0 90° Tropfen AN05 W"),
    ("de", "Nimm die Ziege auf 1,0, um 90 Grad gedreht, Tropfen auf den Igel, Würmer"),
    ("de", "nimm Ziege 1,0 90 grad wassertropfen igel wuermer"),
    ("de", "take goat 1,0 r90 drop hedgehog worms"),
    ("en", "take goat at (1, 0) 90 degrees water hedgehog worms"),
])
def test_the_forms_a_player_types_are_read(code, text):
    state = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == {
            "slot": "goat", "x": 1, "y": 0, "rot": 1, "token": {"animal": "AN05", "food": "W"}}


@pytest.mark.parametrize(("code", "text", "move"), [
    ("hu", "vedd a nyulat 0,1 180° tartsd meg az AN06-ot",
     {"slot": "rabbit", "x": 0, "y": 1, "rot": 2, "keep": ["AN06"]}),
    ("hu", "nyúl 0,1 180 fokkal, maradjon a bagoly és a róka",
     {"slot": "rabbit", "x": 0, "y": 1, "rot": 2, "keep": ["AN06", "AN01"]}),
    ("hu", "vedd a tatut -1,2 üregtoken a sünre", {"slot": "armadillo", "x": -1, "y": 2, "rot": 0,
                                                  "token": {"animal": "AN05"}}),
    ("hu", "vedd a kakast 1,1 270°", {"slot": "rooster", "x": 1, "y": 1, "rot": 3}),
    ("de", "nimm das Kaninchen 0,1 180° behalte die Eule und den Fuchs",
     {"slot": "rabbit", "x": 0, "y": 1, "rot": 2, "keep": ["AN06", "AN01"]}),
    ("de", "nimm das Gürteltier -1,2 Bau Igel", {"slot": "armadillo", "x": -1, "y": 2, "rot": 0,
                                                "token": {"animal": "AN05"}}),
    ("de", "nimm das Guerteltier -1,2 Bau für den Igel", {"slot": "armadillo", "x": -1, "y": 2, "rot": 0,
                                                          "token": {"animal": "AN05"}}),
    ("de", "nimm den Hahn 1,1 270°", {"slot": "rooster", "x": 1, "y": 1, "rot": 3}),
])
def test_keeps_tokens_and_helpers_in_each_language(code, text, move):
    state = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == move


def test_a_word_is_read_as_the_readers_language_means_it():
    state = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])
    # "den" is German's article but English's burrow.
    with language("de"):
        assert ENGINE.parse_move("nimm die Ziege 1,0 behalte den Igel Tropfen den Igel E", state, ALICE) == {
            "slot": "goat", "x": 1, "y": 0, "rot": 0, "keep": ["AN05"], "token": {"animal": "AN05", "food": "E"}}
    with language("en"):
        assert ENGINE.parse_move("take armadillo 1,0 den AN05", state, ALICE)["token"] == {"animal": "AN05"}
        with pytest.raises(BadNotation):
            ENGINE.parse_move("take goat 1,0 keep den hedgehog drop hedgehog E", state, ALICE)
    # "g" begins German's Gürteltier (the armadillo) but English's goat.
    with language("de"):
        assert ENGINE.parse_move("nimm g 1,0", state, ALICE)["slot"] == "armadillo"
    with language("en"):
        assert ENGINE.parse_move("take g 1,0", state, ALICE)["slot"] == "goat"
    with language("hu"):  # Hungarian has no helper beginning with g: the English goat
        assert ENGINE.parse_move("g 1,0", state, ALICE)["slot"] == "goat"


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_help_explains_the_languages_words_and_its_examples_read(code):
    state = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])
    with language(code):
        help_text = ENGINE.notation_help()
        lines = help_text.splitlines()
        examples = [part.strip() for line in lines[-4:-2] for part in re.split(r"\|", line.split(":", 1)[-1])]
        assert len(examples) == 4
        for example in examples:
            ENGINE.parse_move(example, state, ALICE)  # reads (legality is apply's)
            assert not example.startswith("take")
        # The example written as a player says it reads as the first notation example.
        assert ENGINE.parse_move(lines[-2].strip(), state, ALICE) == ENGINE.parse_move(examples[0], state, ALICE)
        for slot in ("rooster", "goat", "armadillo", "rabbit"):
            with in_english():
                english = ENGINE.describe_move(state, {"slot": slot, "x": 0, "y": 1, "rot": 0})
            assert ENGINE.describe_move(state, {"slot": slot, "x": 0, "y": 1, "rot": 0}).split(" 0,1")[0] in help_text
            # The help names the English notation only in its last line ("take goat ..."): English works too.
            assert english.split(" 0,1")[0] not in help_text or slot == "goat"
        assert "take goat 1,0 r90 drop AN05 W" in lines[-1]


@pytest.mark.parametrize(("code", "text"), [
    ("hu", "vedd a kecskét"),
    ("hu", "vedd k 1,0"),
    ("de", "nimm die Ziege 1,0 45°"),
    ("de", "nimm die Ziege 1,0 Tropfen W"),
    ("de", "nimm den Hund 1,0"),
])
def test_unreadable_text_is_explained_in_the_language(code, text):
    state = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])
    reasons = []
    for reader in ("en", code):
        with language(reader):
            with pytest.raises(BadNotation) as error:
                ENGINE.parse_move(text, state, ALICE)
            reasons.append(error.value.reason)
    assert reasons[1] and reasons[1] != reasons[0]


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_move_summary_groups_the_languages_notation(code):
    state = deal(["AN01", "AN02"])
    with language(code):
        texts = [ENGINE.describe_move(state, move) for move in ENGINE.legal_moves(state, ALICE)]
        lines = ENGINE.moves_summary(texts)
        written = ENGINE.describe_move(state, {"slot": "rooster", "x": 0, "y": -1, "rot": 0})
    assert len(lines) <= 8 and lines[0].startswith(written.split(" 0,-1")[0] + ":")
    assert "0,-1 -1,0 1,0 0,1" in lines[0] and "90°" in lines[0]
    assert any("AN01" in line for line in lines[1:])
