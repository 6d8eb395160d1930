"""Games ended by something other than their own moves: a competition's round deadline came with the game
unfinished, and its organiser chose how such a game is settled.

- **Played out** (``game_play_out``): every seat still a person's is handed to the table's bot for the rest of the
  game, and the bots play it to its end. Not a timeout: nobody is told their seat was handed on
  (``facts.SeatHandedOn`` tells of a player who ran out of time), so no feature counts it against them. No seat is
  marked as left (``Seat.left_at``): the seats still their players' at the deadline place by the game's own result,
  above any seat that left before it (a resignation, a timeout: ``ratings.rules.places``), and nobody's record of
  abandoned games counts it.
- **Decided** (``game_decide``): the game ends now, its result decided by the engine (``Engine.decided_result``):
  adjudicated on the count every player and spectator can see, or every seat losing, or drawn as its players
  agreed. No move is logged: the record's verifier replays the moves and decides the same (``games.record``).
- **Abandoned** (``game_abandon``): the game stops now with no result, aborted in play (its players agreed to call
  it off). No fact is told: with no result there is nothing for a feature to count (no rating, no standing), and
  its secrets are out as at any end. The record's verifier checks that the replay had not ended it.
"""

from __future__ import annotations

from django.db import transaction

from games.base import DECIDED
from games.i18n import in_english
from turnbased.clocks.services import clocks_after_move
from turnbased.play import player_events, store
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.play.services.moves import _bot_for
from turnbased.play.services.tables import game_transition, locked_game, schedule_bot_turns


def game_play_out(*, game_id: int) -> Game:
    """Hand every person's seat of the game in play to its bot and queue the bots' turns; nothing for a game that
    is over, or whose seats bots hold already (idempotent)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return game
        if Seat.objects.filter(game=game, bot="").update(bot=_bot_for(game)):
            game = locked_game(game_id)  # the seats as they are now: bots to move
        schedule_bot_turns(game)
    return game


def game_decide(*, game_id: int, how: str) -> Game:
    """End the game in play now with the result the engine decides ``how`` (``games.base.DECIDED``): finished
    like any game (its fact told, so features react: the competition's table records it; ratings leave a decided
    game out), every clock stopped, every player told. Nothing for a game that is over (idempotent)."""
    if how not in DECIDED:
        raise ValueError(f"a game is decided one of {DECIDED}, not {how!r}")
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return game
        with in_english():  # the record's summary is English, whoever reads it later
            result = store.engine_of(game).decided_result(game.state, how, list(game.player_names))
        left = sorted(seat.index for seat in game.seats.all() if seat.left_at is not None)
        game.result = {**result, **store.bot_play_record(game), **({"left_seats": left} if left else {})}
        game.to_move = []
        game_transition(game=game, to=GameStatus.FINISHED, also=("result", "to_move"))
        clocks_after_move(game=game, mover=-1, source="decided")
        player_events.record_game_decided(game)
    return game


def game_abandon(*, game_id: int) -> Game:
    """Stop the game in play now with no result (aborted in play): every clock stopped, no seat to move. Nothing for
    a game that is over (idempotent)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return game
        game.to_move = []
        game_transition(game=game, to=GameStatus.ABORTED, also=("to_move",))
        clocks_after_move(game=game, mover=-1, source="abandoned")
    return game
