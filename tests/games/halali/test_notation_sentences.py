"""Moves written as a player writes them, in Hungarian, German and English: verbs, articles, tile names, any order.

Every kind of move (a flip, a move, a capture, an exit, the pass) is shown read from the phrasings a native
player types; no word of a language has two meanings (so no text reads as two moves); sentences built
from any of a language's forms, in any order, read back as their move; and nonsense is refused with a
reason in the reader's language that says what to write.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from games.base import BadNotation
from games.halali import ENGINE
from games.halali.notation_words import EXIT, FLIP, FROM, MOVE, OUT, PASS, SKIP, TILE, TO, forms_of, keys, split
from games.i18n import language

from . import ALICE, picture, position

FLIP_C5 = {"flip": "c5"}
C5_C2 = {"from": "c5", "to": "c2"}
D7_OUT = {"from": "d7", "to": "out", "exit": "N"}
D5_NORTH = {"from": "d5", "to": "out", "exit": "N"}
PASS_MOVE = {"pass": True}


@pytest.fixture
def state():
    # A fox on c5 that can take the duck on c2, a bear on d7, a hunter on d5, a face-down tile on b2.
    return position(picture({"c5": "F", "c2": "D", "d7": "B", "d5": "HN", "b2": "t"}))


NATIVE = [
    # German: infinitive, imperative with its particle, square first or last, von/nach, the tile's name.
    ("de", "c5 aufdecken", FLIP_C5),
    ("de", "aufdecken c5", FLIP_C5),
    ("de", "deck c5 auf", FLIP_C5),
    ("de", "decke das Kärtchen auf c5 auf", FLIP_C5),
    ("de", "dreh c5 um", FLIP_C5),
    ("de", "c5 umdrehen", FLIP_C5),
    ("de", "von c5 nach c2", C5_C2),
    ("de", "nach c2 von c5", C5_C2),
    ("de", "zieh den Fuchs von c5 nach c2", C5_C2),
    ("de", "Fuchs c5 schlägt Ente c2", C5_C2),
    ("de", "schlage mit c5 die Ente auf c2", C5_C2),
    ("de", "c5 nach c2", C5_C2),
    ("de", "d7 raus", D7_OUT),
    ("de", "Bär d7 raus", D7_OUT),
    ("de", "d5 raus nach Norden", D5_NORTH),
    ("de", "d5 nach Norden", D5_NORTH),
    ("de", "d5 durch den Nordausgang", D5_NORTH),
    ("de", "Jäger von d5 durch den Nordausgang hinausziehen", D5_NORTH),
    ("de", "ich passe", PASS_MOVE),
    ("de", "passen", PASS_MOVE),
    # Hungarian: verbs in every mood, case endings on squares (hyphenated as written), the article, word order.
    ("hu", "fordítsd fel a c5-öt", FLIP_C5),
    ("hu", "a c5-öt felfordítom", FLIP_C5),
    ("hu", "c5 felfordítása", FLIP_C5),
    ("hu", "fordit c5", FLIP_C5),
    ("hu", "c5-ről c2-re", C5_C2),
    ("hu", "c2-re c5-ről", C5_C2),
    ("hu", "lépj a rókával c5-ről c2-re", C5_C2),
    ("hu", "a c5-tel üsd le a c2-t", C5_C2),
    ("hu", "leütöm a kacsát a c2-n a c5-tel", C5_C2),
    ("hu", "c5 üti c2", C5_C2),
    ("hu", "d7 ki", D7_OUT),
    ("hu", "vidd ki a medvét a d7-ről", D7_OUT),
    ("hu", "d5-ről ki északra", D5_NORTH),
    ("hu", "a vadászt d5-ről kiviszem az északi kijáraton", D5_NORTH),
    ("hu", "d5 ki é", D5_NORTH),
    ("hu", "passzolok", PASS_MOVE),
    # English, read in every language.
    ("en", "turn over c5", FLIP_C5),
    ("en", "c5 flip", FLIP_C5),
    ("en", "move from c5 to c2", C5_C2),
    ("en", "fox c5 takes duck c2", C5_C2),
    ("en", "d5 out through the north exit", D5_NORTH),
    ("de", "move the fox from c5 to c2", C5_C2),
    ("hu", "d7 out", D7_OUT),
]


@pytest.mark.parametrize(("code", "text", "move"), NATIVE)
def test_each_kind_of_move_reads_as_a_native_player_writes_it(state, code, text, move):
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == move


def _meanings(found: dict) -> dict[str, set]:
    """Return what each folded form of one language's vocabulary means: every (kind, value) it is listed under."""
    meanings: dict[str, set] = defaultdict(set)
    for kind in (FLIP, MOVE, OUT, PASS, FROM, TO, SKIP):
        for form in split(found[kind]):
            for key in keys(form):
                meanings[key].add((kind, None))
    for kind in (EXIT, TILE):
        for value, message in found[kind].items():
            for form in split(message):
                for key in keys(form):
                    meanings[key].add((kind, value))
    return meanings


@pytest.mark.parametrize("code", ["en", "hu", "de"])
def test_no_word_of_a_language_means_two_things(code):
    with language(code):
        own = _meanings(forms_of())
    english = _meanings(forms_of(language_forms=False))
    assert not {form: meanings for form, meanings in own.items() if len(meanings) > 1}
    # English is read after the reader's language; a word both use must mean the same, but for the exit letter
    # Hungarian "É" (north, "e" unaccented), read as the language of the sentence's "out" word says.
    clashes = {form for form in own if form in english and own[form] != english[form]}
    assert clashes <= {"e"}, clashes


def _sentence(rng: random.Random, found: dict, move: dict) -> str:
    """Return ``move`` in one language: any of its forms, words read past between them, in an order that keeps it."""
    pick = lambda message: rng.choice(split(message))  # noqa: E731
    filler = lambda: rng.choice([form for form in split(found[SKIP]) if not form.startswith("-")] + [""])  # noqa: E731

    def marked(square: str, kind: str) -> str:
        marker = pick(found[kind])
        return f"{square}{marker}" if marker.startswith("-") else f"{marker} {square}"

    if move.get("pass"):
        return pick(found[PASS])
    if "flip" in move:
        parts = [pick(found[FLIP]), move["flip"]]
        rng.shuffle(parts)
    elif move["to"] == "out":
        parts = [pick(found[OUT]), move["from"], pick(found[EXIT][move["exit"]])]
        rng.shuffle(parts)
    else:
        parts = [marked(move["from"], FROM), marked(move["to"], TO), pick(found[MOVE])]
        rng.shuffle(parts)
    return " ".join(word for part in parts for word in (filler(), part) if word)


@pytest.mark.parametrize("code", ["en", "hu", "de"])
def test_any_form_in_any_order_reads_back_as_its_one_move(state, code):
    rng = random.Random(code)
    with language(code):
        found = forms_of()
        for move in (FLIP_C5, C5_C2, D5_NORTH, {"from": "d5", "to": "out", "exit": "S"}, PASS_MOVE):
            for _ in range(25):
                text = _sentence(rng, found, move)
                assert ENGINE.parse_move(text, state, ALICE) == move, text


REFUSED = [
    ("de", "zieh c5", "Schreib beide Felder des Zugs"),
    ("de", "spring nach c2", "„spring nach c2“ verstehe ich nicht"),
    ("de", "Bär c5 nach c2", "Der Zug nennt „Bär“, aber auf c5, c2 liegt kein solches aufgedecktes Kärtchen"),
    ("de", "Fuchs b2 aufdecken", "Der Zug nennt „Fuchs“"),
    ("de", "d5 raus oben", "Unbekannter Ausgang „oben“"),
    ("de", "c5 aufdecken nach c2", "verstehe ich nicht"),
    ("de", "c9 aufdecken", "Kein solches Feld"),
    ("hu", "lépj c5-ről", "Írd le a lépés mindkét mezőjét"),
    ("hu", "ugorj c5-ről c2-re", "Ezt nem értem"),
    ("hu", "a medvével c5-ről c2-re", "lapkát nevez meg .„medve”., de ilyen felfordított lapka nincs itt"),
    ("hu", "d5 ki fel", "Nevezd meg, melyik kijáraton mész ki"),
    ("hu", "d5 ki felfelé", "Ismeretlen kijárat: „felfelé”"),
    ("hu", "c5-ről c2-ről", "Ezt nem értem"),
    ("hu", "passz c5", "Ezt nem értem"),
]


@pytest.mark.parametrize(("code", "text", "reason"), REFUSED)
def test_nonsense_is_refused_with_a_reason_in_the_language(state, code, text, reason):
    with language(code), pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, state, ALICE)


@pytest.mark.parametrize("code", ["en", "hu", "de"])
def test_the_help_shows_each_sentence_and_each_reads_as_its_move(state, code):
    with language(code):
        lines = ENGINE.notation_help().splitlines()
        sentences = [example.strip() for example in lines[7].split("|")]
        assert [ENGINE.parse_move(sentence, state, ALICE) for sentence in sentences] == [
            FLIP_C5, FLIP_C5, C5_C2, C5_C2, D5_NORTH]
