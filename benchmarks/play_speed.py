"""Print how fast the parts users feel are: engine moves, submit_move, the game page and the API.

    .venv/bin/python benchmarks/play_speed.py [--games N]

Runs on the embedded PostgreSQL in a throwaway test database; prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Every request comes from one loopback address and a few accounts: measure speed, not the rate limits.
os.environ["RATE_LIMITS"] = "off"


def figures(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print(f"{name:<34} n={len(samples):<6} median {statistics.median(samples) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms")


def engine_speed(games: int) -> None:
    from games import get_engine

    engine = get_engine("love-letter")
    rng = random.Random(1)
    moves = 0
    started = time.perf_counter()
    view_times = []
    for number in range(games * 10):
        state = engine.setup(["a", "b", "c", "d"], engine.validate_options(4, {}), f"bench-{number}")
        while not engine.is_over(state):
            seat = engine.to_move(state)[0]
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
            moves += 1
            if moves % 25 == 0:
                tick = time.perf_counter()
                engine.view(state, seat)
                view_times.append(time.perf_counter() - tick)
    elapsed = time.perf_counter() - started
    print(f"{'engine: random 4-player games':<34} {games * 10} games, {moves} moves, {moves / elapsed:,.0f} moves/s")
    figures("engine: view()", view_times)


def platform_speed(games: int) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")
    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from turnbased.accounts.services.accounts import account_create
        from turnbased.accounts.services.tokens import token_create
        from turnbased.play import selectors, services
        from turnbased.play.models import GameStatus

        users = [account_create(username=f"bench{i}", email=f"bench{i}@example.com", password="a-long-enough-pass-9",
                                email_verified=True) for i in range(4)]
        rng = random.Random(2)
        submit_times, game_ids = [], []
        for _ in range(games):
            game = services.create_game(creator=users[0], engine_slug="love-letter", players=4)
            for user in users[1:]:
                services.join_game(game_id=game.pk, user=user)
            game_ids.append(game.pk)
            game.refresh_from_db()
            while game.status == GameStatus.ACTIVE:
                seat = game.to_move[0]
                move = rng.choice(selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat)))["move"]
                tick = time.perf_counter()
                services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
                submit_times.append(time.perf_counter() - tick)
                game.refresh_from_db()
        figures("submit_move (4-player game)", submit_times)

        # Pages and API for a game in progress and for finished games with long histories.
        live = services.create_game(creator=users[0], engine_slug="love-letter", players=4)
        for user in users[1:]:
            services.join_game(game_id=live.pk, user=user)
        page = Client()
        page.force_login(users[0])
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=users[0], name='benchmark', lifetime=None)[1]}")
        for label, client, path in [
            ("page: game (live)", page, f"/games/{live.pk}/"),
            ("page: game (finished, long log)", page, f"/games/{game_ids[0]}/"),
            ("page: panel poll, unchanged", page, f"/games/{live.pk}/panel/?seq=0&status=active"),
            ("page: lobby", page, "/"),
            ("api: game detail", api, f"/api/games/{live.pk}/"),
            ("api: legal moves", api, f"/api/games/{live.pk}/legal-moves/"),
            ("api: history (finished game)", api, f"/api/games/{game_ids[0]}/history/"),
            ("api: my games", api, "/api/games/"),
        ]:
            samples = []
            for _ in range(30):
                tick = time.perf_counter()
                response = client.get(path)
                samples.append(time.perf_counter() - tick)
                assert response.status_code in (200, 204), (path, response.status_code)
            figures(label, samples)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="platform games to play (engine games: 10x)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        engine_speed(args.games)
        platform_speed(args.games)
        return 0
    from turnbased.local import services as local

    with ExitStack() as stack:
        environment = local.service_environment(stack, redis_port=local.free_port())
        environment["CELERY_TASK_ALWAYS_EAGER"] = "1"
        command = [sys.executable, __file__, "--inside", "--games", str(args.games)]
        return subprocess.run(command, env=environment, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
