"""Marks on the board's cards and tiles (issue 46): a player marks what their game offers (``Engine.mark_spots``, read
from their own view: a face-down Halali! tile, an opponent's Love Letter hand, a Carcassonne tile, a Savernake Forest
card), by the page and the API; the marks are theirs alone, drawn over the board for them and listed with words; a
mark on no card or tile of their view, of no symbol, or past the limits is refused and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import get_engine
from turnbased.events.models import Event, EventKind
from turnbased.kit.errors import InvalidRequest, Unprocessable
from turnbased.notes import services
from turnbased.notes.models import MAX_MARKS, GameNote
from turnbased.play import services as play_services
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db

GAMES = ("halali", "love-letter", "carcassonne-hg", "savernake-forest")


def _played(alice, bob, slug: str, moves: int = 3) -> Game:
    game = play_services.create_game(creator=alice, engine_slug=slug, players=2, seed="marks")
    play_services.join_game(game_id=game.pk, user=bob)
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_move[0]
        user = alice if game.seats.get(index=seat).user_id == alice.pk else bob
        move = get_engine(slug).legal_moves(game.state, seat)[0]
        play_services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def _web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_offers_spots_its_board_draws_and_a_player_marks_one(slug, alice, bob, api_client_for):
    game = _played(alice, bob, slug)
    api = api_client_for(alice)
    notes = api.get(f"/api/games/{game.pk}/notes/").json()
    spots = [row["spot"] for row in notes["spots"]]
    assert spots and all(row["name"] for row in notes["spots"]), "every game offers something to mark"
    page = _web(alice).get(f"/games/{game.pk}/").content.decode()
    if slug == "carcassonne-hg":  # its tiles are drawn by its script, which names each one's spot
        assert '"data-spot": "tile:" + x + "," + y' in open("static/js/carcassonne-board.js").read()
    else:
        drawn = set(re.findall(r'data-spot="([^"]+)"', page))
        assert set(spots) <= drawn, set(spots) - drawn
    spot = spots[-1]
    answer = api.put(f"/api/games/{game.pk}/notes/", {"marks": [{"spot": spot, "symbol": "question",
                                                                  "label": "  the  Priest? "}]}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["marks"][0] | {"name": ""} == {"spot": spot, "symbol": "question", "label": "the Priest?",
                                                       "name": ""}
    assert answer.json()["marks"][0]["name"] == dict((row["spot"], row["name"]) for row in notes["spots"])[spot]
    page = _web(alice).get(f"/games/{game.pk}/").content.decode()
    assert "the Priest?" in page and "note-marks-data" in page
    # Nobody else reads it: the other player, a spectator, a visitor.
    for user in (bob, None):
        client = _web(user) if user else Client()
        other = client.get(f"/games/{game.pk}/").content.decode()
        assert "the Priest?" not in other and spot not in re.findall(r'"spot": "([^"]+)"', other)
        assert 'id="note-marks-data" type="application/json">[]<' in other if user else "note-marks-data" not in other
    event = Event.objects.filter(user=alice, kind=EventKind.GAME_NOTE).latest("pk")
    assert event.payload["marks"] == [{"spot": spot, "symbol": "question", "label": "the Priest?"}]


def test_marks_are_put_and_taken_off_by_the_page_and_the_text_stays(alice, bob):
    game = _played(alice, bob, "halali")
    services.note_save(game_id=game.pk, user=alice, text="Plan: go north.")
    web = _web(alice)
    answer = web.post(f"/games/{game.pk}/notes/marks/", {"spot": "square:b7", "symbol": "star", "label": "bear?"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/#notes"
    note = GameNote.objects.get(user=alice)
    assert note.text == "Plan: go north." and note.marks == [{"spot": "square:b7", "symbol": "star", "label": "bear?"}]
    web.post(f"/games/{game.pk}/notes/marks/", {"spot": "square:b7", "symbol": "no"})  # the mark there replaced
    assert GameNote.objects.get(user=alice).marks == [{"spot": "square:b7", "symbol": "no", "label": ""}]
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert "My marks on the board" in page and "b7" in page
    web.post(f"/games/{game.pk}/notes/marks/remove/", {"spot": "square:b7"})
    assert GameNote.objects.get(user=alice).marks == [] and GameNote.objects.get(user=alice).text
    # A note of marks alone is kept; with neither text nor mark it is gone.
    services.note_save(game_id=game.pk, user=alice, text="", marks=[{"spot": "square:b7", "symbol": "yes"}])
    assert GameNote.objects.get(user=alice).text == ""
    services.mark_remove(game_id=game.pk, user=alice, spot="square:b7")
    assert not GameNote.objects.exists()


@pytest.mark.parametrize("marks, error", [
    ([{"spot": "square:z9", "symbol": "yes"}], Unprocessable),
    ([{"spot": "hand:1", "symbol": "yes"}], Unprocessable),  # another game's spot
    ([{"spot": "square:b7", "symbol": "heart"}], InvalidRequest),
    ([{"spot": "square:b7", "symbol": "yes", "label": "x" * 25}], InvalidRequest),
    ([{"spot": "square:b7", "symbol": "yes", "label": 5}], InvalidRequest),
    ([{"symbol": "yes"}], InvalidRequest),
    ("square:b7", InvalidRequest),
])
def test_a_bad_mark_is_refused_and_changes_nothing(alice, bob, marks, error):
    game = _played(alice, bob, "halali")
    services.note_save(game_id=game.pk, user=alice, text="kept", marks=[{"spot": "square:c7", "symbol": "yes"}])
    with pytest.raises(error):
        services.note_save(game_id=game.pk, user=alice, text="changed", marks=marks)
    note = GameNote.objects.get(user=alice)
    assert note.text == "kept" and note.marks == [{"spot": "square:c7", "symbol": "yes", "label": ""}]


def test_a_mark_kept_stays_when_its_card_leaves_the_board_and_the_limit_holds(alice, bob, monkeypatch):
    game = _played(alice, bob, "halali", moves=0)
    services.note_save(game_id=game.pk, user=alice, marks=[{"spot": "square:b7", "symbol": "star"}])
    from turnbased.notes import selectors

    monkeypatch.setattr(selectors, "spots_of", lambda viewer: [("square:a7", "a7")])
    monkeypatch.setattr(services, "spots_of", lambda viewer: [("square:a7", "a7")])
    kept = GameNote.objects.get(user=alice).marks
    note = services.note_save(game_id=game.pk, user=alice, marks=[*kept, {"spot": "square:a7", "symbol": "no"}])
    assert [mark["spot"] for mark in note.marks] == ["square:b7", "square:a7"]
    with pytest.raises(Unprocessable):  # a changed mark needs its card on the board
        services.note_save(game_id=game.pk, user=alice, marks=[{"spot": "square:b7", "symbol": "no"}])
    monkeypatch.setattr(services, "MAX_MARKS", 1)
    with pytest.raises(InvalidRequest, match="at most 1 mark"):
        services.note_save(game_id=game.pk, user=alice, marks=[*note.marks])
    assert len(GameNote.objects.get(user=alice).marks) == 2
    assert MAX_MARKS == 100


def test_the_api_refuses_bad_marks_with_a_clear_4xx(alice, bob, api_client_for):
    game = _played(alice, bob, "love-letter", moves=1)
    api = api_client_for(alice)
    for body, status in (({"marks": [{"spot": "hand:7", "symbol": "yes"}]}, 422),
                         ({"marks": [{"spot": "hand:1", "symbol": "maybe"}]}, 400),
                         ({"marks": "hand:1"}, 400)):
        answer = api.put(f"/api/games/{game.pk}/notes/", body, format="json")
        assert answer.status_code == status, (body, answer.content)
    assert not GameNote.objects.exists()
    assert api.put(f"/api/games/{game.pk}/notes/", {}, format="json").status_code == 422


def test_the_players_turn_email_lists_their_marks_and_nobody_elses_does(alice, bob):
    from turnbased.mail import compose

    game = _played(alice, bob, "halali", moves=0)
    services.mark_set(game_id=game.pk, user=alice, spot="square:b7", symbol="question", label="bear here?")
    game.refresh_from_db()
    mine, theirs = compose.turn_email(game, alice), compose.turn_email(game, bob)
    assert "Your marks (yours alone):" in mine.body and "b7, face down: a question · bear here?" in mine.body
    assert "bear here?" in mine.alternatives[0][0]
    assert "bear here?" not in theirs.body and "Your marks" not in theirs.body
