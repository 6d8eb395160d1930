"""Refuse oversized and malformed requests with a 4xx before they reach a view, JSON under /api/.

Python's json module recurses once per nesting level, so ``[[[[...]]]]`` deep enough raises
RecursionError (a server error) instead of ValueError; bodies are refused by size before
anything reads them; a JSON body sent to the API that cannot be read is refused even where the
view would never read it (a POST to start/ with a broken body must not start the game); and
Django's own 400/403/404/500 answers become ``{"detail": ...}`` for the API (a database outage
answers 503).

A request whose query string, headers, form or JSON holds what is not text (bytes that are
not UTF-8, a lone surrogate: ``text_input``) is refused with a 400 that says where, before anything reads
it (issue 42).

Every ``detail`` is worded in the reader's language; the middlewares here run before Django's
``LocaleMiddleware`` (a body is refused before anything reads it), so they choose it themselves from
the request (the language cookie, else ``Accept-Language``).
"""

from __future__ import annotations

import json
import logging
import sys
from functools import wraps

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.parsers import JSONParser

from turnbased.kit.texts import text_input

API_PREFIX = "/api/"

logger = logging.getLogger(__name__)


class JSONTooDeep(ValueError):
    """The JSON nests arrays and objects deeper than ``settings.MAX_JSON_DEPTH``."""


def _deeper_than(value, limit: int) -> bool:
    """Tell whether ``value`` nests lists and dicts more than ``limit`` levels (without recursing)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _too_deep() -> str:
    return _("The JSON is nested more than %(levels)s levels deep.") % {"levels": settings.MAX_JSON_DEPTH}


def checked_depth(value):
    """Return ``value``; raise JSONTooDeep when it nests deeper than the setting allows."""
    if _deeper_than(value, settings.MAX_JSON_DEPTH):
        raise JSONTooDeep(_too_deep())
    return value


def loads(text: str | bytes):
    """Parse JSON like ``json.loads``, raising ValueError (never RecursionError) for any bad input.

    A string that is not text (a lone surrogate, ``"\\ud800"``) is bad input too: ``text_input.InvalidText``.
    """
    try:
        value = checked_depth(json.loads(text))
        text_input.check_json(value)
        return value
    except RecursionError:
        raise JSONTooDeep(_too_deep()) from None


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, answering 400 to JSON nested too deeply, in an unknown encoding or holding what is not
    text."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            value = checked_depth(super().parse(stream, media_type, parser_context))
            text_input.check_json(value)
            return value
        except RecursionError:
            raise ParseError(_("JSON parse error - %(detail)s") % {"detail": _too_deep()}) from None
        except (JSONTooDeep, text_input.InvalidText) as error:
            raise ParseError(_("JSON parse error - %(detail)s") % {"detail": error}) from None


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def in_the_requests_language(request):
    """Word what the block writes in the request's language: for the middlewares that run before LocaleMiddleware."""
    return translation.override(translation.get_language_from_request(request))


def _body_too_large(request) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    with in_the_requests_language(request):
        detail = _("The request body is larger than the limit of %(limit)s bytes.") % {"limit": limit}
        if is_api(request):
            return JsonResponse({"detail": detail}, status=413)
        return HttpResponse(render_to_string("413.html", {"detail": detail}), status=413)


MAIL_WEBHOOK_PREFIX = "/anymail/"


class RequestBodyLimitMiddleware:
    """Answer 413 to a body over DATA_UPLOAD_MAX_MEMORY_SIZE from its Content-Length, unread.

    Django checks the limit only where it reads ``request.body`` (and answers an HTML 400); DRF's
    parsers read the stream directly and never check it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.path.startswith(MAIL_WEBHOOK_PREFIX):
            # A provider posts a whole message: up to the inbound mail limit, encoded a third bigger.
            limit = settings.MAIL_WEBHOOK_MAX_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads no body for an unreadable length
        if limit is not None and length > limit:
            return _body_too_large(request)
        return self.get_response(request)


UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class InvalidTextMiddleware:
    """Answer 400 to a request whose query string, headers or form is not text (issue 42).

    Django decodes each of them leniently, a U+FFFD for every byte that is not UTF-8 (or not in the charset
    the request declares), and a declared UTF-7 turns ``+2AA-`` into a lone surrogate that no answer, log
    or database can encode; the client is told instead, in the API's error shape under /api/ and on a plain
    400 page elsewhere. JSON bodies are checked where they are parsed (``loads``, ``BoundedJSONParser``, and
    ``MalformedJSONMiddleware`` before any view); a mail provider's form is a message in its own charset,
    read leniently by the mail app (``only_for_a_configured_mail_provider`` checks the provider's JSON).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with in_the_requests_language(request):
            problem = _invalid_text(request)
            if problem is not None:
                return _json_or_page(request, 400, problem, lambda: HttpResponse(
                    render_to_string("400.html", {"detail": problem}), status=400))
        return self.get_response(request)


def _raw(value: str) -> bytes:
    """Return a WSGI string as the bytes that came in (PEP 3333: Latin-1); the test client may pass any string."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass")  # a lone surrogate stays one, and does not decode


def _invalid_text(request) -> str | None:
    """Return where the request's query string, headers or form is not text, or None.

    Its address needs no check: Django percent-encodes again what is not UTF-8 in it, so a view reads ASCII that
    names nothing (a 404).
    """
    encoding = request.encoding or settings.DEFAULT_CHARSET  # Django decodes the query and a multipart form in it
    problem = text_input.query_problem(_raw(request.META.get("QUERY_STRING", "")), encoding)
    if problem is not None:
        return problem
    for name, value in request.headers.items():
        if (problem := text_input.header_problem(name, _raw(value))) is not None:
            return problem
    if request.method not in UNSAFE_METHODS or request.path.startswith(MAIL_WEBHOOK_PREFIX):
        return None
    if request.content_type == "application/x-www-form-urlencoded":
        return text_input.form_problem(request.body, request.encoding)  # within the limit: RequestBodyLimitMiddleware
    if request.content_type == "multipart/form-data":
        return text_input.multipart_problem(request.body, _raw(request.META.get("CONTENT_TYPE", "")), encoding)
    return None


def _unreadable_json(request) -> tuple[int, str] | None:
    """Return the status and why the request's body cannot be read as JSON, or None (no body, or good JSON)."""
    if request.method not in UNSAFE_METHODS:
        return None
    body = request.body  # within DATA_UPLOAD_MAX_MEMORY_SIZE: RequestBodyLimitMiddleware runs first
    if not body:
        return None  # no body at all: the view decides whether it needs one
    if request.content_type != "application/json":
        # Every body the API reads is JSON; a view that reads none (resign, revoke, delete) must not act on
        # a request whose client sent something else (issue 42). DRF's own words, as its parsers refuse it.
        return 415, str(UnsupportedMediaType(request.content_type).detail)
    try:
        loads(body.decode(request.content_params.get("charset") or "utf-8"))
    except (LookupError, UnicodeDecodeError) as error:
        return 400, _("JSON parse error - the body is not text in its declared encoding (%(error)s).") % {"error": error}
    except ValueError as error:  # the parser's own words (English), or ours for a body nested too deep
        return 400, _("JSON parse error - %(detail)s") % {"detail": error}
    return None


class MalformedJSONMiddleware:
    """Answer 400 to an API request whose JSON body cannot be read, 415 to one whose body is not JSON, before
    any view acts on the request.

    DRF parses a body only when the view reads it, so a view that takes no body (start, leave, resign)
    would otherwise act on a request its client got wrong.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_api(request):
            with in_the_requests_language(request):
                problem = _unreadable_json(request)
            if problem is not None:
                status, detail = problem
                return JsonResponse({"detail": detail}, status=status)
        return self.get_response(request)


def _json_or_page(request, status: int, detail: str, page):
    if is_api(request):
        return JsonResponse({"detail": detail}, status=status)
    return page()


def bad_request(request, exception):
    """Django's 400 (a malformed request, too many fields, a disallowed host), JSON under /api/."""
    return _json_or_page(request, 400, _("Bad request."), lambda: defaults.bad_request(request, exception))


def permission_denied(request, exception):
    return _json_or_page(request, 403, _("You may not do this."),
                         lambda: defaults.permission_denied(request, exception))


def page_not_found(request, exception):
    """Django's 404 for an address no view answers, JSON under /api/."""
    return _json_or_page(request, 404, _("Not found."), lambda: defaults.page_not_found(request, exception))


# Seconds a client is asked to wait before trying again while the database is away (a restart
# or a failover takes seconds; the web and worker processes reconnect by themselves).
DATABASE_RETRY_AFTER = 5


def server_error(request):
    """Django's 500, JSON under /api/; a 503 with Retry-After when the database could not be reached.

    Django calls this while handling the exception, so ``sys.exc_info()`` names it. A database that is
    down or restarting is not a fault of the request: the client may simply try again, and a move that
    failed this way was not saved (a move's answer reads nothing after its commit).
    """
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return _database_unavailable(request)
    return _json_or_page(request, 500, _("Server error."), lambda: defaults.server_error(request))


class DatabaseOutageMiddleware:
    """A database outage is a 503 to retry whatever ``DEBUG`` says (issue 27).

    With ``DEBUG`` off Django answers an unhandled exception through ``server_error`` above. With it on
    (``make run``) Django answers with its debug page instead, a 500 of hundreds of kilobytes of HTML even to
    an API client, before any handler is asked. Django signals every such exception first
    (``got_request_exception``): the receiver below marks a request whose exception was the database's, and
    this middleware, the outermost, answers it the 503 in place of the page.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "_met_a_database_outage", False):
            return _database_unavailable(request)
        return response


def _note_a_database_outage(sender, request=None, **kwargs) -> None:
    if request is not None and isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        request._met_a_database_outage = True


got_request_exception.connect(_note_a_database_outage, dispatch_uid="turnbased.kit.http.request_guards.database_outage")


def _database_unavailable(request) -> HttpResponse:
    detail = _("The service is briefly unavailable; nothing was saved. Try again in a few seconds.")
    if is_api(request):
        response = JsonResponse({"detail": detail}, status=503)
    else:
        # Rendered without a request context: the context processors would reach for the database.
        response = HttpResponse(render_to_string("503.html", {"detail": detail}), status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


# ANYMAIL keys that configure anymail in general, not a provider.
ANYMAIL_GENERAL_SETTINGS = {"REQUESTS_TIMEOUT", "IGNORE_UNSUPPORTED_FEATURES", "IGNORE_RECIPIENT_STATUS",
                            "SEND_DEFAULTS", "DEBUG_API_REQUESTS"}


def only_for_a_configured_mail_provider(view):
    """Answer 404 from a provider webhook unless ANYMAIL configures that provider.

    Without settings anymail's views fail (a server error) or, worse, accept unauthenticated calls.
    """

    @wraps(view)
    def webhook(request, *args, **kwargs):
        # The settings always give anymail its request timeout; a provider is configured by anything more.
        if not set(settings.ANYMAIL) - ANYMAIL_GENERAL_SETTINGS:
            raise Http404("No mail provider is configured.")
        # Read the body here, under the webhook's own limit (checked by RequestBodyLimitMiddleware):
        # Django's request.body would refuse anything over the 1 MiB of ordinary requests.
        request._body = request.read()
        # anymail's parsers would hand a lone surrogate on to the database (the envelope's recipient, say).
        problem = text_input.surrogate_escapes_problem(request._body)
        if problem is not None:
            logger.info("mail webhook %s sent JSON that is not text: %s", request.path, problem)
            return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
        try:
            return view(request, *args, **kwargs)
        except ImproperlyConfigured as error:  # another provider than the one configured
            logger.warning("mail webhook %s called, but its provider is not configured: %s", request.path, error)
            raise Http404("This mail provider is not configured.") from None
        except ValueError as error:  # a body the provider's parser cannot read (malformed JSON, say)
            logger.info("mail webhook %s could not read its body: %s", request.path, error)
            return HttpResponse("The body could not be read.", status=400, content_type="text/plain")

    return webhook
