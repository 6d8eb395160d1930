"""A game stopped before its own end (a competition's round deadline) and decided by its engine: adjudicated on the
public count (``Engine.public_scores``), or every seat losing (``Engine.decided_result``), and the record of such a
game verified by replaying its moves and deciding again (``games.record``).

The count an adjudication reads must tell nobody anything hidden: in the twin worlds of the secrecy tests (two games
differing only in what some seats may not know), it is the same at every position, and so is every decided result.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games import engine_at, engines, get_engine
from games.base import ADJUDICATED, AGREED_DRAW, ALL_LOSE, DECIDED, worded_result
from games.record import canonical_json, verify_record
from tests.platform.secrecy.worlds import SEED, scenarios

RECORDS = Path(__file__).resolve().parents[1] / "records"


def _positions(scenario, world: int):
    engine = get_engine(scenario.slug)
    names = [f"p{seat}" for seat in range(scenario.players)]
    state = engine.setup(names, engine.validate_options(scenario.players, dict(scenario.options[world])), SEED)
    yield engine, names, state
    for step in scenario.steps:
        state, _ = engine.play(state, step.seat, step.move_in(world))
        yield engine, names, state


@pytest.mark.parametrize("scenario", scenarios(), ids=lambda scenario: scenario.id)
def test_the_count_an_adjudication_reads_is_the_same_in_both_worlds_at_every_position(scenario):
    compared = 0
    for (engine, names, one), (_, _, two) in zip(_positions(scenario, 0), _positions(scenario, 1), strict=True):
        assert engine.public_scores(one) == engine.public_scores(two)
        if engine.result(one) is None:
            for how in DECIDED:
                assert engine.decided_result(one, how, names) == engine.decided_result(two, how, names)
            compared += 1
    assert compared > 0


@pytest.mark.parametrize("slug", sorted(engines()))
def test_every_game_keeps_a_public_count_of_one_number_a_seat(slug):
    engine = get_engine(slug)
    for players in sorted({engine.min_players, engine.default_players}):
        state = engine.setup([f"p{seat}" for seat in range(players)], engine.validate_options(players, {}), "count")
        scores = engine.public_scores(state)
        assert scores is not None and len(scores) == players
        assert all(isinstance(score, (int, float)) and not isinstance(score, bool) for score in scores)


def test_an_adjudication_gives_the_win_to_the_most_and_every_player_losing_places_nobody_first():
    engine = get_engine("love-letter")
    names = ["ann", "ben", "cid"]
    state = engine.setup(names, engine.validate_options(3, {}), "decided")
    state["tokens"] = [0, 2, 1]  # a position where ben has won two rounds, cid one
    adjudicated = engine.decided_result(state, ADJUDICATED, names)
    assert adjudicated["winners"] == [1] and adjudicated["ranking"] == [1, 2, 0]
    assert adjudicated["scores"] == [0, 2, 1] and adjudicated["decided"] == ADJUDICATED and not adjudicated["draw"]
    assert adjudicated["summary"] == "Adjudicated before its end on the count so far: ben wins (0 – 2 – 1)"
    state["tokens"] = [2, 2, 1]
    shared = engine.decided_result(state, ADJUDICATED, names)
    assert shared["winners"] == [0, 1] and "ann and ben share the win" in shared["summary"]
    lost = engine.decided_result(state, ALL_LOSE, names)
    assert lost["winners"] == [] and lost["draw"] is False and lost["decided"] == ALL_LOSE
    assert worded_result(engine, lost, names) == "Stopped before its end: every player loses"
    with pytest.raises(ValueError):
        engine.decided_result(state, "coin_toss", names)


def test_equal_counts_adjudicate_a_draw():
    engine = get_engine("carcassonne-hg")
    names = ["ann", "ben"]
    state = engine.setup(names, engine.validate_options(2, {}), "decided")
    result = engine.decided_result(state, ADJUDICATED, names)
    assert result["winners"] == [] and result["draw"] is True
    assert worded_result(engine, result, names) == "Adjudicated before its end: a draw (0 – 0)"


def test_an_agreed_draw_names_no_winner_and_keeps_the_count_as_it_stood():
    engine = get_engine("carcassonne-hg")
    names = ["ann", "ben", "cid"]
    state = engine.setup(names, engine.validate_options(3, {}), "decided")
    state = engine.upcast(state)
    counted = engine.public_scores(state)
    result = engine.decided_result(state, AGREED_DRAW, names)
    assert result["winners"] == [] and result["draw"] is True and result["decided"] == AGREED_DRAW
    assert result["scores"] == counted and sorted(result["ranking"]) == [0, 1, 2]
    assert worded_result(engine, result, names) == result["summary"] == "Drawn by the players' agreement"


def test_the_games_that_know_a_shared_result_are_the_ones_a_draw_may_be_agreed_in():
    """Love Letter plays another round on a tie at the target (its rules §6.4, §7.8): no shared result."""
    assert {slug: get_engine(slug).shares_results for slug in sorted(engines())} == {
        "carcassonne-hg": True, "halali": True, "love-letter": False, "savernake-forest": True}


def test_an_agreed_draw_in_a_game_without_a_shared_result_does_not_verify():
    record = _stopped("halali-1.json", 12, AGREED_DRAW)
    assert verify_record(record).ok
    love_letter = next(name for name in sorted(path.name for path in RECORDS.glob("love-letter*.json")))
    record = json.loads((RECORDS / love_letter).read_text(encoding="utf-8"))
    engine = engine_at(record["game"]["engine"], record["game"]["engine_version"])
    names = [row["name"] for row in record["players"]]
    record["moves"] = record["moves"][:4]
    state = engine.setup(names, dict(record["game"]["options"]), record["seed"])
    for entry in record["moves"]:
        state, _ = engine.play(state, entry["seat"], entry["move"])
    record["result"] = json.loads(canonical_json(engine.decided_result(state, AGREED_DRAW, names)))
    assert "does not allow" in _failed(verify_record(record))["end"]


# -- the record of a decided game ---------------------------------------------------------------------------


def _stopped(name: str, after: int, how: str) -> dict:
    """A golden record cut after ``after`` moves and decided ``how`` there, as the platform would have kept it."""
    record = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:after]
    engine = engine_at(record["game"]["engine"], record["game"]["engine_version"])
    names = [row["name"] for row in record["players"]]
    state = engine.setup(names, dict(record["game"]["options"]), record["seed"])
    for entry in record["moves"]:
        state, _ = engine.play(state, entry["seat"], entry["move"])
    assert engine.result(state) is None
    bots = sorted({entry["seat"] for entry in record["moves"] if entry.get("source") in ("bot", "timeout")})
    record["result"] = json.loads(canonical_json({**engine.decided_result(state, how, names),
                                                  **({"bot_played_seats": bots} if bots else {})}))
    return record


def _failed(report) -> dict[str, str]:
    return {name: detail for name, passed, detail in report.checks if not passed}


@pytest.mark.parametrize("how", DECIDED)
def test_a_decided_game_verifies_and_a_tampered_decision_does_not(how):
    record = _stopped("halali-1.json", 12, how)
    report = verify_record(record)
    assert report.ok, report.lines()
    tampered = copy.deepcopy(record)
    tampered["result"]["winners"] = [1] if record["result"]["winners"] != [1] else [0]
    assert "result" in _failed(verify_record(tampered))
    tampered = copy.deepcopy(record)
    tampered["result"]["decided"] = ALL_LOSE if how == ADJUDICATED else ADJUDICATED
    assert "result" in _failed(verify_record(tampered))
    tampered = copy.deepcopy(record)
    tampered["result"]["decided"] = "coin_toss"
    assert "end" in _failed(verify_record(tampered))


def test_a_game_its_moves_ended_cannot_claim_to_be_decided():
    record = json.loads((RECORDS / "halali-1.json").read_text(encoding="utf-8"))
    names = [row["name"] for row in record["players"]]
    record["result"] = {**record["result"], "decided": ADJUDICATED}
    assert "replay of its moves ends it" in _failed(verify_record(record))["end"]
    assert names  # the record is a finished game's, unchanged but for the claim
