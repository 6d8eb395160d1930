"""The engine contract, checked for every installed game (OpenSpiel's random_sim_test, in spirit).

Seeded random games end within a move cap; every legal move applies; state,
moves, views and events survive JSON; replaying seed + moves reproduces every
state; apply never mutates its input and writes states ``upcast`` leaves as
they are; every legal move's notation parses back to it; views never carry the
seed, and events name only real seats; the score breakdown adds up to the
scores, after play and after a resignation; static assets are JSON that no state
decides (so they hold nothing hidden) and no view repeats; every text is worded
in the reader's language while nothing stored changes with it, and every move's
notation in every language reads back, as its English does.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

import games
import games.i18n
from games.base import Engine, Event, IllegalMove, InvalidOptions

MOVE_CAP = 5000
SEEDS = (0, 1, 2)
# At most this many of a state's legal moves are written, read back and applied (``_candidates``).
CANDIDATES_CHECKED = 16
ENGINES = list(games.engines().values())


def roundtrip(value):
    """Return ``value`` after a JSON round trip (asserting nothing was lost)."""
    text = json.dumps(value, allow_nan=False)
    again = json.loads(text)
    assert again == value
    return again


def player_counts(engine: Engine) -> list[int]:
    """Return the playable player counts to try with default options."""
    counts = []
    for n in range(engine.min_players, engine.max_players + 1):
        try:
            engine.validate_options(n, {})
        except InvalidOptions:
            continue
        counts.append(n)
    return counts


def play_random(engine: Engine, players: list[str], seed: str, choices: int):
    """Yield (state, seat, move, next_state, events) for a seeded random game."""
    rng = random.Random(choices)
    options = engine.validate_options(len(players), {})
    state = engine.setup(players, options, seed)
    for _ in range(MOVE_CAP):
        seats = engine.to_move(state)
        if not seats:
            return
        seat = rng.choice(seats)
        move = rng.choice(engine.legal_moves(state, seat))
        after, events = engine.apply(state, seat, move)
        yield state, seat, move, after, events
        state = after
    pytest.fail(f"{engine.slug}: no result after {MOVE_CAP} moves")


def assert_breakdown_adds_up(engine: Engine, state, result: dict, n: int) -> None:
    """Check the score breakdown: labelled rows of one number per seat whose counted rows add up to the scores."""
    rows = roundtrip(engine.score_breakdown(state))
    assert rows, f"{engine.slug}: no score breakdown at the end"
    for row in rows:
        assert set(row) == {"label", "points", "counts"} and row["label"].strip(), row
        assert len(row["points"]) == n and all(isinstance(p, int) for p in row["points"]), row
    totals = [sum(row["points"][seat] for row in rows if row["counts"]) for seat in range(n)]
    assert totals == result["scores"], f"{engine.slug}: the breakdown adds up to {totals}, not {result['scores']}"


def _candidates(legal: list, seed: int, number: int) -> list:
    """Return the legal moves whose notation and application are checked at one state: every one when few, else a
    seeded sample (a Carcassonne tile's placements run to hundreds; three seeds a game reach plenty of them)."""
    if len(legal) <= CANDIDATES_CHECKED:
        return legal
    return random.Random(f"{seed}-{number}").sample(legal, CANDIDATES_CHECKED)


def cases():
    """Every engine at every player count, with each seed: make test plays one seeded game of each (the seeds in
    turn, so each seed is played); make test-long plays every seed of each."""
    counts = [(engine, n) for engine in ENGINES for n in player_counts(engine)]
    return [
        pytest.param(engine, n, seed, id=f"{engine.slug}-{n}p-seed{seed}",
                     marks=() if seed == SEEDS[number % len(SEEDS)] else pytest.mark.long)
        for number, (engine, n) in enumerate(counts)
        for seed in SEEDS
    ]


def test_every_engine_is_registered_by_slug():
    assert ENGINES, "no engine installed"
    for engine in ENGINES:
        assert games.get_engine(engine.slug) is engine
        assert engine.name and engine.min_players <= engine.default_players <= engine.max_players
        roundtrip([spec.to_json() for spec in engine.option_specs])
        assert engine.notation_help().strip()


@pytest.mark.parametrize(("engine", "n", "seed"), cases())
def test_seeded_random_game_obeys_the_contract(engine: Engine, n: int, seed: int):
    """make test: a seeded random game of every engine at every player count (``cases``); make test-long: three."""
    players = [f"Player{i}" for i in range(n)]
    secret = f"contract-secret-seed-{seed}"
    initial = engine.setup(players, engine.validate_options(n, {}), secret)
    assert roundtrip(initial) == initial
    assert engine.setup(players, engine.validate_options(n, {}), secret) == initial
    log = []
    final = initial
    for state, seat, move, after, events in play_random(engine, players, secret, seed):
        assert engine.result(state) is None
        assert engine.score_breakdown(state) == [], "a breakdown before the end"
        snapshot = copy.deepcopy(state)
        legal = engine.legal_moves(state, seat)
        roundtrip(legal)
        for other in range(n):
            if other not in engine.to_move(state):
                assert engine.legal_moves(state, other) == []
                with pytest.raises(IllegalMove):
                    engine.apply(state, other, legal[0])
        for candidate in _candidates(legal, seed, len(log)):
            text = engine.describe_move(state, candidate)
            assert engine.parse_move(text, state, seat) == candidate, text
            engine.apply(state, seat, candidate)
        for leaving in range(n):
            engine.resign(state, leaving)
        assert state == snapshot, "apply, resign or a query mutated its input state"
        roundtrip(after)
        assert engine.upcast(after) is after, "the engine writes states in its current shape"
        for event in events:
            assert isinstance(event, Event)
            assert Event.from_json(roundtrip(event.to_json())) == event
            assert event.visible_to is None or all(0 <= s < n for s in event.visible_to)
            for viewer in [None, *range(n)]:
                assert isinstance(engine.describe_event(event, players, viewer), str)
        for viewer in [None, *range(n)]:
            view = roundtrip(engine.view(after, viewer))
            assert secret not in json.dumps(view), "a view exposes the seed"
        log.append((seat, move))
        final = after
    result = roundtrip(engine.result(final))
    assert set(result) >= {"winners", "scores", "ranking", "summary"}
    assert len(result["scores"]) == n and sorted(result["ranking"]) == list(range(n))
    assert engine.is_over(final) and engine.to_move(final) == []
    assert_breakdown_adds_up(engine, final, result, n)

    # Replaying seed + moves reproduces every state.
    state = engine.setup(players, engine.validate_options(n, {}), secret)
    for seat, move in log:
        state, _ = engine.apply(state, seat, roundtrip(move))
    assert state == final


@pytest.mark.parametrize("engine", list(games.engines().values()), ids=lambda engine: engine.slug)
def test_every_engine_renders_views_as_text_and_offers_a_move_summary(engine):
    names = [f"p{seat}" for seat in range(engine.default_players)]
    state = engine.setup(names, engine.validate_options(len(names), {}), "text")
    for seat in [None, *range(len(names))]:
        text = engine.view_text(engine.view(state, seat))
        assert isinstance(text, str) and text.strip()
    seat = engine.to_move(state)[0]
    texts = [engine.describe_move(state, move) for move in engine.legal_moves(state, seat)]
    summary = engine.moves_summary(texts)
    assert summary and all(isinstance(line, str) for line in summary)
    assert engine.notation_help().strip()


ASSET_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
REPEATED = 100  # characters of JSON: a part of an asset at least this long must not reappear in a view


def parts_of(value, found: set[str]) -> set[str]:
    """Add the JSON of every object and array inside ``value`` that is at least ``REPEATED`` long."""
    if isinstance(value, (dict, list)):
        text = json.dumps(value, sort_keys=True)
        if len(text) >= REPEATED:
            found.add(text)
        for item in value.values() if isinstance(value, dict) else value:
            parts_of(item, found)
    return found


def scramble(value) -> None:
    """Change every object and array inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            scramble(item)
        value["scrambled"] = True
    elif isinstance(value, list):
        for item in value:
            scramble(item)
        value.append("scrambled")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_every_engine_offers_assets_that_no_state_decides_and_no_view_repeats(engine):
    assets = engine.assets()
    assert isinstance(assets, dict)
    for name, value in assets.items():
        assert isinstance(name, str) and ASSET_NAME.fullmatch(name), f"{name!r}: lowercase words joined by hyphens"
        roundtrip(value)
    written = json.dumps(assets, sort_keys=True)
    scramble(assets)
    assert json.dumps(engine.assets(), sort_keys=True) == written, "each call returns the same assets, as a copy"
    shared = set().union(*(parts_of(value, set()) for value in engine.assets().values()))
    players = [f"Player{i}" for i in range(engine.default_players)]
    for seed in SEEDS[:2]:
        for _state, _seat, _move, after, _events in play_random(engine, players, f"assets-{seed}", seed):
            for viewer in [None, *range(len(players))]:
                repeated = parts_of(engine.view(after, viewer), set()) & shared
                assert not repeated, f"a view repeats asset data (name the asset instead): {min(repeated)[:80]}"
    assert json.dumps(engine.assets(), sort_keys=True) == written, "the assets changed with the games played"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_the_score_breakdown_adds_up_after_a_resignation(engine: Engine):
    players = ["Ann", "Bob"]
    state = engine.setup(players, engine.validate_options(2, {}), "resign-breakdown")
    rng = random.Random(7)
    for _ in range(6):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    state, _ = engine.resign(state, 1)
    result = engine.result(state)
    assert result is not None and result["winners"] == [0]
    assert_breakdown_adds_up(engine, state, result, 2)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_supported_version_is_selectable_and_no_other(engine):
    assert engine.supported_versions == tuple(sorted(set(engine.supported_versions)))
    assert engine.supported_versions[-1] == engine.version
    assert games.engine_at(engine.slug, engine.version) is engine
    for version in engine.supported_versions:
        played = games.engine_at(engine.slug, version)
        assert (played.slug, played.version) == (engine.slug, version)
        assert games.engine_at(engine.slug, version) is played  # one instance per version, per process
    for wrong in (0, engine.version + 1, str(engine.version), True, None):
        with pytest.raises(games.UnknownEngineVersion, match=engine.slug):
            games.engine_at(engine.slug, wrong)
    assert engine.version == type(engine).version  # selecting an old version never changes the newest


def assert_spectator_view_inside(after_end: dict, spectator: dict) -> None:
    """Check that the full reveal holds everything a spectator sees: the same keys, the same values or more."""
    for key, value in spectator.items():
        assert key in after_end, f"the view after the end lacks {key!r}"
        if isinstance(value, dict) and isinstance(after_end[key], dict):
            assert value.items() <= after_end[key].items(), f"the view after the end changes {key!r}"
        else:
            assert after_end[key] == value, f"the view after the end changes {key!r}"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_the_view_after_the_end_is_json_holding_the_spectators_view_and_never_the_seed(engine: Engine):
    players = [f"Player{i}" for i in range(engine.default_players)]
    secret = "view-after-end-secret-seed"
    for state, _seat, _move, after, _events in play_random(engine, players, secret, 5):
        for position in (state, after):
            shown = roundtrip(engine.view_after_end(position))
            assert secret not in json.dumps(shown), "the view after the end exposes the seed"
            assert_spectator_view_inside(shown, engine.view(position, None))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_the_default_view_after_the_end_is_the_spectators(engine: Engine):
    """A game that does not say what its end reveals shows no more than a spectator sees."""
    state = engine.setup(["Ann", "Bob"][: max(2, engine.min_players)], engine.validate_options(2, {}), "default")
    assert Engine.view_after_end(engine, state) == engine.view(state, None)


# -- words ------------------------------------------------------------------------------------------------------
LANGUAGES = ("hu", "de")


def _a_finished_game(engine: Engine, n: int, seed: int):
    """Return (states, moves, final state, every event) of a seeded random game, played to its end."""
    moves, events, state = [], [], None
    for state, seat, move, after, produced in play_random(engine, [f"p{i}" for i in range(n)], f"words{seed}", seed):
        moves.append((state, seat, move))
        events.extend(produced)
        state = after
    return moves, state, events


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_every_engine_words_its_texts_in_the_readers_language_and_stores_none(engine: Engine):
    """Names, options, rules, history, moves, results: another language gives other words for the same facts,
    while states, events, views and results (but the record's English summary) are the same in every language."""
    n = engine.min_players
    with games.i18n.language("en"):
        moves, final, events = _a_finished_game(engine, n, 0)
        english = {
            "name": engine.display_name(), "summary": engine.display_summary(), "rules": engine.how_to_play(),
            "options": [spec.to_json() for spec in engine.worded_option_specs()], "help": engine.notation_help(),
            "history": [engine.describe_event(event, [f"p{i}" for i in range(n)], seat)
                        for event in events for seat in (None, *range(n)) if event.visible_for(seat)],
            "result": engine.describe_result(engine.result(final), [f"p{i}" for i in range(n)]),
        }
        # The reader's line names every winner, as the record's English summary does.
        result = engine.result(final)
        assert all(f"p{seat}" in english["result"] for seat in result["winners"]), english["result"]
    for language in LANGUAGES:
        with games.i18n.language(language):
            again, final_again, events_again = _a_finished_game(engine, n, 0)
            assert [move for _, _, move in again] == [move for _, _, move in moves]
            assert final_again == final and [e.to_json() for e in events_again] == [e.to_json() for e in events]
            assert engine.result(final_again)["summary"] == engine.result(final)["summary"]
            worded = {
                "name": engine.display_name(), "summary": engine.display_summary(), "rules": engine.how_to_play(),
                "options": [spec.to_json() for spec in engine.worded_option_specs()],
                "help": engine.notation_help(),
                "history": [engine.describe_event(event, [f"p{i}" for i in range(n)], seat)
                            for event in events for seat in (None, *range(n)) if event.visible_for(seat)],
                "result": engine.describe_result(engine.result(final), [f"p{i}" for i in range(n)]),
            }
        for part in ("summary", "rules", "help", "result"):
            assert worded[part] and worded[part] != english[part], f"{engine.slug}: {part} not worded in {language}"
        assert [o["name"] for o in worded["options"]] == [o["name"] for o in english["options"]]
        assert [[c["value"] for c in o["choices"]] for o in worded["options"]] == [
            [c["value"] for c in o["choices"]] for o in english["options"]]
        if english["options"]:
            assert [o["label"] for o in worded["options"]] != [o["label"] for o in english["options"]]
        changed = sum(one != two for one, two in zip(english["history"], worded["history"]))
        assert changed >= len(english["history"]) * 0.9, f"{engine.slug}: history lines left English in {language}"


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_every_moves_notation_in_every_language_reads_back_and_english_reads_too(engine: Engine, language: str):
    n = engine.min_players
    players = [f"p{i}" for i in range(n)]
    for state, seat, _move, _after, _events in list(play_random(engine, players, "notation", 3))[:60]:
        for move in engine.legal_moves(state, seat)[:40]:
            with games.i18n.language(language):
                text = engine.describe_move(state, move)
                assert engine.parse_move(text, state, seat) == move, (language, text, move)
            with games.i18n.in_english():
                english = engine.describe_move(state, move)
            with games.i18n.language(language):
                assert engine.parse_move(english, state, seat) == move, (language, english, move)


# -- what the platform hands an engine --------------------------------------------------------------------------
# The platform passes names and seats it checked itself; an engine checks them again, so a caller's slip (a string
# for the list of names, ``True`` for a seat) is refused in words rather than played as something else.
NOT_NAME_LISTS = ("ab", ["Ann", 2], ("Ann", "Bob"), None, {"Ann": 0, "Bob": 1})


@pytest.mark.parametrize("players", NOT_NAME_LISTS, ids=repr)
@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_setup_refuses_players_that_are_not_a_list_of_names(engine: Engine, players):
    # Two of anything: the player count alone would be playable, so only the check of the list refuses it.
    with pytest.raises(InvalidOptions):
        engine.setup(players, engine.validate_options(2, {}), "names")


def _seat_one_to_move(engine: Engine, players: list[str]):
    """Return a seeded position in which seat 1 is to move (``True`` and ``1.0`` would pass for it there)."""
    for _state, _seat, _move, after, _events in play_random(engine, players, "seat-one", 0):
        if 1 in engine.to_move(after):
            return after
    pytest.fail(f"{engine.slug}: seat 1 never came to move")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_a_seat_that_is_not_a_seat_number_is_refused_as_no_seat(engine: Engine):
    players = [f"p{i}" for i in range(engine.default_players)]
    state = _seat_one_to_move(engine, players)
    move = engine.legal_moves(state, 1)[0]
    snapshot = copy.deepcopy(state)
    for seat in (True, 1.0, -1, len(players), "1", None):
        with games.i18n.in_english():
            with pytest.raises(IllegalMove, match="no seat"):
                engine.apply(state, seat, move)
            with pytest.raises(IllegalMove, match="no seat"):
                engine.resign(state, seat)
    assert state == snapshot


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_a_move_out_of_turn_is_refused_naming_whose_turn_it_is(engine: Engine):
    players = ["Ann", "Ben", "Cid", "Dot", "Eve", "Fay"][:engine.default_players]
    state = engine.setup(players, engine.validate_options(len(players), {}), "out-of-turn")
    [mover] = engine.to_move(state)
    waiting = (mover + 1) % len(players)
    with games.i18n.in_english(), pytest.raises(IllegalMove) as refused:
        engine.apply(state, waiting, engine.legal_moves(state, mover)[0])
    assert players[mover] in refused.value.reason and players[waiting] not in refused.value.reason
