"""The Carcassonne: Hunters and Gatherers board on the game page: drawn in the browser from the view alone.

The page carries the board as a compact picture (JSON: a short array per tile and per piece) that
the board script draws, an empty SVG for it to draw into, and a line saying how many tiles lie on
the board and which came last for a browser without the script. The drawn tile comes with rotate
buttons, the legal moves are embedded as JSON for the board script (which lights one spot per
legal square and rotation from them), and the board's own form posts one of them. Two tables whose
stacks differ only below the drawn tile give the same page byte for byte (ids, tokens and keys
masked). The tiles' drawings are in neither the page nor the API: the board names the engine's
asset that holds them, fetched once, so a finished game's API detail stays under 15 KB and grows
only with the position. (tests/browser/test_carcassonne_board.py checks what the script draws.)
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.conf import settings
from django.test import Client

from games import get_engine
from games.carcassonne_hg import tiles
from games.carcassonne_hg.player_view import tile_name
from tests.platform.conftest import PASSWORD, api_token
from tests.platform.secrecy.doors import masked
from turnbased.play import services
from turnbased.play.models import Move
from turnbased.web.assets import asset_url

pytestmark = pytest.mark.django_db

ENGINE = get_engine("carcassonne-hg")
# Start tile R-S56 on 0,0. Then tiles that fit in several places, some with animals and lakes.
STACK = ["R-L62", "R-L00", "R-L15", "R-L33", "R-L41", "R-L19"]


def start(alice, bob, stack=STACK, **options):
    game = services.create_game(
        creator=alice, engine_slug="carcassonne-hg", players=2, options={"tiles": stack, "first_player": 0, **options}
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        assert client.login(username=user.username, password=PASSWORD)
    return client


def page(game, user) -> str:
    return client_for(user).get(f"/games/{game.pk}/").content.decode()


def board_html(text: str) -> str:
    start = text.index('<div class="cb-board')
    return text[start:text.index('<section class="card moves">') if 'class="card moves"' in text else None]


def embedded_moves(text: str) -> list[dict]:
    found = re.search(r'<script id="cb-moves" type="application/json">(.*?)</script>', text, re.S)
    assert found, "the board embeds the legal moves"
    return json.loads(found.group(1))


def picture(text: str) -> dict:
    """Return the compact picture of the board the page embeds for the board script."""
    found = re.search(r'<script id="cb-picture" type="application/json">(.*?)</script>', text, re.S)
    assert found, "the board embeds its picture"
    return json.loads(found.group(1))


def summary(text: str) -> str:
    """Return the line a browser without the script shows instead of the board."""
    return html.unescape(re.search(r'<noscript><p class="cb-summary">(.*?)</p></noscript>', text, re.S).group(1))


def play(game, user, move):
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()


def test_the_board_is_a_compact_picture_with_the_drawn_tile_and_rotate_buttons(alice, bob):
    game = start(alice, bob)
    text = page(game, alice)
    board = board_html(text)
    assert '<svg class="cb-svg"' in board and '<g class="cb-tiles"></g>' in board
    assert picture(board) == {"tiles": [[0, 0, "R-S56", 0, None]], "pieces": [], "covered": [], "last": None,
                              "names": ["alice", "bob"]}
    assert 'class="cb-tile"' not in board, "the script draws the tiles"
    # Each tile's drawing is filled in by the board script from the asset the board names.
    assert board.count('<g class="cb-art"></g>') == 1  # the drawn tile's
    url = re.search(r'data-art="([^"]+)"', board).group(1)
    assert url == asset_url("carcassonne-hg", "art-revised")
    start_tile = json.loads(client_for(alice).get(url).content)["R-S56"]
    assert [shape["kind"] for shape in start_tile["shapes"]].count("lake") == 1
    assert {"aurochs", "menhir", "fish"} <= {icon["icon"] for icon in start_tile["icons"]}
    assert 'aria-label="The tile to place: a meadow tile with a deer"' in board and 'class="cb-drawn" ' in board
    assert board.count('class="cb-rotate"') == 2
    assert 'class="cb-confirm"' in board
    assert "Features held" in board


def test_the_embedded_moves_are_exactly_the_engine_legal_moves_each_placement_also_without_a_piece(alice, bob):
    game = start(alice, bob)
    text = page(game, alice)
    legal = ENGINE.legal_moves(game.state, 0)
    moves = embedded_moves(text)
    assert [m["move"] for m in moves] == legal
    assert all(json.loads(m["json"]) == m["move"] for m in moves)
    # The script lights a spot for each move without a piece: every placement has one.
    spots = {(m["x"], m["y"], m["rot"]) for m in legal if "piece" not in m and "recall" not in m}
    assert spots == {(m["x"], m["y"], m["rot"]) for m in legal} and len(spots) > 1
    assert 'class="cb-spot"' not in text and '<g class="cb-spots"></g>' in text


def test_a_move_posted_from_the_board_form_is_played(alice, bob):
    game = start(alice, bob)
    client = client_for(alice)
    text = client.get(f"/games/{game.pk}/").content.decode()
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*class="cb-form".*?</form>', text, re.S)
    assert form, "the board has its own form"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
    assert fields["expected_seq"] == str(game.seq)
    chosen = next(m for m in embedded_moves(text) if m["move"].get("piece"))
    response = client.post(
        html.unescape(form.group(1)),
        {
            "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
            "expected_seq": fields["expected_seq"],
            "idempotency_key": fields["idempotency_key"],
            "move": chosen["json"],
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last.move == chosen["move"]
    game.refresh_from_db()
    after = page(game, alice)
    shown = picture(after)
    x, y = chosen["move"]["x"], chosen["move"]["y"]
    assert shown["tiles"] == [[0, 0, "R-S56", 0, None], [x, y, game.state["board"][-1][2], chosen["move"]["rot"], 0]]
    assert [piece[:4] for piece in shown["pieces"]] == [[x, y, 0, chosen["move"]["piece"]]]  # alice's, seat 0
    assert shown["last"] == [x, y]
    assert summary(after).startswith("2 tiles on the board; the latest: ") and summary(after).endswith(
        f" on {x},{y}, placed by alice.")
    assert "cb-moves" not in after  # not her turn: no spots, no embedded moves
    assert 'class="cb-feature"' in after


def test_someone_waiting_or_watching_gets_the_board_without_spots(alice, bob):
    game = start(alice, bob)
    for viewer in (bob, None):
        text = page(game, viewer)
        assert '<svg class="cb-svg"' in text and picture(text)["tiles"] == [[0, 0, "R-S56", 0, None]]
        assert 'id="cb-moves"' not in text and 'class="cb-rotate"' not in text


def test_without_the_script_a_line_tells_the_tiles_on_the_board_and_the_latest_instead_of_a_drawing(alice, bob):
    game = start(alice, bob)
    assert summary(page(game, bob)) == "1 tile on the board: the start tile with a lake (1 fish), a menhir and an aurochs on 0,0."
    play(game, alice, ENGINE.legal_moves(game.state, 0)[0])
    for _ in range(3):
        seat = game.to_move[0]
        play(game, [alice, bob][seat], ENGINE.legal_moves(game.state, seat)[0])
    x, y, tile_id, *_ = game.state["board"][-1]
    text = summary(page(game, None))
    assert text == f"5 tiles on the board; the latest: {tile_name(tile_id, 'revised')} on {x},{y}, placed by bob."
    # The CSS hides the empty drawing when the summary is there (it is only parsed without the script).
    css = (settings.BASE_DIR / "static" / "css" / "carcassonne-board.css").read_text()
    assert ".cb-main:has(.cb-summary) .cb-svg { display: none; }" in css


def test_stacks_differing_below_the_drawn_tile_give_the_same_pages(alice, bob):
    one = start(alice, bob, STACK)
    two = start(alice, bob, STACK[:2] + list(reversed(STACK[2:])))
    assert one.state["stack"] != two.state["stack"]

    def seen(game, user):
        text = masked(page(game, user), game)
        return re.sub(r'data-game="\d+"', 'data-game="<id>"', text)

    for viewer in (alice, bob, None):
        assert seen(one, viewer) == seen(two, viewer)
    # After the first move both tables draw R-L00: still the same.
    move = ENGINE.legal_moves(one.state, 0)[0]
    play(one, alice, move)
    play(two, alice, move)
    for viewer in (alice, bob, None):
        assert seen(one, viewer) == seen(two, viewer)
    # The tile after next is nowhere (the board's words name every tile of the edition, whatever the position).
    assert "R-L15" not in re.sub(r'<script id="cb-words".*?</script>', "", seen(one, bob), flags=re.S)


def test_the_end_of_the_game_shows_the_scoring_breakdown(alice, bob):
    game = start(alice, bob, ["R-L62"])
    hunter = next(m for m in ENGINE.legal_moves(game.state, 0) if m.get("piece") == "hunter")
    play(game, alice, hunter)
    assert game.status == "finished"
    text = page(game, alice)
    assert "Final scoring" in text and 'class="cb-table-breakdown"' in text
    assert "Meadow at" in text
    assert 'class="cb-drawn"' not in text


def test_pieces_stand_on_their_regions_spots_given_with_the_picture(alice, bob):
    game = start(alice, bob)
    hunter = next(m for m in ENGINE.legal_moves(game.state, 0) if m.get("piece") == "hunter")
    play(game, alice, hunter)
    anchor = ENGINE.assets()["art-revised"][game.state["board"][-1][2]]["anchors"][hunter["region"]]
    assert picture(page(game, bob))["pieces"] == [[hunter["x"], hunter["y"], 0, "hunter", *anchor]]


def test_neither_the_page_nor_the_api_carries_drawings_and_a_finished_games_detail_is_under_15_kb(alice, bob):
    deck = tiles.deck("revised", "land")
    random.Random(2).shuffle(deck)
    game = services.create_game(creator=alice, engine_slug="carcassonne-hg", players=2, seed="sizes",
                                options={"tiles": deck, "first_player": 0})
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    api = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    drawings = ENGINE.assets()["art-revised"]
    rng = random.Random(2)
    seen = {}

    def read(when):
        raw = api.get(f"/api/games/{game.pk}/").content
        view = json.loads(raw)["view"]
        position = sum(len(json.dumps(view[key], separators=(",", ":"))) for key in ("board", "pieces", "features"))
        seen[when] = {"detail": len(raw), "rest": len(raw) - position, "page": page(game, alice)}
        for _, _, tile_id, *_ in view["board"]:
            for shape in drawings[tile_id]["shapes"]:
                assert shape["d"] not in seen[when]["page"] and shape["d"].encode() not in raw, when

    while game.status == "active":
        if game.seq in (10, 70):
            read(game.seq)
        seat = game.to_move[0]
        play(game, [alice, bob][seat], rng.choice(ENGINE.legal_moves(game.state, seat)))
    read("finished")
    assert len(game.state["board"]) > 70
    assert seen["finished"]["detail"] <= 15 * 1024
    # Beyond the position itself (tiles on the board, pieces, the features they hold), nothing grows.
    assert seen[70]["rest"] <= 1.15 * seen[10]["rest"]
