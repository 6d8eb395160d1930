"""``Idempotency-Key`` on the API's creates: a request sent again under the same key is answered as the
first was, and nothing is done twice (docs/api.md, "Sending a request again").

A client that lost an answer (a timeout, a dropped connection, a crash) cannot know whether its request
was carried out; sending it again under the same key is always safe:
- the key's row is inserted in the same transaction as everything the request does, so the request and
  its row are committed together or not at all: no crash between them leaves one without the other;
- a second request with the key while the first is in flight waits on the row's unique index, then
  replays the first's answer when it commits (or runs itself if the first failed);
- the first answer, if a success (2xx), is kept and replayed with ``Idempotent-Replayed: true``: its
  status, body and ``Location``. A failure keeps nothing (a failed request changes nothing): sending it
  again tries again;
- the same key with another method, path or body is refused (422): it names a different request.

Keys are kept at least ``IDEMPOTENCY_KEEP_HOURS`` (24 h; the hourly prune deletes older ones), per account.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from collections.abc import Callable

from cryptography.fernet import Fernet, InvalidToken
from django.db import IntegrityError, transaction
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from turnbased.idempotency.models import IdempotentRequest
from turnbased.kit.api.idempotency_key import HEADER, KEY_PATTERN, REPLAYED_HEADER
from turnbased.kit.api.input import UnprocessableInput

_KEY = re.compile(KEY_PATTERN)
_CONSTRAINT = "idempotent_request_unique_key"
# A row can vanish between a conflict and its read only by the prune, past its keeping time: try again.
_ATTEMPTS = 3


class AnswerLost(exceptions.APIException):
    """The key was used, but its answer can no longer be opened (the server's secret key changed)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("This Idempotency-Key was used already, and its answer can no longer be "
                                  "replayed: use a new key if you mean a new request.")
    default_code = "idempotency_answer_lost"


def key_of(request) -> str | None:
    """Return the request's ``Idempotency-Key``, None without one; a malformed one is refused (400)."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not _KEY.match(key):
        raise exceptions.ValidationError({HEADER: [gettext(
            "The Idempotency-Key header must be 1 to 100 visible ASCII characters, such as a UUID.")]})
    return key


def idempotent(view_method: Callable) -> Callable:
    """Make an API view's create method honour ``Idempotency-Key`` (the schema documents it: play/api/schema.py)."""

    @functools.wraps(view_method)
    def create(view, request, *args, **kwargs):
        key = key_of(request)
        if key is None:
            return view_method(view, request, *args, **kwargs)
        return run_once(request, request.user, key, lambda: view_method(view, request, *args, **kwargs))

    create.idempotent = True
    return create


def keyed(view_method: Callable) -> Callable:
    """Mark a view method that honours ``Idempotency-Key`` its own way, for the schema (a move: the game's log
    keeps the key with the move, in the move's one statement)."""
    view_method.idempotent = True
    return view_method


def run_once(request, user, key: str, run: Callable[[], Response]) -> Response:
    """Answer ``run()``'s response, or the first answer to this key's request if there was one."""
    lookup = _digest("lookup", user, key, "")
    fingerprint = _digest("request", user, key, _described(request))
    for _ in range(_ATTEMPTS):
        try:
            with transaction.atomic():
                # Waits here while a request with this key is in flight (the unique index).
                row = IdempotentRequest.objects.create(user=user, key_digest=lookup, request_digest=fingerprint)
                response = run()
                if not status.is_success(response.status_code):
                    row.delete()  # a refusal keeps nothing: the same request sent again is tried again
                    return response
                row.status_code = response.status_code
                row.sealed_answer = _sealer(user, key).encrypt(json.dumps({
                    "body": response.data, "location": response.headers.get("Location"),
                }, cls=JSONEncoder).encode())
                row.save(update_fields=["status_code", "sealed_answer"])
                return response
        except IntegrityError as error:
            if getattr(getattr(error.__cause__, "diag", None), "constraint_name", None) != _CONSTRAINT:
                raise
        first = IdempotentRequest.objects.filter(user=user, key_digest=lookup).first()
        if first is not None:
            return _replay(first, fingerprint, _sealer(user, key))
    raise AnswerLost()


def _replay(first: IdempotentRequest, fingerprint: str, sealer: Fernet) -> Response:
    if first.request_digest != fingerprint:
        raise UnprocessableInput({HEADER: [gettext(
            "This Idempotency-Key was used for a different request (another method, address or body): "
            "use a new key for a new request.")]})
    try:
        answer = json.loads(sealer.decrypt(bytes(first.sealed_answer)))
    except InvalidToken:
        raise AnswerLost() from None
    headers = {REPLAYED_HEADER: "true"}
    if answer["location"]:
        headers["Location"] = answer["location"]
    return Response(answer["body"], status=first.status_code, headers=headers)


def _described(request) -> str:
    """The request as the key names it: method, path with query, and body (as JSON, whatever its spacing)."""
    data = request.data
    body = sorted(data.lists()) if hasattr(data, "lists") else data
    return "\n".join([request.method, request.get_full_path(), json.dumps(body, sort_keys=True, cls=JSONEncoder)])


def _digest(purpose: str, user, key: str, value: str) -> str:
    return salted_hmac(f"turnbased.idempotency.{purpose}", f"{user.pk}\n{key}\n{value}",
                       algorithm="sha256").hexdigest()


def _sealer(user, key: str) -> Fernet:
    secret = salted_hmac("turnbased.idempotency.seal", f"{user.pk}\n{key}", algorithm="sha256").digest()
    return Fernet(base64.urlsafe_b64encode(secret))
