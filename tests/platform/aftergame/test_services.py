"""Rematch: one new table per finished game, the same players rotated, started by one-click acceptances."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.platform.aftergame.conftest import finished, play_out
from turnbased.aftergame import services
from turnbased.aftergame.models import Rematch
from turnbased.clocks.models import TableClock
from turnbased.kit.errors import Conflict, GameNotFound, NotAllowed, PlayError
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "bank", "bank_days": 5, "increment_days": 2, "weekends_off": True, "expiry": "remove"}


def seated(game: Game) -> dict[int, str]:
    return {seat.index: seat.user.username if seat.user_id else f"bot:{seat.bot}" for seat in game.seats.all()}


def test_a_rematch_keeps_game_options_and_clock_and_rotates_the_seats(alice, bob, carol):
    original = finished([alice, bob, carol], options={"edition": "2019"}, time_control=CLOCK)
    rematch, created = services.rematch_propose(game_id=original.pk, user=bob)
    game = rematch.game
    assert created and game.status == GameStatus.OPEN and game.created_by == bob
    assert (game.engine, game.seat_count, game.options["edition"]) == ("love-letter", 3, "2019")
    assert game.seed != original.seed and game.invite_code != original.invite_code
    clock = TableClock.objects.get(game=game)
    assert (clock.kind, clock.bank_days, clock.increment_days, clock.weekends_off, clock.expiry) == (
        "bank", 5, 2, True, "remove")
    assert {invite.user.username: invite.seat for invite in rematch.invites.all()} == {"alice": 1, "bob": 2, "carol": 0}
    assert seated(game) == {2: "bob"}  # the proposer sits at once
    offered = Notification.objects.filter(game=game, kind=NotificationKind.REMATCH_OFFERED)
    assert sorted(offered.values_list("user__username", flat=True)) == ["alice", "carol"]

    services.rematch_accept(game_id=original.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN and seated(game) == {1: "alice", 2: "bob"}
    services.rematch_accept(game_id=original.pk, user=carol)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.player_names == ["carol", "alice", "bob"]


def test_bots_keep_their_kind_and_move_on_a_seat_too(alice):
    original = play_services.create_game(creator=alice, engine_slug="love-letter", players=3,
                                         bots={1: "basic", 2: "random"})
    play_services.resign_game(game_id=original.pk, user=alice)
    play_out(original, {})  # the bots play on
    rematch, _ = services.rematch_propose(game_id=original.pk, user=alice)
    rematch.game.refresh_from_db()
    # Alone with bots, the proposer's seat fills the table: it starts at once.
    assert rematch.game.status == GameStatus.ACTIVE
    assert seated(rematch.game) == {0: "bot:random", 1: "alice", 2: "bot:basic"}


def test_a_second_press_returns_the_same_rematch_and_from_an_invited_player_accepts_it(alice, bob):
    original = finished([alice, bob])
    first, created = services.rematch_propose(game_id=original.pk, user=alice)
    again, created_again = services.rematch_propose(game_id=original.pk, user=alice)
    assert created and not created_again and again.pk == first.pk
    assert Rematch.objects.count() == 1 and Game.objects.count() == 2
    accepted, created_by_bob = services.rematch_propose(game_id=original.pk, user=bob)
    assert accepted.pk == first.pk and not created_by_bob
    accepted.game.refresh_from_db()
    assert accepted.game.status == GameStatus.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_two_presses_racing_make_one_table(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    original = finished([alice, bob, carol])
    barrier = threading.Barrier(2)
    outcomes: list = []

    def press(user):
        try:
            barrier.wait()
            rematch, created = services.rematch_propose(game_id=original.pk, user=user)
            outcomes.append((rematch.pk, created))
        except PlayError as error:
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert len({pk for pk, _ in outcomes}) == 1 and sorted(created for _, created in outcomes) == [False, True]
    assert Rematch.objects.count() == 1 and Game.objects.count() == 2
    rematch = Rematch.objects.get()
    # The second press, from the other player, accepted: both sit; the table waits only for carol.
    assert sorted(rematch.game.seats.values_list("user__username", flat=True)) == ["alice", "bob"]


def test_only_a_finished_games_players_may_ask_and_only_once_it_is_over(alice, bob, carol, started_game):
    with pytest.raises(Conflict):
        services.rematch_propose(game_id=started_game.pk, user=alice)
    original = finished([alice, bob])
    with pytest.raises(NotAllowed):
        services.rematch_propose(game_id=original.pk, user=carol)
    hidden = finished([alice, bob], visibility="private")
    with pytest.raises(GameNotFound):
        services.rematch_propose(game_id=hidden.pk, user=carol)
    assert not Rematch.objects.exists()


def test_a_decline_aborts_the_table_for_everyone_and_nobody_can_accept_after(alice, bob, carol):
    original = finished([alice, bob, carol])
    rematch, _ = services.rematch_propose(game_id=original.pk, user=alice)
    services.rematch_decline(game_id=original.pk, user=carol)
    rematch.refresh_from_db()
    assert rematch.game.status == GameStatus.ABORTED and rematch.declined_by == carol
    with pytest.raises(Conflict):
        services.rematch_accept(game_id=original.pk, user=bob)
    again, created = services.rematch_propose(game_id=original.pk, user=bob)
    assert again.pk == rematch.pk and not created and again.game.status == GameStatus.ABORTED


def test_accepting_twice_or_without_an_invite_is_refused(alice, bob, carol):
    original = finished([alice, bob, carol])
    with pytest.raises(GameNotFound):
        services.rematch_accept(game_id=original.pk, user=bob)  # nothing proposed yet
    services.rematch_propose(game_id=original.pk, user=alice)
    with pytest.raises(Conflict):
        services.rematch_accept(game_id=original.pk, user=alice)
    stranger_game = finished([bob, carol])
    services.rematch_propose(game_id=stranger_game.pk, user=bob)
    with pytest.raises(NotAllowed):
        services.rematch_accept(game_id=stranger_game.pk, user=alice)


def test_strangers_cannot_take_a_seat_kept_for_a_rematch_and_do_not_see_it_listed(alice, bob, carol):
    from turnbased.play.selectors import open_games

    original = finished([alice, bob])
    rematch, _ = services.rematch_propose(game_id=original.pk, user=alice)
    with pytest.raises(Conflict):
        play_services.join_game(game_id=rematch.game_id, user=carol)
    assert rematch.game not in open_games(carol)
