"""What a seat needs to act, added to its ``your_turn`` rows as they are sent: a client that listens needs no
request but its move.

A ``your_turn`` row holds facts of the moment it was written (the game, the seq, the seat). When a stream that
asked for them (``GET /api/stream/?include=actions``) or a webhook sends one, and the turn is still the seat's
(the game still at that seq, the seat still to move and still the row's user's, no bot playing it), the row
gets the seat's ``view`` and ``legal_moves``, exactly as ``GET /api/games/{id}/`` and
``GET /api/games/{id}/legal-moves/`` give them to that player then: the engine's view for that seat and
nothing else. A turn that has passed gets neither: a newer row tells what is true now.

Read when sent, not written with the row: a view is kilobytes, and most readers (the pages) never ask.
"""

from __future__ import annotations

from turnbased.events.models import Event, EventKind
from turnbased.events.wording import register_current
from turnbased.play import selectors
from turnbased.play.models import GameStatus, Seat
from turnbased.kit.db.prepared import PreparedQuery


def add_turn_actions(events: list[Event]) -> None:
    """Set ``current`` to ``{"view", "legal_moves"}`` on each ``your_turn`` row whose turn is still its reader's;
    one query for the batch."""
    turns = [event for event in events if event.kind == EventKind.YOUR_TURN and event.game_id is not None]
    if not turns:
        return
    if len(turns) == 1:  # a woken stream's usual read: the one turn a move made
        seats = _SEATS_HELD(game_id=turns[0].game_id, user_id=turns[0].user_id)
    else:
        seats = _seats_held(Seat.objects.filter(game_id__in={event.game_id for event in turns},
                                                user_id__in={event.user_id for event in turns}))
    held = {(seat.game_id, seat.user_id, seat.index): seat for seat in seats}
    for event in turns:
        seat = held.get((event.game_id, event.user_id, (event.payload or {}).get("seat")))
        if seat is None or seat.game.seq != event.seq or seat.index not in seat.game.to_move:
            continue
        viewer = selectors.Viewer(game=seat.game, seat=seat.index)
        event.current = {"view": selectors.private_view(viewer), "legal_moves": selectors.legal_moves_for(viewer)}


def _seats_held(seats):
    """The seats people still hold at tables in play (no bot plays them), each with its game."""
    return seats.filter(bot="", left_at__isnull=True, game__status=GameStatus.ACTIVE).select_related("game")


# Compiled once per thread (``prepared``): building this query cost more than the engine's view.
_SEATS_HELD = PreparedQuery(lambda game_id, user_id: _seats_held(Seat.objects.filter(game_id=game_id, user_id=user_id)),
                            game_id=-80_001, user_id=-80_002)


def register_turn_actions() -> None:
    register_current([EventKind.YOUR_TURN], add_turn_actions)
