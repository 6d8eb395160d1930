"""Following on its doors (issue 46): the follow control under a game's board, on a group's and a competition's page;
the following page and the lobby's followed games; the API (a true schema: the fuzzing tests read it); each refusal a
clear 4xx that changes nothing; the lobby's cost the same for one followed game and for ten."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.conftest import api_token
from tests.platform.following.conftest import play_one, two_player
from tests.platform.play.costs import measured
from turnbased.following import services
from turnbased.following.models import Notify, Watch
from turnbased.groups import services as group_services
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db


def _web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {api_token(user)}")


def test_a_spectator_follows_a_game_from_its_page_and_finds_it_in_the_lobby_and_on_the_following_page(
        game, alice, bob, carol):
    web = _web(carol)
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert "Follow this game" in page and f'action="/games/{game.pk}/follow/"' in page
    assert "Follow this game" not in _web(alice).get(f"/games/{game.pk}/").content.decode(), "not to its players"
    assert "Follow this game" not in Client().get(f"/games/{game.pk}/").content.decode(), "nor to a visitor"
    answer = web.post(f"/games/{game.pk}/follow/", {"next": f"/games/{game.pk}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    watch = Watch.objects.get(user=carol)
    assert watch.game_id == game.pk and watch.notify == Notify.MOVES
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert "You follow it. Tell me of" in page and "Stop following" in page
    play_one(game, alice, bob)
    lobby = web.get("/").content.decode()
    assert 'id="followed-games"' in lobby and game.title in lobby
    following = web.get("/following/").content.decode()
    assert game.title in following and 'id="watches"' in following
    assert web.post(f"/following/{watch.pk}/", {"notify": "ends"}).status_code == 302
    assert Watch.objects.get(pk=watch.pk).notify == Notify.ENDS
    assert web.post(f"/following/{watch.pk}/stop/").status_code == 302
    assert not Watch.objects.exists()
    assert 'id="followed-games"' not in web.get("/").content.decode()


def test_a_refused_follow_from_a_page_says_why_and_changes_nothing(game, alice, carol, make_user):
    answer = _web(alice).post(f"/games/{game.pk}/follow/", follow=True)
    assert "You play at this table" in answer.content.decode()
    private = two_player(alice, make_user("dave"), visibility=Visibility.PRIVATE, seed="private")
    _web(carol).post(f"/games/{private.pk}/follow/")
    watch, _ = services.watch_make(user=carol, kind="game", target_id=game.pk)
    answer = _web(alice).post(f"/following/{watch.pk}/stop/", follow=True)  # not hers
    assert "You follow nothing with that id." in answer.content.decode()
    assert list(Watch.objects.values_list("user_id", "game_id")) == [(carol.pk, game.pk)]
    assert _web(carol).get(f"/games/{game.pk}/follow/").status_code == 405


def test_a_groups_page_offers_its_members_to_follow_its_games(alice, bob, carol):
    club = group_services.group_create(user=alice, name="Thursday Club")
    assert "Follow the group's games" not in _web(carol).get(f"/groups/{club.pk}/").content.decode()
    group_services.join(user=carol, group_id=club.pk)
    web = _web(carol)
    assert "Follow the group's games" in web.get(f"/groups/{club.pk}/").content.decode()
    web.post(f"/groups/{club.pk}/follow/")
    assert Watch.objects.get(user=carol).group_id == club.pk


def test_the_api_follows_changes_reads_and_stops(game, alice, bob, carol):
    api = _api(carol)
    made = api.post("/api/watches/", {"kind": "game", "target": game.pk}, content_type="application/json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["kind"] == "game" and body["target"] == game.pk and body["notify"] == "moves"
    assert body["name"] == game.title and made["Location"] == f"/api/watches/{body['id']}/"
    again = api.post("/api/watches/", {"kind": "game", "target": game.pk, "notify": "off"},
                     content_type="application/json")
    assert again.status_code == 200 and again.json()["id"] == body["id"] and again.json()["notify"] == "off"
    assert api.get("/api/watches/").json()["watches"] == [again.json()]
    changed = api.patch(f"/api/watches/{body['id']}/", {"notify": "ends"}, content_type="application/json")
    assert changed.json()["notify"] == "ends"
    assert api.patch(f"/api/watches/{body['id']}/", {}, content_type="application/json").json()["notify"] == "ends"
    play_one(game, alice, bob)
    (row,) = api.get("/api/watches/games/").json()["results"]
    assert row["id"] == game.pk and row["last_move"] and row["status"] == "active" and row["result"] == ""
    assert _api(alice).get(f"/api/watches/{body['id']}/").status_code == 404, "another's watch does not exist"
    assert api.delete(f"/api/watches/{body['id']}/").status_code == 204
    assert api.get(f"/api/watches/{body['id']}/").status_code == 404


@pytest.mark.parametrize("body, status", [
    ({"kind": "game"}, 400), ({"kind": "player", "target": 1}, 400), ({"kind": "game", "target": "x"}, 400),
    ({"kind": "game", "target": 1, "notify": "always"}, 400), ({"kind": "game", "target": 99999999}, 404),
    ({"kind": "group", "target": 99999999}, 404), ({"kind": "competition", "target": 99999999}, 404),
])
def test_a_bad_follow_is_a_clear_4xx_that_changes_nothing(carol, body, status):
    answer = _api(carol).post("/api/watches/", body, content_type="application/json")
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"].startswith("application/problem+json") and answer.json()["detail"]
    assert not Watch.objects.exists()


def test_the_lobby_costs_the_same_following_one_game_or_ten(alice, bob, carol):
    """Whether one follows anything (one statement), then the feed's games, their seats and their latest moves:
    three more, whatever their number."""
    games = [two_player(alice, bob, seed=f"lobby {n}") for n in range(10)]
    for game in games:
        play_one(game, alice, bob)
    web = _web(carol)
    nothing, _ = measured(lambda: web.get("/"))
    services.watch_make(user=carol, kind="game", target_id=games[0].pk)
    one, page = measured(lambda: web.get("/"))
    assert page.content.decode().count("/games/") >= 1 and games[0].title in page.content.decode()
    for game in games[1:]:
        services.watch_make(user=carol, kind="game", target_id=game.pk)
    ten, page = measured(lambda: web.get("/"))
    assert page.content.decode().count('id="followed-games"') == 1
    assert one.statements == ten.statements == nothing.statements + 3, (nothing, one, ten)
