"""The event stream tells no seat what it may not know, read through the stream process's own application.

The walk of every door (``test_every_door``) reads ``GET /api/stream/`` as the web process answers it.
Here the same twin worlds (``worlds.py``) are played for real, committed, and each blind seat reads
its whole stream from the ASGI application the stream process serves (``turnbased.events.asgi``):
both worlds must read the same once ids and times are set aside. The Love Letter scenarios differ
in the cards in a hand, the set-aside card, the deck order and what a Chancellor put back.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from tests.platform.conftest import api_token
from tests.platform.events.streams import run_in_own_loop
from tests.platform.secrecy.worlds import (
    SEED, Scenario, Step, ask_for_forced_moves, love_letter_deck, play_step, scenarios,
)
from turnbased.events import selectors as event_selectors
from turnbased.events import sse
from turnbased.events.asgi import StreamApplication
from turnbased.play import services
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

SCENARIOS = scenarios()


def read_stream(key: str, names: str) -> list[dict]:
    """Return every event of the token's user the stream application sends from the start, made comparable
    (the players' names start with ``names``, which is set aside too)."""
    application = StreamApplication(threads=1)
    sent: list[dict] = []

    async def run() -> None:
        finished = asyncio.Event()

        async def receive():
            await finished.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)
            if message.get("body") == b": keep-alive\n\n":  # every waiting event came before the first heartbeat
                finished.set()

        scope = {"type": "http", "method": "GET", "path": "/api/stream/", "query_string": b"last_event_id=0",
                 "headers": [(b"authorization", f"Token {key}".encode())]}
        await asyncio.wait_for(application(scope, receive, send), timeout=30)
        await application.stop()

    run_in_own_loop(run())
    application.executor.shutdown()
    assert sent[0]["status"] == 200, sent
    body = b"".join(message.get("body", b"") for message in sent[1:]).decode()
    body = body.replace(names, "player-")
    return [_comparable(json.loads(line[len("data: "):])) for line in body.splitlines() if line.startswith("data: ")]


def _comparable(event: dict) -> dict:
    """Set aside what differs between two games played one after the other: ids, times, the table's number
    (the kind, seq and payload stay)."""
    data = {key: value for key, value in event["data"].items() if key not in ("name", "message")}
    return {"kind": event["kind"], "seq": event["seq"], "data": data}


def _play(scenario: Scenario, world: int, users: list, *, actions: list | None = None) -> Game:
    """Play the scenario in ``world``; with ``actions``, note after each position what every seat's current
    ``your_turn`` carries (its view and legal moves, read as a stream that asked for them reads them)."""
    ask_for_forced_moves(scenario, users)
    game = services.create_game(creator=users[0], engine_slug=scenario.slug, players=scenario.players,
                                options=scenario.options[world], seed=SEED)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    for step in [None, *scenario.steps]:
        if step is not None:
            play_step(game, users, step, world)
        if actions is not None:
            game.refresh_from_db()
            actions.append((game.seq, {seat: _current_turns(user) for seat, user in enumerate(users)}))
    return game


def _current_turns(user) -> list[dict]:
    """Return the seat's view and legal moves that its current ``your_turn`` rows carry when sent."""
    rows = event_selectors.events_after(user_id=user.pk, after_id=0, limit=1000, with_current=True)
    names = user.username.split("-")[0] + "-"  # the world's players' names, set aside as the stream test does
    return [json.loads(json.dumps({key: sse.event_json(row)["data"][key] for key in ("view", "legal_moves")},
                                  cls=DjangoJSONEncoder).replace(names, "player-")) | {"seq": row.seq}
            for row in rows if getattr(row, "current", None)]


def _streams(scenario: Scenario, make_user, settings) -> list[dict[int, list[dict]]]:
    settings.STREAM_HEARTBEAT_SECONDS = 0.2
    worlds = []
    for world in (0, 1):
        users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
        _play(scenario, world, users)
        worlds.append({seat: read_stream(api_token(user), names=f"world{world}-") for seat, user in enumerate(users)})
    return worlds


def _bobs_draw() -> Scenario:
    """Three players: seat 1 draws a Guard in one world and a Baron in the other as seat 0 moves. The stream
    tells seat 1 which, and seat 2, told of the same move, neither."""
    decks = [love_letter_deck("classic", set_aside="princess", face_up=[], hands=["guard", "priest", "king"],
                              draws=["handmaid", drawn]) for drawn in ("guard", "baron")]
    common = {"edition": "classic", "first_player": 0}
    return Scenario("love-letter", "classic: the card seat 1 draws", ({**common, "deck": decks[0]},
                                                                      {**common, "deck": decks[1]}),
                    (Step(0, {"card": "handmaid"}),), blind=frozenset({0, 2}), players=3)


STREAM_SCENARIOS = [*SCENARIOS, _bobs_draw()]


@pytest.mark.parametrize("scenario", STREAM_SCENARIOS, ids=[scenario.id for scenario in STREAM_SCENARIOS])
def test_a_blind_seats_stream_reads_the_same_in_both_worlds(scenario, make_user, settings):
    one, two = _streams(scenario, make_user, settings)
    for seat in sorted(scenario.blind):
        assert one[seat], f"seat {seat} was told nothing: the comparison would prove nothing"
        assert one[seat] == two[seat], f"{scenario.id}: seat {seat} tells the worlds apart through the stream"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.id for scenario in SCENARIOS])
def test_a_blind_seats_turn_actions_read_the_same_in_both_worlds(scenario, make_user):
    """Issue 26: a current ``your_turn`` sent with the seat's view and legal moves (``?include=actions``, webhooks)
    tells the seat nothing that its game page does not."""
    worlds = []
    for world in (0, 1):
        users = [make_user(f"world{world}-seat{seat}") for seat in range(scenario.players)]
        _play(scenario, world, users, actions=(noted := []))
        worlds.append(noted)
    # A position is compared when both games stand at it: a forced move played for a seat in one world only
    # is played at once there, so the other world reaches that position a step later.
    one, two = ({seq: seats for seq, seats in noted} for noted in worlds)
    told = [one[seq][seat] for seq in one.keys() & two.keys() for seat in sorted(scenario.blind) if one[seq][seat]]
    assert told, "no blind seat was ever to move: the comparison would prove nothing"
    for seq in sorted(one.keys() & two.keys()):
        for seat in sorted(scenario.blind):
            assert one[seq][seat] == two[seq][seat], f"{scenario.id}: seat {seat} tells the worlds apart at seq {seq}"


def test_the_stream_comparison_can_fail(make_user, settings):
    """The seat that holds the secret does read two different streams: the card it drew is told to it."""
    one, two = _streams(_bobs_draw(), make_user, settings)
    assert one[1] != two[1]
    lines = [entry["text"] for entry in one[1][1]["data"]["entries"]]
    assert "You drew the Guard." in lines
