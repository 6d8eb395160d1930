"""No request costs more as a game's log grows: each request at seq 70 within 15 % of the same request at seq 10.

Two long games are played through the services (Love Letter with four
players, Carcassonne with two); at seq 10 and at seq 70 the same requests are
made and measured: the move (POST through the API), the game page, the panel
poll that brings the latest move, the game through the API, a page of older
history ("Show older") and the history since the client's last seq. Statements and answer sizes must stay within
15 %: what a request reads and sends is bounded by the position, not by the
number of moves behind it.

Love Letter's position does not grow: its answers are compared whole. A
Carcassonne position itself grows: every tile placed stays on the board, and
between the two checkpoints the players put out all their pieces. Its pages
and API answers are compared whole but for the position's own data:

* the board's compact data: on the pages the picture that the board script
  draws (tiles and pieces as short JSON arrays), in the API the view's
  ``board`` and ``pieces``. It may grow by at most ``BYTES_PER_TILE`` for each
  tile placed in between (a board drawn as markup on the server, some 500
  bytes a tile, fails);
* the features the pieces hold (the table on the pages, the view's
  ``features``): a row per feature, so at most one per piece, however long the
  game.

Everything else on the page and in the view (the board's markup, the moves,
the rest of the view) must stay within 15 %. A page of history holds the same
number of moves at both checkpoints (checked), whose texts differ: it is
compared without its entries and its "Show older" link.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client

from tests.platform.play.costs import Cost, measured, token_client
from turnbased.play import services, store
from turnbased.play.selectors import HISTORY_PAGE_MOVES
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db

CHECKPOINTS = (10, 70)
TOLERANCE = 1.15
# What a Carcassonne board's compact data may grow by per tile placed: the tile's array
# (``[-3,2,"R-L50",90,1]``, about 20 bytes) and its share of the pieces.
BYTES_PER_TILE = 40
# A Carcassonne position's own data: (the board's compact data, the features its pieces hold).
CARCASSONNE_PAGE = (re.compile(rb'<script id="cb-picture" type="application/json">.*?</script>', re.S),
                    re.compile(rb'<section class="cb-features">.*?</section>', re.S))
CARCASSONNE_VIEW = (("board", "pieces"), ("features",))


def _play_to(game: Game, seq: int, users: list, rng: random.Random) -> Game:
    engine = store.engine_of(game)
    while game.seq < seq:
        assert game.to_move, f"the game ended before seq {seq}"
        seat = game.to_move[0]
        move = rng.choice(engine.legal_moves(game.state, seat))
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
    return game


def _json_bytes(value) -> int:
    """Return the bytes of ``value`` as DRF's compact JSON writes it."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _position(response, kind: str, slug: str) -> tuple[int, int]:
    """Return the bytes of the answer that are the position's own data: (the board's, the held features').

    For a page of history: its entries, as the board's (see the module docstring). (0, 0) when none.
    """
    body = response.content
    if kind == "history":
        # The entries, and the "Show older" link (absent at seq 10, where nothing is older than the page).
        entries = re.findall(rb"<li[ >].*?</li>\n?", body) + re.findall(rb'<p class="history-older".*?</p>', body)
        assert len(set(re.findall(rb'<span class="seq">(\d+)</span>', body))) == HISTORY_PAGE_MOVES
        return sum(len(entry) for entry in entries), 0
    if slug != "carcassonne-hg":
        return 0, 0
    if kind == "html":
        board, held = (sum(len(found) for found in part.findall(body)) for part in CARCASSONNE_PAGE)
        return board, held
    answer = json.loads(body)
    view = (answer.get("game", answer) if kind == "move" else answer).get("view") or {}
    board, held = (sum(_json_bytes(view[key]) for key in keys if key in view) for keys in CARCASSONNE_VIEW)
    return board, held


def _costs_at(game: Game, users: list, rng: random.Random) -> dict[str, tuple[Cost, int, str]]:
    """Measure each request a player makes at this position (a seat not to move reads; the seat to move plays).

    Every token client is new, so each API request also writes its token's ``last_used_at``, as the first
    request of a minute does.
    """
    reader = users[min(set(range(len(users))) - set(game.to_move))]
    seen = game.seq - 1  # the reader's page shows the position before the latest move
    web = Client()
    web.force_login(reader)
    api_reader, api_history, api_mover = token_client(reader), token_client(reader), token_client(users[game.to_move[0]])
    seat = game.to_move[0]
    move = rng.choice(store.engine_of(game).legal_moves(game.state, seat))
    requests = {
        "game page": ("html", lambda: web.get(f"/games/{game.pk}/")),
        "panel poll with a change": (
            "html", lambda: web.get(f"/games/{game.pk}/panel/?seq={seen}&status={game.status}&seated={len(users)}")),
        "API game": ("api", lambda: api_reader.get(f"/api/games/{game.pk}/")),
        # A full page of moves at both checkpoints: the ten before seq + 1.
        "history page (Show older)": ("history", lambda: web.get(f"/games/{game.pk}/history/?before={game.seq + 1}",
                                                              HTTP_HX_REQUEST="true")),
        "API history since the last seq": ("api", lambda: api_history.get(f"/api/games/{game.pk}/history/?since={seen}")),
        "POST move": ("move", lambda: api_mover.post(f"/api/games/{game.pk}/moves/",
                                                     {"move": move, "expected_seq": game.seq}, format="json")),
    }
    costs = {}
    for name, (kind, send) in requests.items():
        cost, response = measured(send)
        assert cost.status in (200, 201), (name, response.content[:500])
        costs[name] = (cost, _position(response, kind, game.engine), kind)
    return costs


def _ratio(late: float, early: float) -> float:
    return late / early if early else (1.0 if not late else float("inf"))


def _compare(slug: str, users: list, seed: int) -> None:
    game = services.create_game(creator=users[0], engine_slug=slug, players=len(users), seed=f"growth-{slug}")
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    rng = random.Random(seed)
    measured_at, tiles = [], []
    for checkpoint in CHECKPOINTS:
        game = _play_to(game, checkpoint, users, rng)
        tiles.append(len(game.state.get("board") or []) if slug == "carcassonne-hg" else 0)
        measured_at.append(_costs_at(game, users, rng))
        game.refresh_from_db()
    early, late = measured_at
    placed = tiles[1] - tiles[0]
    lines, failures = [], []
    for name in early:
        (cost_early, (board_early, held_early), kind), (cost_late, (board_late, held_late), _) = early[name], late[name]
        statements = _ratio(cost_late.statements, cost_early.statements)
        size = _ratio(cost_late.size, cost_early.size)
        rest_early, rest_late = cost_early.size - board_early - held_early, cost_late.size - board_late - held_late
        rest = _ratio(rest_late, rest_early)
        lines.append(f"{name:<32} statements {cost_early.statements} -> {cost_late.statements} ({statements:.2f}); "
                     f"bytes {cost_early.size} -> {cost_late.size} ({size:.2f}); "
                     f"without the position {rest_early} -> {rest_late} ({rest:.2f})"
                     + (f"; board data {board_early} -> {board_late}, features held {held_early} -> {held_late}"
                        if board_late or held_late else ""))
        if statements > TOLERANCE:
            failures.append(f"{name}: statements")
        if rest > TOLERANCE:
            failures.append(f"{name}: answer size")
        if placed and kind != "history" and board_late - board_early > BYTES_PER_TILE * placed:
            failures.append(f"{name}: the board's data, {(board_late - board_early) / placed:.0f} bytes a tile")
    report = f"{slug}, seq {CHECKPOINTS[0]} -> seq {CHECKPOINTS[1]}:\n" + "\n".join(lines)
    print(report)
    assert not failures, f"grew by more than {TOLERANCE - 1:.0%}: {failures}\n{report}"


def test_love_letter_with_four_players_costs_the_same_late_as_early(make_user):
    _compare("love-letter", [make_user(f"lover{index}") for index in range(4)], seed=8)


def test_carcassonne_with_two_players_costs_the_same_late_as_early(make_user):
    _compare("carcassonne-hg", [make_user(f"hunter{index}") for index in range(2)], seed=2)
