"""Reads: any position of a game, as a viewer may see it, replayed from the seed and the log.

While a game is in play a position is the viewer's own view of that moment (their hand then,
what they had been shown then; a spectator's public view); once the game is over it is the
engine's full reveal (``Engine.view_after_end``) for everyone. Positions are computed from the log,
never from the snapshot, and kept in the cache: a position at or before the game's seq never
changes, and the key names whom it was drawn for, so the end of a game (which changes what a
viewer may see) reads fresh keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import get_language, gettext

from games.base import Event
from games.takebacks import LogReplay, describe
from turnbased.kit.errors import GameNotFound
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move
from turnbased.play.selectors import Viewer

# A position never changes once played, but the cache is the Redis the broker uses, with no eviction
# policy: a drawn position stays a day (long enough to step back and forth through a game, and for
# everyone to watch the same finished replay), a state only as long as a walk forward takes.
POSITION_SECONDS = 24 * 3600
STATE_SECONDS = 10 * 60
# The replay page lists this many moves each side of the one it shows.
HISTORY_AROUND = 5


class PositionNotFound(GameNotFound):
    """No such position: before the start, after the last move, or a game that never started."""

    def __init__(self, detail: str | None = None):
        super().__init__(gettext("No such position in this game.") if detail is None else detail)


@dataclass(frozen=True)
class Position:
    """One step of a game as the viewer may see it."""

    seq: int
    last_seq: int           # the game's latest position (the replay's "last")
    full_reveal: bool       # the game is over: everything the rules allow is shown to everyone
    view: dict
    to_move: list[int]      # the seats that could act at this position
    mover: int | None       # the seat whose move made this position (None at the start)
    entries: list[dict]     # the history lines of that move, as the viewer may read them

    def to_json(self) -> dict:
        return {
            "seq": self.seq, "last_seq": self.last_seq, "full_reveal": self.full_reveal, "view": self.view,
            "to_move": self.to_move, "mover": self.mover, "entries": self.entries,
        }


def is_over(game: Game) -> bool:
    """Tell whether nothing about the game is secret any more: it ended (a started table can also be aborted), and
    no feature holds it (``Game.held``: a duplicate round's table until the round closes)."""
    return game.status in (GameStatus.FINISHED, GameStatus.ABORTED) and not game.held


def reader_of(viewer: Viewer) -> int | None | str:
    """Return whose eyes a position is drawn for: everyone's once the game is over, else the viewer's seat."""
    return "all" if is_over(viewer.game) else viewer.seat


def _key(game: Game, what: str, seq: int, reader: int | None | str = "", language: str = "") -> str:
    engine = store.engine_of(game)
    return f"replay:{what}:{game.pk}:{game.engine_version}:{engine.version}:{seq}:{reader}:{language}"


def position(viewer: Viewer, seq: int) -> Position:
    """Return the game at ``seq`` (0: the start, ``game.seq``: now) as the viewer may see it; raise PositionNotFound."""
    game = viewer.game
    if game.state is None or game.started_at is None or not 0 <= seq <= game.seq:
        raise PositionNotFound()
    reader = reader_of(viewer)
    key = _key(game, "position", seq, reader, get_language())  # its history lines are worded for the reader
    cached = cache.get(key)
    if cached is None:
        cached = _drawn(viewer, seq, reader)
        cache.set(key, cached, POSITION_SECONDS)
    return Position(last_seq=game.seq, full_reveal=reader == "all", **cached)


def _drawn(viewer: Viewer, seq: int, reader: int | None | str) -> dict:
    game = viewer.game
    engine = store.engine_of(game)
    state, mover, events = state_at(game, seq)
    if reader == "all":
        view = engine.view_after_end(state)
    else:
        view = engine.view(state, viewer.seat)
    return {
        "seq": seq,
        "view": view,
        "to_move": engine.to_move(state),
        "mover": mover,
        "entries": lines_for(viewer, seq, mover, events),
    }


def state_at(game: Game, seq: int) -> tuple[dict, int | None, list[Event]]:
    """Return the state after move ``seq``, with the seat and the events of that move (None and [] at 0).

    The state before it is looked for in the cache first (stepping forward is the common walk
    through a replay); otherwise the log is replayed from the seed, in one read whatever ``seq``.
    """
    engine = store.engine_of(game)
    before = cache.get(_key(game, "state", seq - 1)) if seq > 0 else None

    def entries(start: int) -> list:
        return list(Move.objects.filter(game=game, seq__gte=start, seq__lte=seq).order_by("seq").values_list(
            "seq", "seat", "move", "events"))

    rows = entries(seq) if before is not None else []
    if before is not None and not (rows and LogReplay.needs_earlier(rows[0][2])):
        replayed = LogReplay(engine, before, seq - 1)
    else:  # from the seed: a takeback returns to the position before the move it names, which the cache lacks
        replayed, rows = LogReplay(engine, store.initial_state(game)), entries(1)
    mover, events = None, []
    for number, seat, move, logged in rows:
        state, _ = replayed.play(seat, move)
        if number == seq:
            mover, events = seat, [Event.from_json(raw) for raw in logged]
    state = replayed.state
    cache.set(_key(game, "state", seq), state, STATE_SECONDS)
    return state, mover, events


def lines_for(viewer: Viewer, seq: int, seat: int | None, events: list[Event]) -> list[dict]:
    """Return the history entries of one move: what the viewer may see of it, or every event once the game is over.

    Once over, every line is worded for nobody in particular (the spectator's wording), so
    everyone reads the same replay.
    """
    game = viewer.game
    if seat is None:
        return []
    engine = store.engine_of(game)
    names = list(game.player_names)
    over = is_over(game)
    wording = None if over else viewer.seat
    return [
        {
            "seq": seq,
            "seat": seat,
            "kind": event.kind,
            "data": event.data,
            "private": event.visible_to is not None,
            "text": describe(engine, event, names, wording),
        }
        for event in events
        if over or event.visible_for(viewer.seat)
    ]


def history_around(viewer: Viewer, seq: int) -> list[dict]:
    """Return the moves near ``seq`` (``HISTORY_AROUND`` each side), oldest first, each ``{seq, entries, current}``.

    One read of the log, whatever the position or the game's length.
    """
    game = viewer.game
    first, last = max(1, seq - HISTORY_AROUND), min(game.seq, seq + HISTORY_AROUND)
    logged = store.events_between(game, after_seq=first - 1, before_seq=last + 1)
    moves: dict[int, tuple[int, list[Event]]] = {number: (-1, []) for number in range(first, last + 1)}
    for entry in logged:
        moves[entry.seq] = (entry.seat, [*moves[entry.seq][1], entry.event])
    return [
        {"seq": number, "current": number == seq, "entries": lines_for(viewer, number, seat, events) if seat >= 0 else []}
        for number, (seat, events) in moves.items()
    ]
