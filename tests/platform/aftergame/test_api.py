"""The end of a game through the API: ending and score breakdown in the game, and the rematch endpoints."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.platform.aftergame.conftest import finished
from turnbased.aftergame import services as aftergame_services
from turnbased.aftergame.models import Rematch
from turnbased.play import selectors
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db


def test_a_finished_game_says_how_it_ended_and_breaks_its_score_down(alice, bob, api_client_for):
    game = finished([alice, bob], slug="halali", resign=False)
    body = api_client_for(alice).get(f"/api/games/{game.pk}/").json()
    assert body["ending"] == {"how": "played_out", "seats": [], "text": "Game over. Played to the end."}
    counted = [row for row in body["score_breakdown"] if row["counts"]]
    assert [sum(row["points"][seat] for row in counted) for seat in (0, 1)] == body["result"]["scores"]
    assert body["rematch"] is None and body["rematch_of"] is None


def test_a_game_in_play_has_no_ending_yet(started_game, api_client_for, alice):
    body = api_client_for(alice).get(f"/api/games/{started_game.pk}/").json()
    assert (body["ending"], body["score_breakdown"], body["rematch"]) == (None, None, None)
    listed = api_client_for(alice).get("/api/games/").json()["results"][0]
    assert "ending" not in listed  # the list stays cheap: no per-game reads


def test_rematch_through_the_api_once_then_accepted(alice, bob, api_client_for):
    game = finished([alice, bob])
    alice_api, bob_api = api_client_for(alice), api_client_for(bob)
    assert alice_api.get(f"/api/games/{game.pk}/rematch/").status_code == 404
    created = alice_api.post(f"/api/games/{game.pk}/rematch/")
    assert created.status_code == 201
    body = created.json()
    assert (body["original"], body["status"], body["seated"], body["awaited"]) == (game.pk, "waiting", ["alice"], ["bob"])
    again = alice_api.post(f"/api/games/{game.pk}/rematch/")
    assert again.status_code == 200 and again.json()["game"] == body["game"]
    assert Rematch.objects.count() == 1

    accepted = bob_api.post(f"/api/games/{game.pk}/rematch/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "started"
    assert bob_api.post(f"/api/games/{game.pk}/rematch/accept/").status_code == 409
    assert bob_api.get(f"/api/games/{game.pk}/").json()["rematch"] == body["game"]
    new = bob_api.get(f"/api/games/{body['game']}/").json()
    assert new["rematch_of"] == game.pk and new["status"] == GameStatus.ACTIVE
    assert APIClient().get(f"/api/games/{game.pk}/rematch/").json()["status"] == "started"


def test_decline_and_refusals_through_the_api(alice, bob, carol, started_game, api_client_for):
    assert api_client_for(alice).post(f"/api/games/{started_game.pk}/rematch/").status_code == 409
    game = finished([alice, bob])
    assert api_client_for(carol).post(f"/api/games/{game.pk}/rematch/").status_code == 403
    assert APIClient().post(f"/api/games/{game.pk}/rematch/").status_code == 401
    assert api_client_for(bob).post(f"/api/games/{game.pk}/rematch/decline/").status_code == 404
    api_client_for(alice).post(f"/api/games/{game.pk}/rematch/")
    assert api_client_for(carol).post(f"/api/games/{game.pk}/rematch/decline/").status_code == 403
    declined = api_client_for(bob).post(f"/api/games/{game.pk}/rematch/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert declined.json()["declined_by"] == "bob"
    assert api_client_for(bob).post(f"/api/games/{game.pk}/rematch/decline/").status_code == 409
    hidden = finished([alice, bob], visibility="private")
    assert api_client_for(carol).get(f"/api/games/{hidden.pk}/rematch/").status_code == 404
    assert api_client_for(carol).post(f"/api/games/{hidden.pk}/rematch/").status_code == 404


def test_a_moves_answer_carries_the_rematch_it_is_played_in_and_the_ending_it_makes(alice, bob, api_client_for):
    original = finished([alice, bob], slug="halali")
    rematch, _ = aftergame_services.rematch_propose(game_id=original.pk, user=alice)
    aftergame_services.rematch_accept(game_id=original.pk, user=bob)
    apis = {user.pk: api_client_for(user) for user in (alice, bob)}
    game = rematch.game
    for _ in range(500):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = game.to_move[0]
        user = game.seats.get(index=seat).user
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
        cache.clear()  # a whole game through the API: past the moves rate limit, which is not tested here
        answer = apis[user.pk].post(f"/api/games/{game.pk}/moves/", {"move": move, "expected_seq": game.seq},
                                    format="json").json()["game"]
        assert answer == apis[user.pk].get(f"/api/games/{game.pk}/").json()
        assert answer["rematch_of"] == original.pk
    assert game.status == GameStatus.FINISHED
    assert answer["ending"]["how"] == "played_out" and answer["score_breakdown"]
