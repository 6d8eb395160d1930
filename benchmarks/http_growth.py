"""Per-request cost early and late in long games, and the lobby with 5 and with 50 games.

Part of benchmarks/http_moves.py, which passes in what needs Django (``fixtures``: accounts with
tokens, new tables, a signed-in browser session); everything here goes through the served stack
over HTTP, one client at a time, the two sides of each comparison interleaved.
"""

from __future__ import annotations

import json
import random
import statistics
from dataclasses import dataclass

from benchmarks.http_load import Connection

# Long games: Love Letter keeps its players' log; Carcassonne's board and page grow with every tile.
GAMES = [("love-letter", 4), ("carcassonne-hg", 2)]
EARLY, LATE = 10, 70
# Each request is measured at every position of a window from each checkpoint on (seq 10 to 17, 70 to
# 77), a move played between: a single position would compare where two games stood in a round (a Love
# Letter page at a round's first turn shows no discards) more than how long they had been going.
WINDOW = 8
MAX_ATTEMPTS = 12  # games that end before the late position are played again


@dataclass
class Position:
    table: object  # http_moves.Table
    cookie: str


def play_to(connection: Connection, table, seq: int, rng: random.Random) -> bool:
    """Play random legal moves through the API until ``seq``; return whether the game is still in play there."""
    while table.seq < seq:
        if not post_a_move(connection, table, rng, kind="setup"):
            return False
    return True


def post_a_move(connection: Connection, table, rng: random.Random, *, kind: str) -> bool:
    """GET legal-moves and POST one of them as the seat to move; return whether the game goes on."""
    auth = table.players[table.to_move].auth
    path = f"/api/games/{table.game_id}"
    status, body = connection.request("setup", "GET", f"{path}/legal-moves/", headers=auth)
    listed = json.loads(body)
    if status != 200 or not listed["moves"]:
        return False
    status, body = connection.request(kind, "POST", f"{path}/moves/",
                                      {"move": rng.choice(listed["moves"])["move"], "expected_seq": listed["seq"]},
                                      headers=auth)
    if status != 201:
        raise RuntimeError(f"a move answered {status} {body[:200]!r}")
    game = json.loads(body)["game"]
    table.seq = game["seq"]
    if game["status"] != "active":
        return False
    table.to_move = game["to_move"][0]
    return True


def line(label: str, early: list, late: list, sizes: tuple[list, list] | None = None, names=("early", "late")) -> None:
    e, l_ = statistics.median(early) * 1000, statistics.median(late) * 1000
    text = f"  {label:<30} {names[0]} {e:7.1f} ms   {names[1]} {l_:7.1f} ms   ratio {l_ / e:5.2f}"
    if sizes and sizes[0] and sizes[1]:
        text += f"   size {statistics.median(sizes[0]) / 1024:6.1f} -> {statistics.median(sizes[1]) / 1024:6.1f} KB"
    print(text, flush=True)


def early_and_late(port: int, fixtures, slug: str, seats: int, games_per_set: int) -> dict:
    """Return {request: (early seconds, late seconds, early sizes, late sizes)} for one game.

    ``games_per_set`` games are played to each checkpoint; then, ``WINDOW`` times, each of them is read
    once with every request and moves on by one move (the ``POST move`` samples).
    """
    connection = Connection(port)
    rng = random.Random(7)
    players = fixtures.make_players(seats, f"g{slug[:4]}")
    cookies = [fixtures.session_cookie(player) for player in players]
    positions: dict[int, list] = {EARLY: [], LATE: []}
    for seq, tables in positions.items():
        for _ in range(MAX_ATTEMPTS):
            if len(tables) == games_per_set:
                break
            table = fixtures.new_table(players, slug)
            if play_to(connection, table, seq, rng):
                tables.append(table)
        if len(tables) < games_per_set:
            raise RuntimeError(f"{slug}: too few games lasted to seq {seq}")

    def waiting(table) -> int:
        """Return the seat after the one to move: every read is made by a player waiting for their turn.

        The same kind of reader at both positions: the page of the seat to move also lists its legal
        moves, as many as the position offers, which would compare the positions' choices instead.
        """
        return (table.to_move + 1) % len(table.players)

    reads = {
        "game page": lambda t: (f"/games/{t.game_id}/", {"Cookie": cookies[waiting(t)]}),
        "panel poll, unchanged": lambda t: (f"/games/{t.game_id}/panel/?seq={t.seq}&status=active&seated={len(t.players)}",
                                            {"Cookie": cookies[waiting(t)], "HX-Request": "true"}),
        "API detail": lambda t: (f"/api/games/{t.game_id}/", t.players[waiting(t)].auth),
        "API history, last 10 moves": lambda t: (f"/api/games/{t.game_id}/history/?since={t.seq - 10}",
                                                 t.players[waiting(t)].auth),
        "API legal-moves": lambda t: (f"/api/games/{t.game_id}/legal-moves/", t.players[t.to_move].auth),
    }
    connection.samples.clear()
    for _ in range(WINDOW):
        for index in range(games_per_set):
            for seq in (EARLY, LATE):
                table = positions[seq][index]
                if table.seq < 0:  # the game ended inside the window
                    continue
                for kind, request in reads.items():
                    path, headers = request(table)
                    connection.request(f"{kind}@{seq}", "GET", path, headers=headers)
                if not post_a_move(connection, table, rng, kind=f"POST move@{seq}"):
                    table.seq = -1
    figures = {}
    for kind in ["POST move", *reads]:
        chosen = [[s for s in connection.samples if s.kind == f"{kind}@{seq}"] for seq in (EARLY, LATE)]
        expected = (204,) if kind == "panel poll, unchanged" else (200, 201)
        bad = [s.status for group in chosen for s in group if s.status not in expected]
        if bad:
            raise RuntimeError(f"{slug} {kind}: answers {sorted(set(bad))}")
        figures[kind] = tuple([s.seconds for s in group] for group in chosen) + \
            tuple([s.size for s in group] for group in chosen)
    connection.close()
    return figures


def lobby(port: int, fixtures, samples: int) -> dict:
    """Return {request: (seconds with 5 games, seconds with 50)}: the lobby page and GET /api/games/."""
    connection = Connection(port)
    rng = random.Random(8)
    few, many, opponent = fixtures.make_players(3, "lobby")
    for player, count in ((few, 5), (many, 50)):
        for _ in range(count):
            table = fixtures.new_table([player, opponent])
            play_to(connection, table, 2, rng)  # a last move for the lobby to describe
    cookies = {5: fixtures.session_cookie(few), 50: fixtures.session_cookie(many)}
    tokens = {5: few.auth, 50: many.auth}
    connection.samples.clear()
    for _ in range(samples):
        for games in (5, 50):
            connection.request(f"lobby page@{games}", "GET", "/", headers={"Cookie": cookies[games]})
            connection.request(f"GET /api/games/@{games}", "GET", "/api/games/", headers=tokens[games])
    figures = {}
    for kind in ("lobby page", "GET /api/games/"):
        chosen = [[s for s in connection.samples if s.kind == f"{kind}@{games}"] for games in (5, 50)]
        if any(s.status != 200 for group in chosen for s in group):
            raise RuntimeError(f"{kind}: not every answer was 200")
        figures[kind] = tuple([s.seconds for s in group] for group in chosen) + \
            tuple([s.size for s in group] for group in chosen)
    connection.close()
    return figures


def growth(port: int, fixtures, *, samples: int, games_per_set: int) -> None:
    """Print the early/late ratios of each request of each long game, then the lobby's 50/5 ratios."""
    print(f"\nCost of a request early (seq {EARLY} to {EARLY + WINDOW - 1}) and late (seq {LATE} to "
          f"{LATE + WINDOW - 1}) in a game; one client, median over {games_per_set} games at each of the "
          f"{WINDOW} positions, early and late interleaved; target late/early <= 1.15")
    worst = 0.0
    for slug, seats in GAMES:
        print(f" {slug}, {seats} players:")
        for kind, (early, late, early_sizes, late_sizes) in early_and_late(
                port, fixtures, slug, seats, games_per_set).items():
            line(kind, early, late, (early_sizes, late_sizes))
            if not kind.startswith("API history") and not kind.startswith("API legal"):
                worst = max(worst, statistics.median(late) / statistics.median(early))
    print(f" worst late/early of POST move, game page, panel poll, API detail: {worst:.2f} "
          f"({'ok' if worst <= 1.15 else 'MISSED'})")
    print(f"\nThe lobby of a player with 5 and with 50 games in play; one client, median of {samples} "
          f"interleaved samples; target 50/5 <= 1.5")
    worst = 0.0
    for kind, (few, many, few_sizes, many_sizes) in lobby(port, fixtures, samples).items():
        line(kind, few, many, (few_sizes, many_sizes), names=("5 games", "50 games"))
        worst = max(worst, statistics.median(many) / statistics.median(few))
    print(f" worst 50/5 of the lobby page and GET /api/games/: {worst:.2f} ({'ok' if worst <= 1.5 else 'MISSED'})")
