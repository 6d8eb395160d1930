"""What ``turnbased-cli watch`` follows: the event stream where the server has one, else polling my turns.

Both give ``StreamEvent``s shaped as the stream's (``data``: ``{id, kind, game, seq, created_at, data}``),
so polling is a drop-in for the stream: it makes a ``your_turn`` event for each game that comes to
wait for me at a new position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from turnbased_client.client import Client
from turnbased_client.errors import ApiError
from turnbased_client.stream import OPENED, StreamEvent
from turnbased_client.types import Turn

YOUR_TURN = "your_turn"


def turn_event(turn: Turn) -> StreamEvent:
    """Return a game waiting for my move as the stream's ``your_turn`` event (no id: it was listed, not sent)."""
    return StreamEvent(kind=YOUR_TURN, data={
        "id": None, "kind": YOUR_TURN, "game": turn["game"], "seq": turn["seq"], "created_at": turn["waiting_since"],
        "data": {"name": turn["name"], "engine": turn["engine"], "seat": turn["seat"], "last_move": turn["last_move"],
                 "deadline": turn["deadline"]},
    })


def waiting_now(api: Client) -> list[StreamEvent]:
    """Return a ``your_turn`` event for every game waiting for my move now, the longest waiting first."""
    return [turn_event(turn) for turn in api.turns()]


def follow(api: Client, *, interval: float, sleep: Callable[[float], None], stream: bool = True,
           notice: Callable[[str], None] = lambda text: None, include: str | None = None) -> Iterator[StreamEvent]:
    """Yield the games waiting for me now, then my events as they come, each waiting position told once.

    From the stream, the games waiting are listed each time it connects (so none that began to wait
    while it was away is missed); without a stream (404) ``/api/me/turns/`` is polled every ``interval``.
    ``include`` goes to the stream (``"actions"``: a current turn's view and legal moves); a listed or
    polled turn carries none.
    """
    told: set[tuple[int, int]] = set()

    def untold(events: Iterable[StreamEvent]) -> Iterator[StreamEvent]:
        for event in events:
            if event.kind == YOUR_TURN:
                position = (event.data["game"], event.data["seq"])
                if position in told:
                    continue
                told.add(position)
            yield event

    if stream:
        try:
            for event in api.stream_events(opened=True, include=include):
                yield from untold(waiting_now(api) if event.kind == OPENED else [event])
            return
        except ApiError as refused:
            if refused.status not in (404, 405):
                raise
        notice(f"This server has no event stream: asking for your turns every {interval:g} seconds.")
    yield from untold(waiting_now(api))
    while True:
        sleep(interval)
        yield from untold(waiting_now(api))
