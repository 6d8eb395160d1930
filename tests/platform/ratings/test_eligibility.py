"""Which accounts a finished game rates (issue 42): confirmed and established accounts, never two of one mailbox, and
related accounts only once both are established."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD
from tests.platform.ratings.conftest import ready_to_end
from turnbased.accounts.services.accounts import email_mark_verified
from turnbased.play import services
from turnbased.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def counted(game) -> bool:
    return RatingChange.objects.filter(game=game).exists()


def test_an_account_without_a_confirmed_address_is_rated_once_it_confirms_it(alice, make_user, finish_game):
    dan = make_user("dan", email_verified=False)
    assert not counted(finish_game(alice, dan))
    assert not Rating.objects.exists()  # an unrated game creates no rating, not even at 1000
    email_mark_verified(user=dan)
    assert counted(finish_game(alice, dan))


def test_a_new_account_is_rated_once_it_has_finished_enough_games(alice, bob, make_user, finish_game, settings):
    settings.RATINGS_MIN_ACCOUNT_DAYS, settings.RATINGS_MIN_FINISHED_GAMES = 7, 3
    newcomer = make_user("newcomer", joined=timezone.now())
    # Any finished game counts towards the minimum, an unrated one too: here against two opponents, so the cap
    # of three rated games a day between two players is not what holds them back.
    first = [finish_game(alice, newcomer), finish_game(newcomer, bob), finish_game(alice, newcomer)]
    assert [counted(game) for game in first] == [False, False, False]
    assert counted(finish_game(newcomer, bob))
    assert Rating.objects.get(user=newcomer).games == 1


def test_a_new_account_is_rated_once_it_is_old_enough(alice, make_user, finish_game, settings):
    settings.RATINGS_MIN_ACCOUNT_DAYS = 7
    newcomer = make_user("newcomer", joined=timezone.now())
    assert not counted(finish_game(alice, newcomer, moves=6))
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert counted(finish_game(alice, newcomer))


def test_two_accounts_of_one_mailbox_are_never_rated_together(make_user, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1
    ann = make_user("ann", email="Ann.Smith+main@gmail.com")
    alt = make_user("annsalt", email="annsmith+2@googlemail.com")
    others = [make_user(f"other{number}") for number in range(2)]
    for account, other in zip((ann, alt), others):
        assert counted(finish_game(account, other))  # each rated, and established, against someone else
    assert not counted(finish_game(ann, alt))
    assert Rating.objects.get(user=ann).games == 1


def test_accounts_signed_up_minutes_apart_count_together_only_once_both_are_established(make_user, finish_game,
                                                                                      settings):
    settings.RATINGS_PROVISIONAL_GAMES, settings.RATINGS_RELATED_SIGNUP_MINUTES = 2, 30
    joined = timezone.now() - timedelta(days=30)
    first, second = make_user("first", joined=joined), make_user("second", joined=joined + timedelta(minutes=20))
    strangers = [make_user(f"stranger{number}") for number in range(4)]
    assert not counted(finish_game(first, second))
    for stranger in strangers[:2]:
        finish_game(first, stranger)
    assert not counted(finish_game(first, second))  # the first is established, the second not yet
    for stranger in strangers[2:]:
        finish_game(stranger, second)
    assert counted(finish_game(first, second))  # both established against accounts they are not related to
    assert {Rating.objects.get(user=first).games, Rating.objects.get(user=second).games} == {3}


def test_accounts_signed_up_from_one_network_are_related_whenever_they_signed_up(make_user, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 2
    for username in ("ann", "ben"):
        client = APIClient(REMOTE_ADDR="81.2.69.142")
        answer = client.post("/api/accounts/", {"username": username, "email": f"{username}@example.com",
                                                "password": PASSWORD}, format="json")
        assert answer.status_code == 201
    ann, ben = (get_user_model().objects.select_related("profile").get(username=name) for name in ("ann", "ben"))
    for account, days in ((ann, 60), (ben, 20)):  # confirmed, and signed up weeks apart (and from everyone else)
        email_mark_verified(user=account)
        account.date_joined = timezone.now() - timedelta(days=days)
        account.save(update_fields=["date_joined"])
    assert ann.profile.signup_network == ben.profile.signup_network != ""
    assert not counted(finish_game(ann, ben))
    for account in (ann, ben):
        for number in range(2):
            assert counted(finish_game(account, make_user(f"{account.username}{number}")))
    assert counted(finish_game(ann, ben))


def test_a_rated_game_needs_every_player_at_a_bigger_table_eligible(alice, bob, make_user, settings):
    settings.RATINGS_MIN_ACCOUNT_DAYS, settings.RATINGS_MIN_FINISHED_GAMES = 7, 5
    game = ready_to_end([alice, bob, make_user("newcomer", joined=timezone.now())], slug="love-letter")
    services.resign_game(game_id=game.pk, user=bob)
    services.resign_game(game_id=game.pk, user=alice)
    assert not counted(game) and not Rating.objects.exists()
