"""No output shows a player what they may not know.

Two games that differ only in hidden cards (another seat's hand, the
set-aside card, the deck order) must look the same, byte for byte once ids
are masked, to every viewer who cannot know the difference: on the game page,
the panel, every API answer and the history.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD, api_token
from turnbased.play import services

pytestmark = pytest.mark.django_db

FACE_UP = ["king", "countess", "baron"]
REST = ["guard", "guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince"]

# Each world: set-aside card, face-up cards, seat 0's card, seat 1's card, seat 0's draw, the rest.
WORLDS = {
    "base": ["princess", *FACE_UP, "guard", "priest", "handmaid", *REST],
    "swapped_hand": ["priest", *FACE_UP, "guard", "princess", "handmaid", *REST],
    # The same first two draws, then the rest of the deck in another order.
    "shuffled_deck": ["princess", *FACE_UP, "guard", "priest", "handmaid", *REST[:2], *reversed(REST[2:])],
}


def masked(text: str, game) -> str:
    """Mask what legitimately differs between two tables: ids, codes, tokens, times."""
    text = text.replace(game.invite_code, "<invite>")
    text = re.sub(rf"/games/{game.pk}/", "/games/<id>/", text)
    text = re.sub(rf"#{game.pk}\b", "#<id>", text)
    text = re.sub(rf'"id": {game.pk}\b', '"id": <id>', text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "<csrf>", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "<csrf>", text)
    text = re.sub(r'name="idempotency_key" value="[^"]+"', "<key>", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?", "<time>", text)
    text = re.sub(r"<small>[^<]*ago</small>", "<ago>", text)
    return text


def outputs_for(game, user) -> dict[str, str]:
    """Everything a user can read about a game, from every door."""
    page, api = Client(), APIClient()
    if user is not None:
        page.login(username=user.username, password=PASSWORD)
        api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    seen = {
        "page": page.get(f"/games/{game.pk}/").content.decode(),
        "panel": page.get(f"/games/{game.pk}/panel/").content.decode(),
        "api_detail": json.dumps(api.get(f"/api/games/{game.pk}/").json(), sort_keys=True),
        "api_history": json.dumps(api.get(f"/api/games/{game.pk}/history/").json(), sort_keys=True),
        "api_list": json.dumps(listed(api, game), sort_keys=True) if user else "",
    }
    if user is not None:
        seen["api_legal"] = json.dumps(api.get(f"/api/games/{game.pk}/legal-moves/").json(), sort_keys=True)
    return {name: masked(text, game) for name, text in seen.items()}


def listed(api, game) -> list:
    body = api.get("/api/games/").json()
    return [entry for entry in body["mine"] + body["open"] if entry["id"] == game.pk]


def start_world(deck: list[str], alice, bob):
    game = services.create_game(
        creator=alice, engine_slug="love-letter", players=2, options={"deck": deck, "first_player": 0}
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def users(make_user):
    return {"alice": make_user("alice"), "bob": make_user("bob"), "carol": make_user("carol")}


def play(game, user, move):
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()


@pytest.mark.parametrize("other_world", ["swapped_hand", "shuffled_deck"])
def test_hidden_cards_change_nothing_that_alice_or_a_spectator_can_read(users, other_world):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    worlds = [start_world(WORLDS["base"], alice, bob), start_world(WORLDS[other_world], alice, bob)]
    script = [
        (alice, {"card": "handmaid"}),                                  # no information
        (bob, {"card": "guard"}),                                       # bob drew a Guard in every world; alice is protected
    ]
    for step in [None, *script]:
        if step is not None:
            for game in worlds:
                play(game, *step)
        for viewer in (alice, carol, None):
            seen = [outputs_for(game, viewer) for game in worlds]
            for door in seen[0]:
                assert seen[0][door] == seen[1][door], f"{door} differs for {viewer} after {step}"


def test_a_seat_sees_its_own_card_and_the_other_seat_sees_a_difference(users):
    alice, bob = users["alice"], users["bob"]
    base, swapped = start_world(WORLDS["base"], alice, bob), start_world(WORLDS["swapped_hand"], alice, bob)
    # Bob holds a Priest in one world and the Princess in the other: his own outputs must differ.
    assert outputs_for(base, bob)["api_detail"] != outputs_for(swapped, bob)["api_detail"]


def test_the_seed_and_the_scripted_deck_appear_nowhere(users):
    alice, carol = users["alice"], users["carol"]
    game = start_world(WORLDS["base"], alice, users["bob"])
    for viewer in (alice, carol, None):
        for door, text in outputs_for(game, viewer).items():
            assert game.seed not in text, door
            assert '"deck"' not in text, door


def test_a_priest_look_is_in_the_actors_history_only(users):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    game = start_world(["princess", *FACE_UP, "priest", "guard", "handmaid", *REST], alice, bob)
    play(game, alice, {"card": "priest", "target": 1})
    mine = outputs_for(game, alice)
    assert "saw bob's card: Guard" in mine["api_history"] and "saw bob&#x27;s card: Guard" in mine["page"]
    for viewer in (bob, carol, None):
        for door, text in outputs_for(game, viewer).items():
            assert "card: Guard" not in text and "priest_saw" not in text, (viewer, door)
