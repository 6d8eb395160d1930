"""Bot accounts: an account that has never played with people becomes one for good (docs/api-guide.md, "Bot accounts").

Like lichess's bot accounts: a program its owner runs, playing through the API with a token. The mark is
final through the API; staff may take it back in the admin (``accounts.admin.ProfileAdmin``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from turnbased.accounts.models import Profile
from turnbased.kit.errors import Conflict
from turnbased.play.models import GameStatus, Seat

PLAYED_WITH_PEOPLE = gettext_lazy(
    "This account has shared a table with other people (waiting, in play or finished): only an account that has "
    "never played with anyone can become a bot account. Make a new account for the bot."
)


@dataclass(frozen=True)
class BotAccountStatus:
    """Whether the account is a bot account (since when), and if not, why it may not become one now (or None)."""

    bot_account: bool
    since: datetime | None
    refusal: str | None


def bot_account_refusal(user) -> str | None:
    """Return why ``user`` may not become a bot account, or None when it may.

    It may while it has never shared a table with another account: no seat at a table (open, in play or
    finished) where another account holds a seat too. Tables of built-in bots do not count, nor tables aborted
    before they started; its own open tables where nobody else sits yet do not either.
    """
    tables = Seat.objects.filter(user_id=user.pk).exclude(game__status=GameStatus.ABORTED).values("game")
    if Seat.objects.filter(game__in=tables, user__isnull=False).exclude(user_id=user.pk).exists():
        return str(PLAYED_WITH_PEOPLE)  # worded now, in the reader's language
    return None


def bot_account_status(user) -> BotAccountStatus:
    """Return whether ``user`` is a bot account, or why it may not become one."""
    profile = Profile.objects.filter(user_id=user.pk).values_list("is_bot_account", "bot_account_since").first()
    if profile is not None and profile[0]:
        return BotAccountStatus(bot_account=True, since=profile[1], refusal=None)
    return BotAccountStatus(bot_account=False, since=None, refusal=bot_account_refusal(user))


def bot_account_enable(*, user) -> BotAccountStatus:
    """Mark ``user``'s account as a bot account, for good.

    Precondition: it has never shared a table with another account (``bot_account_refusal``); else
    ``Conflict`` and nothing changes. Effects: the profile's ``is_bot_account`` and ``bot_account_since``
    (now). From then on its name carries a bot badge, it plays through the API with a token only, gets no
    game emails, and its rated games count in the bot pool. An account that is one already changes nothing.
    """
    with transaction.atomic():
        Profile.objects.get_or_create(user=user)
        # Locked, so two requests at once mark it once; the seats are read under the lock.
        profile = Profile.objects.select_for_update().get(user=user)
        if not profile.is_bot_account:
            refusal = bot_account_refusal(user)
            if refusal is not None:
                raise Conflict(refusal)
            profile.is_bot_account, profile.bot_account_since = True, timezone.now()
            profile.save(update_fields=["is_bot_account", "bot_account_since"])
    return BotAccountStatus(bot_account=True, since=profile.bot_account_since, refusal=None)
