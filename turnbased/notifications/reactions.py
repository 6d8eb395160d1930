"""What the notifications do when something happens at a table (``play.facts``): a row for each person to tell,
written in the change's transaction; the mail app delivers them (``notifications_record``)."""

from __future__ import annotations

from turnbased.notifications.models import NotificationKind
from turnbased.notifications.services import notifications_record
from turnbased.play import facts
from turnbased.play.models import Game


def _people(game: Game, *, but: int | None = None) -> list[int]:
    """Return the people seated (bots get no notifications), leaving one out if asked."""
    return [seat.user_id for seat in game.seats.all() if seat.user_id and seat.user_id != but]


@facts.reacting_to(facts.PlayerInvited)
def invited(fact: facts.PlayerInvited) -> None:
    notifications_record(game=fact.game, seq=0, kind=NotificationKind.INVITED, user_ids=[fact.user_id])


@facts.reacting_to(facts.PlayerJoined)
def joined(fact: facts.PlayerJoined) -> None:
    notifications_record(game=fact.game, seq=0, kind=NotificationKind.PLAYER_JOINED,
                         user_ids=_people(fact.game, but=fact.user_id))


@facts.reacting_to(facts.GameStarted)
def started(fact: facts.GameStarted) -> None:
    notifications_record(game=fact.game, seq=0, kind=NotificationKind.GAME_STARTED, user_ids=_people(fact.game))


@facts.reacting_to(facts.TurnBegan)
def turn(fact: facts.TurnBegan) -> None:
    notifications_record(game=fact.game, seq=fact.seq, kind=NotificationKind.YOUR_TURN, user_ids=fact.user_ids)


@facts.reacting_to(facts.DeadlineNear)
def reminder(fact: facts.DeadlineNear) -> None:
    notifications_record(game=fact.game, seq=fact.seq, kind=NotificationKind.REMINDER, user_ids=[fact.user_id])


@facts.reacting_to(facts.GameFinished)
def finished(fact: facts.GameFinished) -> None:
    notifications_record(game=fact.game, seq=fact.game.seq, kind=NotificationKind.GAME_FINISHED,
                         user_ids=_people(fact.game))
