"""Takebacks (games/takebacks.py): which moves of each game may be taken back, the platform's own refusals, and
that a log with takebacks in it replays (and verifies) to where the same log without them goes.

A move allowed must return to the very position before it (canonical JSON, so a state the move mutated in place
would show), and play again from there exactly as it did; a move refused must say why and change nothing.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import RESIGN, Event, IllegalMove
from games.carcassonne_hg import reasons as carcassonne_reasons
from games.record import canonical_json, record_lines, verify_record
from games.savernake_forest.engine import ROUNDS
from games.takebacks import MOVE_TAKEN_BACK, LastMove, LogReplay, describe, refusal, take_back_move, taken_back_event
from tests.games import carcassonne_hg as carcassonne
from tests.games import halali
from tests.games import love_letter
from tests.games import savernake_forest as savernake
from tests.games.scripting import kinds

RECORDS = Path(__file__).resolve().parents[1] / "records"
ENGINES = games.engines()
SLUGS = list(ENGINES)
MOVE_CAP = 3000

# Each rules file words its own refusal; the platform's are in games/takebacks.py.
FLIP = "Turning a tile over shows it"
LEG_ENDED = "That turn ended the leg"
ROUND_ENDED = "That turn ended the round"
LOVE_LETTER = "In Love Letter every card played is followed by a card drawn"
GAME_ENDED = "That move ended the game"
NOT_YOURS = "Only your own last move"
RESIGNATION = "A resignation cannot be taken back"
NOTHING = "There is no move to take back"
WRONG_SEQ = "A takeback names the move just before it"


def take_back(engine, state: dict, move: dict | str, seat: int | None = None) -> tuple[str | None, list[Event]]:
    """Play ``move`` as the first entry of a log, then try to take it back; return the refusal (None: taken back)
    and the move's events. Either way the log must end where the rules say."""
    seat = engine.to_move(state)[0] if seat is None else seat
    move = engine.parse_move(move, state, seat) if isinstance(move, str) else move
    before = canonical_json(state)
    replay = LogReplay(engine, state)
    after, events = replay.play(seat, move)
    reason = replay.refusal(seat)
    if reason is None:
        back, logged = replay.play(seat, take_back_move(1))
        assert canonical_json(back) == before, "a takeback returns to the position before the move, exactly"
        assert [event.to_json() for event in logged] == [
            {"kind": MOVE_TAKEN_BACK, "data": {"seat": seat, "seq": 1}, "visible_to": None}]
        assert replay.seq == 2 and replay.refusal(seat).startswith(NOTHING)
        again, events_again = replay.play(seat, move)  # nothing of the first try lingers
        assert canonical_json(again) == canonical_json(after) and events_again == events
    else:
        with pytest.raises(IllegalMove) as refused:
            replay.play(seat, take_back_move(1))
        assert refused.value.reason == reason
        assert canonical_json(replay.state) == canonical_json(after) and replay.seq == 1
    return reason, events


def new_game(engine, players: int, seed: int) -> dict:
    return engine.setup([f"P{i}" for i in range(players)], engine.validate_options(players, {}), seed)


# -- Halali (docs/rules/halali.md §10.10) ------------------------------------------------------------------------

# Alice (Blue) to move in the main phase: a bear beside a lumberjack, two tiles still face down.
HALALI_MAIN = halali.picture({"b4": "L", "c4": "B", "a1": "t", "g7": "t"})


@pytest.mark.parametrize(("move", "kind"), [("c4-c5", "moved"), ("c4xb4", "moved")], ids=["plain", "capture"])
def test_halali_a_move_or_capture_of_a_face_up_tile_is_taken_back_exactly(move, kind):
    reason, events = take_back(halali.ENGINE, halali.position(HALALI_MAIN), move)
    assert reason is None and kinds(events) == [kind]
    assert ("captured" in events[0].data) == ("x" in move)


def test_halali_an_exit_in_the_final_phase_is_taken_back_exactly():
    # Every tile face up: the final phase. The fox on a7 keeps Blue on the board, so the exit ends nothing.
    state = halali.position(halali.picture({"a7": "F", "d7": "B", "g1": "L"}))
    reason, events = take_back(halali.ENGINE, state, "d7 out")
    assert reason is None and kinds(events) == ["exited"]


def test_halali_a_forced_pass_is_taken_back_exactly():
    # Bob's lumberjack is boxed in by foxes it may not take: his one move is the pass (tests/games/halali).
    boxed = halali.picture({"a7": "L", "b7": "F", "a6": "F", "g1": "F"})
    state = halali.position(boxed, current=halali.BOB)
    assert halali.ENGINE.legal_moves(state, halali.BOB) == [{"pass": True}]
    reason, events = take_back(halali.ENGINE, state, "pass")
    assert reason is None and kinds(events) == ["passed"]


# The last flip also starts the final phase: that event, harmless alone, must not let the flip through.
@pytest.mark.parametrize(("picture", "square", "made"), [
    (HALALI_MAIN, "g7", ["flipped"]), (HALALI_MAIN.replace("t", ".", 1), "a1", ["flipped", "final_phase_started"]),
], ids=["a flip", "the last flip"])
def test_halali_a_flip_is_refused_because_it_showed_a_tile(picture, square, made):
    reason, events = take_back(halali.ENGINE, halali.position(picture), f"flip {square}")
    assert reason.startswith(FLIP) and kinds(events) == made


@pytest.mark.parametrize(("picture", "final_left", "move"), [
    ({"b4": "L", "c4": "B"}, [3, 3], "c4xb4"),  # Brown's last tile captured: the leg ends at once
    ({"b4": "L", "c4": "B"}, [1, 0], "c4-c5"),  # the last of the ten final turns
], ids=["side cleared", "final turns done"])
def test_halali_a_turn_that_ended_the_leg_is_refused(picture, final_left, move):
    state = halali.position(halali.picture(picture), final_left=final_left)
    reason, events = take_back(halali.ENGINE, state, move)
    assert reason.startswith(LEG_ENDED) and "leg_started" in kinds(events)  # the next leg's tiles were dealt


# -- Savernake Forest (docs/rules/savernake-forest.md §12) -------------------------------------------------------

TWO = ["AN01", "AN02"]


def slot(name: str, token: dict | None = None) -> dict:
    return {"slot": name, "x": 0, "y": -1, "rot": 0, **({"token": token} if token else {})}


@pytest.mark.parametrize(("state", "move", "kind"), [
    (lambda: savernake.deal(TWO), slot("rooster"), "rooster_taken"),
    (lambda: savernake.deal(TWO), slot("goat", {"animal": "AN01", "food": "W"}), "water_drop_placed"),
    # Every corner of Alice's only animal holds a drop: the goat's drop stays in the supply.
    (lambda: savernake.with_forest(savernake.deal(TWO), 0, [savernake.animal("AN01", drops="BWEN")]), slot("goat"),
     "water_drop_unplaced"),
    (lambda: savernake.deal(TWO), slot("armadillo", {"animal": "AN01"}), "burrow_placed"),
    (lambda: savernake.deal(TWO) | {"supply": {"drops": 15, "burrows": 0}}, slot("armadillo"), "card_taken"),
    (lambda: savernake.deal(TWO), slot("rabbit"), "card_taken"),
], ids=["rooster", "goat with a drop", "goat without a drop", "armadillo", "armadillo without a burrow", "rabbit"])
def test_savernake_a_turn_inside_a_round_is_taken_back_exactly(state, move, kind):
    reason, events = take_back(savernake.ENGINE, state(), move)
    assert reason is None and kinds(events)[-1] == kind


@pytest.mark.parametrize("market", ["discard", "persistent"])
def test_savernake_the_rounds_last_turn_is_refused_because_a_new_row_was_dealt(market):
    state, _ = savernake.act(savernake.deal(TWO, two_player_market=market), slot("rooster"))
    reason, events = take_back(savernake.ENGINE, state, slot("rabbit"))
    assert reason.startswith(ROUND_ENDED) and "market_dealt" in kinds(events)


def test_savernake_the_last_turn_of_the_last_round_ended_the_game():
    state = savernake.deal(TWO)
    state["round"] = ROUNDS  # test surgery: the fifteenth round, whose end scores the game
    state, _ = savernake.act(state, slot("rooster"))
    reason, events = take_back(savernake.ENGINE, state, slot("rabbit"))
    assert reason.startswith(GAME_ENDED) and "game_scored" in kinds(events)


# -- Love Letter (docs/rules/love-letter.md §7.7) and Carcassonne H&G (§5.2): nothing is ever taken back ---------

@pytest.mark.parametrize(("edition", "card", "other"), [
    *(("classic", card, "guard") for card in ("priest", "baron", "handmaid", "prince", "king", "countess",
                                              "princess")),
    ("classic", "guard", "handmaid"), ("2019", "spy", "guard"), ("2019", "chancellor", "guard"),
])
def test_love_letter_every_card_played_is_refused(edition, card, other):
    state = love_letter.deal([card, "priest"], [other], edition=edition)
    move = next(move for move in love_letter.ENGINE.legal_moves(state, 0) if move.get("card") == card)
    reason, _ = take_back(love_letter.ENGINE, state, move)
    assert reason.startswith(LOVE_LETTER)


def test_love_letter_the_chancellors_second_half_is_refused_too():
    state = love_letter.deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = love_letter.act(state, {"card": "chancellor"})
    reason, _ = take_back(love_letter.ENGINE, state, love_letter.ENGINE.legal_moves(state, 0)[0])
    assert reason.startswith(LOVE_LETTER)


def carcassonne_game() -> dict:
    return carcassonne.game(["R-L34", "R-L37", "R-L62"], bonus=["R-B84-plain-mammoth", "R-B90-plain-mammoth-aurochs"])


@pytest.mark.parametrize(("before", "move", "kind"), [
    ([], "place 1,0 r0", "tile_placed"),
    ([], "place 1,0 r0 gatherer forest", "piece_placed"),
    # Bob closes the menhir forest holding Alice's gatherer (tests/games/carcassonne_hg/test_bonus.py): a bonus.
    (["place 1,0 r0 gatherer forest"], "place 0,-1 r0", "bonus_earned"),
    (["place 1,0 r0 gatherer forest", "place 0,-1 r0"], "place -1,0 r0 hunter meadow W", "piece_placed"),
], ids=["placement", "with a piece", "earning a bonus", "the bonus tile with a piece"])
def test_carcassonne_every_placement_is_refused(before, move, kind):
    state, _ = carcassonne.play(carcassonne_game(), *before)
    reason, events = take_back(carcassonne.ENGINE, state, move)
    assert reason == carcassonne_reasons.no_take_back() and kind in kinds(events)


# -- the platform's refusals, whatever the engine says -----------------------------------------------------------

def halali_replay() -> LogReplay:
    return LogReplay(halali.ENGINE, halali.position(HALALI_MAIN))  # Alice to move; her c4-c5 may be taken back


def test_another_seats_move_is_refused_and_so_is_ones_own_once_another_seat_has_moved():
    replay = halali_replay()
    replay.play(halali.ALICE, {"from": "c4", "to": "c5"})
    assert replay.refusal(halali.BOB).startswith(NOT_YOURS)
    with pytest.raises(IllegalMove, match=NOT_YOURS):
        replay.play(halali.BOB, take_back_move(1))
    replay.play(halali.BOB, {"from": "b4", "to": "b5"})
    with pytest.raises(IllegalMove, match=WRONG_SEQ):
        replay.play(halali.ALICE, take_back_move(1))
    replay.play(halali.BOB, take_back_move(2))  # Bob's own last move still may be


def test_a_takeback_is_never_taken_back_nor_the_move_before_it():
    replay = halali_replay()
    replay.play(halali.ALICE, {"from": "c4", "to": "c5"})
    replay.play(halali.ALICE, take_back_move(1))
    assert replay.refusal(halali.ALICE).startswith(NOTHING)
    # The takeback is entry 2; neither it nor move 1 (already taken back) can be named now.
    for seq in (2, 1):
        with pytest.raises(IllegalMove):
            replay.play(halali.ALICE, take_back_move(seq))
    assert replay.seq == 2


@pytest.mark.parametrize("slug", ["halali", "savernake-forest"])
def test_a_resignation_is_refused_even_where_the_game_goes_on(slug):
    engine = ENGINES[slug]
    replay = LogReplay(engine, new_game(engine, min(3, engine.max_players), 3))
    replay.play(0, RESIGN)
    assert replay.refusal(0).startswith(RESIGNATION)
    with pytest.raises(IllegalMove, match=RESIGNATION):
        replay.play(0, take_back_move(1))


def random_game(engine, players: int, seed: int) -> LogReplay:
    """Return a replay of a seeded random game played to its end with the engine's legal moves."""
    replay = LogReplay(engine, new_game(engine, players, seed))
    rng = random.Random(seed)
    while not engine.is_over(replay.state):
        assert replay.seq < MOVE_CAP
        seat = engine.to_move(replay.state)[0]
        replay.play(seat, rng.choice(engine.legal_moves(replay.state, seat)))
    return replay


@pytest.mark.parametrize("slug", SLUGS)
def test_the_move_that_ended_the_game_is_refused(slug):
    replay = random_game(ENGINES[slug], 2, 11)
    seat = replay.last.seat
    assert replay.refusal(seat).startswith(GAME_ENDED)
    with pytest.raises(IllegalMove, match=GAME_ENDED):
        replay.play(seat, take_back_move(replay.seq))


@pytest.mark.parametrize("seq", [0, 2, -1, 99])
def test_a_takeback_naming_another_seq_is_refused(seq):
    replay = halali_replay()
    replay.play(halali.ALICE, {"from": "c4", "to": "c5"})
    with pytest.raises(IllegalMove, match=WRONG_SEQ):
        replay.play(halali.ALICE, take_back_move(seq))
    replay.play(halali.ALICE, take_back_move(1))  # the refusals changed nothing


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("move", [{"take_back": "1"}, {"take_back": True}, {"take_back": 1.0}, {"take_back": None},
                                  {"take_back": [1]}, {"take_back": 1, "also": 1}], ids=repr)
def test_a_malformed_takeback_is_an_illegal_move_and_never_another_exception(slug, move):
    engine = ENGINES[slug]
    replay = LogReplay(engine, new_game(engine, 2, 5))
    seat = engine.to_move(replay.state)[0]
    replay.play(seat, engine.legal_moves(replay.state, seat)[0])
    kept = canonical_json(replay.state)
    with pytest.raises(IllegalMove, match=WRONG_SEQ):  # {"take_back": true} is not seq 1, though True == 1
        replay.play(seat, move)  # refused as a takeback, never handed to the game as one of its moves
    assert canonical_json(replay.state) == kept and replay.seq == 1


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_a_takeback_by_a_seat_that_is_no_whole_number_is_refused(seat):
    # Seat 1 moved last: ``True`` and ``1.0`` compare equal to 1 and must still name no seat.
    replay = LogReplay(halali.ENGINE, halali.position(HALALI_MAIN))
    replay.play(halali.ALICE, {"from": "c4", "to": "c5"})
    replay.play(halali.BOB, halali.ENGINE.legal_moves(replay.state, halali.BOB)[0])
    assert replay.refusal(halali.BOB) is None or replay.last.seat == halali.BOB
    with pytest.raises(IllegalMove, match="There is no seat"):
        replay.play(seat, take_back_move(2))
    assert replay.seq == 2 and replay.last is not None


def test_a_takeback_with_nothing_before_it_says_so():
    replay = LogReplay(halali.ENGINE, halali.position(HALALI_MAIN))
    with pytest.raises(IllegalMove, match=NOTHING):
        replay.play(halali.ALICE, take_back_move(0))


def test_a_move_with_a_private_event_is_refused_even_when_the_engine_allows_it():
    # Halali makes no private event: the same move's event, shown to Alice alone, stands for one an engine forgot.
    state = halali.position(HALALI_MAIN)
    move = {"from": "c4", "to": "c5"}
    after, events = halali.ENGINE.play(state, halali.ALICE, move)
    private = [Event(event.kind, event.data, [halali.ALICE]) for event in events]
    assert halali.ENGINE.take_back_refusal(state, halali.ALICE, move, after, private) is None
    last = LastMove(1, halali.ALICE, move, state, after, private)
    assert refusal(halali.ENGINE, last, halali.ALICE).startswith("That move showed someone something")
    assert refusal(halali.ENGINE, LastMove(1, halali.ALICE, move, state, after, events), halali.ALICE) is None


def test_a_replay_started_mid_log_refuses_a_takeback_as_its_first_entry():
    # A cache's position knows no move before it: the caller must replay from earlier (needs_earlier).
    replay = LogReplay(halali.ENGINE, halali.position(HALALI_MAIN), seq=7)
    assert LogReplay.needs_earlier(take_back_move(7)) and not LogReplay.needs_earlier({"pass": True})
    with pytest.raises(IllegalMove):
        replay.play(halali.ALICE, take_back_move(7))


# -- random play with takebacks: it ends, where the log without them ends ----------------------------------------

@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=10, deadline=None)  # x4 games: about a second in all
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), players=st.integers(2, 4),
       rate=st.sampled_from([0.1, 0.3, 0.6]))
def test_random_play_with_takebacks_ends_where_the_log_without_them_ends(slug, seed, choices, players, rate):
    engine = ENGINES[slug]
    start = new_game(engine, min(max(players, engine.min_players), engine.max_players), seed)
    replay, rng, log = LogReplay(engine, start), random.Random(choices), []
    while not engine.is_over(replay.state):
        assert len(log) < MOVE_CAP, "the game did not end within the move cap"
        last = replay.last
        if last is not None and refusal(engine, last, last.seat) is None and rng.random() < rate:
            assert engine.offers_takebacks, f"{slug} allowed a takeback yet offers none"
            log.append((last.seat, take_back_move(replay.seq)))
            state, _ = replay.play(*log[-1])
            assert canonical_json(state) == canonical_json(last.before)
            continue
        seat = engine.to_move(replay.state)[0]
        log.append((seat, rng.choice(engine.legal_moves(replay.state, seat))))
        replay.play(*log[-1])
    # The same log without each (move, takeback) pair, played by the engine alone, ends in the same state.
    dropped = {i - j for i, (_, move) in enumerate(log) if "take_back" in move for j in (0, 1)}
    state = start
    for seat, move in (entry for i, entry in enumerate(log) if i not in dropped):
        state, _ = engine.play(state, seat, move)
    assert canonical_json(state) == canonical_json(replay.state)


# -- offers_takebacks agrees with take_back_refusal --------------------------------------------------------------

@pytest.mark.parametrize(("slug", "version"), [(slug, v) for slug, e in ENGINES.items() for v in e.supported_versions])
def test_offers_takebacks_says_whether_any_move_of_a_random_game_may_be_taken_back(slug, version):
    engine = games.engine_at(slug, version)
    state = new_game(engine, 2, 17)
    rng, allowed, platform_allowed = random.Random(17), 0, 0
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        move = rng.choice(engine.legal_moves(state, seat))
        replay = LogReplay(engine, state)
        after, events = replay.play(seat, move)
        reason = engine.take_back_refusal(state, seat, move, after, events)
        assert reason is None or (isinstance(reason, str) and reason)
        allowed += reason is None
        platform_allowed += replay.refusal(seat) is None
        state = after
    if engine.offers_takebacks:
        assert platform_allowed > 0, "a game that offers takebacks allowed none in a whole game"
    else:
        assert allowed == 0, "take_back_refusal allowed a move of a game that offers no takebacks"


# -- words ------------------------------------------------------------------------------------------------------

def test_describe_words_a_takeback_with_the_players_name_and_the_seq():
    line = describe(halali.ENGINE, taken_back_event(1, 12), ["Ann", "Ben"], None)
    assert "Ben" in line and "12" in line and "Ann" not in line
    # A record's event naming no seat of the game (a forged one) is worded, not a crash.
    for seat in (2, 5, -1):
        assert describe(halali.ENGINE, taken_back_event(seat, 12), ["Ann", "Ben"], None).startswith("? took back")


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_describe_passes_every_other_event_to_the_engine(viewer):
    _, events = halali.act(halali.position(HALALI_MAIN), "c4xb4")
    for event in events:
        assert describe(halali.ENGINE, event, ["Ann", "Ben"], viewer) == halali.ENGINE.describe_event(
            event, ["Ann", "Ben"], viewer)


# -- the verifier -------------------------------------------------------------------------------------------------

def halali_record() -> dict:
    """Return a golden record (tests/games/test_record.py): Ann (seat 0) a person, Ben (seat 1) a bot."""
    return json.loads((RECORDS / "halali-4.json").read_text(encoding="utf-8"))


def with_takeback(record: dict, index: int) -> dict:
    """Return ``record`` with ``moves[index]`` taken back by its seat and then made again, the seqs renumbered."""
    record = copy.deepcopy(record)
    engine = games.engine_at("halali", record["game"]["engine_version"])
    entry = record["moves"][index]
    event = taken_back_event(entry["seat"], index + 1)
    takeback = {**entry, "notation": "take back", "move": take_back_move(index + 1), "events": [event.to_json()],
                "lines": record_lines(engine, [event], [row["name"] for row in record["players"]])}
    record["moves"][index + 1:index + 1] = [takeback, copy.deepcopy(entry)]
    for seq, move in enumerate(record["moves"], 1):
        move["seq"] = seq
    return record


def first_allowed(record: dict) -> int:
    """Return the index of the first move of a person (seat 0 here) that the platform lets them take back."""
    engine = games.engine_at("halali", record["game"]["engine_version"])
    replay = LogReplay(engine, engine.setup([p["name"] for p in record["players"]], record["game"]["options"],
                                            record["seed"]))
    for index, entry in enumerate(record["moves"]):
        replay.play(entry["seat"], entry["move"])
        if entry["source"] == "web" and replay.refusal(entry["seat"]) is None:
            return index
    raise AssertionError("no move of the record may be taken back")


def failed(report) -> dict[str, str]:
    return {name: detail for name, passed, detail in report.checks if not passed}


def test_a_finished_record_with_a_takeback_verifies():
    record = halali_record()
    report = verify_record(with_takeback(record, first_allowed(record)))
    assert report.ok, failed(report)


def test_a_forged_takeback_of_a_flip_fails_on_the_takeback():
    record = halali_record()
    assert "flip" in record["moves"][0]["move"]
    report = verify_record(with_takeback(record, 0))
    assert not report.ok and report.verifiable
    assert failed(report)["moves"].startswith("move 2 by seat 1 is not legal there: " + FLIP)


def test_a_takeback_whose_logged_event_differs_fails_on_events():
    record = halali_record()
    index = first_allowed(record)
    forged = with_takeback(record, index)
    forged["moves"][index + 1]["events"][0]["data"]["seq"] = index  # names the move before the one taken back
    report = verify_record(forged)
    assert failed(report)["events"].startswith(f"move {index + 2}:")

