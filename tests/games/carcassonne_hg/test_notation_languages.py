"""The notation in the reader's language: Hungarian and German words parse back, English still works, accents are optional."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.base import BadNotation
from games.carcassonne_hg import ENGINE
from games.i18n import in_english, language

from . import ALICE, game, position

LANGUAGES = ("en", "hu", "de")
RECORDS = sorted((Path(__file__).resolve().parents[2] / "records").glob("carcassonne-hg-*.json"))


def _positions(seed: int, turns: int, edition: str = "revised"):
    """Yield (state, seat, legal moves) along a seeded random game."""
    state = ENGINE.setup(["A", "B", "C"], {"edition": edition}, seed=f"languages-{seed}")
    rng = random.Random(seed)
    for _ in range(turns):
        if ENGINE.is_over(state):
            return
        (seat,) = ENGINE.to_move(state)
        legal = ENGINE.legal_moves(state, seat)
        yield state, seat, legal
        state, _ = ENGINE.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize(("seed", "edition"), [(1, "revised"), (2, "classic")])
def test_every_legal_move_written_in_a_language_reads_back_in_it(code, seed, edition):
    for state, seat, legal in _positions(seed, 20, edition):
        with language(code):
            for move in legal:
                assert ENGINE.parse_move(ENGINE.describe_move(state, move), state, seat) == move


def test_a_shaman_recall_reads_back_in_every_language():
    state = position([(0, 1, "R-L62", 0)], "R-B88-shaman", pieces=[(ALICE, "hunter", 0, 1, "m0")], bonus_turn=True)
    move = {"x": -1, "y": 0, "rot": 0, "recall": {"x": 0, "y": 1}, "piece": "hunter", "region": "m2"}
    written = {}
    for code in LANGUAGES:
        with language(code):
            written[code] = ENGINE.describe_move(state, move)
            assert ENGINE.parse_move(written[code], state, ALICE) == move
    assert written == {
        "en": "place -1,0 r0 recall 0,1 hunter meadow NE",
        "hu": "lerak -1,0 0° visszahív 0,1 vadász rét ÉK",
        "de": "lege -1,0 0° zurück 0,1 Jäger Wiese NO",
    }


@pytest.mark.parametrize("code", ["hu", "de"])
def test_english_moves_are_read_in_every_language(code):
    checked = 0
    for state, seat, legal in _positions(3, 12):
        for move in legal:
            with in_english():
                text = ENGINE.describe_move(state, move)
            if code == "hu" and text.endswith(" E"):
                continue  # a Hungarian reads a lone E as É, north (the next test)
            with language(code):
                assert ENGINE.parse_move(text, state, seat) == move
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("code", "text", "move"),
    [
        ("hu", "lerak -1,0 90° vadász rét D", {"piece": "hunter", "region": "m2"}),
        ("hu", "lerak -1,0 90 vadasz ret d", {"piece": "hunter", "region": "m2"}),  # no accents
        ("hu", "Lerak -1,0 90°-kal vadászt a rétre D", {"piece": "hunter", "region": "m2"}),  # inflected
        ("hu", "lerak -1,0 f90 vadászt DK", {"piece": "hunter", "region": "m2"}),
        ("hu", "lerak -1,0 90 kunyhót a tóhoz", {"piece": "hut", "region": "l8"}),
        ("hu", "lerak -1,0 90 kunyho to", {"piece": "hut", "region": "l8"}),  # "to" is the lake, tó
        ("hu", "lerak -1,0 90 gyujtogetot az erdobe ny", {"piece": "gatherer", "region": "f3"}),
        ("hu", "lerak -1,0 90 halaszt", {"piece": "fisherman", "region": "r1"}),
        ("hu", "lerak -1,0 90 rét ÉK", {"piece": "hunter", "region": "m0"}),  # the feature names its role
        ("hu", "lerak -1,0 90 nincs bábu", {}),
        ("hu", "lerak -1,0 90 babu nelkul", {}),
        ("de", "lege -1,0 90° Jäger Wiese S", {"piece": "hunter", "region": "m2"}),
        ("de", "lege -1,0 d90 jaeger auf die wiese s", {"piece": "hunter", "region": "m2"}),
        ("de", "lege -1,0 90 JAGER WIESE SO", {"piece": "hunter", "region": "m2"}),
        ("de", "lege -1,0 90 Wiese NO", {"piece": "hunter", "region": "m0"}),
        ("de", "lege -1,0 90 Hütte an den See", {"piece": "hut", "region": "l8"}),
        ("de", "lege -1,0 90 huette see", {"piece": "hut", "region": "l8"}),
        ("de", "lege -1,0 90 Sammler in den Wald W", {"piece": "gatherer", "region": "f3"}),
        ("de", "lege -1,0 90 Fischer am Fluß", {"piece": "fisherman", "region": "r1"}),
        ("de", "lege -1,0 90 keine Figur", {}),
        ("de", "-1,0 90 Grad", {}),
    ],
)
def test_players_may_write_as_natives_do(code, text, move):
    state = game(["R-L00"])
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == {"x": -1, "y": 0, "rot": 90, **move}


def test_a_word_meaning_two_things_is_read_as_the_readers_language_reads_it():
    # R-L00 turned 180 has a forest along its north edge (f3) and another along its east edge (f4).
    # "E" is east in English and north (É, without its accent) in Hungarian: a side is read in the
    # language of the word before it, so the log's English reads the same for every reader.
    state = game(["R-L00"])
    east = {"x": -1, "y": 0, "rot": 180, "piece": "gatherer", "region": "f4"}
    north = {**east, "region": "f3"}
    assert ENGINE.parse_move("place -1,0 r180 gatherer forest E", state, ALICE) == east
    with language("de"):
        assert ENGINE.parse_move("place -1,0 r180 gatherer forest E", state, ALICE) == east
    with language("hu"):
        assert ENGINE.parse_move("place -1,0 r180 gatherer forest E", state, ALICE) == east
        assert ENGINE.parse_move("lerak -1,0 180 gyujtogeto erdo e", state, ALICE) == north
        assert ENGINE.parse_move("lerak -1,0 180 gyűjtögető erdő E", state, ALICE) == north
        assert ENGINE.parse_move("lerak -1,0 180 gyűjtögető erdő K", state, ALICE) == east


@pytest.mark.parametrize(("code", "text", "reason"), [
    ("hu", "lerak itt", "A mezőt x,y alakban várom"),
    ("hu", "lerak 1,0 45", "forgatás"),
    ("hu", "passz", "Passzolni nem lehet"),
    ("hu", "lerak -1,0 90 varázsló", "melyik bábu hová kerül"),
    ("hu", "lerak -1,0 90 vadász rét Q", "Ismeretlen égtáj"),
    ("hu", "lerak -1,0 90 vadász rét", "Melyikre gondolsz?"),
    ("de", "lege hier", "Erwartet war das Feld"),
    ("de", "lege -1,0 90 Sammler Wiese", "Ein Sammler kommt in einen Wald"),
    ("de", "lege -1,0 90 Sammler Wald S", "keinen solchen Wald"),
])
def test_unreadable_text_is_refused_in_the_readers_language(code, text, reason):
    state = game(["R-L00"])
    with language(code), pytest.raises(BadNotation) as error:
        ENGINE.parse_move(text, state, ALICE)
    assert reason in error.value.reason


@pytest.mark.parametrize(("code", "words"), [
    ("en", ("place", "r90", "gatherer", "fisherman", "hunter", "hut", "recall", "no meeple", "N E S W")),
    ("hu", ("lerak", "90°", "gyűjtögető", "halász", "vadász", "kunyhó", "visszahív", "nincs bábu", "É K D Ny",
            "place 3,-1 r90")),
    ("de", ("lege", "90°", "Sammler", "Fischer", "Jäger", "Hütte", "zurück", "keine Figur", "N O S W",
            "place 3,-1 r90")),
])
def test_the_notation_help_explains_the_readers_words_and_says_english_works(code, words):
    with language(code):
        text = ENGINE.notation_help()
    for word in words:
        assert word in text
    assert ("English" in text or "angolul" in text or "Englisch" in text) == (code != "en")


def test_the_email_move_summary_groups_in_the_readers_words():
    state = game(["R-L00"])
    with language("hu"):
        texts = [ENGINE.describe_move(state, m) for m in ENGINE.legal_moves(state, ALICE)]
        lines = ENGINE.moves_summary(texts, limit=10)
    assert lines[0] == ("lerak -1,0 90°: nincs bábu | vadász rét ÉK | halász folyó | vadász rét D | gyűjtögető erdő Ny"
                        " | gyűjtögető erdő É | kunyhó tó")


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.stem)
def test_the_logged_english_notation_of_every_golden_game_is_what_the_engine_writes_in_english(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    engine = ENGINE.at_version(record["game"]["engine_version"])
    names = [player["name"] for player in record["players"]]
    state = engine.setup(names, record["game"]["options"], record["seed"])
    for entry in record["moves"]:
        if entry["move"] != {"resign": True}:
            with language("hu"):  # the log's notation is worded in English whatever the reader's language
                with in_english():
                    assert engine.describe_move(state, entry["move"]) == entry["notation"]
                    assert engine.parse_move(entry["notation"], state, entry["seat"]) == entry["move"]
                assert engine.parse_move(engine.describe_move(state, entry["move"]), state, entry["seat"]) == entry["move"]
        state, _ = engine.play(state, entry["seat"], entry["move"])
