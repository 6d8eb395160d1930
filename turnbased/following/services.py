"""Following, changed: one service for the page, the API and the mail's delivery alike."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, ngettext

from games.base import Event as GameEvent
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.following import selectors
from turnbased.following.models import Notify, Watch
from turnbased.kit.errors import Conflict, InvalidRequest
from turnbased.notifications.models import NotificationKind
from turnbased.play.models import Game, Move
from turnbased.play.player_events import move_entries


def _notify_checked(notify) -> str:
    if notify not in Notify.values:
        raise InvalidRequest(gettext("notify must be one of: %(choices)s.") % {"choices": ", ".join(Notify.values)})
    return notify


def watch_make(*, user: AbstractBaseUser, kind: str, target_id, notify=None) -> tuple[Watch, bool]:
    """Follow a game, a group's games or a competition's games; return the watch and whether it is new. Following
    what one follows already changes only what it tells (``notify``, when given). Refused, with nothing changed, as
    ``selectors.target_for`` says, and past ``MOST_WATCHES``."""
    if kind not in selectors.KINDS:
        raise InvalidRequest(gettext("Follow a game, a group or a competition."))
    if notify is not None:
        notify = _notify_checked(notify)
    target = selectors.target_for(kind, target_id, user)
    with transaction.atomic():
        existing = Watch.objects.select_for_update().filter(user=user, **{kind: target}).first()
        if existing is not None:
            if notify is not None and existing.notify != notify:
                existing.notify = notify
                existing.save(update_fields=["notify"])
            return existing, False
        if Watch.objects.filter(user=user).count() >= selectors.MOST_WATCHES:
            raise Conflict(ngettext(
                "You follow %(count)s game, group or competition already: stop following one first.",
                "You follow %(count)s games, groups and competitions already: stop following some first.",
                selectors.MOST_WATCHES) % {"count": selectors.MOST_WATCHES})
        # A game follows its moves by default; a group or a competition, with many tables, tells of their ends.
        default = Notify.MOVES if kind == "game" else Notify.ENDS
        try:
            with transaction.atomic():
                watch = Watch.objects.create(user=user, notify=notify or default, **{kind: target})
        except IntegrityError:  # the same follow, sent twice at once: the first one made it
            return Watch.objects.get(user=user, **{kind: target}), False
    return watch, True


def watch_change(*, watch_id, user: AbstractBaseUser, notify) -> Watch:
    """Change what one of the person's watches tells them."""
    notify = _notify_checked(notify)
    watch = selectors.watch_for(watch_id, user)
    if watch.notify != notify:
        watch.notify = notify
        watch.save(update_fields=["notify"])
    return watch


def watch_remove(*, watch_id, user: AbstractBaseUser) -> Watch:
    """Stop following; return the watch as it was (its feed and its notices stop: one waiting is skipped)."""
    watch = selectors.watch_for(watch_id, user)
    shown = Watch(pk=watch.pk, user=watch.user, game=watch.game, group=watch.group, competition=watch.competition,
                  notify=watch.notify, created_at=watch.created_at)
    watch.delete()
    return shown


def notice_event_record(*, user: AbstractBaseUser, game: Game, seq: int, kind: str) -> None:
    """Tell the person's stream and webhooks of a followed game's move or end (``followed_move``, ``followed_end``),
    as any spectator may see it: the move's entries a spectator sees, or the result. Called once per notice, in the
    transaction that settles it (``mail.delivery``)."""
    payload = {"engine": game.engine, "engine_version": game.engine_version, "seat": None,
               "players": list(game.player_names)}
    if kind == NotificationKind.FOLLOWED_END:
        events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.FOLLOWED_END, game_id=game.pk, seq=seq,
                                       payload={**payload, "result": game.result})])
        return
    move = Move.objects.filter(game=game, seq=seq).values_list("seat", "events").first()
    if move is None:
        return
    seat, events = move
    entries = move_entries(seq=seq, seat=seat, events=[GameEvent.from_json(raw) for raw in events], viewer=None)
    events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.FOLLOWED_MOVE, game_id=game.pk, seq=seq,
                                   payload={**payload, "player": game.player_names[seat], "mover_seat": seat,
                                            "entries": entries})])
