"""What ``turnbased-cli watch`` follows: the event stream where the server has one, else polling my turns.

Both give ``StreamEvent``s, so the stream is a drop-in for polling: polling makes a ``your_turn``
event (its data a ``Turn``) for each game that comes to wait for me at a new position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from turnbased_client.client import Client
from turnbased_client.errors import ApiError
from turnbased_client.stream import StreamEvent

YOUR_TURN = "your_turn"


def waiting_now(api: Client) -> list[StreamEvent]:
    """Return a ``your_turn`` event for every game waiting for my move now, the longest waiting first."""
    return [StreamEvent(kind=YOUR_TURN, data=turn) for turn in api.turns()]


def poll_turns(api: Client, *, interval: float, sleep: Callable[[float], None],
               known: set[tuple[int, int]] | None = None) -> Iterator[StreamEvent]:
    """Yield a ``your_turn`` event whenever a game comes to wait for me at a position not yet told."""
    told = set(known or ())
    while True:
        sleep(interval)
        for event in waiting_now(api):
            key = (event.data["game"], event.data["seq"])
            if key not in told:
                told.add(key)
                yield event


def follow(api: Client, *, interval: float, sleep: Callable[[float], None], stream: bool = True,
           known: set[tuple[int, int]] | None = None,
           notice: Callable[[str], None] = lambda text: None) -> Iterator[StreamEvent]:
    """Yield my events from the stream, or by polling ``/api/me/turns/`` when the server has no stream."""
    if stream:
        try:
            yield from api.stream_events()
            return
        except ApiError as refused:
            if refused.status not in (404, 405):
                raise
        notice(f"This server has no event stream: asking for your turns every {interval:g} seconds.")
    yield from poll_turns(api, interval=interval, sleep=sleep, known=known)
