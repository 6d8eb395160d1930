"""A Love Letter bot for turnbased: it takes every invitation to a Love Letter table and plays its turns legally.

Make a bot account first (README, "Bot accounts"), then run the bot with one of its API tokens:

    pip install httpx
    TURNBASED_URL=http://127.0.0.1:8000 TURNBASED_TOKEN=<key> python examples/love_letter_bot.py

Every few seconds it asks what waits for it: its invitations (``GET /api/invitations/``: it takes the seat at a
Love Letter table and declines anything else) and its turns (``GET /api/me/turns/``: it asks for its legal moves
and plays one). Which move is ``choose_move``'s business: change it to make the bot stronger.
"""

from __future__ import annotations

import os
import random
import time

import httpx

GAME = "love-letter"


def choose_move(moves: list[dict], rng: random.Random) -> dict:
    """Pick one of the legal moves the API lists ({move, text}): any but discarding the Princess, which loses."""
    safe = [choice for choice in moves if choice["move"].get("card") != "princess"]
    return rng.choice(safe or moves)


def answer_invitations(api: httpx.Client) -> None:
    """Take the seat at every Love Letter table it is invited to; decline the others."""
    for invitation in api.get("/api/invitations/").raise_for_status().json():
        table = invitation["game"]
        if api.get(f"/api/games/{table}/").raise_for_status().json()["game"] == GAME:
            api.post(f"/api/games/{table}/join/", json={})  # a 409 (the table filled up meanwhile) is fine
        else:
            api.post(f"/api/games/{table}/invitations/decline/", json={})


def play_turns(api: httpx.Client, rng: random.Random) -> int:
    """Play one move in every Love Letter game waiting for it; return how many it played."""
    played = 0
    for turn in api.get("/api/me/turns/").raise_for_status().json()["turns"]:
        if turn["engine"] != GAME:
            continue
        legal = api.get(f"/api/games/{turn['game']}/legal-moves/").raise_for_status().json()
        if not legal["moves"]:
            continue
        move = choose_move(legal["moves"], rng)["move"]
        # The key makes a retried request (after a timeout, say) play nothing twice; a 409 means the game moved on.
        answer = api.post(f"/api/games/{turn['game']}/moves/", json={
            "move": move, "expected_seq": legal["seq"], "idempotency_key": f"{turn['game']}:{legal['seq']}",
        })
        played += answer.status_code in (200, 201)
    return played


def step(api: httpx.Client, rng: random.Random) -> int:
    """Do everything waiting once: answer invitations, then play the turns; return the moves played."""
    answer_invitations(api)
    return play_turns(api, rng)


def client(base_url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Token {token}"}, timeout=30)


def main() -> None:
    rng = random.Random()
    with client(os.environ.get("TURNBASED_URL", "http://127.0.0.1:8000"), os.environ["TURNBASED_TOKEN"]) as api:
        while True:
            step(api, rng)
            time.sleep(float(os.environ.get("TURNBASED_POLL_SECONDS", "3")))


if __name__ == "__main__":
    main()
