"""Every word Halali! gives a person, in Hungarian and German: the catalogs, the history, the result, the
help, the email board, the web board's words, the options and the reasons a move or an option is refused.

A sentence read in Hungarian or German must not be the English one (an untranslated message would
leak through as English), and the names must be the glossary's, never the English ones.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import games.halali
from games.base import IllegalMove, InvalidOptions
from games.halali import ENGINE, tiles
from games.halali.names import grid_letter, tile_word
from games.i18n import in_english, language

from . import act, picture, position

NAMES = ["Alice", "Bob"]
VIEWERS = (0, 1, None)
TRANSLATED = ("hu", "de")
ENGLISH_NAMES = ("Bear", "Fox", "Hunter", "Lumberjack", "Pheasant", "Duck", "Tree")
LOCALE = Path(games.halali.__file__).parent / "locale"
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def catalog_entries():
    for code in TRANSLATED:
        with (LOCALE / code / "LC_MESSAGES" / "game.po").open("rb") as source:
            catalog = read_po(source, locale=code)
        for message in catalog:
            if message.id:
                singular = message.id[0] if isinstance(message.id, tuple) else message.id
                yield pytest.param(code, message, id=f"{code}-{message.context or ''}-{singular[:40]}")


@pytest.mark.parametrize(("code", "message"), list(catalog_entries()))
def test_every_message_is_translated_not_fuzzy_and_keeps_its_placeholders(code, message):
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    assert not message.fuzzy
    assert all(strings), "untranslated"
    wanted = set().union(*(PLACEHOLDER.findall(text) for text in ids))
    for text in strings:
        assert set(PLACEHOLDER.findall(text)) == wanted, text


def test_both_catalogs_hold_the_same_messages():
    keys = {}
    for code in TRANSLATED:
        with (LOCALE / code / "LC_MESSAGES" / "game.po").open("rb") as source:
            keys[code] = {(m.context, m.id) for m in read_po(source, locale=code) if m.id}
    assert keys["hu"] == keys["de"] and len(keys["hu"]) > 250


def leaked(english: str, text: str) -> list[str]:
    """Return the English phrases (three words or more between punctuation) found in ``text``."""
    phrases = (phrase.strip() for phrase in re.split(r"[.,:;()·]", english))
    return [phrase for phrase in phrases if len(re.findall(r"[A-Za-z]{2,}", phrase)) >= 3 and phrase in text]


def played_match(seed: int = 7):
    """Return the states and events of a seeded random match played to its end."""
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES, ENGINE.validate_options(2, {"stall_limit": 20}), f"words-{seed}")
    steps = []
    while ENGINE.to_move(state):
        (seat,) = ENGINE.to_move(state)
        moves = ENGINE.legal_moves(state, seat)
        move = rng.choice(moves)
        before = state
        state, events = ENGINE.apply(state, seat, move)
        steps.append((before, seat, moves, events))
    return state, steps


@pytest.fixture(scope="module")
def match():
    return played_match()


def worded(code, call, *args):
    with language(code):
        return call(*args)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_event_of_a_match_reads_in_the_readers_language_for_each_seat_and_a_spectator(code, match):
    _, steps = match
    kinds = set()
    for _before, _seat, _moves, events in steps:
        for event in events:
            kinds.add(event.kind)
            for viewer in VIEWERS:
                english = worded("en", ENGINE.describe_event, event, NAMES, viewer)
                text = worded(code, ENGINE.describe_event, event, NAMES, viewer)
                assert text and text != english and not leaked(english, text), (event.kind, viewer, text)
                assert not any(name in text for name in ENGLISH_NAMES), text
    assert kinds >= {"flipped", "moved", "exited", "final_phase_started", "leg_ended", "leg_started", "match_ended"}


EVENTS_RARELY_PLAYED = [
    ("resigned", {"seat": 0, "winners": [1]}),
    ("passed", {"seat": 1, "final_left": 3}),
    ("passed", {"seat": 1, "final_left": None}),
    ("flip_required", {"seat": 0, "quiet": 20}),
    ("leg_ended", {"leg": 1, "blue": 0, "brown": 1, "reason": "side_cleared", "cleared": ["blue", "brown"],
                   "points": [20, 20], "tiles": [5, 6], "winners": [1]}),
    ("leg_ended", {"leg": 1, "blue": 0, "brown": 1, "reason": "side_cleared", "cleared": ["blue"],
                   "points": [20, 20], "tiles": [5, 5], "winners": []}),
    ("match_ended", {"winners": [0], "points": [40, 30], "tiles": [9, 9]}),
]


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize(("kind", "data"), EVENTS_RARELY_PLAYED)
def test_the_rarer_events_read_in_the_readers_language(code, kind, data):
    from games.base import Event

    for viewer in VIEWERS:
        english = worded("en", ENGINE.describe_event, Event(kind, data), NAMES, viewer)
        text = worded(code, ENGINE.describe_event, Event(kind, data), NAMES, viewer)
        assert text and text != english and not leaked(english, text), text


@pytest.mark.parametrize("code", TRANSLATED)
def test_moves_the_email_board_and_the_help_read_in_the_readers_language(code, match):
    _, steps = match
    for before, seat, moves, _events in steps[::9]:
        for move in moves:
            english = worded("en", ENGINE.describe_move, before, move)
            text = worded(code, ENGINE.describe_move, before, move)
            assert text
            if "flip" in move or "pass" in move or move.get("to") == "out":
                assert text != english, text
        for viewer in VIEWERS:
            view = ENGINE.view(before, viewer)
            english_lines = worded("en", ENGINE.view_text, view).splitlines()
            lines = worded(code, ENGINE.view_text, view).splitlines()
            sentences = [i for i, line in enumerate(english_lines) if re.search(r"[a-z]{3} [a-z]{3}", line)]
            assert sentences and all(lines[i] != english_lines[i] for i in sentences)
            assert not any(leaked(english_lines[i], lines[i]) for i in sentences)
        summary = worded(code, ENGINE.moves_summary, [worded(code, ENGINE.describe_move, before, m) for m in moves])
        assert summary
    assert worded(code, ENGINE.notation_help) != worded("en", ENGINE.notation_help)


@pytest.mark.parametrize("code", ("en", *TRANSLATED))
def test_the_email_boards_letters_are_those_its_legend_explains(code, match):
    state, _ = match
    with language(code):
        text = ENGINE.view_text(ENGINE.view(state, 0))
        legend = next(line for line in text.splitlines() if "##" in line and ".." in line)
        for kind in tiles.KINDS:
            letters = grid_letter(kind)[:1] if kind == tiles.HUNTER else grid_letter(kind)
            assert f"{letters} {tile_word(kind)}" in legend, (kind, legend)
        assert len({grid_letter(kind) for kind in tiles.KINDS}) == len(tiles.KINDS)


def leaves(value, path=()):
    """Yield (path, text) for every text in a board_data value, but the machine codes it carries along."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("kind", "how"):
                yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    elif isinstance(value, str):
        yield path, value


def board_words(code, view, moves):
    with language(code):
        listed = [{"move": m, "text": ENGINE.describe_move(view["_state"], m), "json": ""} for m in moves]
        return ENGINE.board_data({k: v for k, v in view.items() if k != "_state"}, listed)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_of_the_board_reads_in_the_readers_language(code, match):
    state, steps = match
    positions = []
    for before, seat, moves, _events in steps[:: max(1, len(steps) // 12)]:
        positions.append(({**ENGINE.view(before, seat), "_state": before}, moves))
        positions.append(({**ENGINE.view(before, None), "_state": before}, []))
    positions.append(({**ENGINE.view_after_end(steps[40][0]), "_state": steps[40][0]}, []))
    positions.append(({**ENGINE.view(state, 0), "_state": state}, []))
    seen = set()
    for view, moves in positions:
        english = dict(leaves(board_words("en", view, moves)))
        worded_words = dict(leaves(board_words(code, view, moves)))
        assert worded_words.keys() == english.keys()
        for path, text in worded_words.items():
            if not english[path]:  # a line this position has no use for (no straight back to show)
                assert not text, path
                continue
            assert text != english[path] and not leaked(english[path], text), (path, text)
            assert not any(name in text for name in ENGLISH_NAMES), (path, text)
            seen.add(path[0])
    assert seen >= {"words", "script", "status", "tiles", "down", "dests", "gates", "seats", "legs", "unrevealed",
                    "revealed", "no_return"}


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_result_and_its_breakdown_read_in_the_readers_language(code, match):
    state, _ = match
    result = ENGINE.result(state)
    with in_english():
        assert ENGINE.describe_result(result, NAMES) == result["summary"]
    text = worded(code, ENGINE.describe_result, result, NAMES)
    assert text and text != result["summary"]
    for english, row in zip(worded("en", ENGINE.score_breakdown, state), worded(code, ENGINE.score_breakdown, state)):
        assert row["label"] and row["label"] != english["label"] and row["points"] == english["points"]


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize(
    "result",
    [
        {"winners": [], "scores": [15, 15], "tiles": [2, 2], "draw": True,
         "legs": [{"leg": 1, "points": [10, 5]}, {"leg": 2, "points": [5, 10]}]},
        {"winners": [1], "scores": [20, 20], "tiles": [3, 6], "draw": False,
         "legs": [{"leg": 1, "points": [10, 10]}, {"leg": 2, "points": [10, 10]}]},
        {"winners": [1], "scores": [0, 0], "tiles": [0, 0], "draw": False, "legs": [], "resigned": 0},
    ],
)
def test_every_kind_of_result_is_worded_for_the_reader(code, result):
    english = worded("en", ENGINE.describe_result, result, NAMES)
    text = worded(code, ENGINE.describe_result, result, NAMES)
    assert text and text != english
    assert ("Bob" in text) == bool(result["winners"])


def test_the_stored_summary_stays_english_whatever_the_readers_language():
    state, _ = played_match(3)
    with language("hu"):
        hungarian = ENGINE.result(state)
    assert hungarian == ENGINE.result(state)
    assert re.fullmatch(r"(Alice|Bob) wins \d+–\d+( on tiles \(\d+–\d+\))? \(leg 1 \d+–\d+, leg 2 \d+–\d+\)|"
                        r"Draw .*", hungarian["summary"])


def refusals():
    """Yield the reasons a few illegal moves and options are refused."""
    state = position(picture({"c4": "HN", "e4": "L", "d5": "F", "d3": "B", "c3": "D", "a1": "t"}))
    for move in ({"from": "c4", "to": "c5"}, {"flip": "c4"}, {"from": "d3", "to": "d1"}, {"from": "d5", "to": "f5"},
                 {"from": "a1", "to": "a2"}, {"from": "d5", "to": "d5"}, {"from": "d5", "to": "out", "exit": "N"},
                 "flip c5", {"card": 1}):
        try:
            act(state, move)
        except IllegalMove as error:
            yield error.reason
    try:
        ENGINE.apply(state, 1, {"flip": "a1"})
    except IllegalMove as error:
        yield error.reason
    for players, options in ((3, {}), (2, {"colour": "blue"}), (2, {"layout": ["wolf"] * 48}), (2, {"stall_limit": -1})):
        try:
            ENGINE.validate_options(players, options)
        except InvalidOptions as error:
            yield error.reason


@pytest.mark.parametrize("code", TRANSLATED)
def test_refusals_are_worded_in_the_readers_language(code):
    english = worded("en", lambda: list(refusals()))
    reasons = worded(code, lambda: list(refusals()))
    assert len(english) == len(reasons) == 13
    for before, after in zip(english, reasons):
        assert after and after != before, after


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_name_summary_and_option_labels_read_in_the_readers_language(code):
    assert worded(code, ENGINE.display_name)
    assert worded(code, ENGINE.display_summary) != ENGINE.summary
    english = worded("en", ENGINE.worded_option_specs)
    for before, after in zip(english, worded(code, ENGINE.worded_option_specs)):
        assert after.name == before.name and after.default == before.default
        assert after.label != before.label and after.help != before.help
        assert [value for value, _ in after.choices] == [value for value, _ in before.choices]
        assert all(label != old for (_, label), (_, old) in zip(after.choices, before.choices))


def test_how_to_play_is_written_for_each_language_with_the_same_parts():
    texts = {code: worded(code, ENGINE.how_to_play) for code in ("en", *TRANSLATED)}
    assert len(set(texts.values())) == 3
    parts = {code: re.findall(r"^\*\*[^*]+\*\*", text, re.M) for code, text in texts.items()}
    assert all(len(found) == len(parts["en"]) == 4 for found in parts.values())
    assert "Jäger" in texts["de"] and "Holzfäller" in texts["de"]
    assert "vadász" in texts["hu"] and "favágó" in texts["hu"]
