"""Conditional reads: an ``ETag`` on every answer of a GET, and ``304 Not Modified`` for a client that has it.

A client polling a game (or its chat, its turns, any list) sends back the tag it last saw in
``If-None-Match``; while nothing it may see has changed it gets an empty 304 instead of the whole
answer again. The tag is a digest of the answer this caller would get (their own view: it says
nothing another viewer's answer would not), so it changes exactly when the answer does.

Every GET of the API is wrapped but the schema, its docs page and the game record (a download
that carries the moment it was made): tests/platform/api/test_conditional_reads.py walks the URL
configuration to check. The schema documents the header and the 304 of each from the wrapper
alone (``play.api.schema``).
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from rest_framework.response import Response

from turnbased.kit.db.json_codec import dumps

# How the schema describes a conditional read (``play.api.schema`` adds them to every one).
IF_NONE_MATCH = {
    "in": "header", "name": "If-None-Match", "schema": {"type": "string"},
    "description": "The ETag of an earlier answer: when nothing has changed since, the answer is 304 with no body.",
}
NOT_MODIFIED = {"description": "Not modified since the answer whose ETag was sent in If-None-Match."}
ETAG_HEADER = {
    "ETag": {"schema": {"type": "string"},
             "description": "A digest of this answer as you may see it: send it back in If-None-Match."},
}


def entity_tag(data, media_type: str) -> str:
    """Return the strong ETag of an answer: a digest of its data as the negotiated format carries it."""
    # Not sorted: an answer is built in the same order every time, and sorting a large view costs more than hashing it.
    text = dumps(data, default=str)
    digest = hashlib.blake2b(f"{media_type}\n{text}".encode(), digest_size=16).hexdigest()
    return f'"{digest}"'


def still_holds(tag: str, if_none_match: str) -> bool:
    """Tell whether ``If-None-Match`` names ``tag``, by the weak comparison (RFC 9110 §13.1.2): ``W/"x"`` is ``"x"``.

    If-None-Match always compares weakly (§13.1.2), and a proxy that compresses an answer (nginx's gzip) hands
    the client its tag weakened, so a client may well send back the tag with ``W/`` before it.
    """
    wanted = parse_etags(if_none_match)
    return "*" in wanted or tag.removeprefix("W/") in {sent.removeprefix("W/") for sent in wanted}


def conditional_read(get):
    """Wrap an API view's ``get``: tag its 200 answers, and answer 304 when the client's tag still holds."""

    @wraps(get)
    def read(self, request, *args, **kwargs):
        response = get(self, request, *args, **kwargs)
        if response.status_code != 200:
            return response
        tag = entity_tag(response.data, getattr(request, "accepted_media_type", "") or "")
        if still_holds(tag, request.headers.get("If-None-Match", "")):
            response = Response(status=304)
        response["ETag"] = tag
        # Each caller's own answer: no shared cache may keep it, and a client asks again each time.
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ["Authorization", "Cookie"])
        return response

    read.conditional = True  # for the schema: this answer has an ETag and may be a 304
    return read


def is_conditional(method) -> bool:
    """Tell whether a view method answers conditional reads (``conditional_read`` wraps it)."""
    return getattr(method, "conditional", False)
