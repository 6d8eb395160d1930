"""Every error answer under /api/ is a problem document (RFC 9457), whoever wrote it (docs/api.md, "Errors").

An error is written in many places: DRF's exception handler (``errors``), the guards that refuse a
request before any view (``request_guards``: a body too large, a body that is not JSON, a database away),
Django's own 404 and 500 (with ``DEBUG`` on, its HTML debug pages), a middleware that answers for itself.
Each writes its ``{"detail": ...}``; ``ProblemDetailsMiddleware``, the outermost, makes every one of them a
problem document on the way out: ``type``, ``title`` and ``status`` first, then what the answer said
(``detail``, ``errors``, ``retry_after``, a stale move's ``seq`` and ``game``) as extension members. An
answer that is not JSON at all (Django's debug pages) becomes one with a ``detail`` of its status.

The document goes as ``application/problem+json``, unless the request's ``Accept`` admits
``application/json`` and not the problem type (a client that checks the media type it asked for): then as
``application/json``, the same document. ``ProblemAwareNegotiation`` makes DRF take an ``Accept`` naming
only ``application/problem+json`` as asking for JSON, instead of refusing the request with a 406 before it
is even read: such a client gets the error of its request, and a success as JSON.
"""

from __future__ import annotations

import json
from http import HTTPStatus

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from rest_framework.negotiation import DefaultContentNegotiation

from turnbased.kit.db.json_codec import dumps
from turnbased.kit.http.request_guards import is_api

PROBLEM_MEDIA_TYPE = "application/problem+json"
JSON_MEDIA_TYPE = "application/json"
# RFC 9457 §4.2.1: a problem with no more meaning than its HTTP status; its title is the status's phrase.
BLANK_TYPE = "about:blank"
PROBLEM_MEMBERS = ("type", "title", "status")

# The title of each status the service sends, as RFC 9110 names it; RFC 9457 lets it follow the reader's language.
TITLES = {
    400: pgettext_lazy("HTTP status", "Bad Request"),
    401: pgettext_lazy("HTTP status", "Unauthorized"),
    403: pgettext_lazy("HTTP status", "Forbidden"),
    404: pgettext_lazy("HTTP status", "Not Found"),
    405: pgettext_lazy("HTTP status", "Method Not Allowed"),
    406: pgettext_lazy("HTTP status", "Not Acceptable"),
    409: pgettext_lazy("HTTP status", "Conflict"),
    413: pgettext_lazy("HTTP status", "Content Too Large"),
    414: pgettext_lazy("HTTP status", "URI Too Long"),
    415: pgettext_lazy("HTTP status", "Unsupported Media Type"),
    417: pgettext_lazy("HTTP status", "Expectation Failed"),
    422: pgettext_lazy("HTTP status", "Unprocessable Content"),
    429: pgettext_lazy("HTTP status", "Too Many Requests"),
    431: pgettext_lazy("HTTP status", "Request Header Fields Too Large"),
    500: pgettext_lazy("HTTP status", "Internal Server Error"),
    501: pgettext_lazy("HTTP status", "Not Implemented"),
    503: pgettext_lazy("HTTP status", "Service Unavailable"),
}
# The detail of an error answer that said none (an HTML page under /api/, Django's debug 404 with DEBUG on).
DETAILS = {
    400: gettext_lazy("Bad request."),
    403: gettext_lazy("You may not do this."),
    404: gettext_lazy("Not found."),
    500: gettext_lazy("Server error."),
}


def title_of(status: int) -> str:
    """Return the title of a status, in the active language (the standard phrase for one the service never sends)."""
    if status in TITLES:
        return str(TITLES[status])
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return gettext("Error")


def problem(status: int, detail: str, **extensions) -> dict:
    """Return the problem document of an error: ``type``, ``title``, ``status``, ``detail``, then ``extensions``."""
    return {"type": BLANK_TYPE, "title": title_of(status), "status": status, "detail": str(detail), **extensions}


def as_problem(status: int, said) -> dict:
    """Return what an error answer ``said`` (its JSON, or None when it was not a JSON object) as a problem document."""
    if not isinstance(said, dict):
        said = {}
    detail = said.get("detail")
    if not isinstance(detail, str):
        detail = str(DETAILS.get(status) or title_of(status))
    extensions = {key: value for key, value in said.items() if key not in (*PROBLEM_MEMBERS, "detail")}
    document = problem(status, detail, **extensions)
    if isinstance(said.get("type"), str):  # a problem of its own kind keeps its type and title
        document["type"] = said["type"]
        document["title"] = str(said.get("title") or document["title"])
    return document


def media_type_for(request) -> str:
    """Return the media type to send a problem as: the problem type, unless Accept admits JSON and not it."""
    try:
        if request.accepts(PROBLEM_MEDIA_TYPE) or not request.accepts(JSON_MEDIA_TYPE):
            return PROBLEM_MEDIA_TYPE
    except ValueError:  # an Accept header too broken to read: it asks for nothing in particular
        return PROBLEM_MEDIA_TYPE
    return JSON_MEDIA_TYPE


def _said(response):
    """Return the JSON object an answer holds, or None (not JSON, or not an object)."""
    if not response.get("Content-Type", "").partition(";")[0].strip().endswith(("/json", "+json")):
        return None
    try:
        said = json.loads(response.content)
    except ValueError:
        return None
    return said if isinstance(said, dict) else None


class ProblemDetailsMiddleware:
    """Make every error answer under /api/ a problem document, whatever wrote it (the outermost middleware).

    The answer keeps its headers (``Retry-After``, ``WWW-Authenticate``, ``Allow``, the deprecation headers,
    ``Content-Language``); its title is worded in the answer's language, else the request's.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or response.streaming or not is_api(request):
            return response
        language = response.get("Content-Language") or translation.get_language_from_request(request)
        with translation.override(language):
            document = as_problem(response.status_code, _said(response))
        response.content = dumps(document).encode()
        response["Content-Type"] = media_type_for(request)
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response


class ProblemAwareNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, taking ``application/problem+json`` in ``Accept`` as asking for JSON.

    Every answer of the API is JSON, and its errors are problem documents: a client that accepts only those
    is not refused with a 406 before its request is read (RFC 9110 §12.5.1 lets a server disregard Accept).
    """

    def get_accept_list(self, request):
        return [JSON_MEDIA_TYPE + accepted[len(PROBLEM_MEDIA_TYPE):] if accepted.startswith(PROBLEM_MEDIA_TYPE)
                else accepted for accepted in super().get_accept_list(request)]
