"""Carcassonne: Hunters and Gatherers in a real browser: the script draws the board from the page's compact
picture; turn the tile, place it, pick a piece, confirm; without the script a line stands for the board."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from games import get_engine
from games.carcassonne_hg.terms import tile_name
from tests.browser.test_play_in_browser import log_in
from tests.platform.conftest import PASSWORD
from tests.platform.play.test_carcassonne_board import STACK, start
from turnbased.play import services
from turnbased.play.models import Move
from turnbased.web.assets import asset_url

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = get_engine("carcassonne-hg")


def test_turn_place_deploy_and_confirm_on_the_board(browser, live_server, alice, bob, tmp_path):
    game = start(alice, bob, STACK)
    # A few tiles first, so there is a board to look at.
    for user in (alice, bob):
        game.refresh_from_db()
        seat = 0 if user == alice else 1
        move = next(m for m in ENGINE.legal_moves(game.state, seat) if m.get("piece"))
        services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    legal = ENGINE.legal_moves(game.state, 0)
    # A placement with a hunter in a rotation other than the first that fits.
    rotations = sorted({m["rot"] for m in legal})
    target = next(m for m in legal if m["rot"] != rotations[0] and m.get("piece") == "hunter")

    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".cb-board.cb-js")
    assert "Your turn." in page.inner_text("#panel")
    page.locator(".cb-svg").screenshot(path=str(tmp_path / "carcassonne-board.png"))

    def lit():
        spots = page.locator(".cb-spot.cb-on")
        return {(spots.nth(i).get_attribute("data-x"), spots.nth(i).get_attribute("data-y"),
                 spots.nth(i).get_attribute("data-rot")) for i in range(spots.count())}

    assert lit() == {(str(m["x"]), str(m["y"]), str(rotations[0])) for m in legal if m["rot"] == rotations[0]}
    # Turn clockwise until the target rotation: the lit squares follow.
    while page.locator(".cb-rot-label").inner_text() != f"turned {target['rot']}°":
        page.click('.cb-rotate[data-turn="90"]')
    assert lit() == {(str(m["x"]), str(m["y"]), str(target["rot"])) for m in legal if m["rot"] == target["rot"]}
    assert page.get_attribute(".cb-drawn-turn", "transform") == f"rotate({target['rot']} 50 50)"
    page.screenshot(path=str(tmp_path / "carcassonne-rotated.png"), full_page=True)

    page.click(f'.cb-spot.cb-on[data-x="{target["x"]}"][data-y="{target["y"]}"]')
    page.wait_for_selector(".cb-deploy:not([hidden])")
    assert page.locator(".cb-ghost").count() == 1
    choices = page.locator(".cb-choice")
    expected = [m for m in legal if (m["x"], m["y"], m["rot"]) == (target["x"], target["y"], target["rot"])]
    assert choices.count() == len(expected)
    assert choices.first.inner_text() == "No piece"
    assert "cb-picked" in choices.first.get_attribute("class")
    # Pick the hunter's region on the board itself.
    markers = page.locator(".cb-region-marker")
    assert markers.count() == sum(1 for m in expected if m.get("piece") and not m.get("recall"))
    hunter = page.locator(f'.cb-region-marker[aria-label="{choices.nth(expected.index(target)).inner_text()}"]')
    hunter.click()
    assert "cb-picked" in choices.nth(expected.index(target)).get_attribute("class")
    assert ENGINE.describe_move(game.state, target) in page.inner_text(".cb-confirm-text")
    page.screenshot(path=str(tmp_path / "carcassonne-deploy.png"), full_page=True)
    page.locator(".cb-svg").screenshot(path=str(tmp_path / "carcassonne-deploy-board.png"))

    # Cancel returns to choosing a square; do it again and confirm.
    page.click(".cb-cancel")
    assert page.locator(".cb-ghost").count() == 0 and page.locator(".cb-deploy[hidden]").count() == 1
    moves_before = Move.objects.filter(game=game).count()
    page.click(f'.cb-spot.cb-on[data-x="{target["x"]}"][data-y="{target["y"]}"]')
    page.locator(f'.cb-region-marker[aria-label="{choices.nth(expected.index(target)).inner_text()}"]').click()
    page.click(".cb-confirm")
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).count() == moves_before + 1
    assert Move.objects.filter(game=game).order_by("-seq").first().move == target
    page.wait_for_selector(".cb-board.cb-js")
    assert page.locator(".cb-piece.cb-seat-0").count() >= 2
    page.screenshot(path=str(tmp_path / "carcassonne-after.png"), full_page=True)
    print(f"screenshots in {tmp_path}")
    page.context.close()


def drawn_tiles(page) -> list:
    """Return each tile the script drew: x, y, tile, rot (its data), its title and where it stands."""
    return page.eval_on_selector_all(".cb-svg .cb-tiles .cb-tile", """tiles => tiles.map(t => [
        Number(t.dataset.x), Number(t.dataset.y), t.dataset.tile, Number(t.dataset.rot),
        t.querySelector(":scope > title").textContent, t.getAttribute("transform")])""")


def drawn_pieces(page) -> list:
    """Return each piece the script drew: its tile's square, seat, kind, title, and its spot in the tile's box."""
    return page.eval_on_selector_all(".cb-svg .cb-piece", """pieces => pieces.map(p => {
        const tile = p.closest(".cb-tile");
        return [Number(tile.dataset.x), Number(tile.dataset.y), Number(p.dataset.seat), p.dataset.kind,
                p.querySelector("title").textContent, p.getAttribute("transform")];
    })""")


def test_the_script_draws_the_placed_tiles_and_pieces_from_the_picture_and_a_click_still_deploys_a_piece(
        browser, live_server, alice, bob):
    game = start(alice, bob, STACK)
    for user in (alice, bob, alice, bob):
        seat = 0 if user == alice else 1
        move = [m for m in ENGINE.legal_moves(game.state, seat) if m.get("piece")][-1]
        services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
        game.refresh_from_db()
    names = ["alice", "bob"]
    drawings = ENGINE.assets()["art-revised"]

    def expected_tiles():
        # Each tile is an image named by its title: what it shows, where, by whom, and the pieces on it.
        last = game.state["board"][-1][:2]
        found = []
        for x, y, tile_id, rot, by, *_ in game.state["board"]:
            label = (f"{tile_name(tile_id, 'revised')} on {x},{y} turned {rot}°"
                     + (" (start tile)" if by is None else f" by {names[by]}")
                     + (", the latest tile" if [x, y] == last else ""))
            on = [f"{names[p['seat']]}'s {p['kind']} on {x},{y}" for p in game.state["pieces"]
                  if (p["x"], p["y"]) == (x, y)]
            found.append([x, y, tile_id, rot, f"{label}; on it: {'; '.join(on)}" if on else label,
                          f"translate({x * 100} {-y * 100})"])
        return found

    def expected_pieces():
        placed = {(x, y): (tile_id, rot) for x, y, tile_id, rot, *_ in game.state["board"]}
        found = []
        for piece in game.state["pieces"]:
            tile_id, rot = placed[piece["x"], piece["y"]]
            ax, ay = drawings[tile_id]["anchors"][piece["region"]]
            found.append([piece["x"], piece["y"], piece["seat"], piece["kind"],
                          f"{names[piece['seat']]}'s {piece['kind']} on {piece['x']},{piece['y']}",
                          f"translate({ax:g} {ay:g}) rotate(-{rot}) scale(1.4)"])
        return sorted(found)

    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".cb-board.cb-js")
    assert page.locator(".cb-svg").is_visible() and page.locator(".cb-summary").count() == 0
    assert drawn_tiles(page) == expected_tiles()
    assert len(game.state["pieces"]) >= 2 and sorted(drawn_pieces(page)) == expected_pieces()
    last = game.state["last"]
    frame = page.locator(f'.cb-tile[data-x="{last["x"]}"][data-y="{last["y"]}"] > .cb-last')
    assert page.locator(".cb-last").count() == 1 and frame.get_attribute("class") == "cb-last cb-seat-1"

    # Place the tile with a piece by clicking: a lit square, then the piece's marker on the tile, then Confirm.
    legal = ENGINE.legal_moves(game.state, 0)
    first = sorted({m["rot"] for m in legal})[0]
    target = next(m for m in legal if m["rot"] == first and m.get("piece") and "recall" not in m)
    spots = page.eval_on_selector_all(".cb-spot.cb-on", "spots => spots.map(s => s.getAttribute('aria-label'))")
    assert f"place the tile on {target['x']},{target['y']} turned {first}°" in spots
    page.click(f'.cb-spot.cb-on[data-x="{target["x"]}"][data-y="{target["y"]}"]')
    page.wait_for_selector(".cb-deploy:not([hidden])")
    page.click(f".cb-region-marker[data-json='{json.dumps(target, sort_keys=True)}']")
    page.click(".cb-confirm")
    page.wait_for_selector("text=Waiting for bob")
    page.wait_for_selector(".cb-board.cb-js")
    assert Move.objects.filter(game=game).order_by("-seq").first().move == target
    game.refresh_from_db()
    assert drawn_tiles(page) == expected_tiles() and sorted(drawn_pieces(page)) == expected_pieces()
    assert [target["x"], target["y"], 0, target["piece"]] in [piece[:4] for piece in drawn_pieces(page)]
    frame = page.locator(f'.cb-tile[data-x="{target["x"]}"][data-y="{target["y"]}"] > .cb-last')
    assert frame.get_attribute("class") == "cb-last cb-seat-0"

    # A meadow the hunting trap covered is a cross on its region's spot (board_data gives the spot:
    # tests/games/carcassonne_hg/test_web_art.py); here one is added to the picture and drawn again.
    page.evaluate("""() => {
        const board = document.querySelector(".cb-board"), copy = board.cloneNode(true);
        const data = copy.querySelector("#cb-picture"), picture = JSON.parse(data.textContent);
        picture.covered = [[0, 0, 30, 70]];
        data.textContent = JSON.stringify(picture);
        board.replaceWith(copy);
        window.CarcassonneBoard.init(copy);
    }""")
    cross = page.locator('.cb-tile[data-x="0"][data-y="0"] .cb-covered')
    expect(cross).to_have_count(1)
    assert cross.get_attribute("transform") == "translate(30 70)"
    assert cross.locator("title").text_content() == "Animals covered by the hunting trap"
    page.context.close()


def test_without_the_script_a_line_stands_for_the_board_and_the_move_buttons_play(browser, live_server, alice, bob):
    game = start(alice, bob, STACK)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    summary = page.locator(".cb-summary")
    assert summary.is_visible() and summary.inner_text().startswith("1 tile on the board: the start tile")
    assert not page.locator(".cb-svg").is_visible() and page.locator(".cb-tile").count() == 0
    move = ENGINE.legal_moves(game.state, 0)[0]
    page.get_by_role("button", name=ENGINE.describe_move(game.state, move), exact=True).click()
    page.wait_for_selector("text=Waiting for bob")
    assert Move.objects.filter(game=game).order_by("-seq").first().move == move
    assert page.locator(".cb-summary").inner_text().startswith("2 tiles on the board; the latest: ")
    context.close()


def test_pan_and_zoom_survive_the_panel_swap(browser, live_server, alice, bob):
    game = start(alice, bob, STACK)
    page = log_in(browser, live_server, "alice")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".cb-board.cb-js")
    page.locator(".cb-svg").scroll_into_view_if_needed()
    before = page.get_attribute(".cb-svg", "viewBox")
    page.click(".cb-zoom-in")
    zoomed = page.get_attribute(".cb-svg", "viewBox")
    assert zoomed != before
    box = page.locator(".cb-svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 30, steps=5)
    page.mouse.up()
    panned = page.get_attribute(".cb-svg", "viewBox")
    assert panned != zoomed and panned.split()[2:] == zoomed.split()[2:]
    # Bob plays; alice's panel is swapped in by htmx and keeps her view of the board.
    game.refresh_from_db()
    move = ENGINE.legal_moves(game.state, 0)[0]
    page.click(".cb-zoom-fit")
    page.click(".cb-zoom-in")
    kept = page.get_attribute(".cb-svg", "viewBox")
    services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq, move=move)
    page.wait_for_selector("text=Waiting for bob", timeout=15000)
    page.wait_for_selector(".cb-board.cb-js")
    assert page.get_attribute(".cb-svg", "viewBox") == kept
    page.context.close()


# What board.html drew on the server before the drawings moved to an asset, element by element.
PICTURED = {"deer", "aurochs", "mammoth", "tiger", "fish", "menhir", "nugget", "mushrooms"}
POWER_LETTERS = {"shaman": "S", "logboat": "B", "raft": "R", "hunting_trap": "H", "pit_trap": "P", "wildfire": "W",
                 "fire": "F"}
READ_ART = """groups => groups.map(group => Array.from(group.children).map(node => ({
  tag: node.tagName, cls: node.getAttribute("class"), d: node.getAttribute("d"),
  cx: node.getAttribute("cx"), cy: node.getAttribute("cy"), r: node.getAttribute("r"),
  transform: node.getAttribute("transform"),
  inner: Array.from(node.children).map(child => [child.tagName, child.getAttribute("href"), child.textContent]),
})))"""


def as_drawn(drawing: dict, rot: int | None) -> list[dict]:
    """Return the elements the server template made of a drawing (``rot`` None: the tile to place)."""
    nodes = []
    for river in drawing["rivers"]:
        nodes.append({"tag": "path", "cls": "cb-river-bank", "d": river["d"]})
        nodes.append({"tag": "path", "cls": "cb-river", "d": river["d"]})
        if river["spring"]:
            nodes.append({"tag": "circle", "cls": "cb-spring", "cx": river["spring"][0], "cy": river["spring"][1],
                          "r": 4.5})
    nodes += [{"tag": "path", "cls": f"cb-{shape['kind']}", "d": shape["d"]} for shape in drawing["shapes"]]
    for icon in drawing["icons"]:
        turn = "" if rot is None else f" rotate(-{rot})"
        if icon["icon"] in PICTURED:
            inner = [["use", f"#cb-i-{icon['icon']}", ""]]
        else:
            inner = [["use", "#cb-power", ""], ["text", None, POWER_LETTERS.get(icon["icon"], "+")],
                     ["title", None, icon["icon"]]]
        nodes.append({"tag": "g", "cls": "cb-icon", "transform": (icon["x"], icon["y"], turn), "inner": inner})
    return nodes


def as_read(node: dict) -> dict:
    """Return an element read from the page in the shape of ``as_drawn`` (numbers as numbers)."""
    found = {"tag": node["tag"], "cls": node["cls"]}
    if node["d"] is not None:
        found["d"] = node["d"]
    if node["tag"] == "circle":
        found.update(cx=float(node["cx"]), cy=float(node["cy"]), r=float(node["r"]))
    if node["tag"] == "g":
        x, y, turn = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)(.*)", node["transform"]).groups()
        found.update(transform=(float(x), float(y), turn), inner=[[tag.lower(), *rest] for tag, *rest in node["inner"]])
    return found


def test_the_script_draws_every_tile_from_the_asset_as_the_server_drew_it_fetching_it_once(
        browser, live_server, alice, bob):
    game = start(alice, bob, STACK)
    for user in (alice, bob, alice):
        seat = 0 if user == alice else 1
        move = [m for m in ENGINE.legal_moves(game.state, seat) if m.get("piece")][-1]
        services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
        game.refresh_from_db()
    page = log_in(browser, live_server, "bob")
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if "/assets/" in request.url else None)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".cb-board.cb-js")
    drawings = ENGINE.assets()["art-revised"]

    def check_the_board():
        squares = page.eval_on_selector_all(".cb-tile", "tiles => tiles.map(t => [t.dataset.tile, Number(t.dataset.rot)])")
        assert len(squares) == len(game.state["board"])
        drawn = page.eval_on_selector_all(".cb-tile .cb-art", READ_ART)
        for (tile_id, rot), nodes in zip(squares, drawn):
            assert [as_read(node) for node in nodes] == as_drawn(drawings[tile_id], rot), tile_id
        (to_place,) = page.eval_on_selector_all(".cb-drawn .cb-art", READ_ART)
        assert [as_read(node) for node in to_place] == as_drawn(drawings[game.state["tile"]], None)

    check_the_board()
    # Bob plays; the panel is swapped in and drawn again, from the drawings already fetched.
    move = ENGINE.legal_moves(game.state, 1)[0]
    services.submit_move(game_id=game.pk, user=bob, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    page.wait_for_selector("text=Waiting for alice", timeout=15000)
    page.wait_for_selector(".cb-board.cb-js")
    check_the_board()
    assert fetched == [f"{live_server.url}{asset_url('carcassonne-hg', 'art-revised')}"]
    page.context.close()
