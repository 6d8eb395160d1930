"""A Love Letter bot for turnbased: it takes every invitation to a Love Letter table and plays its turns legally.

Make a bot account first (README, "Bot accounts"), then run the bot with one of its API tokens:

    pip install ./clients/python
    TURNBASED_URL=http://127.0.0.1:8000 TURNBASED_STREAM_URL=http://127.0.0.1:8001 \\
        TURNBASED_TOKEN=<key> python examples/love_letter_bot.py

It follows its event stream and plays when told it is its turn. Each time the stream connects (and at
least every minute, as the stream tells of no invitation) it does what waits: takes the seat at every
Love Letter table it is invited to, declines the others, and plays its turns. Should the stream drop,
the library reconnects with the last event's id and misses nothing. ``choose_move`` picks the move.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from turnbased_client import ApiError, Client
from turnbased_client.stream import OPENED

GAME = "love-letter"


def choose_move(moves: list[dict], rng: random.Random) -> dict:
    """Pick one of the legal moves the API lists ({move, text}): any but discarding the Princess, which loses."""
    safe = [choice for choice in moves if choice["move"].get("card") != "princess"]
    return rng.choice(safe or moves)


def play(api: Client, game_id: int, rng: random.Random) -> None:
    """Play a move in the game if it is the bot's turn; a 409 means the game moved on meanwhile."""
    legal = api.legal_moves(game_id)
    if legal["moves"]:
        move = choose_move(legal["moves"], rng)["move"]
        try:  # the key makes a retried request play nothing twice
            api.submit_move(game_id, expected_seq=legal["seq"], move=move, idempotency_key=f"{game_id}:{legal['seq']}")
        except ApiError as refused:
            if refused.status != 409:
                raise


def catch_up(api: Client, rng: random.Random) -> None:
    """Answer every invitation (a seat at Love Letter, no to the rest), then play every turn waiting."""
    for invitation in api.my_invitations():
        try:
            if api.game(invitation["game"])["game"] == GAME:
                api.join(invitation["game"])
            else:
                api.decline_invitation(invitation["game"])
        except ApiError:
            pass  # the table filled up or went away meanwhile
    for turn in api.turns():
        if turn["engine"] == GAME:
            play(api, turn["game"], rng)


def run(api: Client, rng: random.Random, *, every: float = 60.0, stopped: Callable[[], bool] = lambda: False) -> None:
    """Follow the stream: catch up at each connection (renewed every ``every`` seconds), play when told."""
    for event in api.stream_events(opened=True, renew_after=every):
        if event.kind == OPENED:
            catch_up(api, rng)
        elif event.kind == "your_turn" and event.data["data"]["engine"] == GAME:
            play(api, event.data["game"], rng)
        if stopped():
            return


def main() -> None:
    with Client(os.environ.get("TURNBASED_URL", "http://127.0.0.1:8000"), token=os.environ["TURNBASED_TOKEN"],
                stream_url=os.environ.get("TURNBASED_STREAM_URL")) as api:
        run(api, random.Random())


if __name__ == "__main__":
    main()
