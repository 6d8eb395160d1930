"""Business actions on games; every entry point (pages, API, email, timeouts, bots) calls these.

``tables`` creates, joins, starts and ends tables; ``moves`` is the single door
for moves, whoever makes them, and for a move taken back by consent (``take_back``, under the lock
the caller takes with ``locked_game``); ``forced_moves`` finds the positions whose only
legal move is played for its seat; ``bot_turns`` queues again the bot turns a
fault may have lost; ``play_out`` has the bots play a game to its end at once,
or ends it with a decided result.
"""

from turnbased.play.services.bot_turns import queue_bot_turns_waiting
from turnbased.play.services.invitations import invitation_create, invitation_decline
from turnbased.play.services.moves import (
    MoveOutcome,
    play_bot_turn,
    play_forced_move,
    play_timeout,
    resign_game,
    submit_move,
    take_back,
)
from turnbased.play.services.play_out import game_abandon, game_decide, game_play_out
from turnbased.play.services.records import record_import
from turnbased.play.services.tables import (
    TRANSITIONS,
    abort_game,
    create_game,
    game_release,
    game_transition,
    join_game,
    locked_game,
    leave_game,
    start_game,
    user_options,
)

__all__ = [
    "TRANSITIONS", "MoveOutcome", "abort_game", "create_game", "game_abandon", "game_decide", "game_play_out",
    "game_release", "game_transition",
    "invitation_create", "invitation_decline", "join_game", "leave_game",
    "play_bot_turn", "play_forced_move", "play_timeout", "queue_bot_turns_waiting", "record_import", "resign_game",
    "start_game", "submit_move", "take_back", "user_options", "locked_game",
]
