"""Server-rendered pages: accounts, lobby, tables, and playing from the game page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.platform.conftest import PASSWORD
from turnbased.play.models import Game, GameStatus, Move

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_sign_up_confirm_the_address_log_out_and_log_in(mailoutbox):
    client = Client()
    response = client.post("/accounts/signup/", {
        "username": "erin", "email": "erin@example.com", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    assert b"Log in" in client.get("/").content  # not in before the address is confirmed
    link = re.search(r"http://testserver(/accounts/confirm-email/[^/\s]+/)", mailoutbox[-1].body).group(1)
    response = client.post(link)
    assert response.status_code == 302
    assert b"erin" in client.get("/").content
    client.post("/accounts/logout/")
    assert b"Log in" in client.get("/").content
    response = client.post("/accounts/login/", {"login": "erin", "password": PASSWORD})
    assert response.status_code == 302
    assert b"Your games" in client.get("/").content


def test_sign_up_errors_are_shown():
    response = Client().post("/accounts/signup/", {
        "username": "erin", "email": "nope", "password1": "short", "password2": "other",
    })
    assert response.status_code == 200
    assert b"errorlist" in response.content


def test_lobby_shows_my_games_with_whose_turn_and_the_open_tables(started_game, alice, make_user):
    other = make_user("dave")
    client = logged_in(alice)
    from turnbased.play import services

    open_table = services.create_game(creator=other, engine_slug="love-letter", players=3)
    page = client.get("/").content.decode()
    assert f"/games/{started_game.pk}/" in page and "Yours" in page
    assert f"/games/{open_table.pk}/" in page and "Open tables" in page


def test_create_a_table_share_the_invite_and_join(alice, bob):
    host = logged_in(alice)
    response = host.post("/games/new/", {"game": "love-letter", "players": "2", "edition": "classic",
                                          "classic_final_tie": "all_win", "visibility": "private"})
    assert response.status_code == 302
    game = Game.objects.get()
    page = host.get(response.url).content.decode()
    assert f"/games/{game.pk}/invite/{game.invite_code}/" in page

    guest = logged_in(bob)
    assert guest.get(f"/games/{game.pk}/").status_code == 404
    invite = guest.get(f"/games/{game.pk}/invite/{game.invite_code}/")
    assert invite.status_code == 200 and b"Take a seat" in invite.content
    guest.post(f"/games/{game.pk}/join/", {"invite_code": game.invite_code})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


def test_create_form_reports_bad_choices(alice):
    client = logged_in(alice)
    response = client.post("/games/new/", {"game": "love-letter", "players": "9", "visibility": "public"})
    assert response.status_code == 200 and b"takes 2 to 6 players" in response.content
    response = client.post("/games/new/", {"game": "love-letter", "players": "5", "edition": "classic"})
    assert b'class="error"' in response.content and not Game.objects.exists()


def test_invite_link_sends_strangers_to_log_in_first(started_game):
    response = Client().get(f"/games/{started_game.pk}/invite/{started_game.invite_code}/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_game_page_shows_my_hand_the_table_and_clickable_moves(started_game, alice):
    page = logged_in(alice).get(f"/games/{started_game.pk}/").content.decode()
    assert "Your hand" in page and "Your turn." in page
    assert "Card tracker" in page
    assert 'name="move"' in page and "guard bob princess" in page and ">handmaid<" in page
    assert 'hx-trigger="every 4s"' in page


def test_playing_a_move_from_the_page(started_game, alice):
    client = logged_in(alice)
    response = client.post(f"/games/{started_game.pk}/move/", {
        "move": json.dumps({"card": "handmaid"}), "expected_seq": "0", "idempotency_key": "abc",
    }, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Waiting for bob" in response.content.decode()
    assert Move.objects.filter(game=started_game).count() == 1


def test_typed_move_errors_come_back_in_the_panel_and_change_nothing(started_game, alice):
    response = logged_in(alice).post(f"/games/{started_game.pk}/move/", {
        "text": "guard alice priest", "expected_seq": "0",
    }, HTTP_HX_REQUEST="true")
    assert 'role="alert"' in response.content.decode()
    assert Move.objects.filter(game=started_game).count() == 0


def test_a_stale_page_is_told_the_game_moved_on(started_game, alice):
    client = logged_in(alice)
    client.post(f"/games/{started_game.pk}/move/", {"move": json.dumps({"card": "handmaid"}), "expected_seq": "0"})
    response = client.post(f"/games/{started_game.pk}/move/", {
        "move": json.dumps({"card": "guard", "target": 1, "guess": "king"}), "expected_seq": "0",
    }, HTTP_HX_REQUEST="true")
    assert "moved on" in response.content.decode()
    assert Move.objects.filter(game=started_game).count() == 1


def test_panel_polling_answers_204_until_the_position_changes(started_game, alice, bob):
    watcher = logged_in(bob)
    url = f"/games/{started_game.pk}/panel/?seq=0&status=active&seated=2"
    assert watcher.get(url).status_code == 204
    logged_in(alice).post(f"/games/{started_game.pk}/move/", {"move": json.dumps({"card": "handmaid"}), "expected_seq": "0"})
    response = watcher.get(url)
    assert response.status_code == 200 and "Your turn." in response.content.decode()


@pytest.mark.parametrize("query", ["", "?seq=0", "?seq=0&status=active", "?seq=x&status=active&seated=2",
                                   "?seq=0&status=open&seated=2", "?seq=0&status=active&seated=1"])
def test_a_poll_that_does_not_name_the_current_version_gets_the_panel(started_game, bob, query):
    response = logged_in(bob).get(f"/games/{started_game.pk}/panel/{query}")
    assert response.status_code == 200 and 'id="panel"' in response.content.decode()


def test_private_game_pages_are_404_to_strangers(start_scripted_game, alice, bob, carol):
    game = start_scripted_game(alice, bob, visibility="private")
    stranger = logged_in(carol)
    for path in ("", "panel/", "panel/?seq=0&status=active&seated=2", "history/", "history/?before=1"):
        assert stranger.get(f"/games/{game.pk}/{path}").status_code == 404
    assert stranger.post(f"/games/{game.pk}/move/", {"text": "handmaid", "expected_seq": "0"}).status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404


def test_unknown_game_page_is_404(alice):
    assert logged_in(alice).get("/games/987654/").status_code == 404
