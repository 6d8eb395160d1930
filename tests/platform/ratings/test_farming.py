"""The farming script of issue 42, replayed: three fresh accounts took a fourth from 1000 to 1402 in under a minute of
resigned games, and it ranked first on the Halali! leaderboard with 3 games.

The script's pattern: accounts signed up by one script from one address, each resigning games to the account it
feeds once the moves a rated game needs are made, one game after the other, then many ended at once (each from a
thread with a database connection of its own). What it gains is counted.
"""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD
from tests.platform.ratings.conftest import ready_to_end
from turnbased.accounts.services.accounts import email_mark_verified
from turnbased.mail.models import TurnEmails
from turnbased.mail.services import preferences_update
from turnbased.play import services
from turnbased.ratings.models import Rating, RatingChange
from turnbased.ratings.rules import MODEL, display_rating, rate

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT_ADDRESS = "81.2.69.142"
# The site's minimum of finished games before an account is rated, lowered from 5 so the test plays fewer games.
MIN_FINISHED_GAMES = 2
# Games each fresh account resigns to the fed one, one after the other: past the minimum of finished games, one
# more. Then games each resigns at the same moment as all the others: past what the daily cap (3) leaves.
ONE_AFTER_THE_OTHER = MIN_FINISHED_GAMES + 1
AT_ONCE = 3


@pytest.fixture(autouse=True)
def _fewer_finished_games(settings):
    settings.RATINGS_MIN_FINISHED_GAMES = MIN_FINISHED_GAMES


def script_signup(username: str):
    """Sign up through the API from the script's address and confirm the address, as the script did."""
    answer = APIClient(REMOTE_ADDR=SCRIPT_ADDRESS).post(
        "/api/accounts/", {"username": username, "email": f"{username}@example.com", "password": PASSWORD},
        format="json")
    assert answer.status_code == 201, answer.content[:300]
    user = get_user_model().objects.get(username=username)
    email_mark_verified(user=user)
    return reading_no_email(user)


def reading_no_email(user):
    """Turn the account's game emails off, as a script's accounts would (and each turn's email is most of what a
    move costs here, where every commit runs its work)."""
    preferences_update(user=user, turn_emails=TurnEmails.OFF, game_emails=False)
    return user


def farm(fed, feeders: list) -> list:
    """Each feeder resigns ``ONE_AFTER_THE_OTHER`` games to ``fed``, then ``AT_ONCE`` more all together; return the
    games."""
    games = []
    for feeder in feeders:
        for _ in range(ONE_AFTER_THE_OTHER):
            game = ready_to_end([fed, feeder])
            services.resign_game(game_id=game.pk, user=feeder)
            games.append(game)
    ready = [(ready_to_end([fed, feeder]), feeder) for feeder in feeders for _ in range(AT_ONCE)]
    barrier, failures = threading.Barrier(len(ready)), []

    def resign(game, feeder) -> None:
        try:
            barrier.wait(30)
            services.resign_game(game_id=game.pk, user=feeder)
        except Exception as error:  # noqa: BLE001 (reported by the test)
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=pair) for pair in ready]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads) and not failures, failures
    return games + [game for game, _ in ready]


def leaderboard() -> list[str]:
    return [row["username"] for row in APIClient().get("/api/ratings/?game=halali").json()["results"]]


def test_fresh_accounts_of_one_script_lift_nobody_however_their_games_end():
    fed = script_signup("fed")
    feeders = [script_signup(f"alt{number}") for number in range(3)]
    games = farm(fed, feeders)
    print(f"{len(games)} games resigned to the fed account, {RatingChange.objects.count()} rating changes")
    assert len(games) == 3 * (ONE_AFTER_THE_OTHER + AT_ONCE)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert leaderboard() == []


def test_an_established_account_fed_by_fresh_ones_gains_at_most_the_daily_cap_and_stays_off_the_leaderboard(alice):
    """The fed account is an established one that signed up elsewhere, long ago: the fresh accounts are not related
    to it. Their first games are unrated (new accounts); past the minimum of finished games, each pair counts the
    daily cap, whether games end one after the other or at once, and the rating they make is provisional."""
    feeders = [script_signup(f"alt{number}") for number in range(3)]
    games = farm(reading_no_email(alice), feeders)
    rating = Rating.objects.get(user=alice)
    cap = settings.RATINGS_SAME_PLAYERS_PER_DAY
    rated_per_feeder = [RatingChange.objects.filter(user=feeder).count() for feeder in feeders]
    print(f"{len(games)} games resigned to alice: {rating.games} rated, her rating {rating.display} "
          f"({rated_per_feeder} rated per feeding account)")
    assert AT_ONCE > cap - 1  # the games ended at once go past the cap
    assert rated_per_feeder == [cap] * len(feeders)
    assert rating.games == cap * len(feeders) < settings.RATINGS_PROVISIONAL_GAMES
    assert rating.provisional and "alice" not in leaderboard()
    # As many straight wins against new accounts is the most a day's farming can add to a rating.
    ceiling = (MODEL.mu, MODEL.sigma)
    for _ in range(cap * len(feeders)):
        ceiling = rate([ceiling, (MODEL.mu, MODEL.sigma)], [1, 2])[0]
    assert rating.display <= display_rating(*ceiling) < 1402
