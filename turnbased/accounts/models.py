"""Per-user settings beyond Django's user (a bot account among them), named API tokens, and the look-alike keys of
usernames."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken, AuthTokenManager
from knox.settings import CONSTANTS

from turnbased.accounts.time_zones import is_zone_name


def validate_time_zone(value: str) -> None:
    if not is_zone_name(value):
        raise ValidationError(_("%(value)r is not a time zone name such as Europe/London."), params={"value": value})


def validate_language(value: str) -> None:
    """Accept one of the languages the service speaks (``settings.LANGUAGES``), or "" for the browser's."""
    if value and value not in dict(settings.LANGUAGES):
        raise ValidationError(_("%(value)r is not a language of this site; choose one of: %(codes)s."),
                              params={"value": value, "codes": ", ".join(dict(settings.LANGUAGES))})


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone],
                                 help_text=_("Pages and emails show times in this zone; weekends and dates are "
                                             "counted in it."))
    # False until the person picks a zone (settings, sign-up, or the browser's zone the pages offer).
    time_zone_chosen = models.BooleanField(default=False)
    # The language of the person's pages and emails ("": none chosen; pages follow the browser, emails are
    # English). Any code of settings.LANGUAGES: no choices here, so a new language needs no migration.
    language = models.CharField(
        _("language"), max_length=16, blank=True, default="", validators=[validate_language],
        help_text=_("Pages, emails and answers by email are written in this language."),
    )
    reminder_lead_hours = models.PositiveSmallIntegerField(
        default=12, help_text=_("Email a reminder this many hours before a deadline (0: no reminders).")
    )
    absence_allowance_days = models.PositiveSmallIntegerField(default=30, help_text=_("Days of absence per year."))
    confirm_moves = models.BooleanField(
        _("Confirm moves on the board"), default=True,
        help_text=_("Ask before a board sends a move: pick it, read what it will do, then confirm or cancel. "
                    "Untick to play on one click."),
    )
    # None: the default of the account's kind, on for a bot account and off for a person
    # (``plays_forced_moves``), so an account that becomes a bot account later gets the bots' default.
    # Set through ``choose_play_forced_moves``, which stores only a choice that differs from that default.
    play_forced_moves = models.BooleanField(
        _("Play my forced moves"), null=True, blank=True, default=None,
        help_text=_("When you have exactly one legal move, it is played for you when you would have played it "
                    "yourself (after a time like your own, never while you are away), and your history says so. "
                    "To the others it is any move of yours."),
    )
    # A bot account: a program its owner runs, playing through the API with a token (docs/api-guide.md, "Bot accounts").
    # Set by ``services.bot_accounts.bot_account_enable``; only staff turn it back, in the admin.
    is_bot_account = models.BooleanField(
        "Bot account", default=False,
        help_text="A program playing through the API: its name carries a bot badge, it is rated in the bot pool, "
                  "its pages are read-only and it gets no game emails.",
    )
    bot_account_since = models.DateTimeField(null=True, blank=True)
    # A keyed digest of the network the account signed up from (``signup_network_digest``), "" when unknown: the
    # ratings take accounts signed up from one network for one person's until both are established (issue 42,
    # docs/players.md). Only compared, never shown; the address itself is not kept.
    signup_network = models.CharField(max_length=64, blank=True, default="", editable=False)

    @property
    def plays_forced_moves(self) -> bool:
        """Tell whether a seat of this account with exactly one legal move has it played at once
        (``play.services.forced_moves``): as chosen, else on for a bot account and off for a person."""
        return self.is_bot_account if self.play_forced_moves is None else self.play_forced_moves

    def choose_play_forced_moves(self, value: bool) -> None:
        """Set whether forced moves are played for this account (not saved): the default of its kind is kept
        as no choice, so it follows the account if it becomes a bot account."""
        self.play_forced_moves = None if bool(value) == self.is_bot_account else bool(value)

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


def signup_network_digest(address: str | None) -> str:
    """Return the digest kept of the network a sign-up came from, "" when it tells nothing.

    The network is the address for IPv4 and its /64 for IPv6 (one subscriber's usual share, as the rate
    limits count it), keyed with the secret key so the digest cannot be turned back into addresses. A
    loopback, private or otherwise non-public address (a proxy in front, a machine on the same LAN) says
    nothing of who signed up: "".
    """
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if not ip.is_global:
        return ""
    network = str(ip) if ip.version == 4 else str(ipaddress.IPv6Network((ip, 64), strict=False))
    return salted_hmac("turnbased.accounts.signup_network", network, algorithm="sha256").hexdigest()


def profile_of(user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def plays_forced_moves(user) -> bool:
    """Tell whether ``user``'s forced moves are played for them (False for no user or an account without a
    profile). Reads the profile loaded with the user, as ``is_bot_account`` does."""
    if user is None or getattr(user, "pk", None) is None:
        return False
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.plays_forced_moves)


def is_bot_account(user) -> bool:
    """Tell whether ``user`` is a bot account (False for no user, a visitor, or an account without a profile).

    Reads the profile loaded with the user (``select_related("user__profile")``, as ``seats_with_time``
    does): lists that show names load it with them, so this costs no query per row. A user read without
    it costs one query, once.
    """
    if user is None or getattr(user, "pk", None) is None:
        return False
    profile = getattr(user, "profile", None)  # a missing profile raises RelatedObjectDoesNotExist, an AttributeError
    return bool(profile is not None and profile.is_bot_account)


class ApiTokenManager(AuthTokenManager):
    def get_queryset(self):
        # knox reads the token with its user (``select_related("user")``, which adds to this): the user's
        # profile comes in the same query, so whether the caller is a bot account costs nothing.
        return super().get_queryset().select_related("user__profile")


class ApiToken(AbstractAuthToken):
    """A named API token; only its hash is stored (django-rest-knox), the key is shown once."""

    objects = ApiTokenManager()

    # An integer id to name a token in URLs: the digest, knox's primary key, stays private.
    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=100)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created", "-id")

    def __str__(self) -> str:
        return f"token {self.name!r} of {self.user_id}"


class UsernameSkeleton(models.Model):
    """One look-alike key of a username; unique, so two look-alike names cannot both be taken."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="username_skeletons")
    skeleton = models.TextField(unique=True)

    def __str__(self) -> str:
        return f"{self.skeleton!r} of {self.user_id}"
