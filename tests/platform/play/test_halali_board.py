"""The Halali! board on the game page: an SVG drawn from the view alone, clickable from the legal moves.

Face-down tiles are drawn identically and addressed only by square, so two tables whose
layouts differ only under face-down tiles render the same page byte for byte (ids masked).
The data attributes the board script reads (data-dests, data-move) are exactly the legal moves,
and the board's own form posts one of them.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from games import get_engine
from tests.platform.conftest import PASSWORD
from tests.platform.secrecy.doors import masked
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db

SQUARES = [f + r for r in "7654321" for f in "abcdefg" if f + r != "d4"]
FULL_SET = (
    ["bear"] * 2 + ["fox"] * 6 + ["lumberjack"] * 2 + ["hunter:N", "hunter:E", "hunter:S", "hunter:W"] * 2
    + ["pheasant"] * 8 + ["duck"] * 7 + ["tree"] * 15
)

# Around the empty centre: a fox on c4 next to d4, a duck below it, a bear on e5 beside a hunter on e4.
PLACED = {
    "a7": "bear", "g1": "hunter:E",
    "d7": "bear",
    "b5": "hunter:E", "c5": "tree", "d5": "pheasant", "e5": "fox", "f5": "lumberjack",
    "a4": "fox", "b4": "hunter:S", "c4": "fox", "e4": "hunter:W", "f4": "duck", "g4": "hunter:N",
    "c3": "duck", "d3": "lumberjack", "e3": "tree",
}


def layout(**changes: str) -> dict[str, str]:
    """Return the 48-square layout: PLACED (with ``changes``), the rest of the set in square order."""
    placed = {**PLACED, **changes}
    rest = list(FULL_SET)
    for spec in placed.values():
        rest.remove(spec)
    return {square: placed.get(square) or rest.pop(0) for square in SQUARES}


def start(alice, bob, board: dict[str, str] | None = None):
    game = services.create_game(
        creator=alice, engine_slug="halali", players=2, options={"layout": board or layout(), "first_blue": 0}
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def play(game, user, move):
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()


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


def board_svg(text: str) -> str:
    match = re.search(r'<svg class="hb-svg".*?</svg>', text, re.S)
    assert match, "no board SVG on the page"
    return match.group(0)


def cells(text: str) -> dict[str, str]:
    """Return each square's markup in the board SVG."""
    svg = board_svg(text)
    found = {}
    # Each cell names its square, and its spot for the player's marks (issue 46): data-spot="square:<square>".
    cell = r'<g class="hb-cell" transform="[^"]*" data-square="(\w\d)" data-spot="square:\1">(.*?)\n      </g>'
    for match in re.finditer(cell, svg, re.S):
        found[match.group(1)] = match.group(2)
    assert len(found) == 49
    return found


def attr(markup: str, name: str) -> str | None:
    match = re.search(rf'\b{name}="([^"]*)"', markup)
    return html.unescape(match.group(1)) if match else None


def destinations(text: str) -> list[dict[str, str]]:
    """Return the destination markers of moves onto squares: class, from, to, move json, transform."""
    pattern = (r'<g class="(hb-dest(?: hb-capture)?)" role="button" tabindex="-1" data-from="(\w\d)" data-to="(\w\d)" '
               r'data-move="([^"]*)" aria-label="[^"]*"\s+transform="([^"]*)">')
    return [
        {"class": c, "from": f, "to": t, "move": html.unescape(j), "transform": tr}
        for c, f, t, j, tr in re.findall(pattern, board_svg(text))
    ]


def cell_transform(text: str, square: str) -> str:
    return re.search(rf'<g class="hb-cell" transform="([^"]*)" data-square="{square}" data-spot="square:{square}">', text).group(1)


def legal(game, seat: int) -> list[dict]:
    game.refresh_from_db()
    return get_engine("halali").legal_moves(game.state, seat)


def test_the_board_is_an_svg_with_every_square_labelled_and_all_tiles_face_down(alice, bob):
    game = start(alice, bob)
    text = page(game, alice)
    assert 'href="/static/css/halali-board.css"' in text and 'src="/static/js/halali-board.js"' in text
    squares = cells(text)
    assert squares["d4"].count("hb-tile") == 0, "the centre starts empty"
    down = {sq: markup for sq, markup in squares.items() if "hb-down" in markup}
    assert set(down) == set(SQUARES)
    # The exit squares and gates are marked; coordinates a–g and 1–7 are written around the board.
    for square in ("d7", "g4", "d1", "a4"):
        assert "hb-exit-sq" in squares[square]
    assert len(re.findall(r'class="hb-gate[" ]', text)) == 4
    for label in "abcdefg1234567":
        assert text.count(f'class="hb-coord"') == 28 and len(re.findall(rf'class="hb-coord"[^>]*>{label}</text>', text)) == 2
    # Both players, their colours, leg 1 of 2, and the match totals are shown.
    assert "Leg <strong>1</strong> of 2" in text
    assert re.search(r"hb-side-blue hb-current hb-you.*?alice.*?Blue · bears &amp; foxes", text, re.S)
    assert re.search(r"hb-side-brown.*?bob.*?Brown · hunters &amp; lumberjacks", text, re.S)
    assert text.count("Match: <strong>0</strong> pts") == 2


def test_every_face_down_tile_is_drawn_identically_and_hides_its_kind(alice, bob):
    game = start(alice, bob)
    play(game, alice, {"flip": "c4"})
    play(game, bob, {"flip": "e4"})
    for viewer in (alice, bob, None):
        squares = cells(page(game, viewer))
        tiles = {sq: re.search(r'<g class="hb-tile hb-down".*?</g>', markup, re.S) for sq, markup in squares.items()}
        shapes = {match.group(0).replace(sq, "<sq>") for sq, match in tiles.items() if match}
        assert len([m for m in tiles.values() if m]) == 46
        assert len(shapes) == 1, f"face-down tiles differ for {viewer}"
        (shape,) = shapes
        for kind in ("bear", "fox", "hunter", "lumberjack", "pheasant", "duck", "tree", "data-kind", "data-dir"):
            assert kind not in shape


def test_two_layouts_differing_only_under_face_down_tiles_give_the_same_pages(alice, bob, make_user):
    carol = make_user("carol")
    base = start(alice, bob)
    # The same flips reveal the same tiles; the two corner tiles swapped stay face down throughout.
    other = start(alice, bob, layout(a7="hunter:E", g1="bear"))
    clients = {user: client_for(user) for user in (alice, bob, carol, None)}
    script = [(alice, {"flip": "c4"}), (bob, {"flip": "e4"}), (alice, {"flip": "c3"}), (bob, {"from": "e4", "to": "d4"})]
    for step in [None, *script]:
        if step is not None:
            for game in (base, other):
                play(game, *step)
        for viewer, client in clients.items():
            pages = [masked(page(game, client), game) for game in (base, other)]
            assert pages[0] == pages[1], f"the pages differ for {viewer} after {step}"


def test_face_up_tiles_show_their_kind_and_a_hunter_its_rifle(alice, bob):
    game = start(alice, bob)
    play(game, alice, {"flip": "c4"})
    play(game, bob, {"flip": "e4"})
    play(game, alice, {"flip": "b5"})
    squares = cells(page(game, bob))
    assert 'data-kind="fox"' in squares["c4"] and 'aria-label="fox at c4, moved by alice"' in squares["c4"]
    assert 'href="#hb-t-fox"' in squares["c4"]
    hunter = squares["e4"]
    assert 'data-kind="hunter"' in hunter and 'data-dir="W"' in hunter
    assert 'aria-label="hunter aiming west at e4, moved by bob"' in hunter
    assert 'href="#hb-rifle"' in hunter and "rotate(270 32 32)" in hunter
    assert 'data-dir="E"' in squares["b5"] and "rotate(90 32 32)" in squares["b5"]
    # The last move (alice's flip of b5) is highlighted.
    assert "hb-last-to" in squares["b5"] and "hb-last-to" not in squares["c4"]


def test_the_data_attributes_are_exactly_the_legal_moves(alice, bob):
    game = start(alice, bob)
    for user, move in [(alice, {"flip": "c4"}), (bob, {"flip": "e4"}), (alice, {"flip": "e5"}), (bob, {"flip": "c3"})]:
        play(game, user, move)
    text = page(game, alice)
    squares = cells(text)
    moves = legal(game, 0)
    expected = {json.dumps(m, sort_keys=True) for m in moves}

    flips = {attr(m, "data-move") for sq, m in squares.items() if "hb-down" in m and attr(m, "data-move")}
    assert flips == {json.dumps(m, sort_keys=True) for m in moves if "flip" in m}
    for square, markup in squares.items():
        if "hb-down" in markup:
            assert attr(markup, "data-move") == json.dumps({"flip": square}, sort_keys=True)

    from_attrs = set()
    for square, markup in squares.items():
        if "hb-up" in markup:
            for dest in (attr(markup, "data-dests") or "").split():
                to = "out" if dest.startswith("out-") else dest
                move = {"from": square, "to": to, **({"exit": dest[4:]} if to == "out" else {})}
                from_attrs.add(json.dumps(move, sort_keys=True))
    assert from_attrs == {json.dumps(m, sort_keys=True) for m in moves if "from" in m}
    # The fox on c4 goes east to d4 or takes the duck south on c3; the fox on e5 may not take the hunter.
    assert attr(squares["c4"], "data-dests").split() == ["d4", "c3"]

    # One destination marker per move, drawn on its square (a capture when the square holds a tile).
    markers = destinations(text)
    assert sorted(json.loads(m["move"]).items() for m in markers) == sorted(m.items() for m in moves if "from" in m)
    for marker in markers:
        assert marker["transform"] == cell_transform(text, marker["to"])
    assert [m["class"] for m in markers if m["to"] == "c3"] == ["hb-dest hb-capture"], "taking the duck is a capture"
    assert [m["class"] for m in markers if m["to"] == "d4"] == ["hb-dest"]
    # The duck bob just turned over is locked for alice.
    assert "hb-locked" in squares["c3"] and 'href="#hb-lock"' in squares["c3"]

    # Bob (not to move) and spectators get the picture without anything to click.
    for viewer in (bob, None):
        other = page(game, viewer)
        assert 'class="hb-form"' not in other and "data-move=" not in other and 'data-dests=" ' not in other


def test_posting_a_move_from_the_board_form_plays_it(alice, bob):
    game = start(alice, bob)
    play(game, alice, {"flip": "c4"})
    play(game, bob, {"flip": "c3"})
    text = page(game, alice)
    form = re.search(r'<form method="post" action="([^"]+)" hx-post="[^"]+" hx-target="#panel" hx-swap="outerHTML" class="hb-form" hidden>(.*?)</form>', text, re.S)
    assert form, "the board has its own move form"
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(2)))
    assert fields["expected_seq"] == str(game.seq) and fields["idempotency_key"]
    assert re.search(r'<input type="hidden" name="move" value="" disabled>', form.group(2))
    (capture,) = [m["move"] for m in destinations(text) if m["to"] == "c3"]
    assert json.loads(capture) == {"from": "c4", "to": "c3"}

    before = Move.objects.filter(game=game).count()
    client = client_for(alice)
    response = client.post(form.group(1), {**fields, "move": capture}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Move.objects.filter(game=game).count() == before + 1
    panel = response.content.decode()
    assert 'id="panel"' in panel and "Waiting for bob" in panel
    squares = cells(panel)
    assert 'aria-label="fox at c3, moved by alice"' in squares["c3"] and "hb-tile" not in squares["c4"]
    assert "hb-last-from" in squares["c4"] and "hb-last-to" in squares["c3"]
    assert re.search(r"alice</strong>.*?<span class=\"hb-points\">2</span> pts · 1 tile this leg", panel, re.S)
    assert 'aria-label="duck (captured)"' in panel


def test_the_final_phase_shows_the_turns_left_and_clickable_exits(alice, bob):
    game = start(alice, bob)
    users = (alice, bob)
    for turn, square in enumerate(SQUARES):
        play(game, users[turn % 2], {"flip": square})
    # Bob turned the last tile over: alice starts the final phase, five turns each.
    text = page(game, alice)
    assert "Final phase · turns left:" in text and "alice <strong class=\"hb-left\">5</strong>" in text
    assert text.count('class="hb-gate hb-open') == 4
    squares = cells(text)
    assert "out-N" in attr(squares["d7"], "data-dests").split()
    assert "out-W" in attr(squares["a4"], "data-dests").split()
    exits = re.findall(r'<g class="hb-dest hb-dest-exit"[^>]*data-from="(\w\d)" data-to="out" data-exit="(\w)" data-move="([^"]*)"', text)
    expected = [m for m in legal(game, 0) if m.get("to") == "out"]
    assert sorted((f, e) for f, e, _ in exits) == sorted((m["from"], m["exit"]) for m in expected)
    assert {html.unescape(j) for _, _, j in exits} == {json.dumps(m, sort_keys=True) for m in expected}

    bear_out = next(html.unescape(j) for f, e, j in exits if f == "d7")
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', text.split('class="hb-form"')[1].split("</form>")[0]))
    response = client_for(alice).post(f"/games/{game.pk}/move/", {**fields, "move": bear_out})
    assert response.status_code == 302
    text = page(game, alice)
    assert "hb-tile" not in cells(text)["d7"]
    assert 'aria-label="bear (exited)"' in text and 'href="#hb-exited-badge"' in text
    assert "alice <strong class=\"hb-left\">4</strong>" in text and "<strong>4</strong> final turns left" in text
    assert 'class="hb-gate hb-open hb-last"' in text


def test_a_forced_pass_is_a_button_of_its_own(alice, bob):
    """A pass is the only move when nothing else is legal; the board offers it as a plain submit button."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    engine = get_engine("halali")
    state = engine.setup(["alice", "bob"], engine.validate_options(2, {"layout": layout(), "first_blue": 0}), "seed")
    for square in SQUARES:
        state, _ = engine.apply(state, state["current"], {"flip": square})
    moves = [{"move": {"pass": True}, "text": "pass", "json": json.dumps({"pass": True}, sort_keys=True)}]
    text = render_to_string("games/halali/board.html", {
        "view": engine.view(state, 0), "moves": moves, "game": SimpleNamespace(pk=7, seq=48, status="active"),
        "idempotency_key": "key", "csrf_token": "token",
    })
    form = re.search(r'<form method="post" action="/games/7/move/" hx-post="/games/7/move/" hx-target="#panel" '
                     r'hx-swap="outerHTML" class="hb-pass-form">(.*?)</form>', text, re.S)
    assert form
    assert '<input type="hidden" name="expected_seq" value="48">' in form.group(1)
    assert re.search(r'<button type="submit" name="move" value="\{&quot;pass&quot;: true\}" class="hb-pass">', form.group(1))
    assert "data-move=" not in board_svg(text) and 'data-dests=" ' not in text
