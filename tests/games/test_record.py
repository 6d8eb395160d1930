"""The game record's verifier: golden records verify forever; every kind of tampering is caught.

``tests/records/`` holds finished games of every engine (written once by ``python -m games.golden``).
They must replay to the same events and result for good, so a change to an engine that alters an old
game fails here: bump the engine's version and keep the old behaviour selectable instead (games/base.py).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import games
from games.base import RESIGN
from games.record import UNVERIFIABLE_PARTIAL, canonical_json, seed_commitment, verify_record

RECORDS = Path(__file__).resolve().parents[1] / "records"
GOLDEN = sorted(RECORDS.glob("*.json"))


def load(name: str) -> dict:
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def failed(report) -> dict[str, str]:
    return {name: detail for name, passed, detail in report.checks if not passed}


def test_there_are_golden_records():
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_every_golden_record_verifies(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    report = verify_record(record)
    assert report.ok, failed(report)
    assert report.verifiable
    assert [name for name, _, _ in report.checks] == [
        "format", "complete", "engine", "players", "options", "commitment", "seq", "seats", "moves", "events",
        "bots", "end", "result",
    ]


def test_every_version_of_every_engine_has_a_golden_record():
    """A new game, or a new version of one, must add a golden record (``python -m games.golden``)."""
    covered = set()
    for path in GOLDEN:
        game = json.loads(path.read_text(encoding="utf-8"))["game"]
        covered.add((game["engine"], game["engine_version"]))
        assert path.stem.startswith(game["engine"] + "-"), "records are named <slug>-<n>.json"
    wanted = {(slug, version) for slug, engine in games.engines().items() for version in engine.supported_versions}
    assert wanted <= covered, f"no golden record of {sorted(wanted - covered)}"


def test_the_golden_records_cover_resignations_bots_and_several_player_counts():
    records = [json.loads(path.read_text(encoding="utf-8")) for path in GOLDEN]
    assert any(entry["move"] == RESIGN for record in records for entry in record["moves"])
    assert any(entry["source"] == "bot" for record in records for entry in record["moves"])
    for slug, engine in games.engines().items():
        counts = {len(record["players"]) for record in records if record["game"]["engine"] == slug}
        assert len(counts) >= min(2, engine.max_players - engine.min_players + 1), slug


# -- tampering: each is caught, by the check that names it -------------------------------------------

SMALL = "love-letter-4.json"  # three players, a resignation, a bot: cheap to replay


@pytest.fixture
def record():
    return load(SMALL)


def assert_caught(record, check):
    report = verify_record(record)
    assert not report.ok
    assert report.verifiable
    assert check in failed(report), report.lines()
    return failed(report)[check]


def test_a_tampered_seed_is_caught(record):
    record["seed"] = record["seed"] + "x"
    assert "not to the published commitment" in assert_caught(record, "commitment")


def test_a_seed_with_a_matching_forged_commitment_still_fails_the_replay(record):
    record["seed"] = "another seed"
    game = record["game"]
    record["commitment"]["value"] = seed_commitment(seed="another seed", game_id=game["id"], engine=game["engine"],
                                                    engine_version=game["engine_version"])
    report = verify_record(record)
    assert not report.ok
    assert {"seats", "moves", "events"} & set(failed(report))


def test_a_tampered_commitment_is_caught(record):
    record["commitment"]["value"] = "0" * 64
    assert_caught(record, "commitment")


def another_legal_move(record, index):
    """Return a legal move at ``moves[index]``'s position other than the one logged."""
    game = record["game"]
    engine = games.engine_at(game["engine"], game["engine_version"])
    state = engine.setup([p["name"] for p in record["players"]], game["options"], record["seed"])
    for entry in record["moves"][:index]:
        state, _ = engine.play(state, entry["seat"], entry["move"])
    entry = record["moves"][index]
    others = [move for move in engine.legal_moves(state, entry["seat"]) if move != entry["move"]]
    assert others
    return others[0]


def test_a_tampered_move_is_caught(record):
    index = next(i for i, entry in enumerate(record["moves"]) if i > 3 and entry["move"] != RESIGN)
    record["moves"][index]["move"] = another_legal_move(record, index)
    detail = assert_caught(record, "events")
    assert detail.startswith(f"move {index + 1}:")


def test_a_move_the_engine_cannot_read_is_caught_not_raised(record):
    record["moves"][2]["move"] = {"nonsense": [1, 2, 3]}
    assert_caught(record, "moves")


def test_a_tampered_event_is_caught(record):
    index, event = next((i, e) for i, entry in enumerate(record["moves"])
                        for e in entry["events"] if e["visible_to"] is not None and i > 0)
    event["visible_to"] = None  # a private event passed off as public
    assert f"move {index + 1}:" in assert_caught(record, "events")


def test_a_tampered_event_value_is_caught(record):
    event = next(e for e in record["moves"][0]["events"] if e["visible_to"] is not None)
    event["data"]["seen"] = "princess" if event["data"]["seen"] != "princess" else "guard"  # the card a Priest saw
    assert "move 1:" in assert_caught(record, "events")


def test_an_added_or_removed_event_is_caught(record):
    record["moves"][5]["events"].append(copy.deepcopy(record["moves"][5]["events"][0]))
    assert "events logged but the replay gives" in assert_caught(record, "events")


def test_a_boolean_for_a_number_is_caught_although_python_calls_them_equal(record):
    entry = next(entry for entry in record["moves"] for event in entry["events"]
                 if any(value == 1 and type(value) is int for value in event["data"].values()))
    event = next(e for e in entry["events"] if any(v == 1 and type(v) is int for v in e["data"].values()))
    key = next(k for k, v in event["data"].items() if v == 1 and type(v) is int)
    event["data"][key] = True
    assert_caught(record, "events")


@pytest.mark.parametrize("change", [
    lambda result: result.update(winners=[1]),
    lambda result: result.update(summary="Ben wins 7–0"),
    lambda result: result.update(scores=[0, 0, 0]),
    lambda result: result.update(bot_played_seats=[]),
    lambda result: result.update(extra="a key the engine never wrote"),
    lambda result: result.update(left_seats=[7]),
], ids=["winners", "summary", "scores", "bot_played_seats", "extra-key", "left_seats"])
def test_a_tampered_result_is_caught(record, change):
    change(record["result"])
    assert_caught(record, "result")


def test_a_bots_move_for_a_seat_no_bot_holds_is_caught(record):
    """Issue 27: players[].bot was outside the proof."""
    record["players"][2]["bot"] = ""
    assert "no bot holds seat 2" in assert_caught(record, "bots")


def test_a_persons_move_after_a_bot_took_the_seat_is_caught(record):
    bots = [entry for entry in record["moves"] if entry["source"] == "bot"]
    later = next(entry for entry in record["moves"] if entry["seat"] == 2 and entry["seq"] > bots[0]["seq"])
    later["source"] = "web"
    assert "after a bot took seat 2" in assert_caught(record, "bots")


def test_a_person_named_a_bot_whose_moves_came_through_a_persons_door_is_caught(record):
    record["players"][0]["bot"] = "basic"
    first = next(entry for entry in record["moves"] if entry["seat"] == 0)
    first["source"] = "bot"  # as if a bot had played the seat, then its person again
    report = verify_record(record)
    assert not report.ok and {"bots", "result"} & set(failed(report))


def test_a_missing_result_is_caught(record):
    record["result"] = None
    assert_caught(record, "result")


def test_a_removed_move_is_caught(record):
    del record["moves"][10]
    assert "expected 11" in assert_caught(record, "seq")


def test_a_removed_move_with_the_rest_renumbered_is_caught(record):
    del record["moves"][10]
    for seq, entry in enumerate(record["moves"], start=1):
        entry["seq"] = seq
    report = verify_record(record)
    assert not report.ok
    assert {"seats", "moves", "events"} & set(failed(report))


def test_a_removed_last_move_is_caught(record):
    record["moves"].pop()
    assert "not over" in assert_caught(record, "end")


def test_a_move_by_the_wrong_seat_is_caught(record):
    entry = next(entry for entry in record["moves"][3:] if entry["move"] != RESIGN)
    entry["seat"] = (entry["seat"] + 1) % len(record["players"])
    assert "whose turn it was not" in assert_caught(record, "seats")


def test_a_seat_that_does_not_exist_is_caught(record):
    record["moves"][0]["seat"] = 7
    assert_caught(record, "seats")


def test_swapped_players_are_caught(record):
    players = record["players"]
    players[0]["name"], players[1]["name"] = players[1]["name"], players[0]["name"]
    report = verify_record(record)
    assert not report.ok  # the engine names the winner: the result (or an event) now differs
    assert {"events", "result"} & set(failed(report))


def test_seats_out_of_order_are_caught(record):
    players = record["players"]
    players[0], players[1] = players[1], players[0]
    assert_caught(record, "players")


def test_a_changed_engine_version_is_caught(record):
    assert record["game"]["engine_version"] == 2
    record["game"]["engine_version"] = 1  # a version that plays the same: the commitment binds the version
    assert "version 1" in assert_caught(record, "commitment")


def test_an_unknown_engine_version_is_caught(record):
    record["game"]["engine_version"] = 99
    assert "engine version 99" in assert_caught(record, "engine")


def test_a_changed_engine_is_caught(record):
    record["game"]["engine"] = "chess"
    assert "No engine called 'chess'" in assert_caught(record, "engine")


def test_a_changed_game_id_is_caught(record):
    record["game"]["id"] += 1
    assert_caught(record, "commitment")


def test_altered_options_are_caught(record):
    record["game"]["options"]["edition"] = "2019"  # another deck: the commitment does not bind options, the replay does
    report = verify_record(record)
    assert not report.ok
    assert {"seats", "moves", "events"} & set(failed(report))


def test_options_that_script_the_deal_mean_the_game_was_not_dealt_from_its_seed(record):
    record["game"]["options"]["first_player"] = 0
    assert "not dealt at random" in assert_caught(record, "options")


def test_options_the_engine_refuses_are_caught(record):
    record["game"]["options"]["edition"] = "1066"
    assert_caught(record, "options")


def test_a_finished_game_marked_still_in_play_is_caught(record):
    record["game"]["status"] = "active"
    assert_caught(record, "end")


# -- what is not tampering ------------------------------------------------------------------------


def test_a_partial_record_cannot_be_verified_until_the_end_and_is_not_called_tampered(record):
    partial = copy.deepcopy(record)
    partial.update(complete=False, viewer_seat=0, seed=None, result=None)
    partial["game"].update(status="active", finished_at=None)
    for entry in partial["moves"]:
        del entry["move"]
        entry["events"] = [event for event in entry["events"] if event["visible_to"] in (None, [0])]
    report = verify_record(partial)
    assert (report.ok, report.verifiable) == (False, False)
    assert failed(report) == {"complete": UNVERIFIABLE_PARTIAL}
    assert report.lines()[-1] == "verdict: cannot be verified"


def test_a_game_that_never_started_has_nothing_to_verify(record):
    record.update(commitment=None, seed=None, moves=[], result=None)
    record["game"].update(status="aborted", started_at=None)
    report = verify_record(record)
    assert (report.ok, report.verifiable) == (False, False)
    assert "never started" in failed(report)["complete"]


def test_a_game_aborted_in_play_verifies_up_to_where_it_stopped(record):
    record["moves"] = record["moves"][:12]
    record["result"] = None
    record["game"]["status"] = "aborted"
    report = verify_record(record)
    assert report.ok, failed(report)


def test_key_order_does_not_matter_as_stored_json_keeps_none(record):
    def reordered(value):
        if isinstance(value, dict):
            return {key: reordered(value[key]) for key in sorted(value, reverse=True)}
        if isinstance(value, list):
            return [reordered(item) for item in value]
        return value

    report = verify_record(reordered(record))
    assert report.ok, failed(report)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_the_engines_replay_a_golden_game_alike_from_states_whose_keys_are_reordered(path):
    """The platform stores states as jsonb, which sorts keys: an engine must not depend on their order."""
    record = json.loads(path.read_text(encoding="utf-8"))
    game = record["game"]
    engine = games.engine_at(game["engine"], game["engine_version"])

    def reordered(value):
        if isinstance(value, dict):
            return {key: reordered(value[key]) for key in sorted(value, key=lambda k: (len(k), k))}
        if isinstance(value, list):
            return [reordered(item) for item in value]
        return value

    state = reordered(engine.setup([p["name"] for p in record["players"]], dict(game["options"]), record["seed"]))
    for entry in record["moves"]:
        state, events = engine.play(state, entry["seat"], entry["move"])
        assert canonical_json([event.to_json() for event in events]) == canonical_json(entry["events"]), entry["seq"]
        state = reordered(json.loads(json.dumps(state)))


# -- a record that is not one: a failed check, never an exception -----------------------------------


@pytest.mark.parametrize("value", [None, [], "record", 3, {"format": "turnbased-record"},
                                   {"format": "turnbased-record", "format_version": 2},
                                   {"format": "turnbased-record", "format_version": True}])
def test_what_is_not_a_record_fails_the_format_check(value):
    report = verify_record(value)
    assert not report.ok
    assert "format" in failed(report)


def test_a_value_json_cannot_hold_is_a_failed_check(record):
    record["moves"][0]["events"][0]["data"]["seat"] = float("nan")  # json.load reads NaN; JSON has none
    assert "format" in failed(verify_record(record))


def test_options_the_engine_cannot_read_are_a_failed_check(record):
    record["game"]["options"]["edition"] = {"not": "a name"}
    assert_caught(record, "options")


def test_every_field_removed_or_retyped_is_a_failed_check_not_an_exception(record):
    small = copy.deepcopy(record)
    small["moves"] = small["moves"][:3]

    def paths(value, prefix=()):
        yield prefix
        if isinstance(value, dict):
            for key, item in value.items():
                yield from paths(item, (*prefix, key))
        elif isinstance(value, list):
            for index, item in enumerate(value[:2]):
                yield from paths(item, (*prefix, index))

    for path in list(paths(small))[1:]:
        for replacement in ("removed", None, "text", 1.5, [], {}):
            broken = copy.deepcopy(small)
            parent = broken
            for step in path[:-1]:
                parent = parent[step]
            if replacement == "removed":
                if isinstance(parent, dict):
                    del parent[path[-1]]
                else:
                    parent.pop(path[-1])
            else:
                parent[path[-1]] = replacement
            report = verify_record(broken)  # never raises
            assert report.checks
