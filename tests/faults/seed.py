"""Fill a fault test's private database through the services (run in a process of its own by ``stack.seed``)."""

from __future__ import annotations

from django.test import override_settings

from turnbased.accounts.services.accounts import account_create
from turnbased.accounts.services.tokens import token_create
from turnbased.play import services


def love_letter_tables(count: int) -> list[dict]:
    """Make ``count`` two-player Love Letter games in play; return each game's id and its players' API tokens."""
    tables = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for number in range(count):
            players = [account_create(username=f"fault{number}x{seat}", email=f"fault{number}x{seat}@example.com",
                                      password="a-long-enough-pass-9", email_verified=True) for seat in range(2)]
            game = services.create_game(creator=players[0], engine_slug="love-letter", players=2)
            services.join_game(game_id=game.pk, user=players[1])
            tables.append({"game": game.pk,
                           "tokens": [token_create(user=user, name="faults", lifetime=None)[1] for user in players]})
    return tables


def scripted_tables(count: int) -> list[dict]:
    """Make ``count`` two-player Love Letter games on the scripted deck (seat 0 to move, a Handmaid in hand); return
    each game's id and its players' usernames, API tokens and signed-in sessions (the cookie's value)."""
    from django.test import Client

    from tests.platform.conftest import SCRIPTED_CLASSIC_2P

    tables = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for number in range(count):
            players = [account_create(username=f"scripted{number}x{seat}", email=f"scripted{number}x{seat}@example.com",
                                      password="a-long-enough-pass-9", email_verified=True) for seat in range(2)]
            game = services.create_game(creator=players[0], engine_slug="love-letter", players=2,
                                        options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
            services.join_game(game_id=game.pk, user=players[1])
            sessions = []
            for user in players:
                browser = Client()
                browser.force_login(user)
                sessions.append(browser.cookies["sessionid"].value)
            tables.append({"game": game.pk, "usernames": [user.username for user in players], "sessions": sessions,
                           "tokens": [token_create(user=user, name="faults", lifetime=None)[1] for user in players]})
    return tables


def moves_by_game() -> dict[str, list[str]]:
    """Return each game's logged idempotency keys, in seq order."""
    from turnbased.play.models import Move

    keys: dict[str, list[str]] = {}
    for game_id, key in Move.objects.order_by("game_id", "seq").values_list("game_id", "idempotency_key"):
        keys.setdefault(str(game_id), []).append(key)
    return keys


def bot_tables(count: int) -> list[int]:
    """Open ``count`` tables of bots only (Love Letter, two random bots); their first turns go to the broker."""
    from turnbased.play.models import Game

    creator = account_create(username=f"botowner{Game.objects.count()}", email=f"botowner{Game.objects.count()}@example.com",
                             password="a-long-enough-pass-9", email_verified=True)
    return [services.create_game(creator=creator, engine_slug="love-letter", players=2, creator_plays=False,
                                 bots={0: "random", 1: "random"}, seed=f"bots-{number}").pk
            for number in range(count)]


def play_moves(game_ids: list[int], count: int, pause: float) -> int:
    """Play ``count`` random legal moves round the games, as their players, ``pause`` seconds apart; return how many.

    A game that ends is left; when every game has ended the count is short, and the caller's check says so."""
    import random
    import time

    from turnbased.play import store
    from turnbased.play.models import Game

    rng, played = random.Random(count), 0
    while played < count:
        games = [game for game in Game.objects.filter(pk__in=game_ids).order_by("pk") if game.to_move]
        if not games:
            break
        for game in games:
            if played == count:
                break
            seat = game.seats.get(index=game.to_move[0])
            move = rng.choice(store.engine_of(game).legal_moves(game.state, seat.index))
            services.submit_move(game_id=game.pk, user=seat.user, expected_seq=game.seq, move=move)
            played += 1
            time.sleep(pause)
    return played


def play_people(game_ids: list[int], count: int, pause: float) -> int:
    """Make ``count`` random legal moves for the person at seat 0 of the games (each against a bot), as the API
    would, each when it is their turn (a bot's turn is the bots worker's); ``pause`` seconds between rounds. A game
    that ends is left; return how many moves were made."""
    import random
    import time

    from turnbased.play import store
    from turnbased.play.models import Game, GameStatus, MoveSource

    rng, played = random.Random(count), 0
    deadline = time.monotonic() + 600
    while played < count:
        assert time.monotonic() < deadline, f"only {played} of {count} moves in ten minutes"
        for game in Game.objects.filter(pk__in=game_ids, status=GameStatus.ACTIVE).order_by("pk"):
            if played == count or 0 not in game.to_move:
                continue
            seat = game.seats.get(index=0)
            move = rng.choice(store.engine_of(game).legal_moves(game.state, 0))
            services.submit_move(game_id=game.pk, user=seat.user, expected_seq=game.seq, move=move,
                                 source=MoveSource.API)
            played += 1
        if not Game.objects.filter(pk__in=game_ids, status=GameStatus.ACTIVE).exists():
            break
        time.sleep(pause)
    return played


def local_message_subjects() -> list[str]:
    """Return the subjects of the messages the development sink kept, oldest first."""
    from turnbased.mail.models import LocalMessage

    return list(LocalMessage.objects.order_by("pk").values_list("subject", flat=True))
