"""What the seats feature does when the core tells: the term a table is made with (whether its seats are offered to
others), and the news of a seat that changed hands, told to everyone at the table and to the one who left it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import InvalidRequest
from turnbased.play import facts
from turnbased.play.models import Game
from turnbased.seats import rules
from turnbased.seats.models import OfferStatus, SeatOffer


@facts.table_term(rules.TERM)
def table_seat_offers(game: Game, creator, value) -> None:
    if not isinstance(value, bool):
        raise InvalidRequest(gettext("seat_offers must be true or false."))


@facts.reacting_to(facts.SeatTaken)
def seat_taken(fact: facts.SeatTaken) -> None:
    game = fact.game
    names = {seat.index: seat.user.get_username() for seat in game.seats.all() if seat.user_id}
    payload = {"engine": game.engine, "engine_version": game.engine_version, "seat": fact.seat,
               "player": names.get(fact.seat, ""), "left_player": None}
    if fact.left_user_id is not None:
        left = get_user_model().objects.filter(pk=fact.left_user_id).values_list("username", flat=True).first()
        payload["left_player"] = left
    people = sorted({seat.user_id for seat in game.seats.all() if seat.user_id and not seat.bot}
                    | ({fact.left_user_id} if fact.left_user_id else set()))
    events_record(events=[NewEvent(user_id=user_id, kind=EventKind.SEAT_TAKEN, game_id=game.pk, seq=game.seq,
                                   payload=payload) for user_id in people], lock_user_ids=people)
    # Any other offer of the seat is moot now.
    SeatOffer.objects.filter(game=game, seat=fact.seat, status=OfferStatus.OPEN).update(status=OfferStatus.LAPSED)
