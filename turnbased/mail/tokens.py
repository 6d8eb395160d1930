"""Signed tokens: reply addresses bound to (user, game, seq), to (user, group, asker) for a group's news, or to
(user, watch) for a followed game's news, and one-click unsubscribe links."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core import signing

REPLY_LOCAL_PART = "play"
GROUP_LOCAL_PART = "group"
WATCH_LOCAL_PART = "watch"
_REPLY = re.compile(r"^play\+(?P<token>\d+\.\d+\.\d+\.\d+\.[a-z2-7]+)@", re.IGNORECASE)
_GROUP_REPLY = re.compile(r"^group\+(?P<token>\d+\.\d+\.\d+\.\d+\.[a-z2-7]+)@", re.IGNORECASE)
_WATCH_REPLY = re.compile(r"^watch\+(?P<token>\d+\.\d+\.\d+\.\d+\.[a-z2-7]+)@", re.IGNORECASE)


class BadToken(Exception):
    """The reply address was not made by us (or was altered)."""


class ExpiredToken(Exception):
    """The reply address is ours but too old to accept."""


@dataclass(frozen=True)
class ReplyToken:
    user_id: int
    game_id: int
    seq: int
    issued_day: int


@dataclass(frozen=True)
class GroupReplyToken:
    """An invitation to a group (``asker_id`` 0) emailed to ``user_id``, or ``asker_id``'s request to join it
    emailed to ``user_id``, one of its admins."""

    user_id: int
    group_id: int
    asker_id: int
    issued_day: int


@dataclass(frozen=True)
class WatchReplyToken:
    """The news of a game that ``user_id`` follows through their watch ``watch_id`` (issue 46: following games)."""

    user_id: int
    watch_id: int
    issued_day: int


def _signature(payload: str, purpose: str = "reply") -> str:
    # The purpose is signed too: a game's reply address read as a group's (or the reverse) is a forgery.
    digest = hmac.new(settings.SECRET_KEY.encode(), f"{purpose}:{payload}".encode(), hashlib.sha256).digest()
    # Base32 in lower case survives mail systems that fold the case of addresses.
    return base64.b32encode(digest).decode().rstrip("=").lower()[:20]


def reply_address(*, user_id: int, game_id: int, seq: int, today: date | None = None) -> str:
    """Return the reply address for a turn email written for ``seq``."""
    day = (today or date.today()).toordinal()
    payload = f"{user_id}.{game_id}.{seq}.{day}"
    return f"{REPLY_LOCAL_PART}+{payload}.{_signature(payload)}@{settings.MAIL_DOMAIN}"


def read_reply_address(address: str, today: date | None = None) -> ReplyToken:
    """Check a reply address and return what it is bound to; raise ``BadToken`` or ``ExpiredToken``."""
    match = _REPLY.match(address.strip().strip("<>"))
    if match is None:
        raise BadToken(address)
    token = match.group("token").lower()
    payload, _, signature = token.rpartition(".")
    if not hmac.compare_digest(signature, _signature(payload)):
        raise BadToken(address)
    user_id, game_id, seq, day = (int(part) for part in payload.split("."))
    if (today or date.today()).toordinal() - day > settings.REPLY_TOKEN_MAX_AGE_DAYS:
        raise ExpiredToken(address)
    return ReplyToken(user_id=user_id, game_id=game_id, seq=seq, issued_day=day)


def group_reply_address(*, user_id: int, group_id: int, asker_id: int = 0, today: date | None = None) -> str:
    """Return the reply address of an invitation to a group (``asker_id`` 0) or of a request to join one."""
    day = (today or date.today()).toordinal()
    payload = f"{user_id}.{group_id}.{asker_id}.{day}"
    return f"{GROUP_LOCAL_PART}+{payload}.{_signature(payload, 'group')}@{settings.MAIL_DOMAIN}"


def read_group_reply_address(address: str, today: date | None = None) -> GroupReplyToken:
    """Check a group's reply address and return what it is bound to; raise ``BadToken`` or ``ExpiredToken``."""
    match = _GROUP_REPLY.match(address.strip().strip("<>"))
    if match is None:
        raise BadToken(address)
    payload, _, signature = match.group("token").lower().rpartition(".")
    if not hmac.compare_digest(signature, _signature(payload, "group")):
        raise BadToken(address)
    user_id, group_id, asker_id, day = (int(part) for part in payload.split("."))
    if (today or date.today()).toordinal() - day > settings.REPLY_TOKEN_MAX_AGE_DAYS:
        raise ExpiredToken(address)
    return GroupReplyToken(user_id=user_id, group_id=group_id, asker_id=asker_id, issued_day=day)


def watch_reply_address(*, user_id: int, watch_id: int, today: date | None = None) -> str:
    """Return the reply address of a followed game's news, bound to the watch that brought it."""
    day = (today or date.today()).toordinal()
    payload = f"{user_id}.{watch_id}.0.{day}"  # the shape of the others' four numbers: one pattern finds them all
    return f"{WATCH_LOCAL_PART}+{payload}.{_signature(payload, 'watch')}@{settings.MAIL_DOMAIN}"


def read_watch_reply_address(address: str, today: date | None = None) -> WatchReplyToken:
    """Check a followed game's reply address and return its watch; raise ``BadToken`` or ``ExpiredToken``."""
    match = _WATCH_REPLY.match(address.strip().strip("<>"))
    if match is None:
        raise BadToken(address)
    payload, _, signature = match.group("token").lower().rpartition(".")
    if not hmac.compare_digest(signature, _signature(payload, "watch")):
        raise BadToken(address)
    user_id, watch_id, _zero, day = (int(part) for part in payload.split("."))
    if (today or date.today()).toordinal() - day > settings.REPLY_TOKEN_MAX_AGE_DAYS:
        raise ExpiredToken(address)
    return WatchReplyToken(user_id=user_id, watch_id=watch_id, issued_day=day)


def read_any_reply_address(address: str,
                           today: date | None = None) -> ReplyToken | GroupReplyToken | WatchReplyToken:
    """Read a game's reply address, a group's or a watch's, whichever ``address`` is; raise ``BadToken`` or
    ``ExpiredToken``."""
    if is_group_reply_address(address):
        return read_group_reply_address(address, today)
    if address.strip().strip("<>").lower().startswith(f"{WATCH_LOCAL_PART}+"):
        return read_watch_reply_address(address, today)
    return read_reply_address(address, today)


def is_group_reply_address(address: str) -> bool:
    return address.strip().strip("<>").lower().startswith(f"{GROUP_LOCAL_PART}+")


def is_reply_address(address: str) -> bool:
    return address.strip().strip("<>").lower().startswith((f"{REPLY_LOCAL_PART}+", f"{GROUP_LOCAL_PART}+",
                                                           f"{WATCH_LOCAL_PART}+"))


_REPLY_ANYWHERE = re.compile(
    r"(?<![\w.+-])(?:play|group|watch)\+\d{1,20}\.\d{1,20}\.\d{1,20}\.\d{1,20}\.[a-z2-7]{1,64}@[a-z0-9.-]{1,253}",
    re.IGNORECASE,
)


def find_reply_addresses(text: str) -> list[str]:
    """Return every string shaped like a reply address in ``text`` (a header), in order, without parsing it."""
    return _REPLY_ANYWHERE.findall(text)


_UNSUBSCRIBE_SALT = "turnbased.mail.unsubscribe"


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt=_UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> int:
    """Return the user id in an unsubscribe token; raise ``signing.BadSignature`` if forged."""
    return signing.loads(token, salt=_UNSUBSCRIBE_SALT)
