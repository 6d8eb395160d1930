"""A Love Letter bot for turnbased: it takes every invitation to a Love Letter table and plays its turns legally.

Make a bot account first (docs/api-guide.md, "Bot accounts"), then run the bot with one of its API tokens:

    pip install ./clients/python
    TURNBASED_URL=http://127.0.0.1:8000 TURNBASED_STREAM_URL=http://127.0.0.1:8001 \\
        TURNBASED_TOKEN=<key> python examples/love_letter_bot.py

It follows its event stream, asking each turn to come with what it needs to act (``include="actions"``: the
seat's view and legal moves), so each move costs one request, the POST; when the answer says it acts again
at once (the Chancellor's second step) it plays on from the answer. Each time the stream connects (and at
least every minute, as the stream tells of no invitation) it does what waits: takes the seat at every
Love Letter table it is invited to, declines the others, and plays the turns that waited. Should the
stream drop, the library reconnects with the last event's id and misses nothing. ``choose_move`` picks
the move.
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


def play(api: Client, game_id: int, seq: int, moves: list[dict], rng: random.Random) -> None:
    """Play one of ``moves`` (legal at ``seq``), then on while the answer says the bot acts again; a 409 means the
    game moved on meanwhile (a newer turn event follows)."""
    while moves:
        move = choose_move(moves, rng)["move"]
        try:  # the key makes a retried request play nothing twice
            played = api.submit_move(game_id, expected_seq=seq, move=move, idempotency_key=f"{game_id}:{seq}",
                                     minimal=True)
        except ApiError as refused:
            if refused.status != 409:
                raise
            return
        seq, moves = played["game_seq"], played["legal_moves"]


def play_waiting(api: Client, game_id: int, rng: random.Random) -> None:
    """Play a game found waiting (listed, not told by the stream): ask for the legal moves first."""
    legal = api.legal_moves(game_id)
    play(api, game_id, legal["seq"], legal["moves"], rng)


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
            play_waiting(api, turn["game"], rng)


def run(api: Client, rng: random.Random, *, every: float = 60.0, stopped: Callable[[], bool] = lambda: False) -> None:
    """Follow the stream: catch up at each connection (renewed every ``every`` seconds), play when told.

    A turn that had passed when it was sent carries no legal moves: a newer event tells what is true now.
    """
    for event in api.stream_events(opened=True, renew_after=every, include="actions"):
        if event.kind == OPENED:
            catch_up(api, rng)
        elif event.kind == "your_turn" and event.data["data"]["engine"] == GAME:
            turn = event.data["data"]
            play(api, event.data["game"], event.data["seq"], turn.get("legal_moves", []), rng)
        if stopped():
            return


def main() -> None:
    with Client(os.environ.get("TURNBASED_URL", "http://127.0.0.1:8000"), token=os.environ["TURNBASED_TOKEN"],
                stream_url=os.environ.get("TURNBASED_STREAM_URL")) as api:
        run(api, random.Random())


if __name__ == "__main__":
    main()
