"""A table's requirements (issue 44, fair entry): each one refuses a player who misses it, in words that name it,
on the page and through the API alike; a new player is read as new, never as 0 % or 100 %; bad requirements are
refused and make nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from turnbased.entry.models import TableRequirements
from turnbased.kit.errors import Conflict, InvalidRequest, Unprocessable
from turnbased.play import services
from turnbased.play.models import Game, Move, MoveSource, Seat
from turnbased.ratings.models import Rating, RatingPool
from turnbased.ratings.rules import MODEL

pytestmark = pytest.mark.django_db


def _table(creator, **asked) -> Game:
    return services.create_game(creator=creator, engine_slug="love-letter", players=3, terms={"requirements": asked})


def _clocked_record(player, opponent, *, games: int, abandoned: int = 0, timeouts: int = 0, moves: int = 0):
    """Finished games with a clock in the player's record: ``abandoned`` of them left to a bot."""
    for number in range(games):
        game = services.create_game(creator=player, engine_slug="love-letter", players=2,
                                    time_control={"kind": "per_move", "days_per_move": 3})
        services.join_game(game_id=game.pk, user=opponent)
        if number < abandoned:
            Seat.objects.filter(game=game, user=player).update(bot="random")
        services.resign_game(game_id=game.pk, user=opponent)
    game = Game.objects.filter(seats__user=player).first()
    for seq in range(moves + timeouts):
        Move.objects.create(game=game, seq=1000 + seq, seat=0, user=player if seq < moves else None, move={},
                            source=MoveSource.WEB if seq < moves else MoveSource.TIMEOUT)


def _refused(game, user) -> str:
    with pytest.raises(Conflict) as refusal:
        services.join_game(game_id=game.pk, user=user)
    assert not game.seats.filter(user=user).exists()
    return refusal.value.detail


def test_finished_games(alice, bob, carol):
    game = _table(alice, min_finished=2)
    assert _refused(game, bob) == "This table asks for at least 2 finished games; you have 0."
    _clocked_record(bob, carol, games=2)
    services.join_game(game_id=game.pk, user=bob)


def test_abandoned_games_and_the_new_player(alice, bob, carol, make_user):
    newcomer = make_user("newcomer")
    strict = _table(alice, max_abandoned=0, new_players=False)
    welcoming = _table(alice, max_abandoned=0)
    assert "you have none yet" in _refused(strict, newcomer)
    services.join_game(game_id=welcoming.pk, user=newcomer)  # new: neither reliable nor unreliable
    _clocked_record(bob, carol, games=3, abandoned=1)
    assert _refused(_table(alice, max_abandoned=0), bob) == \
        "This table asks for at most 0 abandoned games of the last 3 with a clock; you abandoned 1."
    services.join_game(game_id=_table(alice, max_abandoned=1).pk, user=bob)


def test_move_reliability(alice, bob, carol):
    _clocked_record(bob, carol, games=1, moves=9, timeouts=1)
    assert _refused(_table(alice, min_reliability=95), bob) == \
        "This table asks for a move reliability of at least 95%; yours is 90%."
    services.join_game(game_id=_table(alice, min_reliability=90).pk, user=bob)


def test_rating_range_and_provisional_ratings(alice, bob):
    assert _refused(_table(alice, rating_min=1100), bob) == \
        "This table asks for a rating from 1100 to …; yours is 1000."  # no rating: the start, provisional
    assert "no longer provisional" in _refused(_table(alice, provisional_ok=False), bob)
    rating = Rating.objects.create(user=bob, game_slug="love-letter", players=3, pool=RatingPool.PEOPLE,
                                   mu=MODEL.mu, sigma=1.0, games=30)
    assert 1100 <= rating.display <= 1500 and not rating.provisional
    services.join_game(game_id=_table(alice, rating_min=1100, rating_max=1500, provisional_ok=False).pk, user=bob)
    assert _refused(_table(alice, rating_max=1100), bob) == \
        f"This table asks for a rating from … to 1100; yours is {rating.display}."


@pytest.mark.parametrize("asked, error", [
    ({"min_reliability": 101}, Unprocessable), ({"max_abandoned": -1}, Unprocessable),
    ({"min_finished": "3"}, Unprocessable), ({"rating_min": 1500, "rating_max": 1200}, Unprocessable),
    ({"provisional_ok": "no"}, InvalidRequest), ({"colour": 1}, InvalidRequest), ({"min_finished": True}, Unprocessable),
])
def test_bad_requirements_make_nothing(alice, asked, error):
    with pytest.raises(error):
        _table(alice, **asked)
    assert not Game.objects.exists() and not TableRequirements.objects.exists()


def test_a_table_that_asks_nothing_keeps_no_row(alice):
    _table(alice, provisional_ok=True, new_players=True)
    assert not TableRequirements.objects.exists()


def test_the_page_and_the_api_show_them_before_joining_and_refuse_alike(alice, bob, api_client_for):
    page = Client()
    page.force_login(alice)
    page.post("/games/new/", {"game": "love-letter", "players": "3", "seat_0": "me", "seat_1": "person",
                              "seat_2": "person", "visibility": "public", "clock": "none", "min_finished": "4",
                              "provisional_ok": "on", "new_players": "on"})
    game = Game.objects.get()
    assert TableRequirements.objects.get(game=game).min_finished == 4
    page.force_login(bob)
    shown = page.get(f"/games/{game.pk}/").content.decode()
    assert "at least 4 finished games" in shown and "you have 0" in shown
    refused = page.post(f"/games/{game.pk}/join/", follow=True).content.decode()
    assert "This table asks for at least 4 finished games; you have 0." in refused
    api = api_client_for(bob)
    read = api.get(f"/api/games/{game.pk}/requirements/").json()
    assert read["asked"]["min_finished"] == 4 and read["unmet"] == "This table asks for at least 4 finished games; you have 0."
    answer = api.post(f"/api/games/{game.pk}/join/")
    assert answer.status_code == 409 and answer.json()["detail"] == read["unmet"]
    made = api_client_for(alice).post("/api/games/", {"game": "halali", "requirements": {"min_reliability": 80}},
                                      format="json")
    assert made.status_code == 201 and TableRequirements.objects.get(game_id=made.json()["id"]).min_reliability == 80
    assert api_client_for(alice).post("/api/games/", {"game": "halali", "requirements": {"min_reliability": 101}},
                                      format="json").status_code == 400
