"""Reads of seat offers: an offer's status as it stands, the offers a person may take up (named to them, or listed in
the lobby), a table's open offers, how an offer is shown, and the words of the events that tell of them."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.events.models import Event
from turnbased.kit.errors import NotFound
from turnbased.play.models import Game, GameStatus, Seat, Visibility
from turnbased.seats.models import OfferKind, OfferStatus, SeatOffer

LISTED = 50  # the most offers a list shows


def status_of(offer: SeatOffer, game: Game) -> str:
    """The offer's status as it stands now: an open one lapses once its time runs out, the game ends, or its seat
    is no longer as offered (a bot's seat a person took, a player's seat a bot took over)."""
    if offer.status != OfferStatus.OPEN:
        return offer.status
    seat = next((seat for seat in game.seats.all() if seat.index == offer.seat), None)
    if game.status != GameStatus.ACTIVE or timezone.now() >= offer.expires_at or seat is None:
        return OfferStatus.LAPSED
    if offer.kind == OfferKind.BOT_SEAT and not (seat.bot and seat.user_id is not None):
        return OfferStatus.LAPSED
    if offer.kind == OfferKind.MY_SEAT and (seat.user_id != offer.offered_by_id or seat.bot or seat.left_at):
        return OfferStatus.LAPSED
    return OfferStatus.OPEN


def _with_games(query):
    return query.select_related("game", "offered_by", "offered_to").prefetch_related("game__seats")


def _still_open(user) -> tuple[Q, dict]:
    """The offers still open as they stand (``status_of``), read in the offers' own query: their game in play,
    their week not over, their seat as offered; and, for ``user``, at a table they do not play."""
    seat = Seat.objects.filter(game=OuterRef("game"), index=OuterRef("seat"))
    as_offered = (Q(kind=OfferKind.BOT_SEAT, seat_as_offered=True) | Q(kind=OfferKind.MY_SEAT, own_seat=True))
    return Q(status=OfferStatus.OPEN, game__status=GameStatus.ACTIVE, expires_at__gt=timezone.now()) & as_offered, {
        "seat_as_offered": Exists(seat.exclude(bot="").filter(user__isnull=False)),
        "own_seat": Exists(seat.filter(user=OuterRef("offered_by"), bot="", left_at__isnull=True)),
        "seated": Exists(Seat.objects.filter(game=OuterRef("game"), user_id=getattr(user, "pk", None))),
    }


def offers_for(user: AbstractBaseUser | AnonymousUser) -> list[SeatOffer]:
    """The open offers ``user`` may take up, in one query: those named to them, then the ones listed in the lobby
    (public tables nobody keeps back, where they do not sit), the newest first. Anyone else's named offers are none
    of theirs; nobody signed out takes a seat."""
    if not user.is_authenticated:
        return []
    still_open, columns = _still_open(user)
    listed = Q(offered_to__isnull=True, game__visibility=Visibility.PUBLIC, game__held=False, seated=False)
    rows = (SeatOffer.objects.annotate(**columns).filter(still_open & (Q(offered_to=user) | listed))
            .select_related("game", "offered_by", "offered_to").order_by("-pk")[:LISTED])
    mine = [offer for offer in rows if offer.offered_to_id == user.pk]
    return mine + [offer for offer in rows if offer.offered_to_id != user.pk]


def offers_at(game: Game) -> list[SeatOffer]:
    """The table's open offers, in seat order (shown to its players)."""
    rows = SeatOffer.objects.filter(game=game, status=OfferStatus.OPEN).select_related("offered_by", "offered_to")
    return sorted((offer for offer in rows if status_of(offer, game) == OfferStatus.OPEN), key=lambda o: o.seat)


def offer_for(offer_id, user: AbstractBaseUser | AnonymousUser) -> SeatOffer:
    """Return the offer with its game, if ``user`` may read it: its maker, the person it is named to, a player of
    its game, or anyone for one listed in the lobby; else ``NotFound`` (another's named offer does not exist for
    them)."""
    offer = _with_games(SeatOffer.objects.filter(pk=offer_id)).first() if isinstance(offer_id, int) else None
    if offer is None:
        raise NotFound(gettext("No such seat offer."))
    seated = user.is_authenticated and any(seat.user_id == user.pk for seat in offer.game.seats.all())
    listed = offer.offered_to_id is None and offer.game.visibility == Visibility.PUBLIC and not offer.game.held
    if not (listed or seated or (user.is_authenticated and user.pk in (offer.offered_by_id, offer.offered_to_id))):
        raise NotFound(gettext("No such seat offer."))
    return offer


def offer_shown(offer: SeatOffer, game: Game | None = None, *, status: str | None = None) -> dict:
    """An offer as the API, the pages and the stream show it: the table, the seat and its name at the table, who
    offered it to whom. Nothing of the seat's hand: that is for whoever takes it. ``status``: as it stands, when
    the caller read it already (``offers_for`` reads only open ones)."""
    game = game or offer.game
    names = list(game.player_names)
    return {
        "id": offer.pk,
        "game": game.pk,
        "engine": game.engine,
        "seat": offer.seat,
        "seat_name": names[offer.seat] if offer.seat < len(names) else "",
        "kind": offer.kind,
        "status": status or status_of(offer, game),
        "offered_by": offer.offered_by.get_username(),
        "offered_to": offer.offered_to.get_username() if offer.offered_to_id else None,
        "made_at": offer.created_at,
        "expires_at": offer.expires_at,
        "decided_at": offer.decided_at,
    }


def word_seat_event(payload: dict, event: Event) -> dict:
    """The words of a ``seat_offered`` or ``seat_taken`` event (``text``), in the reader's language."""
    title = payload.get("name") or f"#{event.game_id}"
    values = {"game": title, "player": payload.get("player") or "?", "by": payload.get("offered_by") or "?",
              "left": payload.get("left_player") or "?", "seat": payload.get("seat_name") or "?"}
    if event.kind == "seat_offered":
        text = gettext("%(by)s offers you a seat at %(game)s: the one played so far as %(seat)s.")
    elif payload.get("left_player"):
        text = gettext("%(player)s took over %(left)s's seat at %(game)s.")
    else:
        text = gettext("%(player)s took a seat at %(game)s.")
    return {**payload, "text": text % values}
