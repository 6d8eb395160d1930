"""Cursor pagination for every list of the API: ``?cursor=`` and ``?page_size=``, one answer shape.

Every list answers ``{"next": url|null, "previous": url|null, "results": [...]}`` (some lists add
keys of their own beside these, such as the game's ``seq``). ``next`` and ``previous`` are whole
URLs to follow as they are; the cursor in them is opaque. Each list walks an order that does not
change while a client pages through it (an id, a seq, a moment that is written once), so a walk
sees every item once even while items are added.

DRF's ``CursorPagination`` does the walking; this module makes its input strict and gives the
schema its parameters and page components. A cursor the schema's pattern refuses (not base64, or
empty) and a bad page size answer 400; a cursor of the right shape that this list did not give out
answers 404, as DRF does, since it names a page that is not there (issue 27: the schema says what
a cursor looks like, and a request it allows is not refused as malformed). Each cursor given out is
signed for the list it pages (issue 42: a forged one, even of a position the list could hold, answered a
page as if given out), so any other answers 404; a forged cursor's position is checked against the
column it is compared with before any SQL runs as well.
"""

from __future__ import annotations

import binascii
import re
from base64 import b64decode, b64encode
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.utils.urls import replace_query_param

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
CURSOR = "cursor"
PAGE_SIZE = "page_size"
# What a cursor looks like: base64, as DRF writes it (the schema's pattern for ``cursor``).
CURSOR_PATTERN = r"^[A-Za-z0-9+/]+={0,2}$"
BAD_CURSOR = gettext_lazy("The cursor is not one this list gave out: follow next or previous as they are, or start "
                          "without one.")


def _bad(name: str, message: str) -> ValidationError:
    return ValidationError({name: [str(message)]})


class CursorPage(CursorPagination):
    """DRF's cursor pagination with the project's parameters, strict about what it is sent."""

    cursor_query_param = CURSOR
    page_size_query_param = PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    template = None  # the browsable API shows next and previous in the body already

    def __init__(self, *, ordering: tuple[str, ...], page_size: int = DEFAULT_PAGE_SIZE):
        self.ordering = ordering
        self.page_size = page_size
        self._position_field = None
        self._list_path = ""

    def get_page_size(self, request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # ASCII digits only: str.isdigit() also takes '²', which int() then refuses.
        if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= self.max_page_size:
            raise _bad(PAGE_SIZE, _("page_size must be a whole number from 1 to %(largest)s.")
                       % {"largest": self.max_page_size})
        return int(raw)

    def paginate_queryset(self, queryset: QuerySet, request, view=None) -> list:
        self._position_field = _field_of(queryset, self.ordering[0].lstrip("-"))
        self._list_path = request.path  # what the cursors it gives out are signed for
        return super().paginate_queryset(queryset, request, view)

    def encode_cursor(self, cursor):
        """Return the URL of the page at ``cursor``: DRF's cursor, signed for this list (``SIGNATURE``)."""
        tokens = {}
        if cursor.offset != 0:
            tokens["o"] = str(cursor.offset)
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.position is not None:
            tokens["p"] = cursor.position
        tokens[SIGNATURE] = signature_of(self._list_path, urlencode(tokens))
        encoded = b64encode(urlencode(tokens).encode("ascii")).decode("ascii")
        return replace_query_param(self.base_url, self.cursor_query_param, encoded)

    def decode_cursor(self, request):
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is not None and not re.fullmatch(CURSOR_PATTERN, encoded):
            raise _bad(CURSOR, BAD_CURSOR)
        if encoded is not None and not _as_given_out(encoded, request.path):
            raise NotFound(BAD_CURSOR)
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise NotFound(BAD_CURSOR) from None
        if cursor is not None and cursor.position is not None:
            # The position is compared with a column in SQL: a forged one must not reach the database as a
            # value of the wrong type (a server error) or one beyond the column's range.
            try:
                value = self._position_field.to_python(cursor.position)
                self._position_field.run_validators(value)
            except (DjangoValidationError, TypeError, ValueError, OverflowError):
                raise NotFound(BAD_CURSOR) from None
            # A moment without its zone would be read in the server's, with a warning: no cursor given out lacks one.
            if value is None or (isinstance(value, datetime) and value.tzinfo is None):
                raise NotFound(BAD_CURSOR)
        return cursor


# What a cursor given out holds: an offset, a direction, a position, each at most once (issue 27: an empty
# cursor, or one of other keys, was read as no cursor at all and answered the first page), and last its signature.
_CURSOR_KEYS = frozenset({"o", "r", "p"})
SIGNATURE = "s"


def signature_of(list_path: str, tokens: str) -> str:
    """Return the signature of a cursor's tokens for the list at ``list_path`` (a keyed hash: the secret key)."""
    return salted_hmac("turnbased.kit.api.pagination.cursor", f"{list_path}?{tokens}", algorithm="sha256").hexdigest()[:24]


def _as_given_out(encoded: str, list_path: str) -> bool:
    """Tell whether ``encoded`` is a cursor this list gave out: of its shape and signed for it (values checked after)."""
    try:
        fields = parse_qsl(b64decode(encoded.encode("ascii"), validate=True).decode("ascii"), keep_blank_values=True,
                           strict_parsing=True)
    except (ValueError, UnicodeError, binascii.Error):
        return False
    if not fields or fields[-1][0] != SIGNATURE:
        return False
    tokens, (_, signature) = fields[:-1], fields[-1]
    keys = [key for key, _value in tokens]
    return (set(keys) <= _CURSOR_KEYS and len(keys) == len(set(keys))
            and constant_time_compare(signature, signature_of(list_path, urlencode(tokens))))


def _field_of(queryset: QuerySet, name: str):
    """Return the model field or annotation's output field that a list is ordered by."""
    if name == "pk":
        return queryset.model._meta.pk
    annotation = queryset.query.annotations.get(name)
    if annotation is not None:
        return annotation.output_field
    try:
        return queryset.model._meta.get_field(name)
    except FieldDoesNotExist:
        raise AssertionError(f"a list ordered by {name!r}, which is neither a field nor an annotation") from None


@dataclass(frozen=True)
class Page:
    """One page of a list: its items, and the links to the pages before and after it."""

    items: list
    next: str | None
    previous: str | None

    def body(self, results: list, **extra: Any) -> dict:
        """Return the answer: the links, the results (the items as the client sees them), and any keys of the list's own."""
        return {"next": self.next, "previous": self.previous, "results": results, **extra}


def paginate(request, queryset: QuerySet, *, ordering: tuple[str, ...], page_size: int = DEFAULT_PAGE_SIZE) -> Page:
    """Return the page of ``queryset`` that the request's cursor and page size ask for, in ``ordering``.

    ``ordering`` must be an order the list keeps while a client walks it: its first field written
    once (an id, a seq, a creation time) and not null; ties on it are told apart by their place.
    """
    paginator = CursorPage(ordering=ordering, page_size=page_size)
    items = paginator.paginate_queryset(queryset, request)
    return Page(items=items, next=paginator.get_next_link(), previous=paginator.get_previous_link())


# -- the schema ---------------------------------------------------------------------------------


def cursor_parameters(page_size: int = DEFAULT_PAGE_SIZE) -> list[OpenApiParameter]:
    """Return the query parameters every list takes, for ``extend_schema(parameters=...)``."""
    return [
        OpenApiParameter(CURSOR, {"type": "string", "pattern": CURSOR_PATTERN},
                         description="Where to go on: take it from the next or previous link of an earlier answer "
                                     "(opaque); leave it out for the first page. One this list did not give out "
                                     "answers 404."),
        OpenApiParameter(PAGE_SIZE, {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE,
                                     "default": page_size}, description="How many results a page holds."),
    ]


def page_of(name: str, item: serializers.Serializer | type, *, description: str = "", **extra_fields) -> serializers.Serializer:
    """Return a page of ``item`` as a schema component called ``name``: next, previous, results and ``extra_fields``."""
    results = item if isinstance(item, serializers.BaseSerializer) else item(many=True, help_text=description)
    return inline_serializer(name, {
        "next": serializers.URLField(allow_null=True, help_text="The next page, to fetch as it is; null on the last."),
        "previous": serializers.URLField(allow_null=True,
                                         help_text="The previous page, to fetch as it is; null on the first."),
        "results": results,
        **extra_fields,
    })
