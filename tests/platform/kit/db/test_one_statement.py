"""The writes of one change sent as one statement (``turnbased.kit.db.one_statement``), and sent before anything that
could see them."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from turnbased.kit.db import one_statement
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play.models import ForcedMoveDue, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    from turnbased.play import services

    created = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=created.pk, user=bob)
    return Game.objects.get(pk=created.pk)


def notify(game, user, seq: int) -> None:
    sql, params = one_statement.insert([Notification(user=user, game=game, seq=seq, kind=NotificationKind.YOUR_TURN)],
                                       ignore_conflicts=True)
    one_statement.write(f"{one_statement.name('notified')} AS ({sql})", params)


def statements(captured) -> list[str]:
    return [query["sql"] for query in captured.captured_queries]


def test_the_writes_of_a_block_go_as_one_statement_when_it_ends(game, alice, bob):
    before = Notification.objects.count()
    with CaptureQueriesContext(connection) as captured:
        with one_statement.together():
            notify(game, alice, 100)
            notify(game, bob, 100)
            sql, params = one_statement.update(Game.objects.filter(pk=game.pk), last_move_at=timezone.now())
            one_statement.write(f"{one_statement.name('game')} AS ({sql})", params)
            assert statements(captured) == []  # nothing sent yet
    sent = statements(captured)
    assert len(sent) == 1 and sent[0].startswith("WITH notified_1 AS (INSERT")
    assert Notification.objects.count() == before + 2
    assert Game.objects.get(pk=game.pk).last_move_at is not None


def test_any_other_statement_in_the_block_runs_after_the_writes_before_it(game, alice):
    with CaptureQueriesContext(connection) as captured:
        with one_statement.together():
            notify(game, alice, 101)
            # A read made after the write sees it: the write is sent first.
            assert Notification.objects.filter(game=game, seq=101).count() == 1
            notify(game, alice, 102)
    sent = statements(captured)
    assert len(sent) == 3
    assert sent[0].startswith("WITH notified_1") and sent[1].startswith("SELECT") and sent[2].startswith("WITH notified_2")


def test_a_block_left_by_an_exception_sends_nothing(game, alice):
    with pytest.raises(RuntimeError), transaction.atomic():
        with one_statement.together():
            notify(game, alice, 103)
            raise RuntimeError("undo the change")
    assert not Notification.objects.filter(seq=103).exists()
    # And the connection is itself again: a write outside a block goes at once.
    with CaptureQueriesContext(connection) as captured:
        notify(game, alice, 104)
    assert len(statements(captured)) == 1 and Notification.objects.filter(seq=104).exists()


def test_a_result_reaches_its_writer_once_the_statement_ran(game):
    seen = []
    with one_statement.together():
        forced = one_statement.name("forced")
        sql, params = one_statement.insert([ForcedMoveDue(game_id=game.pk, seq=3, due_since=timezone.now())],
                                           update_conflicts=True, unique_fields=["game"],
                                           update_fields=["seq", "chain", "due_since"])
        one_statement.write(f"{forced} AS ({sql} RETURNING seq)", params, result=f"(SELECT seq FROM {forced})",
                            then=seen.append)
        assert seen == []
    assert seen == [3]
    # The same insert replaces the row, as bulk_create(update_conflicts=True) does.
    sql, params = one_statement.insert([ForcedMoveDue(game_id=game.pk, seq=4, chain=2, due_since=timezone.now())],
                                       update_conflicts=True, unique_fields=["game"],
                                       update_fields=["seq", "chain", "due_since"])
    one_statement.write(f"{one_statement.name('forced')} AS ({sql})", params)
    assert ForcedMoveDue.objects.filter(game=game).values_list("seq", "chain").get() == (4, 2)


def test_bulk_update_writes_each_row_its_own_values(alice, bob):
    from turnbased.play import services

    games = [services.create_game(creator=alice, engine_slug="love-letter", players=2) for _ in range(3)]
    moments = [timezone.now() - timezone.timedelta(hours=hours) for hours in (1, 2, 3)]
    for row, moment in zip(games, moments):
        row.last_move_at = moment
    sql, params = one_statement.bulk_update(games, ["last_move_at"])
    one_statement.write(f"{one_statement.name('games')} AS ({sql})", params)
    stored = dict(Game.objects.filter(pk__in=[row.pk for row in games]).values_list("pk", "last_move_at"))
    assert [stored[row.pk] for row in games] == moments
