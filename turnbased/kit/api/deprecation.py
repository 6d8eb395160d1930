"""Deprecations of the API, named in one place, and the headers that announce them on every answer concerned.

The policy (docs/api.md, "Versioning and deprecation"): version 1 changes only by additions;
anything that will stop working is announced here first, at least ``MINIMUM_NOTICE_DAYS`` before
it goes. Every answer to a request that uses it then carries

- ``Deprecation: @<seconds since 1970>`` (RFC 9745): since when it is deprecated;
- ``Sunset: <HTTP date>`` (RFC 8594): from when it may stop working;
- ``Link: <url>; rel="deprecation"; type="text/html"`` (RFC 9745): where the notice says what to use instead.

A view method opts in with ``@deprecated(NOTICE, when=...)``; ``when`` tells whether a request uses
the deprecated thing (a query parameter, say, or an answer it would get), and without it the whole
endpoint is deprecated. The schema marks what is deprecated and documents the headers
(``turnbased.kit.api.schema``): the parameter, the answer's key, or the operation.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import wraps
from typing import Callable

from django.utils.http import http_date, parse_http_date

MINIMUM_NOTICE_DAYS = 180


@dataclass(frozen=True)
class Deprecated:
    """One thing on its way out of the API: what, what replaces it, since when, until when, and its notice."""

    what: str
    instead: str
    deprecated_on: date
    sunset_on: date
    notice: str  # a path on this site (or a whole URL) where a person reads about it
    parameter: str | None = None  # a query parameter that is deprecated, for the schema to mark
    answer: str | None = None  # a key of the answer that is deprecated (the serializer marks it in the schema)

    def __post_init__(self):
        if self.sunset_on - self.deprecated_on < timedelta(days=MINIMUM_NOTICE_DAYS):
            raise ValueError(f"{self.what}: the policy gives at least {MINIMUM_NOTICE_DAYS} days' notice")

    def is_past_sunset(self, today: date | None = None) -> bool:
        """Tell whether the sunset has come (UTC): what was announced may stop working from that day."""
        return (today or datetime.now(timezone.utc).date()) >= self.sunset_on

    def headers(self, request) -> dict[str, str]:
        """Return the Deprecation, Sunset and Link headers, the notice as a whole URL for this request's site."""
        since = calendar.timegm(self.deprecated_on.timetuple())
        sunset = calendar.timegm(self.sunset_on.timetuple())
        notice = self.notice if "://" in self.notice else request.build_absolute_uri(self.notice)
        return {
            "Deprecation": f"@{since}",
            "Sunset": http_date(sunset),
            "Link": f'<{notice}>; rel="deprecation"; type="text/html"',
        }


def uses_query_parameter(name: str) -> Callable:
    """Return a test of whether a request sends the query parameter ``name`` (for ``deprecated(when=...)``)."""
    return lambda request: name in request.query_params


def deprecated(notice: Deprecated, *, when: Callable | None = None):
    """Wrap an API view method: its answers to requests that use ``notice``'s thing carry the deprecation headers.

    Errors too: a client whose request is refused still learns that what it sent is going away.
    """

    def decorate(method):
        @wraps(method)
        def answer(self, request, *args, **kwargs):
            try:
                response = method(self, request, *args, **kwargs)
            except Exception as error:  # answered here as DRF would answer it, so the answer can carry the notice
                response = self.handle_exception(error)
            if when is None or when(request):
                _announce(response, notice.headers(request))
            return response

        answer.deprecations = (*getattr(method, "deprecations", ()), notice)
        return answer

    return decorate


def _announce(response, headers: dict[str, str]) -> None:
    """Add a notice's headers to the answer; with several notices, every Link, and the earliest moments."""
    for name, value in headers.items():
        if not response.has_header(name):
            response[name] = value
        elif name == "Link":
            response[name] = f"{response[name]}, {value}"
        elif name == "Deprecation":
            response[name] = min(response[name], value, key=lambda moment: int(moment[1:]))
        elif name == "Sunset":
            response[name] = min(response[name], value, key=parse_http_date)


def deprecations_of(method) -> tuple[Deprecated, ...]:
    """Return the deprecations a view method announces (for the schema)."""
    return getattr(method, "deprecations", ())


# -- what is deprecated now -------------------------------------------------------------------------
# Each entry is listed in docs/api.md under "Deprecated now" (tests/platform/api/test_deprecation.py checks).

# The first deprecations, announced together on the day lists began to page by cursor.
FIRST_NOTICE = date(2026, 12, 1)
FIRST_SUNSET = date(2027, 6, 1)


def _numbered_pages(endpoint: str, notice: str) -> Deprecated:
    """The ``page`` parameter of a list that pages by cursor now, as every list does."""
    return Deprecated(what=f"the page parameter of GET {endpoint} (numbered pages)",
                      instead="cursor: follow next and previous, as on every list",
                      deprecated_on=FIRST_NOTICE, sunset_on=FIRST_SUNSET, notice=notice, parameter="page")


RATINGS_PAGE = _numbered_pages("/api/ratings/", "/api/docs/#/ratings/ratings_list")
ARCHIVE_PAGE = _numbered_pages("/api/players/{username}/games/", "/api/docs/#/players/players_games_list")
MESSAGES_LIMIT = Deprecated(
    what="the limit parameter of GET /api/games/{game_id}/messages/",
    instead="page_size, as on every list",
    deprecated_on=FIRST_NOTICE,
    sunset_on=FIRST_SUNSET,
    notice="/api/docs/#/chat/messages_list",
    parameter="limit",
)

# A move's answer carries what the mover needs (``presenters.move_answer``); the rest of the game is the GET's.
# Until the sunset a move sent without ``Prefer: return=minimal`` still gets the whole game besides; from it on,
# every move gets the mover's answer.
WHOLE_MOVE_ANSWER = Deprecated(
    what="the whole game (game) in the answer to POST /api/games/{game_id}/moves/",
    instead="Prefer: return=minimal, the mover's answer (the position, whose turn, my view, my legal moves, "
            "the result); GET /api/games/{game_id}/ for the rest of the game",
    deprecated_on=date(2026, 12, 2),
    sunset_on=date(2027, 6, 2),
    notice="/api/docs/#/moves/moves_create",
    answer="game",
)

DEPRECATIONS = (RATINGS_PAGE, ARCHIVE_PAGE, MESSAGES_LIMIT, WHOLE_MOVE_ANSWER)
