"""JSON in and out of the hot paths with orjson: game snapshots and logged moves, API answers, ETags.

A late Carcassonne snapshot is 6 KB and every move reads and writes one; the API answers a view of
the same size. Python's ``json`` spends tenths of a millisecond on each, several times per request,
and that share grows with the board. orjson does the same in a fraction of it.

The same values as Python's ``json`` (tests/platform/kit/db/test_json_codec.py), or it gives way to it:

* integers beyond 64 bits: orjson writes none and reads them back as floats, so a text with a run
  of 19 or more digits is read by ``json`` and a value orjson refuses is written by it;
* keys that are not strings are written as strings, as ``json`` does;
* the text may differ where JSON allows it: ``1e16`` for ``1e+16``; a float that is not a number
  becomes ``null`` where DRF's strict renderer would fail the request.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from django.db import models
from django.db.backends.postgresql.psycopg_any import Jsonb
from django.db.models.fields.json import KeyTransform
from rest_framework import renderers

_OPTIONS = orjson.OPT_NON_STR_KEYS
# A number orjson could read wrong (an integer wider than 64 bits): such a text is read by ``json``.
_WIDE_NUMBER = re.compile(r"\d{19}")


def dumps(value: Any, *, default=None) -> str:
    """Return ``value`` as compact JSON text."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, default=default, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """Return the value of JSON ``text``."""
    if isinstance(text, bytes):
        text = text.decode()
    if _WIDE_NUMBER.search(text):
        return json.loads(text)
    return orjson.loads(text)


class FastJSONField(models.JSONField):
    """A ``JSONField`` read and written with orjson (for the snapshot and the log, which every move touches).

    ``JSONField`` prepares every value as before (expressions, lookups); only the text of a plain value
    is written by orjson, and read back by it unless the field has an encoder or decoder of its own.
    """

    def from_db_value(self, value, expression, connection):
        if self.decoder is not None or not isinstance(value, str) or isinstance(expression, KeyTransform):
            return super().from_db_value(value, expression, connection)
        try:
            return loads(value)
        except orjson.JSONDecodeError:
            return super().from_db_value(value, expression, connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        adapted = super().get_db_prep_value(value, connection, prepared)
        if self.encoder is None and isinstance(adapted, Jsonb):  # a plain value on its way to PostgreSQL
            return Jsonb(adapted.adapted, dumps=dumps)
        return adapted


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer, writing compact answers with orjson; indented ones (asked for) as DRF does.

    Dates and times, decimals, lazy texts and the like still go through DRF's encoder, so an answer
    carries the same text as before (but for the float spellings in the module's docstring).
    """

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if (self.get_indent(accepted_media_type, renderer_context or {}) is not None or self.ensure_ascii
                or not self.compact):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            text = orjson.dumps(data, default=self.encoder_class().default,
                                option=_OPTIONS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)
        except orjson.JSONEncodeError:  # an integer wider than 64 bits
            return super().render(data, accepted_media_type, renderer_context)
        # As DRF does: these two are valid JSON but end a line in JavaScript.
        return text.replace("\u2028".encode(), b"\\u2028").replace("\u2029".encode(), b"\\u2029")
