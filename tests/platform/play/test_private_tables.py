"""Private tables: invisible to strangers, open to everyone who sits at them and to their creator."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_creator_of_a_private_table_of_bots_can_open_it(alice, carol, api_client_for):
    created = api_client_for(alice).post(
        "/api/games/",
        {"game": "love-letter", "players": 2, "visibility": "private", "play": False,
         "bots": {"0": "basic", "1": "basic"}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["status"] == "active" and game["my_seat"] is None

    creator = api_client_for(alice)
    detail = creator.get(f"/api/games/{game['id']}/")
    assert detail.status_code == 200 and detail.json()["my_seat"] is None
    assert detail.json()["view"]["hand"] is None  # a spectator's view: no bot's hand
    assert creator.get(f"/api/games/{game['id']}/history/").status_code == 200
    assert creator.get(f"/api/games/{game['id']}/legal-moves/").json()["moves"] == []
    page = Client()
    page.force_login(alice)
    assert page.get(f"/games/{game['id']}/").status_code == 200
    assert page.get(f"/games/{game['id']}/panel/").status_code == 200

    assert api_client_for(carol).get(f"/api/games/{game['id']}/").status_code == 404
    stranger = Client()
    stranger.force_login(carol)
    assert stranger.get(f"/games/{game['id']}/").status_code == 404


def test_the_creator_without_a_seat_is_told_they_do_not_play(alice, api_client_for):
    game = api_client_for(alice).post(
        "/api/games/",
        {"game": "love-letter", "players": 2, "visibility": "private", "play": False,
         "bots": {"0": "basic", "1": "basic"}},
        format="json",
    ).json()
    response = api_client_for(alice).post(f"/api/games/{game['id']}/moves/", {"text": "guard", "expected_seq": 0},
                                          format="json")
    assert response.status_code == 403 and "not playing" in response.json()["detail"]
