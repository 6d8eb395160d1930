"""How long an account limit (allauth's rate limits) still holds, and the 429 page that says so."""

from __future__ import annotations

import math
import time

from allauth.account.adapter import get_adapter
# allauth keeps its counters as lists of hit times in the cache; these helpers name the lists.
from allauth.core.internal.ratelimit import get_cache_key, get_rates
from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import gettext as _

APP = "allauth.account"
# Said when the limit that tripped cannot be read back (its window is at most this in the defaults).
FALLBACK_RETRY_AFTER = 60
# The allauth action each rate-limited page counts against.
ACTION_OF_PAGE = {
    "account_login": "login",
    "login": "login",
    "account_signup": "signup",
    "signup": "signup",
    "account_reset_password": "reset_password",
    "account_reset_password_from_key": "reset_password_from_key",
    "account_change_password": "change_password",
    "account_set_password": "change_password",
    "account_email": "manage_email",
}


def retry_after(request, *, action: str, key: str | None = None) -> int:
    """Return the whole seconds until ``action`` is allowed again for this client, key or user."""
    now, wait = time.time(), 0.0
    for rate in get_rates(app=APP, action=action):
        if (rate.per == "key" and key is None) or (rate.per == "user" and not request.user.is_authenticated):
            continue
        hits = [hit for hit in cache.get(get_cache_key(request, app=APP, action=action, rate=rate, key=key), [])
                if hit > now - rate.duration]
        if len(hits) >= rate.amount:
            # Newest first: the limit lifts when the amount-th newest hit leaves the window.
            wait = max(wait, hits[rate.amount - 1] + rate.duration - now)
    return max(1, math.ceil(wait)) if wait else FALLBACK_RETRY_AFTER


def login_failed_retry_after(request, credentials: dict) -> int:
    """Return the seconds until a login with these credentials is tried again (the lockout's length)."""
    key = get_adapter()._get_login_attempts_cache_key(request, **credentials)
    return retry_after(request, action="login_failed", key=key)


def too_many_requests(request, *, seconds: int, detail: str):
    """Render the 429 page with its Retry-After header."""
    response = render(request, "accounts/too_many_requests.html", {"seconds": seconds, "detail": detail}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def handler429(request):
    """Answer a page allauth rate-limited (it looks this view up as ROOT_URLCONF.handler429)."""
    match = getattr(request, "resolver_match", None)
    action = ACTION_OF_PAGE.get(match.url_name if match else "")
    seconds = retry_after(request, action=action) if action else FALLBACK_RETRY_AFTER
    return too_many_requests(request, seconds=seconds, detail=_("You have sent too many requests."))
