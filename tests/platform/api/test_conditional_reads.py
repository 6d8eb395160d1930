"""Game reads carry an ETag; sending it back in If-None-Match gets an empty 304 until the answer changes."""

from __future__ import annotations

import pytest

from tests.platform.play.costs import token_client
from turnbased.play import services

pytestmark = pytest.mark.django_db

READS = ["/api/games/{id}/", "/api/games/{id}/legal-moves/", "/api/games/{id}/history/?since=0",
         "/api/games/{id}/text/"]


@pytest.mark.parametrize("path", READS)
def test_an_unchanged_game_answers_304_with_no_body_and_a_move_changes_the_tag(started_game, alice, path):
    client = token_client(alice)
    url = path.format(id=started_game.pk)
    first = client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"') and len(tag) > 10
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_two_players_of_one_game_get_different_tags_for_their_own_views(started_game, alice, bob):
    mine = token_client(alice).get(f"/api/games/{started_game.pk}/")
    theirs = token_client(bob).get(f"/api/games/{started_game.pk}/", HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200 and theirs["ETag"] != mine["ETag"]


def test_an_error_carries_no_tag(alice):
    missing = token_client(alice).get("/api/games/999999/")
    assert missing.status_code == 404 and not missing.has_header("ETag")
