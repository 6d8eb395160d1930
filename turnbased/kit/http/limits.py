"""Rate limits: DRF throttles for the API, reused by the pages that create tables and make moves.

A request counts against one scope: the view's ``throttle_scope`` for a write (``auth``,
``table_create``, ``moves``), the generous ``api`` scope for everything else, reads
included. Each scope's rate (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``) is counted twice, per
account and per client address, so many accounts from one address share that address's budget.
Rates are looked up at each request, not at import, so ``RATE_LIMITS=off`` (``RATE_LIMITS_ON``) and
changed settings take effect at once.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy
from redis.exceptions import RedisError
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)

DEFAULT_SCOPE = "api"
# What the shared cache raises when it is away (Redis down, a network fault).
CACHE_ERRORS = (RedisError, OSError)

# What a scope counts, for the message a refused client reads ("Too many moves").
COUNTED = {
    "api": pgettext_lazy("too many ...", "requests"),
    "auth": pgettext_lazy("too many ...", "sign-in attempts"),
    "table_create": pgettext_lazy("too many ...", "new tables"),
    "moves": pgettext_lazy("too many ...", "moves"),
    "chat": pgettext_lazy("too many ...", "chat messages"),
    "invitations": pgettext_lazy("too many ...", "invitations"),
    "webhooks": pgettext_lazy("too many ...", "webhook changes"),
    "contacts": pgettext_lazy("too many ...", "changes to your friends and blocks"),
    "groups": pgettext_lazy("too many ...", "new groups, requests to join and invitations to groups"),
}


def too_many(things: str, count: int | None, seconds: int | None) -> str:
    """Word "Too many moves (at most 60 per minute)." for a scope's rate (its period a second, minute, hour or day)."""
    if count is None:
        return _("Too many %(things)s.") % {"things": things}
    periods = {
        1: ngettext("Too many %(things)s (at most %(count)s per second).",
                    "Too many %(things)s (at most %(count)s per second).", count),
        60: ngettext("Too many %(things)s (at most %(count)s per minute).",
                     "Too many %(things)s (at most %(count)s per minute).", count),
        3600: ngettext("Too many %(things)s (at most %(count)s per hour).",
                       "Too many %(things)s (at most %(count)s per hour).", count),
        86400: ngettext("Too many %(things)s (at most %(count)s per day).",
                        "Too many %(things)s (at most %(count)s per day).", count),
    }
    return periods[seconds] % {"things": things, "count": count}


def try_again_in(seconds: int) -> str:
    """Word "Try again in 5 seconds." in the reader's language."""
    return ngettext("Try again in %(count)s second.", "Try again in %(count)s seconds.", seconds) % {"count": seconds}


def scope_of(request, view) -> str:
    """Return the scope a request counts against: the view's own for a write, else the default."""
    if request.method in SAFE_METHODS:
        return DEFAULT_SCOPE
    return getattr(view, "throttle_scope", None) or DEFAULT_SCOPE


def scope_rate(scope: str) -> str | None:
    """Return the scope's rate such as ``60/min``, or None when rate limits are off."""
    if not settings.RATE_LIMITS_ON:
        return None
    try:
        return api_settings.DEFAULT_THROTTLE_RATES[scope]
    except KeyError:
        raise ImproperlyConfigured(f"No rate for the throttle scope {scope!r} in DEFAULT_THROTTLE_RATES.") from None


def parsed_rate(rate: str) -> tuple[int, int]:
    """Return a rate as DRF reads it: (requests, seconds in the window)."""
    return _ScopedRateThrottle().parse_rate(rate)


class _ScopedRateThrottle(SimpleRateThrottle):
    """Count a request against its scope's rate under one key (``get_cache_key``)."""

    cache_format = "throttle:%(scope)s:%(kind)s:%(ident)s"
    kind = ""

    def __init__(self):
        # The scope, and so the rate, is known only once the view calls allow_request.
        pass

    def allow_request(self, request, view) -> bool:
        self.scope = scope_of(request, view)
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS:
            # The counters are out of reach: let the request through rather than fail it. A rate
            # limit must not turn a cache outage into an outage of the whole API.
            logger.warning("rate limit %s not checked: the cache is unavailable", self.scope, exc_info=True)
            return True

    def get_rate(self) -> str | None:
        return scope_rate(self.scope)

    def wait(self) -> float:
        """Return the seconds until the oldest request still counted leaves the window."""
        # DRF spreads the wait over the requests left (and gives up once a rate is lowered);
        # a refused client needs the moment one more request fits.
        counted = self.history[: self.num_requests]
        return max(1.0, self.duration - (self.now - counted[-1])) if counted else float(self.duration)

    def key_for(self, ident) -> str:
        return self.cache_format % {"scope": self.scope, "kind": self.kind, "ident": ident}


class AccountRateThrottle(_ScopedRateThrottle):
    """Limit a signed-in account, whatever address it comes from."""

    kind = "account"

    def get_cache_key(self, request, view) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return self.key_for(user.pk)


class AddressRateThrottle(_ScopedRateThrottle):
    """Limit a client address, signed in or not, whichever accounts it uses."""

    kind = "address"

    def get_cache_key(self, request, view) -> str:
        return self.key_for(client_address(self.get_ident(request)))


def client_address(ident: str | None) -> str:
    """Return the address to count a client under: an IPv4 address, or the /64 network of an IPv6 one.

    One IPv6 subscriber usually holds a whole /64, so counting single addresses would let it
    multiply every rate. ``ident`` comes from DRF's ``get_ident``: ``REMOTE_ADDR``, or an entry of
    ``X-Forwarded-For`` only when ``NUM_PROXIES`` (``TRUSTED_PROXY_COUNT``) says a proxy wrote it.
    """
    try:
        address = ipaddress.ip_address((ident or "").strip())
    except ValueError:
        return ident or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class LimitReached(Throttled):
    """A limit kept outside the DRF throttles (allauth's log-in lockout, its sign-up rate), with its own reason."""

    def __init__(self, *, reason: str, wait: float | None):
        super().__init__(wait=wait, detail=reason)
        self.reason = reason


@dataclass(frozen=True)
class Refusal:
    """A request refused by a rate limit: what the client reads, and the seconds before it may retry."""

    scope: str
    wait: int
    reason: str = ""  # what was limited, when not the scope's rate ("Too many failed log in attempts.")

    @classmethod
    def of(cls, scope: str, wait: float | None, reason: str = "") -> Refusal:
        if wait is None:  # a throttle that gives no wait: the whole window of the scope's rate
            rate = scope_rate(scope)
            wait = parsed_rate(rate)[1] if rate else 1
        return cls(scope=scope, wait=max(1, math.ceil(wait)), reason=reason)

    @property
    def detail(self) -> str:
        """What the refused client reads, in its language: what was limited, then when to try again."""
        if self.reason:
            return f"{self.reason} {try_again_in(self.wait)}"
        rate = scope_rate(self.scope)
        count, seconds = parsed_rate(rate) if rate else (None, None)
        things = str(COUNTED.get(self.scope, COUNTED["api"]))
        return f"{too_many(things, count, seconds)} {try_again_in(self.wait)}"

    def applied_to(self, response):
        """Mark ``response`` as this refusal: status 429 and a ``Retry-After`` header."""
        response.status_code = 429
        response["Retry-After"] = str(self.wait)
        return response


def page_refusal(request, scope: str) -> Refusal | None:
    """Count a page's form post against ``scope`` with the API's own throttles; say why it must wait, or None.

    Page views (not DRF views) call this, so a page shares its rates and counters with the API:
    a move made on the page and one made through the API count against the same ``moves`` budget.
    Reading a page (GET) is never limited.
    """
    if request.method in SAFE_METHODS:
        return None
    view = SimpleNamespace(throttle_scope=scope)
    throttles = [throttle() for throttle in api_settings.DEFAULT_THROTTLE_CLASSES]
    waits = [throttle.wait() for throttle in throttles if not throttle.allow_request(request, view)]
    if not waits:
        return None
    return Refusal.of(scope, max((wait for wait in waits if wait is not None), default=None))


def account_refusal(user, scope: str) -> Refusal | None:
    """Count a write that comes through no web request (an email reply) against ``scope``, for the account alone.

    It shares the account's counter with the API and the pages; there is no client address to count.
    """
    throttle = AccountRateThrottle()
    if throttle.allow_request(SimpleNamespace(method="POST", user=user), SimpleNamespace(throttle_scope=scope)):
        return None
    return Refusal.of(scope, throttle.wait())
