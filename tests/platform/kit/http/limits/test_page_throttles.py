"""The pages that make moves and create tables share the API's rates and counters."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from turnbased.play.models import Game, Move

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDMAID = {"move": json.dumps({"card": "handmaid"}), "expected_seq": "0"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_wrong_move(client, game, **headers):
    return client.post(f"/games/{game.pk}/move/", {"text": "fly away", "expected_seq": "0"}, **headers)


def test_a_move_refused_for_its_rate_shows_why_in_the_panel(started_game, alice, rates):
    rates(moves="2/min")
    client = logged_in(alice)
    assert [a_wrong_move(client, started_game, **HTMX).status_code for _ in range(2)] == [200, 200]
    refused = client.post(f"/games/{started_game.pk}/move/", HANDMAID, **HTMX)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    panel = refused.content.decode()
    assert panel.startswith('<div id="panel"') and 'role="alert"' in panel
    assert f"Too many moves (at most 2 per minute). Try again in {refused['Retry-After']} second" in panel
    assert ">handmaid<" in panel, "the moves are offered again"
    assert not Move.objects.filter(game=started_game).exists()


def test_without_htmx_the_refused_move_shows_the_game_page(started_game, alice, rates):
    rates(moves="1/min")
    client = logged_in(alice)
    a_wrong_move(client, started_game)
    refused = client.post(f"/games/{started_game.pk}/move/", HANDMAID)
    assert refused.status_code == 429 and refused["Retry-After"]
    page = refused.content.decode()
    assert "<html" in page and "Your hand" in page and "Too many moves" in page
    assert not Move.objects.filter(game=started_game).exists()


def test_moves_on_the_page_and_through_the_api_share_one_budget(started_game, alice, api_client_for, rates):
    rates(moves="2/min")
    api = api_client_for(alice)
    for _ in range(2):
        api.post(f"/api/games/{started_game.pk}/moves/", {"text": "fly away", "expected_seq": 0}, format="json")
    assert logged_in(alice).post(f"/games/{started_game.pk}/move/", HANDMAID, **HTMX).status_code == 429


def test_the_page_counts_moves_per_address_too(started_game, alice, bob, rates):
    rates(moves="2/min")
    for user in (alice, bob):
        a_wrong_move(logged_in(user), started_game, REMOTE_ADDR="198.51.100.7")
    refused = logged_in(alice).post(f"/games/{started_game.pk}/move/", HANDMAID, REMOTE_ADDR="198.51.100.7")
    assert refused.status_code == 429
    elsewhere = logged_in(bob).post(f"/games/{started_game.pk}/move/", HANDMAID, REMOTE_ADDR="203.0.113.9")
    assert elsewhere.status_code == 302, "not refused: bob's account has spent half its budget"


def new_table(client):
    return client.post("/games/new/", {"game": "love-letter", "players": "2", "edition": "classic",
                                       "classic_final_tie": "all_win", "visibility": "public"})


def test_the_new_table_page_is_limited_and_a_refused_table_is_not_created(alice, rates):
    rates(table_create="1/hour")
    client = logged_in(alice)
    assert new_table(client).status_code == 302
    refused = new_table(client)
    assert refused.status_code == 429 and 3000 < int(refused["Retry-After"]) <= 3600
    page = refused.content.decode()
    assert "Too many new tables (at most 1 per hour). Try again in" in page and "New table" in page
    assert Game.objects.count() == 1
    assert client.get("/games/new/").status_code == 200, "reading the form is not limited"


def test_rate_limits_off_lets_every_move_and_table_through(started_game, alice, rates, settings):
    rates(moves="1/min", table_create="1/hour")
    settings.RATE_LIMITS_ON = False
    client = logged_in(alice)
    assert {a_wrong_move(client, started_game, **HTMX).status_code for _ in range(3)} == {200}
    assert [new_table(client).status_code for _ in range(3)] == [302] * 3
