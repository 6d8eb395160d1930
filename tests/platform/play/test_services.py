"""The play services: tables, seats, and the single door for moves."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import timezone
from django.db import IntegrityError

from turnbased.kit.errors import (
    Conflict,
    GameNotFound,
    IllegalMoveError,
    InvalidRequest,
    NotAllowed,
    StaleSequence,
    Unprocessable,
)
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import selectors, services, store
from turnbased.play.models import Game, GameStatus, Move, MoveSource, Visibility

HANDMAID = {"card": "handmaid"}


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.seq, game.state, game.status, Move.objects.filter(game=game).count())


def test_create_game_seats_the_creator_and_waits(alice):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    assert game.status == GameStatus.OPEN
    assert list(game.seats.values_list("index", "user__username")) == [(0, "alice")]
    assert game.state is None and game.seq == 0
    assert len(game.seed) == 32 and game.invite_code


@pytest.mark.parametrize("players", [1, 5])
def test_create_game_refuses_unplayable_player_counts(alice, players):
    # A whole number the game (or its default edition) does not take: the request has its shape, but cannot be
    # done (422).
    with pytest.raises(Unprocessable, match="player") as refused:
        services.create_game(creator=alice, engine_slug="love-letter", players=players)
    assert refused.value.status == 422
    assert not Game.objects.exists()


@pytest.mark.parametrize("players", ["two", True])
def test_create_game_refuses_a_player_count_that_is_not_a_whole_number(alice, players):
    with pytest.raises(InvalidRequest, match="whole number") as refused:
        services.create_game(creator=alice, engine_slug="love-letter", players=players)
    assert refused.value.status == 400
    assert not Game.objects.exists()


def test_create_game_refuses_unknown_game(alice):
    with pytest.raises(InvalidRequest, match="Unknown game"):
        services.create_game(creator=alice, engine_slug="chess", players=2)


def test_user_options_keep_scripted_decks_out_of_players_hands():
    with pytest.raises(Unprocessable, match="Unknown option"):
        services.user_options("love-letter", {"deck": ["guard"]})
    with pytest.raises(Unprocessable, match="must be one of"):
        services.user_options("love-letter", {"edition": "1999"})
    assert services.user_options("love-letter", {"edition": "2019"}) == {"edition": "2019"}


def test_last_join_starts_the_game_and_records_notifications(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.player_names == ["alice", "bob"]
    assert game.state is not None and game.to_move
    kinds = set(Notification.objects.filter(game=game).values_list("user__username", "kind"))
    assert ("alice", NotificationKind.PLAYER_JOINED) in kinds
    assert {("alice", NotificationKind.GAME_STARTED), ("bob", NotificationKind.GAME_STARTED)} <= kinds


def test_joining_twice_or_a_full_table_is_refused(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    with pytest.raises(Conflict, match="already"):
        services.join_game(game_id=game.pk, user=alice)
    services.join_game(game_id=game.pk, user=bob)
    with pytest.raises(Conflict):
        services.join_game(game_id=game.pk, user=carol)


def test_private_table_needs_its_invite_code(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, visibility=Visibility.PRIVATE)
    with pytest.raises(GameNotFound):
        services.join_game(game_id=game.pk, user=bob)
    with pytest.raises(GameNotFound):
        services.join_game(game_id=game.pk, user=bob, invite_code="guess")
    services.join_game(game_id=game.pk, user=bob, invite_code=game.invite_code)
    assert game.seats.count() == 2


def test_creator_can_start_early_with_enough_players(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    with pytest.raises(Conflict, match="at least 2"):
        services.start_game(game_id=game.pk, user=alice)
    services.join_game(game_id=game.pk, user=bob)
    with pytest.raises(NotAllowed):
        services.start_game(game_id=game.pk, user=bob)
    services.start_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.seat_count == 2


def test_leaving_closes_the_gap_before_an_early_start(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=4)
    services.join_game(game_id=game.pk, user=bob)
    services.join_game(game_id=game.pk, user=carol)
    services.leave_game(game_id=game.pk, user=bob)
    services.start_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert list(game.seats.values_list("index", "user__username")) == [(0, "alice"), (1, "carol")]
    assert game.player_names == ["alice", "carol"]


def test_creator_cannot_leave_but_can_abort_an_open_table(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    with pytest.raises(NotAllowed):
        services.leave_game(game_id=game.pk, user=alice)
    with pytest.raises(NotAllowed):
        services.abort_game(game_id=game.pk, user=bob)
    services.abort_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED
    with pytest.raises(Conflict):
        services.join_game(game_id=game.pk, user=bob)


def test_submit_move_appends_and_advances_the_snapshot(started_game, alice):
    outcome = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    started_game.refresh_from_db()
    assert outcome.move.seq == 1 and not outcome.replayed
    assert outcome.move.text == "handmaid"
    assert started_game.seq == 1 and started_game.to_move == [1]
    assert Move.objects.get(game=started_game).events


def test_submit_move_accepts_the_text_notation(started_game, alice):
    outcome = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="guard bob baron")
    assert outcome.move.move == {"card": "guard", "target": 1, "guess": "baron"}


@pytest.mark.parametrize(
    ("move", "text", "error"),
    [
        ({"card": "princess"}, None, IllegalMoveError),          # not in hand
        ({"card": "guard", "target": 1, "guess": "guard"}, None, IllegalMoveError),
        ({"card": "guard", "target": 0, "guess": "priest"}, None, IllegalMoveError),
        (["not", "an", "object"], None, IllegalMoveError),
        (None, "dance wildly", IllegalMoveError),
        (HANDMAID, "handmaid", InvalidRequest),                   # both
        (None, None, InvalidRequest),                             # neither
    ],
)
def test_bad_moves_are_refused_and_change_nothing(started_game, alice, move, text, error):
    before = snapshot(started_game)
    with pytest.raises(error):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=move, text=text)
    assert snapshot(started_game) == before


def test_out_of_turn_move_is_refused_and_changes_nothing(started_game, bob):
    before = snapshot(started_game)
    with pytest.raises(Conflict, match="not your turn"):
        services.submit_move(game_id=started_game.pk, user=bob, expected_seq=0, move={"card": "priest", "target": 0})
    assert snapshot(started_game) == before


def test_stale_seq_is_refused_with_the_current_seq_and_changes_nothing(started_game, alice, bob):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    before = snapshot(started_game)
    with pytest.raises(StaleSequence) as refused:
        services.submit_move(game_id=started_game.pk, user=bob, expected_seq=0, move={"card": "guard"})
    assert refused.value.current_seq == 1 and refused.value.status == 409
    assert snapshot(started_game) == before


def test_repeated_idempotency_key_returns_the_first_answer_and_appends_nothing(started_game, alice):
    first = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID, idempotency_key="k1")
    before = snapshot(started_game)
    again = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID, idempotency_key="k1")
    assert again.replayed and again.move.pk == first.move.pk
    assert snapshot(started_game) == before


@pytest.mark.parametrize("key", ["k", "k" * 100], ids=["1 character", "100 characters"])
def test_idempotency_keys_of_one_to_a_hundred_characters_are_kept_and_replayed(started_game, alice, key):
    # The shortest and the longest key the door takes (0 and 101 characters are refused, test_bad_input.py).
    first = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID, idempotency_key=key)
    again = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID, idempotency_key=key)
    assert not first.replayed and again.replayed and again.move.pk == first.move.pk
    assert list(Move.objects.filter(game=started_game).values_list("idempotency_key", flat=True)) == [key]


def test_a_writer_that_loses_to_the_logs_constraints_is_told_the_sequence_is_stale(started_game, alice, bob,
                                                                                    monkeypatch):
    # Every writer comes through the row lock; the log's unique constraints back it up, and a writer that reaches
    # them anyway (as ``store.append`` would raise for a row another wrote first) is told to read the game again.
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    before = snapshot(started_game)

    def lost_to_another_writer(*args, **kwargs):
        raise IntegrityError('duplicate key value violates unique constraint "move_unique_seq"')

    monkeypatch.setattr(store, "append", lost_to_another_writer)
    move = selectors.legal_moves_for(selectors.Viewer(game=started_game, seat=1))[0]["move"]
    with pytest.raises(StaleSequence) as refused:
        services.submit_move(game_id=started_game.pk, user=bob, expected_seq=1, move=move)
    assert (refused.value.current_seq, refused.value.status) == (1, 409)
    assert snapshot(started_game) == before


def test_strangers_cannot_move(started_game, carol):
    with pytest.raises(NotAllowed):
        services.submit_move(game_id=started_game.pk, user=carol, expected_seq=0, move=HANDMAID)


def test_strangers_to_a_private_game_are_told_it_does_not_exist(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, visibility=Visibility.PRIVATE)
    services.join_game(game_id=game.pk, user=bob, invite_code=game.invite_code)
    with pytest.raises(GameNotFound):
        services.submit_move(game_id=game.pk, user=carol, expected_seq=0, move=HANDMAID)


def test_unknown_game_is_not_found(alice):
    with pytest.raises(GameNotFound):
        services.submit_move(game_id=999999, user=alice, expected_seq=0, move=HANDMAID)


def test_moves_before_the_start_are_refused(alice):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    with pytest.raises(Conflict, match="not in play"):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move=HANDMAID)


def test_turn_notification_goes_to_the_next_player(started_game, alice):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    assert Notification.objects.filter(
        game=started_game, seq=1, kind=NotificationKind.YOUR_TURN, user__username="bob"
    ).exists()


def test_status_transitions_follow_the_table(alice):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    with pytest.raises(Conflict):
        services.game_transition(game=game, to=GameStatus.FINISHED)
    services.game_transition(game=game, to=GameStatus.ABORTED)
    with pytest.raises(Conflict):
        services.game_transition(game=game, to=GameStatus.ACTIVE)


def test_resigning_a_two_player_game_ends_it_for_the_other(started_game, bob):
    outcome = services.resign_game(game_id=started_game.pk, user=bob)
    started_game.refresh_from_db()
    assert outcome.move.move == {"resign": True} and outcome.move.text == "resign"
    assert started_game.status == GameStatus.FINISHED and started_game.result["winners"] == [0]
    finished = Notification.objects.filter(game=started_game, seq=1, kind=NotificationKind.GAME_FINISHED)
    assert sorted(finished.values_list("user__username", flat=True)) == ["alice", "bob"]
    with pytest.raises(Conflict, match="over"):
        services.resign_game(game_id=started_game.pk, user=bob)


@pytest.mark.parametrize("move", [["handmaid"], "handmaid", 7])
def test_a_move_that_is_not_an_object_is_refused_by_the_door_before_the_game_reads_it(started_game, alice, move):
    before = snapshot(started_game)
    with pytest.raises(IllegalMoveError, match="one of the game's moves, as a JSON object"):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=move)
    assert snapshot(started_game) == before


def test_a_resign_cannot_be_smuggled_in_as_a_move(started_game, alice):
    with pytest.raises(IllegalMoveError):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"resign": True})


def test_an_outcome_cannot_be_changed_after_the_door_answered(started_game, alice):
    outcome = services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move=HANDMAID)
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.replayed = True


@pytest.mark.parametrize(("field", "value"), [("idempotency_key", 5), ("idempotency_key", ["k"]),
                                              ("idempotency_key", ""), ("idempotency_key", "k" * 101),
                                              ("expected_seq", True), ("expected_seq", -1), ("expected_seq", "0"),
                                              ("expected_seq", 0.0)])
def test_the_door_refuses_a_key_or_a_sequence_of_the_wrong_kind_and_changes_nothing(started_game, alice, field,
                                                                                    value):
    before = snapshot(started_game)
    request = {"expected_seq": 0, "idempotency_key": None, field: value}
    with pytest.raises(InvalidRequest, match=field):
        services.submit_move(game_id=started_game.pk, user=alice, move=HANDMAID, **request)
    assert snapshot(started_game) == before


@pytest.mark.parametrize("source", [MoveSource.WEB, MoveSource.EMAIL])
def test_a_bot_account_moves_and_resigns_through_the_api_only(start_scripted_game, robo, bob, source):
    game = start_scripted_game(robo, bob)  # robo sits at seat 0, to move
    before = snapshot(game)
    with pytest.raises(NotAllowed, match="bot account"):
        services.submit_move(game_id=game.pk, user=robo, expected_seq=0, move=HANDMAID, source=source)
    with pytest.raises(NotAllowed, match="bot account"):
        services.resign_game(game_id=game.pk, user=robo, source=source)
    assert snapshot(game) == before
    played = services.submit_move(game_id=game.pk, user=robo, expected_seq=0, move=HANDMAID, source=MoveSource.API)
    assert played.move.source == MoveSource.API and played.move.user_id == robo.pk


def test_a_resignation_is_logged_as_the_seat_leaving(started_game, bob):
    outcome = services.resign_game(game_id=started_game.pk, user=bob, source=MoveSource.API)
    assert (outcome.move.seat, outcome.move.source, outcome.move.user_id, outcome.replayed) == (1, "api", bob.pk, False)
    started_game.refresh_from_db()
    assert started_game.seats.get(index=1).left_at is not None and started_game.seats.get(index=0).left_at is None


def test_a_persons_seat_a_bot_took_counts_as_left_in_the_result(started_game, alice):
    # The clock's takeover and a removal mark the seat left (``left_at``): its person is not at the table. A
    # deadline's play-out hands every seat over alike and marks none (``test_play_out``).
    started_game.seats.filter(index=1).update(bot="random", left_at=timezone.now())
    services.resign_game(game_id=started_game.pk, user=alice)
    started_game.refresh_from_db()
    assert started_game.result["left_seats"] == [1] and started_game.result["winners"] == [1]


def test_a_bots_own_seat_never_counts_as_left(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})
    services.resign_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.result["winners"] == [1] and "left_seats" not in game.result
