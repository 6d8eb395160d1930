"""Moves written as a player writes them, in Hungarian, German and English: verbs, articles, any word order.

The notation's written form ("wächterin bob priester") is read first; what it cannot read is read as a
sentence (games/love_letter/notation_reading.py). Each kind of move is shown read from the phrasings a
native player types, no word of a language has two meanings (so no text reads as two moves), sentences
built from any of a language's forms in any order read back as their move, and nonsense is refused
with a reason that says what to write.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from games.base import BadNotation, IllegalMove
from games.i18n import language
from games.love_letter import ENGINE
from games.love_letter.notation_words import BOTTOM, I, KEEP, SELF, SKIP, card_word, forms, keys, split

from . import act, deal

GUARD_ON_BOB = {"card": "guard", "target": 1, "guess": "priest"}
PRINCE_ON_ME = {"card": "prince", "target": 0}
PRINCE_ON_BOB = {"card": "prince", "target": 1}
HANDMAID = {"card": "handmaid"}
KEEP_BARON = {"keep": "baron", "bottom": ["guard", "priest"]}


@pytest.fixture
def state():
    return deal(["guard", "priest", "baron"], ["prince"])


@pytest.fixture
def chancellor():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    return state


PLAYS = [
    # German: imperative, infinitive, with or without the article, preposition, the guess before or after.
    ("de", "spiele die Wache auf Bob, rate Priester", GUARD_ON_BOB),
    ("de", "Wache auf Bob raten Priester", GUARD_ON_BOB),
    ("de", "Wache Bob Priester", GUARD_ON_BOB),
    ("de", "spiel die Wächterin gegen Bob und nenne den Priester", GUARD_ON_BOB),
    ("de", "Wächterin ausspielen, Bob, Priester", GUARD_ON_BOB),
    ("de", "Priester raten, Wache auf Bob", GUARD_ON_BOB),
    ("de", "ich spiele die Wächterin gegen Bob und tippe auf den Priester", GUARD_ON_BOB),
    ("de", "waechterin gegen bob: priester", GUARD_ON_BOB),
    ("de", "spielen: Prinz auf mich", PRINCE_ON_ME),
    ("de", "den Prinzen auf mich selbst", PRINCE_ON_ME),
    ("de", "Prinz ich", PRINCE_ON_ME),
    ("de", "ich spiele den Prinzen auf Bob", PRINCE_ON_BOB),
    ("de", "die Zofe ausspielen", HANDMAID),
    ("de", "spiel Zofe", HANDMAID),
    # Hungarian: imperative, first person, infinitive, with or without the article, endings on cards and names.
    ("hu", "játszd ki az őrt bobra, papot mondok", GUARD_ON_BOB),
    ("hu", "kijátszom az őrt Bob ellen, szerintem pap", GUARD_ON_BOB),
    ("hu", "az őrrel bobra, pap", GUARD_ON_BOB),
    ("hu", "a Őrt Bob pap", GUARD_ON_BOB),
    ("hu", "Őrt bob-ra, papot tippelek", GUARD_ON_BOB),
    ("hu", "Bobra az őrt, a papot mondom", GUARD_ON_BOB),
    ("hu", "or bob papot", GUARD_ON_BOB),
    ("hu", "a herceget magamra játszom ki", PRINCE_ON_ME),
    ("hu", "kijátszani a herceget saját magamra", PRINCE_ON_ME),
    ("hu", "herceg én", PRINCE_ON_ME),
    ("hu", "a herceget bobra", PRINCE_ON_BOB),
    ("hu", "kijátszom a komornát", HANDMAID),
    ("hu", "szobalányt játszom ki", HANDMAID),
    # English, read in every language.
    ("en", "play the guard on bob and name the priest", GUARD_ON_BOB),
    ("en", "guard on bob, guessing priest", GUARD_ON_BOB),
    ("en", "play the prince on me", PRINCE_ON_ME),
    ("de", "play the guard on bob naming the priest", GUARD_ON_BOB),
    ("hu", "play the handmaid", HANDMAID),
]


@pytest.mark.parametrize(("code", "text", "move"), PLAYS)
def test_a_play_reads_as_a_native_player_writes_it(state, code, text, move):
    with language(code):
        assert ENGINE.parse_move(text, state, 0) == move


CHOICES = [
    ("de", "behalte den Baron, Wächterin und Priester nach unten", KEEP_BARON),
    ("de", "Baron behalten, Wächterin und Priester unter den Stapel", KEEP_BARON),
    ("de", "behalte baron unten wächterin priester", KEEP_BARON),
    ("de", "ich behalte den Baron und lege die Wächterin und den Priester nach unten", KEEP_BARON),
    ("de", "unten Wächterin, Priester; behalten: Baron", KEEP_BARON),
    ("hu", "megtartom a bárót, az őrt és a papot a pakli aljára teszem", KEEP_BARON),
    ("hu", "a báró marad, az őr és a pap a pakli aljára", KEEP_BARON),
    ("hu", "tartsd meg a bárót, alulra őr, pap", KEEP_BARON),
    ("hu", "megtart báró alulra őr pap", KEEP_BARON),
    ("en", "keep the baron, put the guard and the priest at the bottom", KEEP_BARON),
]


@pytest.mark.parametrize(("code", "text", "move"), CHOICES)
def test_the_chancellors_choice_reads_as_a_native_player_writes_it(chancellor, code, text, move):
    with language(code):
        assert ENGINE.parse_move(text, chancellor, 0) == move


def _kinds(found: dict) -> dict[str, set[str]]:
    """Return what each folded form of one language's vocabulary means: every kind it is listed under."""
    meanings: dict[str, set[str]] = defaultdict(set)
    for kind in (SELF, I, KEEP, BOTTOM, SKIP):
        for form in split(found[kind]):
            for key in keys(form):
                meanings[key].add(kind)
    for card, message in found["cards"].items():
        for form in split(message):
            for key in keys(form):
                meanings[key].add(card)
    return meanings


@pytest.mark.parametrize("code", ["en", "hu", "de"])
def test_no_word_of_a_language_means_two_things(code):
    """A form listed twice (a card that is also a word read past) would make one text two moves."""
    with language(code):
        own = _kinds(forms())
    with language("en"):
        english = _kinds(forms())
    assert not {form: kinds for form, kinds in own.items() if len(kinds) > 1}
    # English is read after the reader's language: a word both use must mean the same in both.
    assert not {form: (own[form], english[form]) for form in own if form in english and own[form] != english[form]}


def _sentence(rng: random.Random, found: dict, move: dict, names: list[str]) -> str:
    """Return ``move`` as a sentence in one language: any form of each word, words read past between, any order."""
    pick = lambda message: rng.choice(split(message))  # noqa: E731
    filler = lambda: pick(found[SKIP]) if rng.random() < 0.5 else ""  # noqa: E731
    if "keep" in move:
        parts = [pick(found[KEEP]), filler(), pick(found["cards"][move["keep"]]), filler(), pick(found[BOTTOM])]
        parts += [pick(found["cards"][card]) for card in move["bottom"]]
        return " ".join(part for part in parts if part)
    parts = [pick(found["cards"][move["card"]])]
    if move.get("target") is not None:
        parts.append(pick(found[SELF]) if move["target"] == 0 else names[move["target"]])
    if move.get("guess") is not None:
        parts.append(pick(found["cards"][move["guess"]]))
    rng.shuffle(parts)
    return " ".join(word for part in parts for word in (filler(), part) if word)


@pytest.mark.parametrize("code", ["en", "hu", "de"])
def test_any_form_in_any_order_reads_back_as_its_one_move(code):
    rng = random.Random(code)
    state = deal(["guard", "priest", "baron"], ["prince", "chancellor"], edition="2019")
    state["hands"][0] = ["guard", "prince"]  # surgery: every kind of play is legal to write
    with language(code):
        found = forms()
        moves = [*ENGINE.legal_moves(state, 0), HANDMAID, {"card": "spy"}, {"card": "countess"}]
        for move in moves:
            for _ in range(6):
                text = _sentence(rng, found, move, state["players"])
                assert ENGINE.parse_move(text, state, 0) == move, text
        for move in [KEEP_BARON, {"keep": "guard", "bottom": ["priest", "baron"]}]:
            for _ in range(6):
                text = _sentence(rng, found, move, state["players"])
                assert ENGINE.parse_move(text, state, 0) == move, text


REFUSED = [
    ("de", "spiele den Narren auf Bob", "Unbekannte Karte 'narren'; die Karten sind: wächterin, priester"),
    ("de", "Wache auf Zoe, rate Priester", "Kein Spieler heißt 'zoe'; Spieler: Alice, Bob, Carol"),
    ("de", "Wache auf Bob", "Nenne nach dem Spieler eine Karte"),
    ("de", "Wache, rate Priester", "Schreibe den Spieler, den die Wächterin wählt"),
    ("de", "Wache auf Bob und Carol, rate Priester", "Wähle nur einen Spieler für die Wächterin"),
    ("de", "Baron auf Bob, rate Priester", "nur die Wächterin nennt eine zweite"),
    ("de", "spiele die Zofe auf Bob", "Die Zofe wählt niemanden"),
    ("de", "spiele auf Bob", "Schreibe einen Zug, zum Beispiel"),
    ("hu", "kijátszom a bolondot bobra", "Ismeretlen lap: 'bolondot'; a lapok: őr, pap"),
    ("hu", "az őrt zoéra, papot mondok", "Nincs ilyen nevű játékos: 'zoéra'"),
    ("hu", "az őrt bobra", "A játékos után nevezz meg egy lapot"),
    ("hu", "az őrt, papot mondok", "Írd le, melyik játékost választja az Őr"),
    ("hu", "a bárót bobra, papot mondok", "második lapot csak az Őr nevez meg"),
    ("hu", "a komornát bobra", "A Komorna senkit sem választ"),
]


@pytest.mark.parametrize(("code", "text", "reason"), REFUSED)
def test_nonsense_is_refused_with_a_reason_in_the_language(state, code, text, reason):
    with language(code), pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, state, 0)


def test_a_choice_that_keeps_a_card_and_puts_nothing_under_reads_and_the_rules_refuse_it(chancellor):
    kept = chancellor["hands"][0][0]
    with language("de"):
        move = ENGINE.parse_move(f"ich behalte die Karte {card_word(kept)}", chancellor, 0)
        assert move == {"keep": kept, "bottom": []}
        with pytest.raises(IllegalMove, match="bottom muss genau deine anderen Karten"):
            act(chancellor, move)


@pytest.mark.parametrize(("code", "text", "reason"), [
    ("de", "unten Wächterin und Priester", "Schreibe, welche Karte du behältst"),
    ("de", "behalte Baron, Wächterin Priester", "Schreibe „unten“ vor die Karten"),
    ("hu", "alulra az őr és a pap", "Írd le, melyik lapot tartod meg"),
])
def test_a_choice_without_its_kept_card_or_bottom_is_refused(chancellor, code, text, reason):
    with language(code), pytest.raises(BadNotation, match=reason):
        ENGINE.parse_move(text, chancellor, 0)


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_help_lists_the_sentences_and_each_reads_as_its_move(state, chancellor, code):
    with language(code):
        lines = ENGINE.notation_help().splitlines()
        sentences = [example.strip() for example in lines[7].split("|")]
        assert len(sentences) == 4
        assert ENGINE.parse_move(sentences[0], state, 0) == GUARD_ON_BOB
        assert ENGINE.parse_move(sentences[1], state, 0) == PRINCE_ON_ME
        assert ENGINE.parse_move(sentences[2], state, 0) == HANDMAID
        assert ENGINE.parse_move(sentences[3], chancellor, 0) == KEEP_BARON
        assert "guard bob priest" in lines[-1]
