"""Each person's time zone: the zones to pick from, the zone of a request, and dates worded with the zone's name.

Pages show times in the viewer's zone (``TimeZoneMiddleware`` activates it for each request); emails
in the recipient's (``in_zone_of`` around the rendering). The API keeps ISO 8601 in UTC.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import zoneinfo

from django.core.cache import cache
from django.utils import timezone

from turnbased.limits import CACHE_ERRORS

logger = logging.getLogger(__name__)

DEFAULT_ZONE = "UTC"
# A person's zone is read from the cache on each page; saving their profile forgets it.
CACHE_SECONDS = 24 * 3600


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Return the IANA zone names a person may pick, sorted (tzdata's list, without the legacy aliases)."""
    legacy = ("Etc/", "SystemV/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")
    names = {name for name in zoneinfo.available_timezones() if "/" in name and not name.startswith(legacy)}
    return tuple(sorted(names | {DEFAULT_ZONE}))


def is_zone_name(value) -> bool:
    return isinstance(value, str) and value in zoneinfo.available_timezones()


def _cache_key(user_id: int) -> str:
    return f"time-zone:{user_id}"


def zone_setting(user) -> tuple[str, bool]:
    """Return the user's zone and whether they chose it (or took the one their browser offered)."""
    from turnbased.accounts.models import Profile

    try:
        cached = cache.get(_cache_key(user.pk))
    except CACHE_ERRORS:
        cached = None
    if cached is not None:
        return tuple(cached)
    stored = Profile.objects.filter(user=user).values_list("time_zone", "time_zone_chosen").first()
    setting = stored if stored is not None and is_zone_name(stored[0]) else (DEFAULT_ZONE, False)
    with contextlib.suppress(*CACHE_ERRORS):
        cache.set(_cache_key(user.pk), list(setting), timeout=CACHE_SECONDS)
    return setting


def forget_zone_setting(user_id: int) -> None:
    """Drop the cached zone once the profile changed."""
    try:
        cache.delete(_cache_key(user_id))
    except CACHE_ERRORS:
        logger.warning("the cached time zone of user %s could not be dropped", user_id, exc_info=True)


@contextlib.contextmanager
def in_zone_of(user):
    """Render dates in ``user``'s zone inside the block (an email to them); UTC for no user."""
    zone = zone_setting(user)[0] if user is not None and getattr(user, "pk", None) else DEFAULT_ZONE
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        yield


# Paths that are not pages: they stay in UTC and never look at the session, so a shared cache may keep
# their answers (reading the user marks a response "Vary: Cookie").
NOT_PAGES = ("/api/", "/assets/")


class TimeZoneMiddleware:
    """Show a signed-in person's pages in their own zone; the API, game assets and visitors stay in UTC.

    ``request.time_zone_offer`` tells the page whether to offer the browser's zone: the person
    has not chosen one yet.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.time_zone_offer = False
        if not request.path.startswith(NOT_PAGES) and request.user.is_authenticated:
            zone, chosen = zone_setting(request.user)
            request.time_zone_offer = not chosen
            timezone.activate(zoneinfo.ZoneInfo(zone))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
