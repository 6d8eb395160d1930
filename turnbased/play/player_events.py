"""What each person at a table is told of a change in their game: the rows of their event stream.

Every row holds what its reader's seat may know: a move reaches each player as the
events of it that seat may see, the same entries ``GET /api/games/{id}/history/``
gives them, never the stored move or its notation, which can hold what only the
mover knows. Each function writes the rows of one change in one statement, inside
that change's transaction.

Rows hold facts, not words: ``word_payload`` adds the words when a row is read
(the stream, a webhook), in the reader's language, as the engine describes the
events for that seat (``describe_event``) and the result (``games.base.worded_result``).
"""

from __future__ import annotations

from games import Engine, engine_at
from games.base import Event, worded_result
from games.takebacks import describe
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.events.wording import register_wording
from turnbased.play.models import Game, GameStatus


def _people(game: Game) -> dict[int, int]:
    """Return the user of each seat a person holds (seat index -> user id), bots' seats left out."""
    return {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id}


def _table(game: Game, seat: int) -> dict:
    return {"engine": game.engine, "engine_version": game.engine_version, "seat": seat}


def _turns(game: Game) -> list[NewEvent]:
    """Tell the people now to move (not bots, nor a person whose seat a bot plays) that it is their turn."""
    people = {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id and not seat.bot}
    return [
        NewEvent(user_id=people[index], kind=EventKind.YOUR_TURN, game_id=game.pk, seq=game.seq,
                 payload=_table(game, index))
        for index in game.to_move if index in people
    ]


def record_game_started(game: Game) -> None:
    """Tell every player that the game started (their seat and the players), and those to move that it is their turn."""
    people = _people(game)
    started = [
        NewEvent(user_id=user_id, kind=EventKind.GAME_STARTED, game_id=game.pk, seq=game.seq,
                 payload={**_table(game, index), "players": list(game.player_names)})
        for index, user_id in sorted(people.items())
    ]
    events_record(events=started + _turns(game), lock_user_ids=people.values())


def move_entries(*, seq: int, seat: int, events: list[Event], viewer: int | None) -> list[dict]:
    """Return the entries of one move that ``viewer`` may see, as the history gives them but without their words."""
    return [
        {"seq": seq, "seat": seat, "kind": event.kind, "data": event.data, "private": event.visible_to is not None}
        for event in events if event.visible_for(viewer)
    ]


def record_move_played(game: Game, *, seat: int, events: list[Event], mover_user_id: int | None) -> None:
    """Tell the other players of the move just logged (as each may see it), then either that the game is over
    or whose turn it is now.

    The player who sent the move (``mover_user_id``) has its answer and is not told of it; a move a bot
    or the clock made for a seat is told to that seat's player too.
    """
    people = _people(game)
    told = []
    for index, user_id in sorted(people.items()):
        if user_id == mover_user_id:
            continue
        entries = move_entries(seq=game.seq, seat=seat, events=events, viewer=index)
        if entries:
            told.append(NewEvent(
                user_id=user_id, kind=EventKind.MOVE_PLAYED, game_id=game.pk, seq=game.seq,
                payload={**_table(game, index), "player": game.player_names[seat], "mover_seat": seat,
                         "players": list(game.player_names), "entries": entries},
            ))
    told += _finished(game, people) if game.status == GameStatus.FINISHED else _turns(game)
    events_record(events=told, lock_user_ids=people.values())


def _finished(game: Game, people: dict[int, int]) -> list[NewEvent]:
    return [
        NewEvent(user_id=user_id, kind=EventKind.GAME_FINISHED, game_id=game.pk, seq=game.seq,
                 payload={**_table(game, index), "players": list(game.player_names), "result": game.result})
        for index, user_id in sorted(people.items())
    ]


def record_game_decided(game: Game) -> None:
    """Tell every player that the game was ended before its own end, and how it was decided (no move was made)."""
    people = _people(game)
    events_record(events=_finished(game, people), lock_user_ids=people.values())


# -- the words, added when a row is read ----------------------------------------------------------


def _engine_of(payload: dict) -> Engine | None:
    try:
        return engine_at(payload["engine"], payload.get("engine_version", 1))
    except (KeyError, LookupError):
        return None


def word_table(payload: dict, event) -> dict:
    """Name the table in the reader's language ("Love Letter #5"), for every kind of row about a game."""
    engine = _engine_of(payload) if "engine" in payload else None
    if engine is None or event.game_id is None:
        return payload
    return {**payload, "name": f"{engine.display_name()} #{event.game_id}"}


def word_move(payload: dict, event) -> dict:
    """Word each entry of a move for the row's reader (their seat), and the move's first line as ``text``."""
    engine, names, viewer = _engine_of(payload), payload.get("players"), payload.get("seat")
    entries = payload.get("entries") or []
    if engine is None or names is None or any("text" in entry for entry in entries):
        return payload  # a row written with its words (before rows held none)
    worded = []
    for entry in entries:
        shown = Event(kind=entry["kind"], data=entry["data"], visible_to=[viewer] if entry["private"] else None)
        worded.append({**entry, "text": describe(engine, shown, list(names), viewer)})
    return {**payload, "text": worded[0]["text"] if worded else "", "entries": worded}


def word_result(payload: dict, event) -> dict:
    """Word the result's ``summary`` for the reader (the stored result keeps the record's English line)."""
    engine, names, result = _engine_of(payload), payload.get("players"), payload.get("result")
    if engine is None or names is None or not isinstance(result, dict):
        return payload
    return {**payload, "result": {**result, "summary": worded_result(engine, result, list(names))}}


def register_wordings() -> None:
    """Word the rows this module writes (and every row about a game's table) when they are read."""
    register_wording(EventKind.values, word_table)
    register_wording([EventKind.MOVE_PLAYED], word_move)
    register_wording([EventKind.GAME_FINISHED], word_result)
