"""Verify that an email reply comes from a player of the game its reply address names, or drop it unanswered.

The reply address carries a signed token bound to (user, game, seq); it is the password of email play, since
anyone can write any From header. A reply is verified from its headers alone (``reading.read_headers``): the
reply address is signed by us, not expired, and names a player seated in that game; the From address is that
player's; and the provider's SPF and DKIM verdicts, when the reply came through its webhook, do not fail for the
sender's domain (``sender_auth``). Anything else is logged, counted per day and reason (``InboundDrop``) and
dropped: answering the From of forged mail would be backscatter.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from turnbased.accounts.selectors import verified_email
from turnbased.mail import sender_auth
from turnbased.mail.models import InboundDrop, InboundDropReason
from turnbased.mail.reading import Headers
from turnbased.mail.tokens import (
    BadToken, ExpiredToken, GroupReplyToken, ReplyToken, WatchReplyToken, read_any_reply_address,
)
from turnbased.play.models import Game


class Dropped(Exception):
    """The message is not from a player of the game its address names: drop it unanswered."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Reply:
    """A message from a real player of the game its reply address names."""

    headers: Headers
    token: ReplyToken
    user: AbstractBaseUser
    game: Game


@dataclass(frozen=True)
class GroupReply:
    """A message from the person a group's invitation (or a request to join it) was emailed to. The group may be
    gone since: the answer says so."""

    headers: Headers
    token: GroupReplyToken
    user: AbstractBaseUser


@dataclass(frozen=True)
class WatchReply:
    """A message from the person a followed game's news was emailed to (issue 46). The watch may be gone since: the
    answer says so."""

    headers: Headers
    token: WatchReplyToken
    user: AbstractBaseUser


def verify(headers: Headers, verdicts: list | None = None) -> Reply | GroupReply | WatchReply:
    """Check the reply address, the player, the sender and the provider's verdicts; raise ``Dropped``."""
    if not headers.recipient:
        raise Dropped(InboundDropReason.NO_REPLY_ADDRESS)
    try:
        token = read_any_reply_address(headers.recipient)
    except ExpiredToken:
        raise Dropped(InboundDropReason.EXPIRED_ADDRESS) from None
    except BadToken:
        raise Dropped(InboundDropReason.FORGED_ADDRESS) from None
    user = get_user_model().objects.filter(pk=token.user_id).first()
    game = None
    if isinstance(token, ReplyToken):
        game = Game.objects.filter(pk=token.game_id).first()
        if game is not None and user is not None and not game.seats.filter(user=user).exists():
            game = None
        if game is None:
            raise Dropped(InboundDropReason.UNKNOWN_PLAYER)
    if user is None:
        raise Dropped(InboundDropReason.UNKNOWN_PLAYER)
    if not is_players_address(user, headers.sender):
        raise Dropped(InboundDropReason.WRONG_SENDER)
    failure = sender_auth.authentication_failure(verdicts or [], headers.sender)
    if failure is not None:
        raise Dropped(failure)
    if isinstance(token, WatchReplyToken):
        return WatchReply(headers=headers, token=token, user=user)
    if game is None:
        return GroupReply(headers=headers, token=token, user=user)
    return Reply(headers=headers, token=token, user=user, game=game)


def is_players_address(user, sender: str) -> bool:
    """Tell whether ``sender`` is the player's verified address, the one their emails go to."""
    address = verified_email(user)
    return bool(sender) and address is not None and sender.lower() == address.lower()


def count_drop(reason: str) -> None:
    """Add one to today's count of messages dropped for ``reason``: one row per day and reason, never more."""
    day = timezone.now().date()
    rows = InboundDrop.objects.filter(day=day, reason=reason)
    if rows.update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            InboundDrop.objects.create(day=day, reason=reason, count=1)
    except IntegrityError:  # another worker created today's row first
        rows.update(count=F("count") + 1)
