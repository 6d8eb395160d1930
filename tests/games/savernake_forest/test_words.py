"""Every word of Savernake Forest in the reader's language (English, Hungarian, German); nothing stored is worded.

The catalogs are complete; English stays what the golden records hold; a whole game reads in
Hungarian and German for every seat and a spectator (history, moves, help, email text, board,
result, score breakdown, reasons) with no English sentence left; the Hungarian terms are those of
the original Hungarian rules text (docs/glossary/savernake-forest.md).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import games.savernake_forest
from games.base import Event, IllegalMove, InvalidOptions
from games.i18n import in_english, language
from games.record import record_lines
from games.savernake_forest import ENGINE, board_words, words

from . import ALICE, BOB, deal

PACKAGE = Path(games.savernake_forest.__file__).parent
REPOSITORY = PACKAGE.parent.parent
LANGUAGES = ("hu", "de")
PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


def catalog_entries() -> list:
    found = []
    for code in LANGUAGES:
        with (PACKAGE / "locale" / code / "LC_MESSAGES" / "game.po").open("rb") as source:
            catalog = read_po(source, locale=code)
        found.extend(pytest.param(code, message, id=f"{code}-{message.context or ''}-{message.id}"[:90])
                     for message in catalog if message.id)
    return found


@pytest.mark.parametrize(("code", "message"), catalog_entries())
def test_every_message_is_translated_not_fuzzy_and_keeps_its_placeholders(code, message):
    assert not message.fuzzy
    english = message.id if isinstance(message.id, tuple) else (message.id,)
    translations = message.string if isinstance(message.string, tuple) else (message.string,)
    wanted = {name for text in english for name in PLACEHOLDER.findall(text)}
    for translation in translations:
        assert translation.strip(), f"untranslated in {code}: {message.id!r}"
        assert set(PLACEHOLDER.findall(translation)) == wanted, f"{code}: {translation!r} for {message.id!r}"


def test_the_catalogs_are_complete_in_both_languages():
    for code in LANGUAGES:
        with (PACKAGE / "locale" / code / "LC_MESSAGES" / "game.po").open("rb") as source:
            assert len([m for m in read_po(source, locale=code) if m.id]) > 300


@pytest.mark.parametrize("path", sorted((REPOSITORY / "tests" / "records").glob("savernake-forest-*.json")),
                         ids=lambda path: path.stem)
def test_english_is_word_for_word_what_the_golden_records_hold(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    players = [player["name"] for player in record["players"]]
    state = ENGINE.setup(players, ENGINE.validate_options(len(players), record["game"]["options"]), record["seed"])
    with language("hu"):  # the stored English does not depend on the reader's language
        for entry in record["moves"]:
            if entry["move"] != {"resign": True}:
                with in_english():
                    assert ENGINE.describe_move(state, entry["move"]) == entry["notation"]
            state, events = ENGINE.play(state, entry["seat"], entry["move"])
            with in_english():
                assert record_lines(ENGINE, events, players) == entry["lines"]
        assert ENGINE.result(state)["summary"] == record["result"]["summary"]
    with in_english():
        assert ENGINE.describe_result(ENGINE.result(state), players) == record["result"]["summary"]


def is_sentence(text: str) -> bool:
    """Tell whether an English text is worded (two words or more), not a name, a number or a code."""
    return len(re.findall(r"[A-Za-z]{2,}", text)) >= 2


def english_leaks(english: str, worded: str, names: tuple[str, ...] = ()) -> list[str]:
    """Return the pairs of English words (not names, not markup) of ``english`` that ``worded`` still holds."""
    english, worded = (re.sub(r"<[^>]+>|\{\w+\}", " ", text) for text in (english, worded))
    def words_of(text: str) -> list[str]:  # codes (AN05, NS) and names are the same in every language
        return [word for word in re.findall(r"[A-Za-z']{2,}", text) if word not in names and not word.isupper()]

    found = words_of(english)
    pairs = {f"{a} {b}" for a, b in zip(found, found[1:])}
    plain = " ".join(words_of(worded))
    return sorted(pair for pair in pairs if f" {pair} " in f" {plain} ")


def played(seed: str, players: list[str], **options) -> tuple[dict, list[tuple[dict, dict, int, list[Event]]]]:
    """Play a seeded random game to the end; return the final state and every (state, move, seat, events)."""
    state = ENGINE.setup(players, ENGINE.validate_options(len(players), options), seed)
    rng, steps = random.Random(seed), []
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        move = rng.choice(ENGINE.legal_moves(state, seat))
        after, events = ENGINE.apply(state, seat, move)
        steps.append((state, move, seat, events))
        state = after
    return state, steps


# One event of every kind and every case, beside those a random game brings.
EVENTS = [
    Event("player_left", {"seat": 1, "round": 4}),
    Event("card_taken", {"seat": 0, "round": 1, "slot": "goat", "card": "ST07", "x": 1, "y": 0, "rot": 1}),
    Event("card_taken", {"seat": 1, "round": 1, "slot": "rabbit", "card": "AN18", "x": 0, "y": -1, "rot": 0}),
    Event("animal_turned_down", {"seat": 0, "card": "AN13", "survivor": "AN17", "drops": 1, "burrows": 2,
                                 "final": False}),
    Event("animal_turned_down", {"seat": 1, "card": "AN05", "survivor": "AN18", "drops": 2, "burrows": 0,
                                 "final": True}),
    Event("animal_turned_down", {"seat": 1, "card": "AN05", "survivor": "AN17", "drops": 0, "burrows": 0,
                                 "final": False}),
    Event("water_drop_placed", {"seat": 0, "animal": "AN18", "food": "E"}),
    Event("water_drop_unplaced", {"seat": 1}),
    Event("burrow_placed", {"seat": 1, "animal": "AN17", "burrows": 1}),
    Event("rooster_taken", {"seat": 0, "previous": 0}),
    Event("rooster_taken", {"seat": 1, "previous": 0}),
    Event("market_discarded", {"cards": ["ST01", "AN02"]}),
    Event("market_dealt", {"round": 2, "market": {"rooster": "CU01", "goat": "DC11", "armadillo": "ST15",
                                                  "rabbit": "AN14"}, "dealt": ["rooster"]}),
    Event("round_started", {"round": 2, "first": 1, "order": [1, 0]}),
    Event("game_scored", {"scores": [6, 6, 5], "stored": [1, 1, 0], "winners": [0, 1], "ranking": [0, 1, 2]}),
    Event("game_scored", {"scores": [9, 6, 5], "stored": [1, 1, 0], "winners": [0], "ranking": [0, 1, 2]}),
]


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_whole_game_reads_in_the_language_for_every_seat_and_a_spectator(code):
    players = ["Anna", "Bob", "Cili"]
    state, steps = played("words-game", players)
    _, shared = played("words-shared", players[:2], shared_path_resolution="end_of_game")
    events = [event for _, _, _, happened in steps + shared for event in happened] + EVENTS
    assert {"card_taken", "animal_turned_down", "market_dealt", "game_scored"} <= {e.kind for e in events}
    for event in events:
        for viewer in (None, 0, 1, 2):
            with in_english():
                english = ENGINE.describe_event(event, players, viewer)
            with language(code):
                worded = ENGINE.describe_event(event, players, viewer)
            assert worded.strip() and worded != english, (event, viewer, worded)
            assert not english_leaks(english, worded, tuple(players)), (english, worded)
    for before, move, seat, _ in steps[:12] + steps[-3:]:
        with in_english():
            english = ENGINE.describe_move(before, move)
        with language(code):
            assert ENGINE.describe_move(before, move) != english
    result = ENGINE.result(state)
    with language(code):
        line = ENGINE.describe_result(result, players)
        assert line and line != result["summary"] and "Anna" in line
        labels = [row["label"] for row in ENGINE.score_breakdown(state)]
    with in_english():
        english_labels = [row["label"] for row in ENGINE.score_breakdown(state)]
    assert all(label and label != english for label, english in zip(labels, english_labels))


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_result_line_is_worded(code):
    players = ["Anna", "Bob", "Cili"]
    results = [
        {"winners": [0], "scores": [11, 6, 4], "stored": [2, 1, 0], "ranking": [0, 1, 2], "resigned": []},
        {"winners": [1], "scores": [6, 6, 4], "stored": [1, 2, 0], "ranking": [1, 0, 2], "resigned": []},
        {"winners": [0, 1], "scores": [6, 6, 4], "stored": [1, 1, 0], "ranking": [0, 1, 2], "resigned": []},
        {"winners": [1], "scores": [15, 13, 1], "stored": [1, 1, 0], "ranking": [1, 0, 2], "resigned": [0, 2]},
    ]
    for result in results:
        with in_english():
            english = ENGINE.describe_result(result, players)
        with language(code):
            worded = ENGINE.describe_result(result, players)
        assert worded != english and players[result["winners"][0]] in worded


@pytest.mark.parametrize("code", LANGUAGES)
def test_help_email_text_options_and_name_are_in_the_language(code):
    state = deal(["AN05", "AN02"], [("ST07", None, None, None)])
    texts = {}
    for reader in ("en", code):
        with language(reader):
            texts[reader] = {
                "help": ENGINE.notation_help(),
                "text": ENGINE.view_text(ENGINE.view(state, BOB)),
                "spectator": ENGINE.view_text(ENGINE.view(state, None)),
                "summary": ENGINE.display_summary(),
                "options": "\n".join(text for spec in ENGINE.worded_option_specs()
                                     for text in (spec.label, spec.help, *(label for _, label in spec.choices))),
            }
    for key, english in texts["en"].items():
        worded = texts[code][key]
        assert worded and worded != english, key
        # No English line is left, except the help's example of English notation.
        kept = [line for line in worded.splitlines() if "take goat" not in line]
        assert not english_leaks(english, "\n".join(kept), ("Alice", "Bob", "Savernake", "Forest")), (key, worded)
        for line, theirs in zip(english.splitlines(), worded.splitlines()):  # the same lines, each worded
            if re.search(r"[a-z]{2,}", line.replace("Alice", "").replace("Bob", "")):
                assert theirs != line, (key, line)
    with language(code):
        assert ENGINE.display_name() != "" and "English" not in texts[code]["help"]
        assert "take goat 1,0 r90 drop AN05 W" in texts[code]["help"]  # English works too
    assert "English works too" not in texts["en"]["help"]
    with language("hu"):
        assert ENGINE.display_name() == "Savernake-i Erdő"


@pytest.mark.parametrize("code", LANGUAGES)
def test_illegal_moves_and_options_give_their_reasons_in_the_language(code):
    state = deal(["AN01", "AN02"], [(None, None, None, "AN06")])
    attempts = [
        lambda: ENGINE.apply(state, BOB, {"slot": "goat", "x": 0, "y": -1, "rot": 0}),
        lambda: ENGINE.apply(state, ALICE, {"slot": "goat", "x": 5, "y": 5, "rot": 0}),
        lambda: ENGINE.apply(state, ALICE, {"slot": "goat", "x": 0, "y": -1, "rot": 0}),
        lambda: ENGINE.apply(state, ALICE, {"slot": "rooster", "x": 0, "y": -1, "rot": 0, "token": {"animal": "AN01"}}),
        lambda: ENGINE.apply(state, ALICE, {"slot": "goat", "x": 0, "y": -1, "rot": 0,
                                            "token": {"animal": "AN01", "food": "Q"}}),
        lambda: ENGINE.validate_options(5, {}),
        lambda: ENGINE.parse_move("take owl 1,0", state, ALICE),
    ]
    for attempt in attempts:
        reasons = []
        for reader in ("en", code):
            with language(reader):
                with pytest.raises((IllegalMove, InvalidOptions, Exception)) as error:
                    attempt()
                reasons.append(error.value.reason)
        assert reasons[1].strip() and reasons[1] != reasons[0], reasons


def board_texts(value, path=()):
    """Yield (path, text) for every worded leaf of board data (not its codes, drawing or move data)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("json", "href", "id", "roads", "stubs", "card", "slot", "type", "food"):
                yield from board_texts(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from board_texts(item, (*path, index))
    elif isinstance(value, str):
        yield path, value


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_board_speaks_the_language_for_the_mover_a_waiting_player_and_a_spectator(code):
    state, steps = played("words-board", ["Anna", "Bob"])
    positions = [steps[9][0], steps[20][0], state]
    for position in positions:
        for viewer in (None, 0, 1):
            view = ENGINE.view(position, viewer)
            moves = [{"move": m, "text": ENGINE.describe_move(position, m), "json": json.dumps(m, sort_keys=True)}
                     for m in (ENGINE.legal_moves(position, viewer) if viewer is not None else [])]
            with in_english():
                english = dict(board_texts(ENGINE.board_data(view, moves)))
            with language(code):
                worded = dict(board_texts(ENGINE.board_data(view, moves)))
            assert english.keys() == worded.keys()
            assert worded[("words", "confirm")] and worded[("words", "note")]
            for path, text in english.items():
                if is_sentence(text):
                    assert worded[path] != text, (path, text)
                    assert not english_leaks(text, worded[path], ("Anna", "Bob")), (path, text, worded[path])
    with language(code):
        assert ENGINE.board_data(ENGINE.view_after_end(state), [])["revealed"]["title"]


def test_the_board_template_and_script_hold_no_words_of_their_own():
    template = (REPOSITORY / "turnbased/web/templates/games/savernake-forest/board.html").read_text(encoding="utf-8")
    markup = re.sub(r"\{% comment %\}.*?\{% endcomment %\}|\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", "", template, flags=re.S)
    texts = [text.strip() for text in re.findall(r">([^<]*)<", markup)]
    texts += re.findall(r'(?:title|aria-label|alt|placeholder)="([^"]*)"', markup)
    assert not [text for text in texts if re.search(r"[A-Za-z]{2,}", text)]
    assert 'json_script:"savernake-forest-words"' in template
    script = (REPOSITORY / "static/js/savernake-board.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|^\s*//[^\n]*", "", script, flags=re.S | re.M)
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)
    worded = [text for text in literals if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text)
              and "sf-" not in text and text != "use strict"]  # class names and selectors are not words
    assert not worded


def test_the_board_words_are_built_once_per_language():
    with language("hu"):
        assert board_words.page_words() is board_words.page_words()
        hungarian = board_words.page_words()
    with language("de"):
        assert board_words.page_words() is not hungarian and board_words.page_words()["market"] == "Auslage"


def test_nothing_stored_or_viewed_is_worded():
    state, steps = played("words-stored", ["Anna", "Bob"])
    stored = json.dumps([state, [[move, [e.to_json() for e in events]] for _, move, _, events in steps],
                         ENGINE.view(state, 0), ENGINE.view_after_end(state)], ensure_ascii=False)
    names = [info["name"] for info in games.savernake_forest.cards.ANIMALS.values()]
    with language("hu"):
        names += [words.animal_name(card) for card in games.savernake_forest.cards.ANIMALS]
    summary = ENGINE.result(state)["summary"]
    leftover = stored.replace(json.dumps(summary)[1:-1], "")
    assert not [name for name in names if f'"{name}"' in leftover or f" {name} " in leftover]
    assert not re.search(r"water drop|burrow \(|first player|storage", leftover)


def test_the_hungarian_terms_are_those_of_the_original_text():
    with language("hu"):
        assert words.slot_names() == {"rooster": "kakas", "goat": "kecske", "armadillo": "tatu", "rabbit": "nyúl"}
        assert words.food_items()["W"] == "féreg" and words.food_items()["E"] == "tojás"
        assert ENGINE.display_name() == "Savernake-i Erdő"
        page = board_words.page_words()
        assert "víztoken" in page["key_drop"] and "üregtoken" in page["key_burrow"] and page["market"] == "Kínálat"
        assert "tárolókapacitás" in page["key_burrow"] and page["face_down"] == "lefelé fordítva"
        how = ENGINE.how_to_play()
    for term in ("állatkártya", "élelmiszer", "győzelmi pont", "tárolókapacitás", "kínálat", "útvonal",
                 "víztoken", "üregtoken", "első játékos", "lefelé fordít", "kakas előtti", "végső pontozás"):
        assert term in how, term


def test_how_to_play_has_the_same_parts_in_every_language():
    texts = {}
    for code in ("en", "hu", "de"):
        with language(code):
            texts[code] = ENGINE.how_to_play()
    assert len(set(texts.values())) == 3
    parts = {code: re.findall(r"^\*\*[^*]+\*\*", text, re.M) for code, text in texts.items()}
    assert len(parts["en"]) == len(parts["hu"]) == len(parts["de"]) == 5  # the fifth: the cards and their codes
