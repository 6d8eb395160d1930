"""The end screen on the game page, the rematch buttons, the box the end screen polls, and the lobby's offers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.platform.aftergame.conftest import finished
from turnbased.aftergame import services
from turnbased.aftergame.models import Rematch
from turnbased.mail import delivery
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def end_screen(html: str) -> str:
    found = re.search(r'<section class="card end-screen".*?</section>', html, re.S)
    assert found, "no end screen"
    return found.group(0)


def test_the_end_screen_says_by_resignation_and_who_and_draws_the_trophy(alice, bob):
    game = finished([alice, bob])
    html = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    screen = end_screen(html)
    assert "Game over by resignation" in screen and "bob resigned." in screen
    assert '<svg class="trophy"' in screen and "🏆" not in screen
    assert "<caption>Final score</caption>" in screen and "Total" in screen


@pytest.mark.parametrize("slug", ["halali", "carcassonne-hg", "savernake-forest", "love-letter"])
def test_every_game_shows_its_score_breakdown(slug, alice, bob):
    game = finished([alice, bob], slug=slug, resign=slug == "carcassonne-hg")
    screen = end_screen(client_for(None).get(f"/games/{game.pk}/").content.decode())
    labels = re.findall(r'<th scope="row">([^<]+)</th>', screen)
    assert "Total" in labels and len(labels) >= 2, labels


def test_every_viewer_reads_the_same_score_table(alice, bob, carol):
    game = finished([alice, bob], slug="halali", resign=False)
    tables = {
        name: re.search(r"<table class=\"games score-table\">.*?</table>",
                        client_for(user).get(f"/games/{game.pk}/").content.decode(), re.S).group(0)
        for name, user in (("alice", alice), ("bob", bob), ("carol", carol), ("visitor", None))
    }
    assert len(set(tables.values())) == 1


def test_only_players_see_the_rematch_button(alice, bob, carol):
    game = finished([alice, bob])
    button = f'action="/games/{game.pk}/rematch/"'
    assert button in client_for(bob).get(f"/games/{game.pk}/").content.decode()
    for viewer in (carol, None):
        assert button not in client_for(viewer).get(f"/games/{game.pk}/").content.decode()


def test_rematch_then_one_click_accept_starts_the_table_and_the_games_link_to_each_other(alice, bob):
    game = finished([alice, bob])
    response = client_for(alice).post(f"/games/{game.pk}/rematch/")
    rematch = Rematch.objects.get(original=game)
    assert response.status_code == 302 and response["Location"] == f"/games/{rematch.game_id}/"
    offer = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/rematch/accept/"' in offer and "waiting for bob" in offer
    assert f'action="/games/{game.pk}/rematch/accept/"' in client_for(bob).get("/").content.decode()

    response = client_for(bob).post(f"/games/{game.pk}/rematch/accept/")
    assert response.status_code == 302 and response["Location"] == f"/games/{rematch.game_id}/"
    rematch.game.refresh_from_db()
    assert rematch.game.status == GameStatus.ACTIVE
    new_page = client_for(bob).get(f"/games/{rematch.game_id}/").content.decode()
    assert f'Rematch of <a href="/games/{game.pk}/">game #{game.pk}</a>' in new_page
    old_page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert f'<a href="/games/{rematch.game_id}/">game #{rematch.game_id}</a> (in play)' in old_page
    assert f'action="/games/{game.pk}/rematch/accept/"' not in client_for(bob).get("/").content.decode()


def test_decline_from_the_lobby_calls_the_rematch_off(alice, bob):
    game = finished([alice, bob])
    services.rematch_propose(game_id=game.pk, user=alice)
    response = client_for(bob).post(f"/games/{game.pk}/rematch/decline/")
    assert response.status_code == 302
    assert "bob declined the rematch." in client_for(alice).get(f"/games/{game.pk}/").content.decode()


def test_the_rematch_box_answers_204_until_a_rematch_changes_it(alice, bob, carol):
    game = finished([alice, bob])
    box = f"/games/{game.pk}/rematch/box/"
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert f'hx-get="{box}?v=none"' in page
    assert client_for(bob).get(box + "?v=none").status_code == 204
    rematch, _ = services.rematch_propose(game_id=game.pk, user=alice)
    changed = client_for(bob).get(box + "?v=none")
    assert changed.status_code == 200 and "Accept rematch" in changed.content.decode()
    assert client_for(carol).get(box + "?v=none").status_code == 200  # a spectator reads it too, no buttons
    hidden = finished([alice, bob], visibility="private")
    assert client_for(carol).get(f"/games/{hidden.pk}/rematch/box/").status_code == 404


def test_bad_rematch_requests_change_nothing(alice, bob, carol, started_game):
    assert client_for(alice).post(f"/games/{started_game.pk}/rematch/").status_code == 302  # with a message
    assert client_for(alice).get(f"/games/{started_game.pk}/rematch/").status_code == 405
    assert client_for(alice).get(f"/games/{started_game.pk}/rematch/box/").status_code == 404
    assert client_for(alice).post("/games/999999/rematch/accept/").status_code == 404
    assert client_for(None).post(f"/games/{started_game.pk}/rematch/").status_code == 302  # to the login page
    game = finished([alice, bob])
    assert client_for(carol).post(f"/games/{game.pk}/rematch/").status_code == 302
    assert not Rematch.objects.exists()


def test_the_invited_players_get_an_email_linking_to_the_finished_game(alice, bob, mailoutbox):
    game = finished([alice, bob])
    rematch, _ = services.rematch_propose(game_id=game.pk, user=alice)
    row = Notification.objects.get(user=bob, kind=NotificationKind.REMATCH_OFFERED)
    assert row.game_id == rematch.game_id and delivery.deliver(row.pk) == "sent"
    email = mailoutbox[-1]
    assert email.to == [bob.email] and email.subject.startswith("Rematch offered")
    assert f"alice proposes a rematch of Love Letter #{game.pk}" in email.body
    assert f"/games/{game.pk}/" in email.body and email.reply_to == []


def test_an_offer_no_longer_waiting_sends_no_email(alice, bob, mailoutbox):
    game = finished([alice, bob])
    services.rematch_propose(game_id=game.pk, user=alice)
    services.rematch_decline(game_id=game.pk, user=bob)
    row = Notification.objects.get(user=bob, kind=NotificationKind.REMATCH_OFFERED)
    assert delivery.deliver(row.pk) == "skipped: superseded" and not mailoutbox


def test_a_private_rematch_opens_for_the_players_it_waits_for_and_for_nobody_else(alice, bob, carol):
    game = finished([alice, bob], visibility="private")
    rematch, _ = services.rematch_propose(game_id=game.pk, user=alice)
    table = f"/games/{rematch.game_id}/"
    assert f'href="{table}"' in client_for(bob).get(f"/games/{game.pk}/").content.decode()  # the box links it
    offer = client_for(bob).get(table)
    assert offer.status_code == 200 and f'action="/games/{game.pk}/rematch/accept/"' in offer.content.decode()
    assert client_for(bob).get(f"/api/games/{rematch.game_id}/").status_code == 200
    for stranger in (carol, None):
        assert client_for(stranger).get(table).status_code == 404
    services.rematch_decline(game_id=game.pk, user=bob)  # once it no longer waits, it is closed to bob again
    assert client_for(bob).get(table).status_code == 404


def test_the_end_screen_shows_each_players_rating_change(alice, bob):
    game = finished([alice, bob], resign=False)  # played out between people at a public table: rated
    from turnbased.ratings.models import RatingChange

    changes = {change.seat: change for change in RatingChange.objects.filter(game=game)}
    assert len(changes) == 2
    for viewer in (alice, bob, None):
        screen = end_screen(client_for(viewer).get(f"/games/{game.pk}/").content.decode())
        assert "<h3>Rating changes</h3>" in screen and "Not rated" not in screen
        moves = re.findall(r'<li><a [^>]*>(\w+)</a>: (\d+) → <strong>(\d+)</strong>\s*'
                           r'<span class="rating-delta[^"]*">\(([+-]?\d+)\)</span>', screen)
        expected = [(name, str(changes[seat].before), str(changes[seat].after),
                     f"{'+' if changes[seat].delta > 0 else ''}{changes[seat].delta}")
                    for seat, name in enumerate(["alice", "bob"])]
        assert moves == expected, screen
    winner = game.result["winners"][0]
    assert changes[winner].delta > 0 > changes[1 - winner].delta


def test_an_unrated_game_says_so_on_the_end_screen(alice, bob):
    game = finished([alice, bob])  # resigned at once: unrated
    screen = end_screen(client_for(alice).get(f"/games/{game.pk}/").content.decode())
    assert "Rating changes" not in screen and "Not rated: ratings count public tables" in screen
