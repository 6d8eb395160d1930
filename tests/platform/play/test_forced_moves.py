"""Forced moves: a seat with exactly one legal move has it played for it, through the move door, when its player
asked for it (``services.forced_moves``), at the moment its first task draws (``services.forced_timing``, tested in
``test_forced_timing.py``); the history tells only that seat.

Which games have such positions: Love Letter often (a Countess held with a King or a Prince, two Handmaids,
two Priests or Barons against one open opponent...), Halali! in its final phase (one tile left to move, or
a forced pass). Carcassonne and Savernake Forest never had one in hundreds of played games: a tile fits in
many places, and every Savernake card can be laid in four rotations.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta, timezone as tz

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from games import get_engine
from games.bots import bot_move
from games.love_letter import cards
from turnbased.accounts.models import profile_of
from turnbased.clocks import sweep
from turnbased.events.models import Event as StreamEvent, EventKind
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import records, selectors, services
from turnbased.play.models import ForcedMoveDue, Game, GameStatus, Move, MoveSource
from turnbased.play.services import forced_moves

pytestmark = pytest.mark.django_db

NOTE = "(played automatically: the only legal move)"


def classic_deck(*, hands: list[str], draws: list[str]) -> list[str]:
    """Return a classic two-player deck, top first: a Princess set aside, three face up, the hands, the draws,
    then the rest by value."""
    named = ["princess", "guard", "guard", "priest", *hands, *draws]
    pool = Counter(cards.full_deck("classic"))
    pool.subtract(named)
    assert all(count >= 0 for count in pool.values()), pool
    return [*named, *sorted(pool.elements(), key=lambda card: cards.value("classic", card))]


# Alice holds a Guard and draws a Handmaid; bob holds a King and draws the Countess: forced to play her.
COUNTESS_WITH_KING = classic_deck(hands=["guard", "king"], draws=["handmaid", "countess", "guard"])
# Alice holds a Handmaid and draws the other one: her first move is forced; then bob's Countess is.
TWO_HANDMAIDS_THEN_COUNTESS = classic_deck(hands=["handmaid", "king"], draws=["handmaid", "countess", "guard"])


def forced_moves_on(user, on: bool = True):
    profile = profile_of(user)
    profile.choose_play_forced_moves(on)
    profile.save()
    return user


def love_letter(alice, bob, deck, capture) -> Game:
    with capture(execute=True):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"edition": "classic", "deck": deck, "first_player": 0})
        services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def clock():
    """Time that stands still until the test moves it (a fixed Wednesday morning, after the accounts were made)."""
    with time_machine.travel(datetime(2027, 3, 3, 9, tzinfo=tz.utc), tick=False) as traveller:
        yield traveller


def play_when_due(game: Game, capture, clock, *, count: int = 1) -> list[Move]:
    """Let time pass to each forced move's drawn moment in turn, and play it as its task then does."""
    played = []
    for _ in range(count):
        due = ForcedMoveDue.objects.get(game=game)
        assert due.due_at is not None and due.due_at > timezone.now(), "drawn by the first task, in the future"
        clock.move_to(due.due_at)
        with capture(execute=True):
            move = services.play_forced_move(game_id=game.pk, seq=due.seq)
        assert move is not None
        played.append(move)
    return played


def history_texts(game: Game, seat: int | None, *, seq: int | None = None) -> list[str]:
    """Return the history's lines as the seat (None: a spectator) reads them, of every move or of move ``seq``."""
    game = Game.objects.get(pk=game.pk)
    entries = selectors.visible_history(selectors.Viewer(game=game, seat=seat))
    return [entry["text"] for entry in entries if seq is None or entry["seq"] == seq]


def test_a_forced_countess_is_played_for_a_player_who_asked_and_only_they_read_why(
        alice, bob, django_capture_on_commit_callbacks, clock):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    game.refresh_from_db()
    assert game.seq == 1 and game.to_move == [1], "not at once: when bob would have played"
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    game.refresh_from_db()
    assert game.seq == 2 and game.to_move == [0]
    forced = Move.objects.get(game=game, seq=2)
    assert (forced.seat, forced.user, forced.move, forced.source) == (1, bob, {"card": "countess"}, MoveSource.AUTO)
    assert forced.idempotency_key is None
    assert not ForcedMoveDue.objects.exists()

    assert history_texts(game, 1, seq=2)[0] == f"You played the Countess. {NOTE}"
    assert sum(NOTE in text for text in history_texts(game, 1)) == 1  # on the move's first line only
    for viewer in (0, None):  # alice and a spectator read it as any move: the note would tell of bob's King
        lines = history_texts(game, viewer, seq=2)
        assert "Countess" in lines[0] and not any(NOTE in text for text in history_texts(game, viewer))


def test_no_turn_email_for_a_position_played_for_them_and_the_stream_reads_as_if_they_moved(
        alice, bob, django_capture_on_commit_callbacks, mailoutbox, clock):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    turns = set(Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN).values_list("user", "seq"))
    assert turns == {(alice.pk, 0), (alice.pk, 2)}
    def turn_emails(user):
        return [message for message in mailoutbox if message.to == [user.email] and "turn" in message.subject.lower()]

    assert turn_emails(alice) and not turn_emails(bob)
    # The stream's rows are those of a move bob sent himself: their number tells nobody it was forced.
    told = set(StreamEvent.objects.filter(game_id=game.pk).values_list("user_id", "kind", "seq"))
    assert (bob.pk, EventKind.YOUR_TURN, 1) in told and (bob.pk, EventKind.MOVE_PLAYED, 2) not in told
    assert (alice.pk, EventKind.MOVE_PLAYED, 2) in told and (alice.pk, EventKind.YOUR_TURN, 2) in told


def test_a_person_who_did_not_ask_plays_it_themselves(alice, bob, django_capture_on_commit_callbacks):
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    assert profile_of(bob).plays_forced_moves is False
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    game.refresh_from_db()
    assert game.seq == 1 and game.to_move == [1] and not ForcedMoveDue.objects.exists()
    assert Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, user=bob, seq=1).exists()
    assert len(callbacks) == 1  # the notifications' delivery only: no forced move queued
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=bob, expected_seq=1, move={"card": "countess"})
    assert Move.objects.get(game=game, seq=2).source == MoveSource.WEB


def test_a_bot_account_has_it_on_by_default(alice, robo, django_capture_on_commit_callbacks, clock):
    assert profile_of(robo).plays_forced_moves is True
    game = love_letter(alice, robo, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"},
                             source=MoveSource.API)
    # A program that never moved: a program's time (seconds), not a person's.
    assert ForcedMoveDue.objects.get(game=game).due_at - timezone.now() < timedelta(minutes=1)
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    assert Move.objects.get(game=game, seq=2).source == MoveSource.AUTO


def test_forced_moves_follow_one_another_from_the_start(alice, bob, django_capture_on_commit_callbacks, clock):
    forced_moves_on(alice)
    forced_moves_on(bob)
    game = love_letter(alice, bob, TWO_HANDMAIDS_THEN_COUNTESS, django_capture_on_commit_callbacks)
    play_when_due(game, django_capture_on_commit_callbacks, clock, count=2)
    assert list(Move.objects.filter(game=game).values_list("seat", "source", "move")) == [
        (0, MoveSource.AUTO, {"card": "handmaid"}), (1, MoveSource.AUTO, {"card": "countess"})]
    game.refresh_from_db()
    assert game.to_move == [0] and len(selectors.legal_moves_for(selectors.Viewer(game=game, seat=0))) > 1
    assert not Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, seq__in=(0, 1)).exists()


def test_a_chain_of_forced_moves_is_bounded(alice, bob, django_capture_on_commit_callbacks, monkeypatch, clock):
    monkeypatch.setattr(forced_moves, "FORCED_CHAIN_LIMIT", 1)
    forced_moves_on(alice)
    forced_moves_on(bob)
    game = love_letter(alice, bob, TWO_HANDMAIDS_THEN_COUNTESS, django_capture_on_commit_callbacks)
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    game.refresh_from_db()
    assert game.seq == 1 and game.to_move == [1]  # alice's was played; bob plays his Countess himself
    assert Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, user=bob, seq=1).exists()
    assert not ForcedMoveDue.objects.exists()


def test_the_forced_move_is_played_exactly_once(alice, bob, django_capture_on_commit_callbacks, clock):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):  # the task is not run: played by hand below
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert ForcedMoveDue.objects.filter(game=game, seq=1, due_at=None).exists()
    assert services.play_forced_move(game_id=game.pk, seq=0) is None  # another position's task
    assert services.play_forced_move(game_id=game.pk, seq=1) is None  # the first task draws the moment
    due = ForcedMoveDue.objects.get(game=game, seq=1)
    assert due.due_at > timezone.now()
    clock.move_to(due.due_at - timedelta(seconds=1))
    assert services.play_forced_move(game_id=game.pk, seq=1) is None  # a task that comes early plays nothing
    assert ForcedMoveDue.objects.get(game=game).due_at == due.due_at, "nor draws again"
    clock.move_to(due.due_at)
    assert services.play_forced_move(game_id=game.pk, seq=1).source == MoveSource.AUTO
    assert services.play_forced_move(game_id=game.pk, seq=1) is None  # the same task again
    assert services.play_forced_move(game_id=game.pk + 1000, seq=1) is None  # no such game
    assert Move.objects.filter(game=game).count() == 2


def test_a_player_who_moves_first_leaves_the_task_nothing_to_do(alice, bob, django_capture_on_commit_callbacks):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        services.submit_move(game_id=game.pk, user=bob, expected_seq=1, move={"card": "countess"})
    assert services.play_forced_move(game_id=game.pk, seq=1) is None
    assert list(Move.objects.filter(game=game).values_list("source", flat=True)) == ["web", "web"]
    assert not ForcedMoveDue.objects.exists()


def test_a_task_for_an_older_position_plays_nothing_at_the_new_one(alice, bob, django_capture_on_commit_callbacks):
    # Its row left behind for seq 0 while the game is at seq 1, where bob's move is forced: that is seq 1's task.
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    ForcedMoveDue.objects.filter(game=game).update(seq=0)
    assert services.play_forced_move(game_id=game.pk, seq=0) is None
    assert list(Move.objects.filter(game=game).values_list("source", flat=True)) == ["web"]


def test_a_forced_move_lost_between_the_two_moves_is_played_by_the_sweep(
        alice, bob, django_capture_on_commit_callbacks, clock):
    """The process dies after the first move's commit, before its task is queued: the row it wrote in that
    transaction is found by the clock sweep, which queues the task again; it draws the moment, and the sweep that
    finds the moment near queues the task that plays it."""
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):  # committed; the after-commit work never ran
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    with django_capture_on_commit_callbacks(execute=True):
        sweep.run()
    assert ForcedMoveDue.objects.get(game=game).due_at is None, "a fresh row waits for its own task"
    clock.shift(timedelta(seconds=settings.FORCED_STALL_SECONDS + 1))
    with django_capture_on_commit_callbacks(execute=True):
        sweep.run()
    due = ForcedMoveDue.objects.get(game=game)
    assert due.due_at is not None and Move.objects.filter(game=game).count() == 1, "drawn, not played yet"
    clock.move_to(due.due_at - forced_moves.NEAR - timedelta(seconds=1))
    assert forced_moves.to_queue() == [], "not near yet"
    clock.move_to(due.due_at - timedelta(seconds=30))
    assert forced_moves.to_queue() == [(game.pk, 1, 30.0)], "near: queued for its moment"
    clock.move_to(due.due_at)
    with django_capture_on_commit_callbacks(execute=True):
        sweep.run()
    assert Move.objects.get(game=game, seq=2).source == MoveSource.AUTO
    assert not ForcedMoveDue.objects.exists()


def test_the_setting_is_read_again_when_the_move_is_played(alice, bob, django_capture_on_commit_callbacks):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert not Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, user=bob).exists()
    forced_moves_on(bob, False)
    assert services.play_forced_move(game_id=game.pk, seq=1) is None
    assert Game.objects.get(pk=game.pk).seq == 1 and not ForcedMoveDue.objects.exists()
    # Handed back: bob is told it is his turn, as anyone whose move is not played for them.
    assert Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, user=bob, seq=1).exists()


def test_turning_the_setting_off_hands_the_waiting_positions_back_at_once(
        alice, bob, django_capture_on_commit_callbacks, api_client_for):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    assert ForcedMoveDue.objects.get(game=game).due_at > timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_client_for(bob).patch("/api/me/", {"play_forced_moves": False}, format="json")
    assert answer.status_code == 200 and answer.json()["play_forced_moves"] is False
    assert not ForcedMoveDue.objects.exists() and Game.objects.get(pk=game.pk).seq == 1
    assert Notification.objects.filter(game=game, kind=NotificationKind.YOUR_TURN, user=bob, seq=1).exists()


def test_everyone_reads_the_note_once_the_game_is_over(alice, bob, django_capture_on_commit_callbacks, clock):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign_game(game_id=game.pk, user=alice)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    for viewer in (0, 1, None):
        assert sum(NOTE in text for text in history_texts(game, viewer)) == 1


def test_the_record_tells_only_the_seat_until_the_end(alice, bob, robo, django_capture_on_commit_callbacks, clock):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    play_when_due(game, django_capture_on_commit_callbacks, clock)
    game = Game.objects.get(pk=game.pk)

    def source_read_by(seat):
        return records.record_for(selectors.Viewer(game=game, seat=seat))["moves"][1]["source"]

    assert (source_read_by(1), source_read_by(0), source_read_by(None)) == ("auto", "web", "web")
    # Another seat's door: the one it last played through, else a bot account's (the API) or a person's (web).
    assert records.source_shown(game, "auto", seat=1, viewer_seat=0, complete=False, last_door="email") == "email"
    with django_capture_on_commit_callbacks(execute=True):
        table = love_letter(alice, robo, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
        services.submit_move(game_id=table.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    play_when_due(table, django_capture_on_commit_callbacks, clock)
    table = Game.objects.get(pk=table.pk)
    assert records.record_for(selectors.Viewer(game=table, seat=0))["moves"][1]["source"] == "api"

    with django_capture_on_commit_callbacks(execute=True):
        services.resign_game(game_id=game.pk, user=alice)
    game = Game.objects.get(pk=game.pk)
    assert source_read_by(0) == "auto" and records.complete_record(game)["moves"][1]["source"] == "auto"


def halali_path_to_a_forced_position(seed: str, bot_seed: str) -> tuple[list[tuple[int, dict]], int, dict]:
    """Return the moves of Halali!'s basic bot against itself (its choices seeded by ``bot_seed``) from ``seed`` up
    to the first position with a single legal move, that position's seat, and its move."""
    engine = get_engine("halali")
    state = engine.setup(["alice", "bob"], engine.validate_options(2, {}), seed)
    played = []
    for number in range(600):
        (seat,) = engine.to_move(state)
        moves = engine.legal_moves(state, seat)
        if len(moves) == 1:
            return played, seat, moves[0]
        move = bot_move(engine, "basic", state, seat, [], seed=f"{bot_seed}:{number}")
        state, _ = engine.play(state, seat, move)
        played.append((seat, move))
    raise AssertionError(f"no forced position in 600 moves from {seed!r}: choose another seed")


def test_halalis_final_phase_can_leave_a_single_move_and_it_is_played(
        alice, bob, django_capture_on_commit_callbacks, clock):
    # The basic bot against itself reaches a single legal move in the final phase after 177 moves (of the first
    # 120 seeds tried, this one did).
    seed = "forced-108"
    played, forced_seat, forced_move = halali_path_to_a_forced_position(seed, "108")
    users = [alice, bob]
    forced_moves_on(users[forced_seat])
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=alice, engine_slug="halali", players=2, seed=seed)
        services.join_game(game_id=game.pk, user=bob)
    for seq, (seat, move) in enumerate(played):
        clock.shift(timedelta(minutes=7))  # each player takes some minutes: the forced move is drawn from those
        # Only the last move's after-commit work is run (it queues the forced move): the mail is not the subject.
        with django_capture_on_commit_callbacks(execute=seq == len(played) - 1):
            services.submit_move(game_id=game.pk, user=users[seat], expected_seq=seq, move=move)
    (logged,) = play_when_due(game, django_capture_on_commit_callbacks, clock)
    assert logged.seq == len(played) + 1
    assert (logged.seat, logged.move, logged.source) == (forced_seat, forced_move, MoveSource.AUTO)


def test_the_game_page_tells_the_seat_when_its_only_move_will_be_played(
        alice, bob, django_capture_on_commit_callbacks, clock, client):
    forced_moves_on(bob)
    game = love_letter(alice, bob, COUNTESS_WITH_KING, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    due = ForcedMoveDue.objects.get(game=game).due_at
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    note = re.search(r'<p class="hint forced-note">(.*?)</p>', page, re.S)
    assert note and "This is your only move" in note.group(1)
    assert due.strftime("%H:%M") in note.group(1)  # bob's zone is UTC
    client.force_login(alice)
    assert "forced-note" not in client.get(f"/games/{game.pk}/").content.decode()
