"""Table talk actions: post a message, mute and unmute a player, report a message, mark messages read."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from turnbased.contacts.selectors import blocker_ids
from turnbased.chat.models import MAX_MESSAGE_CHARS, Message, MessageSource, Mute, ReadMark, Report
from turnbased.chat.selectors import chat_viewer
from turnbased.kit.errors import InvalidRequest, NotAllowed, Unprocessable
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, row_insert_with_events

# Control characters other than the line break (NUL, escapes, bidi overrides) never reach a page or an email.
_UNPRINTABLE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MAX_REASON_CHARS = 200


def clean_text(raw: str) -> str:
    """Return a message as it is stored: line breaks kept (at most two in a row), control characters dropped."""
    text = _UNPRINTABLE.sub("", raw.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    text = re.sub(r"\n{3,}", "\n\n", text)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def message_post(*, game_id: int, user: AbstractBaseUser, text: str, source: str = MessageSource.WEB) -> Message:
    """Say ``text`` at the game's table, after its current move.

    Only a player seated at the game may write (403 for a spectator, 404 for a
    private game the user may not see); the text is 1 to ``MAX_MESSAGE_CHARS``
    characters once cleaned. Escaping is left to whatever shows it. The other players who have not
    muted the author get a ``message_posted`` event, written in the same statement as the message.
    """
    viewer = chat_viewer(game_id, user)
    if not viewer.is_player:
        raise NotAllowed(gettext("Only the players at this table may write in its chat; spectators read it."))
    text = clean_text(text or "")
    if not text:
        raise Unprocessable(gettext("Write something to say."))
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidRequest(gettext("A message may be at most %(most)s characters; this one has %(count)s.")
                             % {"most": MAX_MESSAGE_CHARS, "count": len(text)})
    game = viewer.game
    message = Message(game=game, author=user, seq=game.seq, text=text, source=source)
    players = {seat.index: seat.user_id for seat in game.seats.all() if seat.user_id}
    told = [
        NewEvent(user_id=user_id, kind=EventKind.MESSAGE_POSTED, game_id=game.pk, seq=game.seq,
                 payload={"name": game.title, "engine": game.engine, "seat": index, "author": user.get_username(),
                          "text": text})
        for index, user_id in sorted(players.items()) if user_id != user.pk
    ]
    # One statement writes the message and its events (no transaction needed), leaving out whoever muted the author
    # or blocked them (a block mutes).
    row_insert_with_events(instance=message, events=told, source_id_key="message", lock_user_ids=players.values(),
                           unless=Mute.objects.filter(muted_id=user.pk).values("user_id").union(blocker_ids(user)))
    return message


def _other_user(user: AbstractBaseUser, username: str):
    other = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if other is None:
        raise Unprocessable(gettext("No player by that name."))
    if other.pk == user.pk:
        raise Unprocessable(gettext("You cannot mute yourself."))
    return other


def player_mute(*, user: AbstractBaseUser, username: str) -> AbstractBaseUser:
    """Hide what ``username`` writes from ``user`` in every game, from now on and in the past; return them."""
    other = _other_user(user, username)
    Mute.objects.get_or_create(user=user, muted=other)
    return other


def player_unmute(*, user: AbstractBaseUser, username: str) -> AbstractBaseUser:
    """Show ``user`` what ``username`` writes again (nothing happens if they were not muted); return them."""
    other = _other_user(user, username)
    Mute.objects.filter(user=user, muted=other).delete()
    return other


def message_report(*, game_id: int, user: AbstractBaseUser, message_id: int, reason: str = "") -> Report:
    """Record for the site admins that ``user`` finds a message of this game's chat abusive.

    The user must be signed in and able to read the chat; a message of their
    own cannot be reported. Reporting the same message again changes nothing.
    """
    viewer = chat_viewer(game_id, user)
    if not user.is_authenticated:
        raise NotAllowed(gettext("Log in to report a message."))
    message = Message.objects.filter(pk=message_id, game=viewer.game).first()
    if message is None:
        raise Unprocessable(gettext("No such message in this game's chat."))
    if message.author_id == user.pk:
        raise Unprocessable(gettext("That message is your own."))
    report, _ = Report.objects.get_or_create(message=message, reporter=user,
                                             defaults={"reason": clean_text(reason or "")[:MAX_REASON_CHARS]})
    return report


def chat_mark_read(*, game_id: int, user: AbstractBaseUser, last_id: int) -> int:
    """Note that the player has seen the game's messages up to id ``last_id``; return the mark kept.

    A mark never goes back (another tab may have read further) and never past
    the game's latest message. Spectators keep no mark.
    """
    viewer = chat_viewer(game_id, user)
    if not viewer.is_player:
        return 0
    latest = Message.objects.filter(game=viewer.game).order_by("-id").values_list("id", flat=True).first() or 0
    last_id = min(max(0, last_id), latest)
    with transaction.atomic():
        ReadMark.objects.bulk_create([ReadMark(user=user, game=viewer.game, last_read_id=last_id)],
                                     ignore_conflicts=True)
        ReadMark.objects.filter(user=user, game=viewer.game, last_read_id__lt=last_id).update(last_read_id=last_id)
    return last_id
