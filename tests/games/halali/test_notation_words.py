"""The notation in the reader's language: written in their words, read back in theirs and in English.

Hungarian writes ``fordít c5``, ``d7 ki``, ``d5 ki É``, ``passz``; German ``aufdecken c5``, ``d7 raus``,
``d5 raus O``, ``passen``. Every legal move of a few seeded games must read back as itself in each
language, with or without accents and in capitals, and the English the log stores must read back
under every language.
"""

from __future__ import annotations

import random
import unicodedata

import pytest

from games.base import BadNotation
from games.halali import ENGINE
from games.i18n import in_english, language

from . import ALICE, picture, position

LANGUAGES = ("en", "hu", "de")


def plain(text: str) -> str:
    """Return ``text`` without its accents, as a player without the keyboard for them types it."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def every_legal_move(seed: int):
    """Yield (state, seat, move) for every legal move along a seeded random match, exits open from the start."""
    rng = random.Random(seed)
    state = ENGINE.setup(["Alice", "Bob"], {"exits_anytime": True}, seed=f"words-{seed}")
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        for move in moves:
            yield state, seat, move
        state, _ = ENGINE.apply(state, seat, rng.choice(moves))


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("seed", range(3))
def test_every_legal_move_reads_back_in_each_language_with_or_without_accents(code, seed):
    kinds = set()
    with language(code):
        for state, seat, move in every_legal_move(seed):
            text = ENGINE.describe_move(state, move)
            for written in (text, text.upper(), plain(text)):
                assert ENGINE.parse_move(written, state, seat) == move, (code, written)
            kinds.add("exit" if move.get("to") == "out" else next(iter(move)))
    assert kinds >= {"flip", "from", "exit"}, "the games must reach flips, moves and exits"


@pytest.mark.parametrize("code", ("hu", "de"))
@pytest.mark.parametrize("seed", range(2))
def test_the_stored_english_notation_reads_back_under_every_language(code, seed):
    for state, seat, move in every_legal_move(seed):
        with in_english():
            text = ENGINE.describe_move(state, move)
        with language(code):
            assert ENGINE.parse_move(text, state, seat) == move, (code, text)


@pytest.mark.parametrize(
    ("code", "move", "text"),
    [
        ("hu", {"flip": "c5"}, "fordít c5"),
        ("hu", {"from": "d7", "to": "out", "exit": "N"}, "d7 ki"),
        ("hu", {"from": "d5", "to": "out", "exit": "N"}, "d5 ki É"),
        ("hu", {"from": "a4", "to": "out", "exit": "E"}, "a4 ki K"),
        ("hu", {"from": "d5", "to": "out", "exit": "S"}, "d5 ki D"),
        ("hu", {"from": "g4", "to": "out", "exit": "W"}, "g4 ki Ny"),
        ("hu", {"pass": True}, "passz"),
        ("de", {"flip": "c5"}, "aufdecken c5"),
        ("de", {"from": "d7", "to": "out", "exit": "N"}, "d7 raus"),
        ("de", {"from": "a4", "to": "out", "exit": "E"}, "a4 raus O"),
        ("de", {"pass": True}, "passen"),
        ("en", {"flip": "c5"}, "flip c5"),
        ("en", {"from": "a4", "to": "out", "exit": "E"}, "a4 out E"),
    ],
)
def test_describe_move_writes_the_readers_words(code, move, text):
    state = position(picture({"c5": "F", "c2": "D"}))
    with language(code):
        assert ENGINE.describe_move(state, move) == text


@pytest.mark.parametrize(
    ("code", "text", "move"),
    [
        # Hungarian: accusative and other case endings on squares, the article, verb forms, word order.
        ("hu", "fordítsd fel a c5-öt", {"flip": "c5"}),
        ("hu", "forditsd meg c5", {"flip": "c5"}),
        ("hu", "az a4-et fordítom", {"flip": "a4"}),
        ("hu", "felfordít b2", {"flip": "b2"}),
        ("hu", "c5-ről c2-re", {"from": "c5", "to": "c2"}),
        ("hu", "c5 üti a c2-t", {"from": "c5", "to": "c2"}),
        ("hu", "d5 ki északra", {"from": "d5", "to": "out", "exit": "N"}),
        ("hu", "d5 kilép nyugat", {"from": "d5", "to": "out", "exit": "W"}),
        ("hu", "d5 ki a d1-en", {"from": "d5", "to": "out", "exit": "S"}),
        ("hu", "passzolok", {"pass": True}),
        # German: separable verbs, "nach", umlauts written out or left off.
        ("de", "deck c5 auf", {"flip": "c5"}),
        ("de", "c5 aufdecken", {"flip": "c5"}),
        ("de", "drehe b2 um", {"flip": "b2"}),
        ("de", "c5 nach c2", {"from": "c5", "to": "c2"}),
        ("de", "c5 schlägt c2", {"from": "c5", "to": "c2"}),
        ("de", "c5:c2", {"from": "c5", "to": "c2"}),
        ("de", "d5 raus nach Süden", {"from": "d5", "to": "out", "exit": "S"}),
        ("de", "d5 raus sueden", {"from": "d5", "to": "out", "exit": "S"}),
        ("de", "d5 raus Osten", {"from": "d5", "to": "out", "exit": "E"}),
        ("de", "ich passe", {"pass": True}),
    ],
)
def test_parse_move_reads_what_a_native_player_types(code, text, move):
    state = position(picture({"c5": "F", "c2": "D"}))
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == move


@pytest.mark.parametrize(
    ("code", "text", "exit"),
    [
        ("hu", "d5 ki e", "N"),  # Hungarian É without its accent: north
        ("hu", "d5 ki É", "N"),
        ("hu", "d5 out e", "E"),  # an English sentence: east, whoever writes it
        ("en", "d5 out e", "E"),
        ("de", "d5 raus e", "E"),  # German has no "e": the English east
        ("de", "d5 raus o", "E"),  # German O (Osten): east
    ],
)
def test_a_word_two_languages_use_differently_is_read_as_its_sentences_language(code, text, exit):
    state = position(picture({"c5": "F"}))
    with language(code):
        assert ENGINE.parse_move(text, state, ALICE) == {"from": "d5", "to": "out", "exit": exit}


def test_another_languages_words_are_not_read_for_an_english_reader():
    state = position(picture({"c5": "F"}))
    for text in ("fordít c5", "d7 ki", "aufdecken c5", "passz"):
        with pytest.raises(BadNotation, match="Cannot read"):
            ENGINE.parse_move(text, state, ALICE)


@pytest.mark.parametrize("code", ("hu", "de"))
def test_reasons_for_unreadable_notation_are_in_the_readers_language(code):
    state = position(picture({"c5": "F"}))
    for text in ("", "jump c5", "h1-h2", "d5 out", "d5 out up"):
        with in_english(), pytest.raises(BadNotation) as english:
            ENGINE.parse_move(text, state, ALICE)
        with language(code), pytest.raises(BadNotation) as worded:
            ENGINE.parse_move(text, state, ALICE)
        assert worded.value.reason and worded.value.reason != english.value.reason, text


@pytest.mark.parametrize(("code", "words"), [("hu", ("fordít c5", "d7 ki", "passz")), ("de", ("aufdecken c5", "d7 raus", "passen"))])
def test_notation_help_explains_the_readers_words_and_that_english_works_too(code, words):
    with in_english():
        english = ENGINE.notation_help()
    with language(code):
        text = ENGINE.notation_help()
    assert text != english
    for word in words:
        assert word in text
    assert "flip c5" in text and "d5 out N" in text, "the help says English works too"
    assert "flip c5" in english and "fordít" not in english
