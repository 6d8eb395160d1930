"""The Savernake Forest board on the game page: SVG forests and market drawn from the view alone,
the live "if the game ended now" scores, and the move data the board script plays from.

The data the script reads is exactly the legal moves (their JSON and text, in order) with the
score each one leaves, and those scores are the engine's own: applying the move and reading the
view's live score gives the same number. Two tables that differ only in undealt cards render the
same page byte for byte (ids masked).
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.test import Client

from games import get_engine
from tests.platform.conftest import PASSWORD
from tests.platform.secrecy.doors import masked
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db

ENGINE = get_engine("savernake-forest")

# Rows of three path cards (rooster, goat, armadillo) and the animals: starting animals, then rabbits.
# Alice starts with the Hedgehog (den open north), Bob with the Owl. In round 1 Alice lays a berry curve
# north of her Hedgehog (south–east) with the armadillo's burrow; in round 2 she takes the Blackbird and
# sets it east of the Hedgehog, den open north. In round 3 the goat's egg curve on 1,-1 turned 180°
# joins both dens: she must keep one, and place the goat's drop.
DECK = {
    "paths": ["ST01", "ST02", "CU02", "ST03", "ST04", "ST05", "ST06", "CU12", "ST08", "ST09", "ST10", "ST11"],
    "animals": ["AN05", "AN06", "AN10", "AN13", "AN08", "AN01"],
}
# The same game, but the undealt cards lie in another order.
OTHER_DECK = {
    "paths": DECK["paths"][:9] + ["CU18", "DC04", "ST15"],
    "animals": DECK["animals"][:5] + ["AN19"],
}
SCRIPT = [
    ("alice", {"slot": "armadillo", "x": 0, "y": -1, "rot": 1, "token": {"animal": "AN05"}}),
    ("bob", {"slot": "rabbit", "x": 0, "y": -1, "rot": 0}),
    ("alice", {"slot": "rabbit", "x": 1, "y": 0, "rot": 0}),
    ("bob", {"slot": "goat", "x": 0, "y": -2, "rot": 0, "token": {"animal": "AN06", "food": "B"}}),
]
JOIN = {"slot": "goat", "x": 1, "y": -1, "rot": 2, "keep": ["AN05"], "token": {"animal": "AN05", "food": "E"}}


def start(alice, bob, deck=None, **options):
    """Start a scripted game; shared paths are settled at once unless ``options`` say otherwise (``JOIN`` keeps)."""
    game = services.create_game(
        creator=alice, engine_slug="savernake-forest", players=2,
        options={"deck": deck or DECK, "first_player": 0, "shared_path_resolution": "immediate", **options},
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def play(game, user, move):
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()


def run_script(game, alice, bob, steps=SCRIPT):
    users = {"alice": alice, "bob": bob}
    for who, move in steps:
        play(game, users[who], move)


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        assert client.login(username=user.username, password=PASSWORD)
    return client


def page(game, user_or_client) -> str:
    client = user_or_client if isinstance(user_or_client, Client) else client_for(user_or_client)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def board(text: str) -> str:
    match = re.search(r'<div class="sf-board.*?<details class="sf-extra">', text, re.S)
    assert match, "no Savernake board on the page"
    return match.group(0)


def forest(text: str, name: str) -> str:
    match = re.search(rf'<svg class="sf-forest-svg"[^>]*aria-label="{name}\'s forest[^"]*".*?</svg>', text, re.S)
    assert match, f"no forest SVG for {name}"
    return match.group(0)


def cells(svg: str) -> dict[str, str]:
    """Return each placed card's markup in a forest SVG, by card id."""
    found = {}
    pattern = r'<g class="sf-cell [^"]*" data-card="(\w+)".*?(?=<g class="sf-cell |<g class="sf-ghost-layer"|</svg>)'
    for match in re.finditer(pattern, svg, re.S):
        found[match.group(1)] = match.group(0)
    return found


def board_data(text: str) -> dict | None:
    match = re.search(r'<script type="application/json" class="sf-data">(.*?)</script>', text, re.S)
    return json.loads(match.group(1)) if match else None


def state_of(game):
    game.refresh_from_db()
    return game.state


def test_the_board_draws_the_market_under_its_helpers_and_every_forest(alice, bob):
    game = start(alice, bob)
    text = page(game, alice)
    assert 'href="/static/css/savernake-board.css"' in text and 'src="/static/js/savernake-board.js"' in text
    # The visible note on the reconstructed catalogue.
    note = re.search(r'<p class="sf-note" role="note">(.*?)</p>', text, re.S).group(1)
    assert "Reconstructed cards" in note and "could not be found" in note and "not the printed cards" in note
    # The market: four slots in deal order, each under its helper's picture, with its card drawn.
    slots = re.findall(r'<button type="button" class="sf-slot sf-slot-(\w+)" data-slot="\1" data-card="(\w+)"', text)
    assert slots == [("rooster", "ST01"), ("goat", "ST02"), ("armadillo", "CU02"), ("rabbit", "AN10")]
    for slot, card in slots:
        markup = text.split(f'data-slot="{slot}"')[1].split("</button>")[0]
        assert f'href="#sf-h-{slot}"' in markup and f'href="#sf-c-{card}-r0"' in markup
        assert f'<symbol id="sf-h-{slot}"' in text
        for rot in range(4):  # every turn of a market card is drawn, for the placement preview
            assert f'<g id="sf-c-{card}-r{rot}"' in text
    assert "a water drop: +1 per stored food of one kind" in text and "a burrow: +1 storage" in text
    # Both forests, the viewer's first, each with its starting animal and the open cells around it.
    assert text.index("alice's forest") < text.index("bob's forest")
    for name, card in (("alice", "AN05"), ("bob", "AN06")):
        svg = forest(text, name)
        (only,) = cells(svg).values()
        assert f'href="#sf-c-{card}-r0"' in only and 'class="sf-score" data-card="' + card + '"' in only
        opens = re.findall(r'<g class="sf-open" data-x="(-?\d+)" data-y="(-?\d+)"', svg)
        assert sorted(opens) == sorted([("0", "-1"), ("-1", "0"), ("1", "0"), ("0", "1")])
    # Round, rooster, decks and supply.
    assert "Round <strong>1</strong> of 15" in text and "Rooster: alice" in text
    assert "Decks: 42 path · 16 animal" in text


def test_cards_are_drawn_turned_with_their_food_tokens_and_face_down_animals(alice, bob):
    game = start(alice, bob)
    run_script(game, alice, bob)
    play(game, alice, JOIN)
    text = page(game, bob)
    mine = cells(forest(text, "alice"))
    # The berry curve turned 90°: its path runs from the south side (60,120) round to the east (120,60).
    assert 'href="#sf-c-CU02-r1"' in mine["CU02"]
    curve = re.search(r'<g id="sf-c-CU02-r1" .*?</g>\s*(?=<g id=|</defs>)', text, re.S).group(0)
    roads = re.findall(r'<path class="sf-road" d="([^"]+)"', curve)
    assert roads == ["M120 60 A60 60 0 0 0 60 120"]
    assert len(re.findall(r'href="#sf-food-B"', curve)) == 1
    # A straight card keeps its two foods on the line between its ends.
    eggs = re.search(r'<g id="sf-c-CU12-r2" .*?</g>\s*(?=<g id=|</defs>)', text, re.S).group(0)
    assert len(re.findall(r'href="#sf-food-E"', eggs)) == 2
    # The Hedgehog kept its place, with its burrow and the new drop on its eggs corner.
    hedgehog = mine["AN05"]
    assert 'href="#sf-c-AN05-r0"' in hedgehog and 'href="#sf-burrow"' in hedgehog
    assert re.search(r'<use class="sf-drop-on" href="#sf-drop"[^>]*><title>Water drop on eggs', hedgehog)
    # The Blackbird shared its path and was turned face down: a blank back, no score, no tokens.
    blackbird = mine["AN13"]
    assert "sf-down" in blackbird and 'href="#sf-back"' in blackbird and 'href="#sf-c-AN13' not in blackbird
    assert "sf-score" not in blackbird and "face down" in blackbird
    # Bob's Owl carries his drop on berries; his Mole is his second animal.
    owl = cells(forest(text, "bob"))["AN06"]
    assert re.search(r'<title>Water drop on berries', owl)
    # The den's exits turn with the card (the Hedgehog's is north: a stub from the den to 60,0).
    den = re.search(r'<g id="sf-c-AN05-r0" .*?</g>\s*(?=<g id=|</defs>)', text, re.S).group(0)
    assert re.findall(r'<path class="sf-road" d="([^"]+)"', den) == ["M60 60 L60 0"]
    assert re.findall(r'href="#sf-food-(\w)" x="1" y="2"', den) == ["B", "W", "E", "N"]


def test_live_scores_per_animal_match_the_view(alice, bob):
    game = start(alice, bob)
    run_script(game, alice, bob)
    text = page(game, alice)
    view = ENGINE.view(state_of(game), 0)
    for seat in view["seats"]:
        svg = forest(text, seat["name"])
        found = cells(svg)
        for animal in seat["animals"]:
            badge = re.search(r'<text class="sf-score-num" [^>]*data-now="(\d+)">(\d+)</text>', found[animal["card"]])
            assert badge and int(badge.group(1)) == int(badge.group(2)) == animal["score"]
        figure = text.split(f"{seat['name']}'s forest")[1].split("</figure>")[0]
        rows = dict(re.findall(r'<tr data-card="(\w+)".*?<span class="sf-sheet-now">(\d+)</span>', figure, re.S))
        assert rows == {a["card"]: str(a["score"]) for a in seat["animals"]}
        assert f'<strong class="sf-sheet-total" data-now="{seat["score"]}">{seat["score"]}</strong>' in figure
    # Alice's Hedgehog: 5 base + the berry (1) on its path = 6, with a burrow (holds 4).
    hedgehog = next(a for a in view["seats"][0]["animals"] if a["card"] == "AN05")
    assert hedgehog["score"] == 6 and hedgehog["capacity"] == 4
    assert "1/4" in text.split("alice's forest")[1].split("</table>")[0]


@pytest.mark.parametrize("mode", ["immediate", "end_of_game"])
def test_the_move_data_is_exactly_the_legal_moves_with_the_engines_scores(alice, bob, mode):
    game = start(alice, bob, shared_path_resolution=mode)
    run_script(game, alice, bob)
    text = page(game, alice)
    data = board_data(text)
    state = state_of(game)
    moves = ENGINE.legal_moves(state, 0)
    assert [m["json"] for m in data["moves"]] == [json.dumps(m, sort_keys=True) for m in moves]
    assert [m["text"] for m in data["moves"]] == [ENGINE.describe_move(state, m) for m in moves]
    view = ENGINE.view(state, 0)
    assert data["before"]["t"] == view["seats"][0]["score"]
    for entry, move in zip(data["moves"], moves):
        placement = data["placements"][entry["p"]]
        assert {k: placement[k] for k in ("slot", "x", "y", "rot")} == {k: move[k] for k in ("slot", "x", "y", "rot")}
        assert placement["keep"] == move.get("keep") and entry["token"] == move.get("token")
        after, _ = ENGINE.apply(state, 0, move)
        seat = ENGINE.view(after, 0)["seats"][0]
        assert entry["t"] == seat["score"] and entry["s"] == seat["stored"]
        scores = {card: score for card, (score, _, _) in entry["a"].items()}
        assert scores == {a["card"]: a["score"] for a in seat["animals"]}
    joining = [p for p in data["placements"] if (p["slot"], p["x"], p["y"], p["rot"]) == ("goat", 1, -1, 2)]
    if mode == "immediate":
        assert [p["keep"] for p in joining] == [["AN05"], ["AN13"]]
        assert all(p["shared"] == [["AN05", "AN13"]] for p in joining)
        assert [p["d"] for p in joining] == [["AN13"], ["AN05"]]
    else:  # no choice now: the best survivor is kept at the end, and the live score already says so
        assert [p["keep"] for p in joining] == [None] and joining[0]["shared"] == []
        assert joining[0]["d"] == ["AN13"]
    # The best change per market slot is shown on the slot.
    before = data["before"]["t"]
    for slot in ("rooster", "goat", "armadillo", "rabbit"):
        best = max(m["t"] for m in data["moves"] if data["placements"][m["p"]]["slot"] == slot) - before
        markup = text.split(f'data-slot="{slot}"')[1].split("</button>")[0]
        assert f">best {best:+d}</span>" in markup
    # Bob (not to move) and spectators get the picture with nothing to play.
    for viewer in (bob, None):
        other = page(game, viewer)
        assert board_data(other) is None and 'class="sf-form"' not in other and "sf-controls" not in other
        assert "sf-target" not in other and 'role="button"' not in board(other)


def test_posting_a_move_from_the_board_form_plays_it(alice, bob):
    game = start(alice, bob)
    run_script(game, alice, bob)
    text = page(game, alice)
    form = re.search(
        r'<form method="post" action="([^"]+)" hx-post="\1" hx-target="#panel" hx-swap="outerHTML" class="sf-form">'
        r"(.*?)</form>",
        text, re.S,
    )
    assert form, "the board has its own move form"
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(2)))
    assert fields["expected_seq"] == str(game.seq) and fields["idempotency_key"] and fields["csrfmiddlewaretoken"]
    assert '<input type="hidden" name="move" value="" disabled>' in form.group(2)
    assert re.search(r'<button type="submit" class="sf-confirm" disabled>Confirm move</button>', form.group(2))
    chosen = next(m["json"] for m in board_data(text)["moves"] if m["json"] == json.dumps(JOIN, sort_keys=True))

    before = Move.objects.filter(game=game).count()
    client = client_for(alice)
    response = client.post(form.group(1), {**fields, "move": chosen}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Move.objects.filter(game=game).count() == before + 1
    assert Move.objects.filter(game=game).order_by("-seq").first().move == JOIN
    panel = response.content.decode()
    assert 'id="panel"' in panel and "Waiting for bob" in panel
    mine = cells(forest(panel, "alice"))
    assert 'href="#sf-c-CU12-r2"' in mine["CU12"] and "sf-latest" in mine["CU12"]
    assert 'href="#sf-back"' in mine["AN13"]
    # The Hedgehog: base 5, a berry (1) and two eggs (2, +1 each with the drop): 5 + 1 + 3 + 3 = 12.
    hedgehog = re.search(r'data-now="(\d+)"', mine["AN05"]).group(1)
    assert hedgehog == "12" and board_data(panel) is None


def test_two_games_differing_only_in_undealt_cards_give_the_same_pages(alice, bob, make_user):
    carol = make_user("carol")
    base, other = start(alice, bob), start(alice, bob, OTHER_DECK)
    clients = {user: client_for(user) for user in (alice, bob, carol, None)}
    users = {"alice": alice, "bob": bob}
    for step in [None, *SCRIPT, ("alice", JOIN)]:
        if step is not None:
            for game in (base, other):
                play(game, users[step[0]], step[1])
        for viewer, client in clients.items():
            pages = [masked(page(game, client), game) for game in (base, other)]
            assert pages[0] == pages[1], f"the pages differ for {viewer} after {step}"
            panels = [masked(client.get(f"/games/{g.pk}/panel/").content.decode(), g) for g in (base, other)]
            assert panels[0] == panels[1]


def test_a_finished_game_shows_the_final_forests_and_no_controls(alice, bob):
    game = start(alice, bob)
    rng = random.Random(7)
    users = [alice, bob]
    for _ in range(100):  # a two-player game fills two forests of 16 cards: far fewer moves
        state = state_of(game)
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_move(state)[0]
        play(game, users[seat], rng.choice(ENGINE.legal_moves(state, seat)))
    else:
        raise AssertionError("the game did not end in 100 moves")
    text = page(game, alice)
    view = ENGINE.view(state_of(game), 0)
    assert "Game over" in board(text) and board_data(text) is None and "sf-open" not in board(text)
    for seat in view["seats"]:
        assert len(cells(forest(text, seat["name"]))) == 16
        assert f'<span class="sf-total" title="Final points">{seat["score"]} pts</span>' in text
    assert 'aria-label="Market"' not in text, "the market is empty once the game is over"
    for seat in view["seats"]:
        head = rf'<figcaption class="sf-caption">\s*<strong>{seat["name"]}</strong>(.*?)</figcaption>'
        caption = re.search(head, text, re.S)
        assert ('class="sf-winner"' in caption.group(1)) == (seat["seat"] in view["result"]["winners"])
    assert html.escape(view["result"]["summary"]) in text or view["result"]["summary"] in text
