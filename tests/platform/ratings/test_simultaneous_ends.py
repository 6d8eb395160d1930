"""Games of the same players that end at the same moment: the daily cap on their rated games holds however their
transactions interleave, from threads with connections of their own and from real web processes."""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings
from django.db import connection, transaction

from tests.faults.stack import PatientClient
from tests.platform.conftest import api_token
from tests.platform.ratings.conftest import ready_to_end
from tests.serving.served import database_url_for, served_web
from turnbased.play import services
from turnbased.play.models import Game, GameStatus
from turnbased.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)


def rated(games: list[Game]) -> list[int]:
    """Return the ids of ``games`` that moved ratings, in order."""
    counted = set(RatingChange.objects.filter(game__in=games).values_list("game_id", flat=True))
    return [game.pk for game in games if game.pk in counted]


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0] > 0


def test_a_game_that_ends_while_the_pairs_previous_one_is_uncommitted_waits_for_it_and_counts_it(alice, bob,
                                                                                                finish_game):
    """The worst moment: one game's ending has counted the pair's rated games and rated itself, and has not
    committed; the next game of the same pair ends then. It must count the first one, so the cap holds."""
    cap = settings.RATINGS_SAME_PLAYERS_PER_DAY
    earlier = [finish_game(alice, bob) for _ in range(cap - 1)]
    assert len(rated(earlier)) == cap - 1
    last_allowed, one_too_many = ready_to_end([alice, bob]), ready_to_end([alice, bob])
    rated_uncommitted, commit, failures = threading.Event(), threading.Event(), []

    def end_and_hold() -> None:
        try:
            with transaction.atomic():
                services.resign_game(game_id=last_allowed.pk, user=bob)
                rated_uncommitted.set()
                assert commit.wait(30), "never told to commit"
        except Exception as error:  # noqa: BLE001 (reported by the test)
            failures.append(error)
        finally:
            rated_uncommitted.set()
            connection.close()

    def end() -> None:
        try:
            services.resign_game(game_id=one_too_many.pk, user=bob)
        except Exception as error:  # noqa: BLE001 (reported by the test)
            failures.append(error)
        finally:
            connection.close()

    holder, ender = threading.Thread(target=end_and_hold), threading.Thread(target=end)
    holder.start()
    assert rated_uncommitted.wait(30) and not failures, failures
    ender.start()
    # The second ending goes as far as it can while the first holds its transaction open: it waits for a lock,
    # or (were nothing locked) it ends.
    deadline = time.monotonic() + 10
    while ender.is_alive() and not _waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.05)
    commit.set()
    holder.join(30)
    ender.join(30)
    assert not holder.is_alive() and not ender.is_alive() and not failures, failures
    for game in (last_allowed, one_too_many):
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED
    assert rated([*earlier, last_allowed, one_too_many]) == [game.pk for game in earlier] + [last_allowed.pk]
    assert {rating.games for rating in Rating.objects.filter(user__in=[alice, bob])} == {cap}


def test_many_games_of_one_pair_resigned_at_once_through_real_web_processes_rate_only_the_cap(tmp_path, alice, bob):
    """Issue 42: 5 of 6 resignations sent at once were rated, with 3 a day allowed. Here 8 are sent at once, each
    through gunicorn's processes on a connection of its own."""
    cap = settings.RATINGS_SAME_PLAYERS_PER_DAY
    games = [ready_to_end([alice, bob]) for _ in range(8)]
    token = api_token(bob)
    answers: list[int] = []
    environment = {"RATE_LIMIT_API": "100000/min", "WEB_CONCURRENCY": "4", "WEB_THREADS": "2"}
    with served_web(tmp_path, database_url_for(connection.settings_dict["NAME"]), **environment) as web:
        barrier = threading.Barrier(len(games))

        def resign(game: Game) -> None:
            client = PatientClient(web.port, token)
            try:
                barrier.wait(30)
                status, _ = client.request("POST", f"/api/games/{game.pk}/resign/", {})
                answers.append(status)
            finally:
                client.close()

        threads = [threading.Thread(target=resign, args=(game,)) for game in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert sorted(answers) == [200] * len(games)
    assert Game.objects.filter(pk__in=[game.pk for game in games], status=GameStatus.FINISHED).count() == len(games)
    assert len(rated(games)) == cap
    assert RatingChange.objects.filter(game__in=games).count() == 2 * cap
    assert {rating.games for rating in Rating.objects.filter(user__in=[alice, bob])} == {cap}
