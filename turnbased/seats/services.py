"""Seat offers, written: offer a seat (a bot's, or one's own), take one up, decline it, withdraw it. One service each,
for the pages, the API and an email's link alike; each runs under the game's row lock, the lock every move takes, so
an offer taken up while a move is made is settled in one order (docs/players.md, "A person takes a seat")."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, NotFound, Unprocessable
from turnbased.play.models import Game, SeatChange
from turnbased.play.selectors import viewer_of
from turnbased.play.services import locked_game
from turnbased.play.services.seats import seat_change, seat_refusal
from turnbased.seats import rules, signals
from turnbased.seats.models import OfferKind, OfferStatus, SeatOffer
from turnbased.seats.selectors import offer_for, offer_shown, status_of

USERNAME_MAX_LENGTH = 150


def _person_called(username) -> AbstractBaseUser:
    name = username.strip() if isinstance(username, str) else ""
    if not name or len(name) > USERNAME_MAX_LENGTH:
        raise InvalidRequest(gettext("Give the username of the person to offer the seat to."))
    person = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if person is None:
        raise NotFound(gettext("No player is called %(name)s.") % {"name": name})
    return person


def _lapse_stale(game: Game) -> None:
    for offer in SeatOffer.objects.filter(game=game, status=OfferStatus.OPEN):
        if status_of(offer, game) == OfferStatus.LAPSED:
            offer.status, offer.decided_at = OfferStatus.LAPSED, timezone.now()
            offer.save(update_fields=["status", "decided_at"])


def offer_make(*, game_id: int, user: AbstractBaseUser, seat, username=None) -> SeatOffer:
    """Offer ``seat`` of the game in play that ``user`` plays: a seat a bot took over, to the person called
    ``username`` or (none named, at a public table) to anyone in the lobby; or ``user``'s own seat, to a named
    person. The named person is told (their stream, webhooks and email). Refused with the reason, nothing changed:
    a watcher (403), a table whose seats are not offered (403), a seat no bot took over or not ``user``'s, a person
    who may not take it (already at the table, blocked, a bot account), a listing at a private table, or an offer of
    the seat already waiting (409)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidRequest(gettext("seat must be the number of a seat at this game."))
    viewer = viewer_of(game_id, user)
    if viewer.seat is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only the game's players offer its seats."))
    target = _person_called(username) if username not in (None, "") else None
    with transaction.atomic():
        game = locked_game(game_id)
        mine = next(row for row in game.seats.all() if row.user_id == user.pk)
        if mine.bot or mine.left_at is not None:
            raise NotAllowed(gettext("You have left this game: its players decide without you."))
        if not rules.offers_allowed(game):
            raise NotAllowed(gettext("This table's seats are kept for its competition's entrants."))
        row = next((row for row in game.seats.all() if row.index == seat), None)
        if row is None:
            raise NotFound(gettext("This game has no such seat."))
        kind = OfferKind.MY_SEAT if row.index == mine.index else OfferKind.BOT_SEAT
        if kind == OfferKind.MY_SEAT and target is None:
            raise Unprocessable(gettext("Name the person you hand your seat to."))
        if kind == OfferKind.BOT_SEAT and target is None and not rules.listable(game):
            raise Conflict(gettext("Only a public table's seats are listed in the lobby: name the person to offer "
                                   "it to."))
        reason = SeatChange.Reason.HANDED if kind == OfferKind.MY_SEAT else SeatChange.Reason.TAKEN
        refusal = seat_refusal(game, row, target or user, reason, from_user=user) if target else None
        if target is None and kind == OfferKind.BOT_SEAT and not (row.bot and row.user_id is not None):
            refusal = Conflict(gettext("A person plays this seat: only a seat a bot took over can be taken."))
        if refusal is not None:
            raise refusal
        _lapse_stale(game)
        if SeatOffer.objects.filter(game=game, seat=seat, status=OfferStatus.OPEN).exists():
            raise Conflict(gettext("This seat is offered already: that offer must be settled first."))
        offer = SeatOffer.objects.create(game=game, seat=seat, kind=kind, offered_by=user, offered_to=target,
                                         expires_at=timezone.now() + rules.WINDOW)
        if target is not None:
            payload = {"engine": game.engine, "engine_version": game.engine_version, **offer_shown(offer, game)}
            events_record(events=[NewEvent(user_id=target.pk, kind=EventKind.SEAT_OFFERED, game_id=game.pk,
                                           seq=game.seq, payload=payload)])
            signals.seat_offered.send(sender=SeatOffer, offer=offer, game=game)
    return offer


def _locked_open(offer_id, user) -> tuple[SeatOffer, Game]:
    """The offer (as ``user`` may read it) and its game under the row lock; refused unless it is open."""
    try:
        offer = offer_for(offer_id, user)
    except GameNotFound:
        raise NotFound(gettext("No such seat offer.")) from None
    game = locked_game(offer.game_id)
    offer = SeatOffer.objects.select_for_update().get(pk=offer.pk)
    status = status_of(offer, game)
    if status != OfferStatus.OPEN:
        raise Conflict(gettext("This offer is no longer open: %(status)s.") % {"status": OfferStatus(status).label})
    return offer, game


def _settle(offer: SeatOffer, status: str) -> None:
    offer.status, offer.decided_at = status, timezone.now()
    offer.save(update_fields=["status", "decided_at"])


def offer_accept(*, offer_id, user: AbstractBaseUser) -> SeatOffer:
    """Take up the offer: ``user`` plays its seat from now on, with what that seat may see from the first move on;
    whoever played it before sees the public view. Refused with the reason, nothing changed, for an offer named to
    someone else (404), one settled or lapsed, or a person who may not take the seat (409)."""
    if not user.is_authenticated:
        raise NotAllowed(gettext("Sign in to take a seat."))
    with transaction.atomic():
        offer, game = _locked_open(offer_id, user)
        if offer.offered_to_id not in (None, user.pk):
            raise NotFound(gettext("No such seat offer."))
        reason = SeatChange.Reason.HANDED if offer.kind == OfferKind.MY_SEAT else SeatChange.Reason.TAKEN
        seat_change(game_id=game.pk, seat=offer.seat, user=user, reason=reason, from_user=offer.offered_by)
        offer.refresh_from_db()
        _settle(offer, OfferStatus.TAKEN)
    return offer


def offer_decline(*, offer_id, user: AbstractBaseUser) -> SeatOffer:
    """Turn down an offer named to ``user``; its maker sees it declined."""
    with transaction.atomic():
        offer, _ = _locked_open(offer_id, user)
        if offer.offered_to_id != user.pk:
            raise NotAllowed(gettext("Only the person an offer is made to can decline it."))
        _settle(offer, OfferStatus.DECLINED)
    return offer


def offer_withdraw(*, offer_id, user: AbstractBaseUser) -> SeatOffer:
    """Withdraw one's own offer while it is open."""
    with transaction.atomic():
        offer, _ = _locked_open(offer_id, user)
        if offer.offered_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who made an offer can withdraw it."))
        _settle(offer, OfferStatus.WITHDRAWN)
    return offer
