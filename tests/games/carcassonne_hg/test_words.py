"""Everything the game says, worded in Hungarian and German: the history, the email text and picture, the board,
the result, the breakdown, refusals and options; and nothing stored or viewed holds a word."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from PIL import Image

from games.base import Event, IllegalMove, InvalidOptions
from games.carcassonne_hg import ENGINE, history
from games.i18n import language

from . import ALICE, BOB, game, position

NAMES = ["Anna", "Bence", "Csilla"]
VIEWERS = (0, 1, 2, None)
LANGUAGES = ("hu", "de")
# English words that would show an English sentence leaking through untranslated.
ENGLISH = re.compile(r"\b(the|and|with|tiles?|scores?|places|draws|puts|meadow|forest|river|lake|hunter|gatherer"
                     r"|fisherman|hut|nobody|points?|turned|left|you|your)\b")

EVENTS = [
    Event("tile_drawn", {"seat": 0, "tile": "R-L07", "bonus": False, "left": 5}),
    Event("tile_drawn", {"seat": 1, "tile": "R-B88-shaman", "bonus": True, "left": 1}),
    Event("tile_discarded", {"seat": 0, "tile": "R-L07", "bonus": False, "then": "end_turn"}),
    Event("tile_discarded", {"seat": 0, "tile": "R-B84-plain-mammoth", "bonus": True, "then": "redraw"}),
    Event("tile_placed", {"seat": 1, "tile": "R-L07", "x": -1, "y": 0, "rot": 270, "bonus": False}),
    Event("piece_placed", {"seat": 1, "kind": "fisherman", "x": -1, "y": 0, "region": "r5", "feature": "river E"}),
    Event("piece_placed", {"seat": 0, "kind": "hunter", "x": 0, "y": 1, "region": "m0", "feature": "meadow"}),
    Event("piece_placed", {"seat": 2, "kind": "gatherer", "x": 2, "y": 1, "region": "f3", "feature": "forest NW"}),
    Event("piece_placed", {"seat": 0, "kind": "hut", "x": 0, "y": -1, "region": "l8", "feature": "lake"}),
    Event("piece_placed", {"seat": 1, "kind": "hut", "x": 1, "y": -1, "region": "r1", "feature": "river N"}),
    Event("piece_recalled", {"seat": 0, "kind": "hunter", "x": 0, "y": 1, "region": "m0"}),
    Event("logboat_scored", {"seat": 0, "lakes": 2, "points": 4}),
    Event("hunting_trap_scored", {"seat": 0, "scorers": [0], "points": 5, "eaten": 1, "cancelled": [],
                                  "animals": {"deer": 2, "aurochs": 1, "mammoth": 0, "tiger": 1}}),
    Event("hunting_trap_scored", {"seat": 1, "scorers": [], "points": 0, "eaten": 0, "cancelled": [],
                                  "animals": {"deer": 0, "aurochs": 0, "mammoth": 0, "tiger": 0}}),
    Event("feature_completed", {"feature": "forest", "tiles": 3, "x": 0, "y": 1, "points": 8, "scorers": [0, 1],
                                "parts": 3, "mushrooms": 1, "menhirs": 1,
                                "returned": [{"seat": 0, "kind": "gatherer", "x": 0, "y": 1}]}),
    Event("feature_completed", {"feature": "river", "tiles": 2, "x": -1, "y": 0, "fish": 2, "lakes": 2,
                                "points": 4, "scorers": [], "returned": []}),
    Event("bonus_earned", {"seat": 0, "available": 3}),
    Event("bonus_earned", {"seat": 1, "available": 0}),
    Event("meadow_scored", {"x": 0, "y": 1, "region": "m0", "tiles": 4, "deer": 3, "aurochs": 1, "mammoth": 1,
                            "tiger": 2, "eaten": 2, "fire": True, "points": 7, "pit_trap": 2, "scorers": [1],
                            "shrine": True}),
    Event("river_system_scored", {"x": 0, "y": 0, "region": "l8", "fish": 4, "lakes": 2, "raft": True, "points": 6,
                                  "scorers": [0, 2]}),
    Event("player_left", {"seat": 2}),
    Event("tile_passed", {"seat": 0, "tile": "R-L07"}),
    Event("game_ended", {"scores": [10, 12, 3], "winners": [1], "unscored": []}),
    Event("game_ended", {"scores": [12, 12, 3], "winners": [0, 1], "unscored": []}),
    Event("game_ended", {"scores": [10, 12, 3], "winners": [0], "reason": "resigned"}),
]


def played(seed: int = 4, players: int = 3) -> tuple[dict, list[Event]]:
    """Play a seeded random game to its end, pieces often; return the last state and every event."""
    state = ENGINE.setup(NAMES[:players], {}, seed=f"words-{seed}")
    rng = random.Random(seed)
    events: list[Event] = []
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_move(state)
        legal = ENGINE.legal_moves(state, seat)
        pieces = [move for move in legal if "piece" in move]
        state, new = ENGINE.apply(state, seat, rng.choice(pieces if pieces and rng.random() < 0.7 else legal))
        events += new
    return state, events


def worded(code: str, function, *args):
    with language(code):
        return function(*args)


def assert_translated(english: str, translated: str, *, template: bool = False) -> None:
    """A sentence is worded in the reader's language: not empty, not the English, no English word, no placeholder
    (a template keeps its placeholders)."""
    assert translated.strip() and translated != english, (english, translated)
    assert not ENGLISH.search(re.sub(r"{\w+}", "", translated)), translated
    assert template or "{" not in translated, translated


def test_the_table_covers_every_kind_of_event():
    assert {event.kind for event in EVENTS} == set(history._WORDING)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_event_is_worded_for_each_seat_and_spectators(code):
    _, events = played()
    for event in EVENTS + events:
        for viewer in VIEWERS:
            english = ENGINE.describe_event(event, NAMES, viewer)
            assert_translated(english, worded(code, ENGINE.describe_event, event, NAMES, viewer))


@pytest.mark.parametrize(("viewer", "line"), [
    (0, "Bence a tábla -1,0 mezőjére (270°-kal elforgatva) rakott egy folyós lapkát, amelyen egy tó (1 hal) és egy "
        "tigris van."),
    (1, "A tábla -1,0 mezőjére (270°-kal elforgatva) raktál egy folyós lapkát, amelyen egy tó (1 hal) és egy tigris "
        "van."),
])
def test_the_hungarian_history_is_told_in_the_past_addressing_the_reader(viewer, line):
    assert worded("hu", ENGINE.describe_event, EVENTS[4], NAMES, viewer) == line


def test_scorers_agree_with_their_verb_you_among_them_or_not():
    scored = EVENTS[19]  # the river system: seats 0 and 2
    assert worded("de", ENGINE.describe_event, scored, NAMES, 0).endswith(": Du und Csilla habt je 6 Punkte bekommen.")
    assert worded("de", ENGINE.describe_event, scored, NAMES, 1).endswith(": Anna und Csilla haben je 6 Punkte bekommen.")
    assert worded("hu", ENGINE.describe_event, scored, NAMES, 2).endswith(": Anna és te fejenként 6 pontot kaptatok.")
    assert worded("hu", ENGINE.describe_event, EVENTS[18], NAMES, None).endswith(": Bence 7 pontot kapott.")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_email_text_result_and_breakdown_are_worded(code):
    state, _ = played()
    for viewer in VIEWERS:
        view = ENGINE.view(state, viewer)
        english, translated = ENGINE.view_text(view), worded(code, ENGINE.view_text, view)
        assert_translated(english, translated)
    middle = game(["R-L15", "R-L62"])
    assert_translated(ENGINE.view_text(ENGINE.view(middle, 0)), worded(code, ENGINE.view_text, ENGINE.view(middle, 0)))
    result = ENGINE.result(state)
    assert_translated(ENGINE.describe_result(result, NAMES), worded(code, ENGINE.describe_result, result, NAMES))
    for english, translated in zip(ENGINE.score_breakdown(state), worded(code, ENGINE.score_breakdown, state)):
        assert_translated(english["label"], translated["label"])
        assert english["points"] == translated["points"]


def test_a_win_by_the_others_leaving_says_so():
    result = {"winners": [2], "scores": [9, 7, 4], "ranking": [2, 0, 1]}
    assert ENGINE.describe_result(result, NAMES) == "Csilla wins: the players ahead left the game (Csilla 4, Anna 9, Bence 7)"
    assert worded("hu", ENGINE.describe_result, result, NAMES).startswith(
        "Csilla nyert, mert a több pontot szerzők kiléptek a játszmából")


@pytest.mark.parametrize("code", LANGUAGES)
def test_nothing_stored_or_viewed_depends_on_the_language(code):
    state, events = played(seed=5, players=2)
    english = [event.to_json() for event in events]
    with language(code):
        again, worded_events = played(seed=5, players=2)
        assert again == state and [event.to_json() for event in worded_events] == english
        assert ENGINE.result(again) == ENGINE.result(state) and ENGINE.result(again)["summary"].split(" ")[1] == "wins"
        for viewer in (0, 1, None):
            assert json.dumps(ENGINE.view(again, viewer)) == json.dumps(ENGINE.view(state, viewer))
        assert json.dumps(ENGINE.view_after_end(again)) == json.dumps(ENGINE.view_after_end(state))
    revealed = ENGINE.view_after_end(game(["R-L15", "R-L62"]))["revealed"]
    assert revealed["stack"] == [{"tile": "R-L62"}]


def _board(state, seat, code):
    view = ENGINE.view(state, seat)
    with language(code):
        moves = [{"move": move, "text": ENGINE.describe_move(state, move), "json": json.dumps(move)}
                 for move in ENGINE.legal_moves(state, seat)]
        return ENGINE.board_data(view, moves)


def _strings(value, path=()):
    """Yield (path, text) for every text of the board's words, leaving out letters, codes and names."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("piece_letters", "power_letters", "name", "names", "tile", "kind", "region"):
                yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        if path and path[-1] == "animals":
            value = [name for _code, name in value]
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))
    elif isinstance(value, str) and value:
        yield path, value


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_word_on_the_board_is_worded(code):
    during = position([(0, 1, "R-L62", 0)], "R-L00", pieces=[(ALICE, "hunter", 0, 1, "m0"), (BOB, "hut", 0, 0, "l8")],
                      stack=["R-L15"])
    over, _ = played(seed=6, players=2)
    parts = ("words", "text", "script")
    for state, seat in ((during, ALICE), (during, None), (over, 0)):
        english = dict(_strings({part: _board(state, seat, "en")[part] for part in parts}))
        translated = dict(_strings({part: _board(state, seat, code)[part] for part in parts}))
        assert english.keys() == translated.keys() and len(english) > 80
        for path, text in english.items():
            if path[-1] == "detail":  # counts of things: "1 menhir" is Hungarian too
                assert not ENGLISH.search(translated[path])
            else:
                assert_translated(text, translated[path], template=path[0] == "script")
    after = ENGINE.view_after_end(game(["R-L15", "R-L62"]))
    with language(code):
        names = [entry["name"] for entry in ENGINE.board_data(after, [])["text"]["revealed"]["stack"]]
    assert names and not ENGLISH.search(names[0])


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_email_picture_draws_the_readers_words(code):
    state, _ = played(seed=7, players=2)
    view = ENGINE.view(state, 0)
    english, translated = ENGINE.view_picture(view), worded(code, ENGINE.view_picture, view)
    assert translated != english and worded(code, ENGINE.view_picture, view) == translated
    assert Image.open(io.BytesIO(translated)).size == Image.open(io.BytesIO(english)).size


@pytest.mark.parametrize("code", LANGUAGES)
def test_refusals_options_and_the_name_are_worded(code):
    state = game(["R-L15", "R-L62"])
    refused = [
        (BOB, {"x": -1, "y": 0, "rot": 0}),  # not Bob's turn
        (ALICE, {"x": 0, "y": 0, "rot": 0}),  # the start tile is there
        (ALICE, {"x": 1, "y": 0, "rot": 0}),  # a river edge against the start's forest
        (ALICE, {"x": -1, "y": 0, "rot": 0, "piece": "gatherer", "region": "m0"}),
    ]
    for seat, move in refused:
        reasons = []
        for each in ("en", code):
            with language(each), pytest.raises(IllegalMove) as error:
                ENGINE.apply(state, seat, move)
            reasons.append(error.value.reason)
        assert_translated(*reasons)
    taken = position([(0, 1, "R-L62", 0)], "R-L37", pieces=[(BOB, "hunter", 0, 1, "m0")])
    with language(code), pytest.raises(IllegalMove) as error:
        ENGINE.apply(taken, ALICE, {"x": 1, "y": 1, "rot": 0, "piece": "hunter", "region": "m0"})
    assert not ENGLISH.search(error.value.reason)
    with language(code), pytest.raises(InvalidOptions) as error:
        ENGINE.validate_options(6, {})
    assert "players" not in error.value.reason
    for english, translated in zip(ENGINE.worded_option_specs(), worded(code, ENGINE.worded_option_specs)):
        assert english.name == translated.name and english.default == translated.default
        for one, other in [(english.label, translated.label), (english.help, translated.help),
                           *[(a[1], b[1]) for a, b in zip(english.choices, translated.choices)]]:
            assert other and other != one, (one, other)
    assert worded(code, ENGINE.display_name) == {"hu": "Carcassonne: Vadászok és gyűjtögetők",
                                                 "de": "Carcassonne – Jäger und Sammler"}[code]
    assert_translated(ENGINE.display_summary(), worded(code, ENGINE.display_summary))
