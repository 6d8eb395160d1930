"""Every word Love Letter gives a person, in Hungarian and German: the catalogs are complete and nothing leaks in English.

A seeded game is played to the end and worded for every seat and a spectator in each language:
history lines, notation, the email's text, the board's words, the result and the score
breakdown. Where the English is a sentence, the translation must differ from it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from games.base import BadNotation, IllegalMove, InvalidOptions
from games.i18n import in_english, language
from games.love_letter import ENGINE
from games.love_letter.player_view import private_lines

from . import NAMES, act, deal

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "love_letter"
LANGUAGES = ("hu", "de")
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
# The keywords turnbased/kit/texts/catalogs.py extracts with (games/i18n.py's _, N_, ngettext, pgettext...).
KEYWORDS = {"_": None, "N_": None, "noop": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}


def catalog(code: str):
    with (PACKAGE / "locale" / code / "LC_MESSAGES" / "game.po").open("rb") as source:
        return read_po(source, locale=code, domain="game")


def entries():
    for code in LANGUAGES:
        for message in catalog(code):
            if message.id:
                yield pytest.param(code, message, id=f"{code}:{message.context or ''}:{str(message.id)[:40]}")


@pytest.mark.parametrize(("code", "message"), list(entries()))
def test_every_message_is_translated_with_the_same_placeholders(code, message):
    assert not message.fuzzy
    english = message.id if isinstance(message.id, (list, tuple)) else [message.id]
    translations = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    wanted = {name for text in english for name in PLACEHOLDER.findall(text)}
    for translation in translations:
        assert translation.strip(), "untranslated"
        # Every placeholder of the English is filled in, and the translation asks for no other one.
        assert set(PLACEHOLDER.findall(translation)) == wanted, translation


def test_the_catalogs_hold_every_text_the_code_marks():
    marked = set()
    for module in PACKAGE.glob("*.py"):
        for _, message, _, context in extract_from_file("python", str(module), keywords=KEYWORDS,
                                                        options={"encoding": "utf-8"}):
            marked.add((context, message if isinstance(message, str) else message[0]))
    for code in LANGUAGES:
        held = {(entry.context, entry.id if isinstance(entry.id, str) else entry.id[0]) for entry in catalog(code)
                if entry.id}
        assert marked == held, f"{code}: run python -m turnbased.kit.texts.catalogs extract-games love_letter"


def played_to_the_end(players: int, edition: str, seed: int) -> list[tuple[dict, dict, list]]:
    """Return (state before, move, events) for every move of a seeded random game played to its end."""
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:players], {"edition": edition}, f"words-{seed}")
    steps = []
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        move = rng.choice(ENGINE.legal_moves(state, seat))
        after, events = ENGINE.apply(state, seat, move)
        steps.append((state, move, events))
        state = after
    steps.append((state, None, []))
    return steps


GAMES = [(3, "2019", 11), (2, "classic", 12), (4, "classic", 13)]


def words_of(value) -> list[str]:
    """Return every text in a board_data value, except the view it carries and the script's sentence templates."""
    if isinstance(value, dict):
        return [text for key, item in value.items() if key != "view" for text in words_of(item)]
    if isinstance(value, list):
        return [text for item in value for text in words_of(item)]
    return [value] if isinstance(value, str) else []


def is_sentence(text: str) -> bool:
    return len(re.findall(r"[^\W\d_]{2,}", text)) >= 3


@pytest.mark.parametrize(("players", "edition", "seed"), GAMES)
@pytest.mark.parametrize("code", LANGUAGES)
def test_a_whole_game_reads_in_the_language_for_every_seat_and_a_spectator(code, players, edition, seed):
    steps = played_to_the_end(players, edition, seed)
    names = NAMES[:players]
    viewers = [None, *range(players)]
    checked = 0
    for state, move, events in steps:
        for event in events:
            for viewer in viewers:
                if not event.visible_for(viewer):
                    continue
                with in_english():
                    english = ENGINE.describe_event(event, names, viewer)
                with language(code):
                    worded = ENGINE.describe_event(event, names, viewer)
                assert worded and "{" not in worded and worded != english, (event, viewer, worded)
                checked += 1
        if move is not None:
            with language(code):
                assert ENGINE.describe_move(state, move)
        for viewer in viewers:
            view = ENGINE.view(state, viewer)
            with in_english():
                english_text = ENGINE.view_text(view).splitlines()
                english_board = words_of(ENGINE.board_data(view, []))
            with language(code):
                text = ENGINE.view_text(view).splitlines()
                board = words_of(ENGINE.board_data(view, []))
            assert len(text) == len(english_text)
            for line, english in zip(text, english_text):
                assert line == english == "" or line != english, line
            assert len(board) == len(english_board) and all(board)
            for word, english in zip(board, english_board):
                assert not is_sentence(english) or word != english, word
    assert checked > 50
    final = steps[-1][0]
    result = ENGINE.result(final)
    with in_english():
        english_result = ENGINE.describe_result(result, names)
        english_labels = [row["label"] for row in ENGINE.score_breakdown(final)]
    with language(code):
        worded_result = ENGINE.describe_result(result, names)
        labels = [row["label"] for row in ENGINE.score_breakdown(final)]
    assert worded_result and worded_result != english_result and names[result["winners"][0]] in worded_result
    assert labels and all(label != english for label, english in zip(labels, english_labels))


def test_the_result_line_stays_the_records_english_whatever_the_language():
    state = played_to_the_end(2, "classic", 12)[-1][0]
    with language("hu"):
        summary = ENGINE.result(state)["summary"]
    with in_english():
        assert summary == ENGINE.result(state)["summary"]
    assert re.fullmatch(r"(Alice|Bob) wins \d+–\d+", summary)


def test_the_result_says_who_won_and_how():
    state = played_to_the_end(2, "classic", 12)[-1][0]
    result = ENGINE.result(state)
    winner = NAMES[result["winners"][0]]
    with in_english():
        assert ENGINE.describe_result(result, NAMES[:2]) == f"{winner} wins {result['summary'].split()[-1]}, the first to reach 7 tokens."
    with language("hu"):
        assert "elsőként gyűjtött össze 7 kegyjelzőt" in ENGINE.describe_result(result, NAMES[:2])
    left, _ = ENGINE.resign(ENGINE.setup(NAMES[:2], {}, "left"), 0)
    with language("de"):
        assert ENGINE.describe_result(ENGINE.result(left), NAMES[:2]) == (
            "Bob gewinnt 0–0: Alle anderen haben die Partie verlassen.")


@pytest.mark.parametrize("code", LANGUAGES)
def test_reasons_for_a_refused_move_or_option_are_in_the_language(code):
    state = deal(["guard", "priest", "baron"], ["countess"])
    countess = deal(["king", "priest"], ["countess"])
    refusals = [
        (IllegalMove, lambda: act(state, {"card": "guard", "target": 1, "guess": "guard"})),
        (IllegalMove, lambda: act(state, {"card": "guard"}, seat=1)),
        (IllegalMove, lambda: act(state, {"card": "handmaid"})),
        (IllegalMove, lambda: act(countess, {"card": "king", "target": 1})),
        (IllegalMove, lambda: act(state, {"card": "countess", "target": 1})),
        (InvalidOptions, lambda: ENGINE.validate_options(5, {})),
        (BadNotation, lambda: ENGINE.parse_move("jester bob", state, 0)),
        (BadNotation, lambda: ENGINE.parse_move("countess bob", state, 0)),
    ]
    for error, refuse in refusals:
        with in_english(), pytest.raises(error) as english:
            refuse()
        with language(code), pytest.raises(error) as worded:
            refuse()
        assert worded.value.reason and worded.value.reason != english.value.reason
        assert worded.value.reason[0].isupper() or worded.value.reason[0] in "#'\"„", worded.value.reason


def test_a_reason_naming_a_card_inflects_it():
    state = deal(["guard", "priest", "baron"], ["countess"])
    countess = deal(["king", "priest"], ["countess"])
    with language("de"), pytest.raises(IllegalMove, match="^Die Gräfin wählt keinen Spieler$"):
        act(state, {"card": "countess", "target": 1})
    with language("de"), pytest.raises(IllegalMove, match="solange du den König auf der Hand hast"):
        act(countess, {"card": "king", "target": 1})
    with language("hu"), pytest.raises(IllegalMove, match="amíg a Királyt is a kezedben tartod"):
        act(countess, {"card": "king", "target": 1})


def test_the_private_log_reads_in_the_language_of_whoever_reads_the_view():
    state = deal(["priest", "baron", "guard"], ["priest"])
    state, _ = act(state, {"card": "priest", "target": 1})
    view = ENGINE.view(state, 0)
    assert all(set(entry) == {"round", "turn", "kind", "data"} for entry in view["private_log"])
    with language("hu"):
        assert [line["text"] for line in private_lines(view)][-1] == "Láttad Bob lapját: Báró."
    with language("de"):
        assert [line["text"] for line in private_lines(view)][-1] == "Du hast die Karte von Bob gesehen: Baron."


def test_the_game_names_itself_and_its_options_in_the_language():
    with language("hu"):
        assert ENGINE.display_name() == "Love Letter"
        assert ENGINE.display_summary().startswith("Juttasd el leveledet")
        edition = ENGINE.worded_option_specs()[0]
    assert edition.label == "Kiadás" and edition.choices[0] == ("classic", "Klasszikus (16 lap, 2–4 játékos)")
    with language("de"):
        tie = ENGINE.worded_option_specs()[1]
    assert tie.choices[1][1] == "Niemand bekommt ein Herz (wie auf BGA)" and tie.help.startswith("Nur klassische")
    assert ENGINE.option_specs[0].label == "Edition"  # the specs themselves stay English


def test_how_to_play_is_written_in_each_language_with_the_same_parts():
    with in_english():
        english = ENGINE.how_to_play()
    texts = {}
    for code in LANGUAGES:
        with language(code):
            texts[code] = ENGINE.how_to_play()
    assert len({english, *texts.values()}) == 3
    parts = len(re.findall(r"^\*\*", english, re.M))
    assert parts == 4 and all(len(re.findall(r"^\*\*", text, re.M)) == parts for text in texts.values())
    assert "Komorna (4)" in texts["hu"] and "Zofe (4)" in texts["de"]


def test_a_hungarian_sentence_names_the_card_in_the_case_it_needs():
    state = deal(["guard", "priest", "baron"], ["guard"])
    _, events = act(state, {"card": "guard", "target": 1, "guess": "baron"})  # Bob holds the Priest
    with language("hu"):
        assert ENGINE.describe_event(events[0], NAMES[:3], 2) == (
            "Alice kijátszotta az Őrt Bob ellen, és megnevezte a Bárót: nem talált.")
    with language("de"):
        assert ENGINE.describe_event(events[0], NAMES[:3], 0) == (
            "Du hast die Wächterin gegen Bob ausgespielt und den Baron genannt: daneben.")
