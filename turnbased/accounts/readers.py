"""Whom a page, an answer or an email is for: their time zone and their language, read once and cached.

Pages show times in the viewer's zone and words in their language (``ReaderMiddleware``); emails and
webhooks in the recipient's (``for_reader`` around the wording). The API keeps its times in UTC (ISO
8601) and words its answers in the language the client asks for (``Accept-Language``), else in the
account's (``activate_account_language``, called by the API's authentication).

A person's language: the one chosen in settings (or with the language switcher), else the browser's
``Accept-Language`` (Django's ``LocaleMiddleware``, which also reads the switcher's cookie for
visitors), else English. Emails go out in the chosen language, else in the one the person signed up
in, else English. Machine fields (codes, kinds, slugs, move JSON) never change with the language.
"""

from __future__ import annotations

import contextlib
import logging
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone, translation

from turnbased.accounts.time_zones import BROWSER_ZONE_COOKIE, DEFAULT_ZONE, is_zone_name, zone_to_offer
from turnbased.kit.http.limits import CACHE_ERRORS

logger = logging.getLogger(__name__)

# A person's zone and language are read from the cache on each page; saving their profile forgets them.
CACHE_SECONDS = 24 * 3600
# Paths that are not pages: they stay in UTC and never look at the session, so a shared cache may keep
# their answers (reading the user marks a response "Vary: Cookie").
NOT_PAGES = ("/api/", "/assets/")


@dataclass(frozen=True)
class ReaderSettings:
    zone: str = DEFAULT_ZONE
    zone_chosen: bool = False
    language: str = ""  # "" when none is chosen


def offered_language(code: str | None) -> str:
    """Return ``code`` if the site speaks it, else ""."""
    return code if code and code in dict(settings.LANGUAGES) else ""


def _cache_key(user_id: int) -> str:
    return f"reader:{user_id}"


def reader_settings(user) -> ReaderSettings:
    """Return the user's zone (and whether they chose it) and language; from the cache when it has them."""
    from turnbased.accounts.models import Profile

    try:
        cached = cache.get(_cache_key(user.pk))
    except CACHE_ERRORS:
        cached = None
    if cached is not None:
        return ReaderSettings(*cached)
    stored = Profile.objects.filter(user=user).values_list("time_zone", "time_zone_chosen", "language").first()
    if stored is None:
        found = ReaderSettings()
    else:
        zone, chosen, language = stored
        found = ReaderSettings(zone if is_zone_name(zone) else DEFAULT_ZONE, chosen if is_zone_name(zone) else False,
                               offered_language(language))
    with contextlib.suppress(*CACHE_ERRORS):
        cache.set(_cache_key(user.pk), [found.zone, found.zone_chosen, found.language], timeout=CACHE_SECONDS)
    return found


def forget_reader_settings(user_id: int) -> None:
    """Drop the cached settings once the profile changed."""
    try:
        cache.delete(_cache_key(user_id))
    except CACHE_ERRORS:
        logger.warning("the cached zone and language of user %s could not be dropped", user_id, exc_info=True)


def chosen_language(user) -> str:
    """Return the language ``user`` chose ("" for none, or for no user)."""
    if user is None or getattr(user, "pk", None) is None:
        return ""
    loaded = user._state.fields_cache if hasattr(user, "_state") else {}
    if "profile" in loaded:  # loaded with the user (a token's query, a table's seats): no query; None if it has none
        return offered_language(loaded["profile"].language) if loaded["profile"] is not None else ""
    return reader_settings(user).language


@contextlib.contextmanager
def for_reader(user):
    """Word and date everything inside the block for ``user`` (an email, a webhook): their zone and language.

    Without a chosen language the words stay in the active one: the requester's during a request (a
    password reset asked for in a Hungarian browser), English in a task.
    """
    if user is None or getattr(user, "pk", None) is None:
        zone = DEFAULT_ZONE
    else:
        zone = reader_settings(user).zone
    language = chosen_language(user) or translation.get_language() or settings.LANGUAGE_CODE
    with timezone.override(zoneinfo.ZoneInfo(zone)), translation.override(language):
        yield


def asks_for_a_language(request) -> bool:
    """Tell whether the request names the languages its reader accepts (an ``Accept-Language`` header)."""
    return bool(request.META.get("HTTP_ACCEPT_LANGUAGE", "").strip())


def activate_account_language(request, user) -> None:
    """Word an API answer in the account's language when the request asks for none (``Accept-Language``)."""
    if asks_for_a_language(request):
        return
    language = chosen_language(user) if user is not None and user.is_authenticated else ""
    if language and language != translation.get_language():
        translation.activate(language)
        request.LANGUAGE_CODE = language


class ReaderMiddleware:
    """Show a signed-in person's pages in their zone and, if they chose one, their language.

    Visitors, the API and game assets stay in UTC, in the language ``LocaleMiddleware`` chose (the
    switcher's cookie, else ``Accept-Language``). ``request.time_zone_offer`` is the browser's zone to offer
    (its page script left it in a cookie) while the person has not chosen one and it differs from theirs, else "".
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.time_zone_offer = ""
        if not request.path.startswith(NOT_PAGES) and request.user.is_authenticated:
            reader = reader_settings(request.user)
            if not reader.zone_chosen:
                request.time_zone_offer = zone_to_offer(request.COOKIES.get(BROWSER_ZONE_COOKIE), reader.zone)
            timezone.activate(zoneinfo.ZoneInfo(reader.zone))
            if reader.language and reader.language != translation.get_language():
                translation.activate(reader.language)
                request.LANGUAGE_CODE = reader.language
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
