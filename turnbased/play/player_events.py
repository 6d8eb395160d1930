"""What each person at a table is told of a change in their game: the rows of their event stream.

Every row is worded for its reader's seat: a move reaches each player as the
engine describes the events of it that seat may see (``describe_event``), the
same entries ``GET /api/games/{id}/history/`` gives them, never the stored move
or its notation, which can hold what only the mover knows. Each function writes
the rows of one change in one statement, inside that change's transaction.
"""

from __future__ import annotations

from games.base import Event
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.play import store
from turnbased.play.models import Game, GameStatus


def _people(game: Game) -> dict[int, int]:
    """Return the user of each seat a person holds (seat index -> user id), bots' seats left out."""
    return {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id}


def _table(game: Game, seat: int) -> dict:
    return {"name": game.title, "engine": game.engine, "seat": seat}


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


def move_entries(game: Game, *, seq: int, seat: int, events: list[Event], viewer: int | None) -> list[dict]:
    """Return the entries of one move that ``viewer`` may see, worded for them, as the history gives them."""
    from turnbased.play.selectors import history_entry

    engine = store.engine_of(game)
    names = list(game.player_names)
    return [history_entry(engine, seq, seat, event, names, viewer) for event in events if event.visible_for(viewer)]


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
        entries = move_entries(game, seq=game.seq, seat=seat, events=events, viewer=index)
        if entries:
            told.append(NewEvent(
                user_id=user_id, kind=EventKind.MOVE_PLAYED, game_id=game.pk, seq=game.seq,
                payload={**_table(game, index), "player": game.player_names[seat], "mover_seat": seat,
                         "text": entries[0]["text"], "entries": entries},
            ))
    if game.status == GameStatus.FINISHED:
        told += [
            NewEvent(user_id=user_id, kind=EventKind.GAME_FINISHED, game_id=game.pk, seq=game.seq,
                     payload={**_table(game, index), "result": game.result})
            for index, user_id in sorted(people.items())
        ]
    else:
        told += _turns(game)
    events_record(events=told, lock_user_ids=people.values())
