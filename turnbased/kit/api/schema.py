"""How the OpenAPI schema describes every endpoint: its error answers, and unique component names.

Every API view shares the same error machinery (``errors.json_exception_handler``,
``request_guards``), so the answers it can give for reasons of its own kind are
added here, from what the view is, rather than repeated on each endpoint:

- 400 when it reads a body or query parameters (the request breaks the schema); 415 and 422 when it reads a
  body (422: of the schema's shape, but what it asks cannot be done, ``input``); 400 and 415 on an unsafe
  method that takes no body (a body that cannot be read as JSON, or is not JSON, is refused all the same);
- 401 when it authenticates with a token (a bad token is refused even where no login is needed);
- 403 on unsafe methods with session authentication (a missing CSRF token, or a bot account's session:
  ``accounts.bot_sessions``);
- 404 when its path names something (a game, an absence), or it is a list (a cursor it did not give out);
- 413 on unsafe methods (a body over the size limit);
- 406 everywhere (an ``Accept`` no answer of it can satisfy);
- 429 everywhere, with ``Retry-After``;
- 503 everywhere, with ``Retry-After`` (the database is briefly away).

Every error answer is a problem document (RFC 9457, ``problems``): its body is described as
``application/problem+json`` and as ``application/json``, the one a request whose ``Accept`` admits only JSON gets.

An endpoint declares the rest itself (409 and the specific 403 and 404 reasons),
and anything it declares wins; an error it describes without a body gets the
shared ``{"detail": ...}`` body.

Two more things come from how a view method is wrapped rather than from its annotation:
a conditional read (``conditional.conditional_read``) gets the ``If-None-Match`` parameter,
the ``ETag`` header and its 304; a deprecated one (``turnbased.kit.api.deprecation.deprecated``)
gets its parameter marked deprecated and the ``Deprecation``, ``Sunset`` and ``Link`` headers;
a create that honours ``Idempotency-Key`` (``idempotency.once.idempotent``) gets that header, the
``Idempotent-Replayed`` header on its successes, 400 for a malformed key and 422 for a key reused for
another request.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication

from turnbased.kit.api.conditional import ETAG_HEADER, IF_NONE_MATCH, NOT_MODIFIED, is_conditional
from turnbased.kit.api.deprecation import deprecations_of
from turnbased.kit.api.errors import ErrorSerializer
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import CURSOR
from turnbased.kit.api import idempotency_key

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Strings as DRF reads them: no NUL character (PostgreSQL's text cannot hold one), and where blank is refused
# after trimming, a character that is not white space.
NO_NUL = r"^[^\u0000]*$"
NOT_BLANK = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"

ERROR_DESCRIPTIONS = {
    400: "The request is malformed or invalid: `detail` says what is wrong, `errors` which field.",
    401: "No valid credentials: send `Authorization: Token <key>` (or log in for a browser session).",
    403: "A browser-session request without its CSRF token, or from a bot account's session (it writes with a token).",
    404: "Not found.",
    413: "The request body is larger than the limit.",
    406: "The `Accept` header asks for no media type this answer can come as: accept `application/json`.",
    415: "The body is not JSON: send `Content-Type: application/json` (or no body, where the operation takes none).",
    422: "The request is as the schema says, but what it asks cannot be done: `detail` says why (a move the rules "
         "refuse, a value this game or account does not take).",
    429: "Too many requests: wait the number of seconds in `Retry-After`, then try again.",
    503: "The database is briefly away: nothing was done; try again after the seconds in `Retry-After`.",
}
BODYLESS_ERRORS = {
    400: "The body cannot be read as JSON (this operation takes none: send no body, or JSON).",
}
DEPRECATION_HEADERS = {
    "Deprecation": {"schema": {"type": "string", "pattern": "^@[0-9]+$"},
                    "description": "RFC 9745: what this request uses is deprecated since this moment (@seconds)."},
    "Sunset": {"schema": {"type": "string"},
               "description": "RFC 8594: from this date (an HTTP date) it may stop working."},
    "Link": {"schema": {"type": "string"},
             "description": 'rel="deprecation": where the notice says what to use instead.'},
}
IDEMPOTENCY_KEY = {
    "name": idempotency_key.HEADER, "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": idempotency_key.KEY_PATTERN},
    "description": "A name of your own for this request (a UUID, say): sending the same request again with it "
                   "does nothing again and answers as the first time did, with Idempotent-Replayed: true. Kept "
                   "at least 24 hours; the same key with another method, path or body is refused (422).",
}
REPLAYED_HEADER = {
    idempotency_key.REPLAYED_HEADER: {"schema": {"type": "string", "enum": ["true"]},
                           "description": "This answer is the first one to this Idempotency-Key, replayed: "
                                          "nothing was done again."},
}
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "Seconds to wait before the next request.",
    }
}


# Media types of answers that are never one document (an event stream does not end): they keep no schema, so
# that a client generated from the schema does not wait for the end to parse it (issue 27).
ENDLESS_MEDIA_TYPES = ("text/event-stream",)


# Fields of answers whose values a new version may add to (a status, an event kind, how a game ended): the schema
# lists the values known today as x-extensible-enum, not as an enum, so that a client generated from it reads a
# new value instead of failing on it (issue 42; docs/api.md, "Versioning"). In requests the enums stay closed.
OPEN_ENUM_FIELDS = ("status", "state", "kind", "kinds", "how")


def _open_enum(schema: dict) -> dict:
    """Return a field's schema with its enum (or its items' enum) open: a string, the known values listed aside."""
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return {**schema, "items": _open_enum(schema["items"])}
    if "enum" not in schema:
        return schema
    known = [value for value in schema["enum"] if value not in (None, "")]
    opened = {key: value for key, value in schema.items() if key != "enum"}
    description = opened.get("description", "")
    opened.update({"type": "string", "x-extensible-enum": known, "description": (
        f"{description} One of {', '.join(f'`{value}`' for value in known)} today; more may be added: "
        "treat one you do not know as such, never as an error.").strip()})
    return opened


def error(description: str, serializer=ErrorSerializer) -> OpenApiResponse:
    """Return an error answer for ``extend_schema(responses=...)``: why it happens, and its body."""
    return OpenApiResponse(serializer, description=description)


def _nested_name(serializer_class: type) -> str | None:
    """Return ``AccountCreateRequest`` for ``AccountCreateApi.InputSerializer`` (``...Response`` for Output)."""
    outer, _, inner = serializer_class.__qualname__.rpartition(".")
    suffix = {"InputSerializer": "Request", "OutputSerializer": "Response"}.get(inner)
    if not outer or suffix is None:
        return None
    return outer.rpartition(".")[2].removesuffix("Api") + suffix


class ApiSchema(AutoSchema):
    """drf-spectacular's schema for one endpoint, with the error answers every endpoint gives."""

    def get_serializer_name(self, serializer, direction):
        # The house style nests InputSerializer/OutputSerializer in each API class: name the
        # component after that class, or every endpoint's input would be one component "Input".
        return _nested_name(serializer.__class__) or super().get_serializer_name(serializer, direction)

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "response" and field.field_name in OPEN_ENUM_FIELDS:
            return _open_enum(schema)
        if direction == "request" and not field.read_only and isinstance(field.root, BodySerializer):
            # What DRF refuses, the schema says (issue 27): a blank string where blank is not allowed (DRF trims
            # first, so a string needs a character that is not white space), an empty list where one is not.
            # DRF refuses a NUL character in any string, so the pattern says that too.
            if isinstance(field, serializers.CharField) and schema.get("type") == "string":
                has_pattern = any(isinstance(validator, RegexValidator) for validator in field.validators)
                if not field.allow_blank:
                    schema["minLength"] = max(schema.get("minLength", 0), 1)
                if not has_pattern:
                    schema.setdefault("pattern", NO_NUL if field.allow_blank or not field.trim_whitespace
                                      else NOT_BLANK)
            if isinstance(field, serializers.ListField) and not field.allow_empty:
                schema["minItems"] = max(schema.get("minItems", 0), 1)
        return schema

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        exactly_one = getattr(serializer, "exactly_one_of", ())
        if exactly_one:
            schema["oneOf"] = [{"required": [name]} for name in exactly_one]
        return schema

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        handler = getattr(self.view, self.method.lower(), None)
        if is_conditional(handler):
            self._add_conditional_read(operation)
        for notice in deprecations_of(handler):
            self._add_deprecation(operation, notice)
        if getattr(handler, "idempotent", False):
            self._add_idempotency_key(operation)
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        responses = operation["responses"]
        for code in self._error_codes(operation):
            description = ERROR_DESCRIPTIONS[code]
            if "requestBody" not in operation and code in BODYLESS_ERRORS:
                description = BODYLESS_ERRORS[code]
            responses.setdefault(str(code), {"description": description})
        for code, answer in responses.items():
            if code.startswith(("4", "5")):
                # An endpoint may describe an error without its body: every error body is the same. Each is a
                # problem document, sent as application/json to a request that accepts only that.
                schema = answer.get("content", {}).get("application/json", {}).get("schema", error)
                answer["content"] = {"application/problem+json": {"schema": schema},
                                     "application/json": {"schema": schema}}
        for code in ("429", "503"):
            if code in responses:
                responses[code].setdefault("headers", RETRY_AFTER)
        for answer in responses.values():
            for media_type, media in answer.get("content", {}).items():
                if media_type in ENDLESS_MEDIA_TYPES:
                    media.pop("schema", None)
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _add_conditional_read(self, operation: dict) -> None:
        parameters = operation.setdefault("parameters", [])
        if not any(parameter["name"] == IF_NONE_MATCH["name"] for parameter in parameters):
            parameters.append(dict(IF_NONE_MATCH))
        responses = operation["responses"]
        responses.setdefault("304", dict(NOT_MODIFIED))
        responses["200"].setdefault("headers", {}).update(ETAG_HEADER)
        responses["304"].setdefault("headers", {}).update(ETAG_HEADER)

    def _add_idempotency_key(self, operation: dict) -> None:
        operation.setdefault("parameters", []).append(dict(IDEMPOTENCY_KEY))
        for code, answer in operation["responses"].items():
            if code.startswith("2"):
                answer.setdefault("headers", {}).update(REPLAYED_HEADER)
        operation["responses"].setdefault("409", {"description": "The Idempotency-Key was used, but its answer "
                                                                 "can no longer be replayed: use a new key."})

    def _add_deprecation(self, operation: dict, notice) -> None:
        if notice.parameter is None and notice.answer is None:
            operation["deprecated"] = True
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "query" and parameter["name"] == notice.parameter:
                parameter["deprecated"] = True
                parameter["description"] = (
                    f"{parameter.get('description', '')} Deprecated: use {notice.instead}; it may stop working "
                    f"from {notice.sunset_on.isoformat()}."
                ).strip()
        for answer in operation["responses"].values():
            answer.setdefault("headers", {}).update(DEPRECATION_HEADERS)

    def _error_codes(self, operation: dict) -> list[int]:
        authenticators = self.view.get_authenticators()
        unsafe = self.method not in SAFE_METHODS
        parameters = operation.get("parameters", [])
        codes = [406, 429, 503]
        if "requestBody" in operation:
            codes += [400, 415, 422]
        elif unsafe:
            codes += [400, 415]  # a body it does not take is refused unless it is empty or JSON (request_guards)
        elif any(parameter["in"] == "query" or parameter["name"] == idempotency_key.HEADER for parameter in parameters):
            codes.append(400)
        if any(parameter["name"] == idempotency_key.HEADER for parameter in parameters):
            codes.append(422)
        if authenticators:
            # DRF refuses missing or bad credentials with 401 when its first authenticator names a
            # scheme for WWW-Authenticate (a token), with 403 otherwise (a session).
            codes.append(401 if authenticators[0].authenticate_header(self.view.request) else 403)
        if unsafe and any(isinstance(authenticator, SessionAuthentication) for authenticator in authenticators):
            codes.append(403)
        if any(parameter["in"] == "path" or parameter["name"] == CURSOR for parameter in parameters):
            codes.append(404)
        if unsafe:
            codes.append(413)
        return codes


def created_location(what: str) -> OpenApiParameter:
    """The ``Location`` header of a 201: where the resource just made is read (issue 27)."""
    return OpenApiParameter("Location", str, OpenApiParameter.HEADER, response=[201],
                            description=f"The address of {what}.")
