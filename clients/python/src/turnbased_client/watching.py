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


class Positions:
    """The latest position (``seq``) seen of each game, to tell a ``your_turn`` that is already past.

    A ``your_turn`` is sent for every position where I am to move, and a move's answer may have moved the game
    on before its event arrives: after a two-step move (Love Letter's Chancellor), the event of the step
    between comes after the answer to the last step. A ``your_turn`` below the latest ``seq`` seen of its game
    is stale (answering it would be refused with a 409); so is one told already.
    """

    def __init__(self) -> None:
        self.latest: dict[int, int] = {}
        self._told: set[tuple[int, int]] = set()

    def saw(self, game: int, seq: int) -> None:
        """Note that ``game`` was seen at ``seq`` (an event, a move's answer: its ``game_seq``, a listed turn)."""
        if seq > self.latest.get(game, -1):
            self.latest[game] = seq

    def is_news(self, event: StreamEvent) -> bool:
        """Tell whether to act on an event: anything but a ``your_turn`` that is past or told already; note it."""
        data = event.data if isinstance(event.data, dict) else {}
        game, seq = data.get("game"), data.get("seq")
        if not isinstance(game, int) or not isinstance(seq, int):
            return True
        stale = event.kind == YOUR_TURN and (seq < self.latest.get(game, -1) or (game, seq) in self._told)
        self.saw(game, seq)
        if event.kind == YOUR_TURN:
            self._told.add((game, seq))
        return not stale


def waiting_now(api: Client) -> list[StreamEvent]:
    """Return a ``your_turn`` event for every game waiting for my move now, the longest waiting first."""
    return [turn_event(turn) for turn in api.turns()]


def follow(api: Client, *, interval: float, sleep: Callable[[float], None], stream: bool = True,
           notice: Callable[[str], None] = lambda text: None, include: str | None = None) -> Iterator[StreamEvent]:
    """Yield the games waiting for me now, then my events as they come, each waiting position told once.

    From the stream, the games waiting are listed each time it connects (so none that began to wait
    while it was away is missed); without a stream (404) ``/api/me/turns/`` is polled every ``interval``.
    ``include`` goes to the stream (``"actions"``: a current turn's view and legal moves); a listed or
    polled turn carries none. A ``your_turn`` whose game was seen at a later position is dropped
    (``Positions``): it is no longer my turn there.
    """
    positions = Positions()

    def untold(events: Iterable[StreamEvent]) -> Iterator[StreamEvent]:
        for event in events:
            if positions.is_news(event):
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
