"""Every API error is JSON with a human ``detail`` and the right status code (docs/api.md, "Errors").

The shape is ``ErrorSerializer``, a problem document (RFC 9457): ``type``, ``title``, ``status`` and
``detail`` always (``problems.ProblemDetailsMiddleware`` adds the first three to every error answer under
/api/); for invalid input, ``errors``, an object from each field (``non_field_errors`` for the request as a
whole) to its messages; for a refusal by rate, ``retry_after``. Errors are JSON whatever the request accepts:
a browser that asked for the browsable API's HTML still gets the error as JSON, as every client does.
"""

from __future__ import annotations

from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler

from turnbased.kit.errors import PlayError
from turnbased.kit.db.json_codec import JSONRenderer
from turnbased.kit.http.limits import Refusal, scope_of


class ErrorSerializer(serializers.Serializer):
    """Every error of the API (4xx and 5xx) is a problem document (RFC 9457) of this shape (docs/api.md, "Errors").

    `type`, `title`, `status` and `detail` are always there. A 400 for invalid input adds `errors`; a 429
    adds `retry_after` (the same seconds as its `Retry-After` header); an endpoint may add keys of its own,
    which it documents (a stale move's 409 carries the current `seq` and `game`). Keys may be added later:
    ignore those you do not know. It comes as `application/problem+json`, or as `application/json` to a
    request whose `Accept` admits that and not the problem type.
    """

    type = serializers.CharField(help_text="A URI naming the kind of problem: `about:blank` when the status says it "
                                           "all. Compare it, never `title`.")
    title = serializers.CharField(help_text="The status's name, for a person to read (in the request's language).")
    status = serializers.IntegerField(min_value=400, max_value=599, help_text="The HTTP status of this answer.")
    detail = serializers.CharField(help_text="What went wrong, for a person to read (the first problem, for "
                                             "invalid input).")
    errors = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text="For invalid input (400): each field with a problem (non_field_errors for the request as a whole) "
                  "maps to its list of messages, or for a nested field to an object of the same shape, e.g. "
                  "{\"expected_seq\": [\"This field is required.\"], \"time_control\": {\"kind\": [\"...\"]}}.",
    )
    retry_after = serializers.IntegerField(required=False, min_value=0,
                                           help_text="For too many requests (429): seconds to wait, as Retry-After.")

    class Meta:
        ref_name = "Error"


def _first_message(errors) -> str:
    if isinstance(errors, dict):
        for field, value in errors.items():
            message = _first_message(value)
            return message if field in (api_settings.NON_FIELD_ERRORS_KEY, "detail") else f"{field}: {message}"
    if isinstance(errors, list) and errors:
        return _first_message(errors[0])
    return str(errors)


def _per_field(errors) -> dict:
    """Return validation errors as an object by field: a bare list is about the request as a whole."""
    return errors if isinstance(errors, dict) else {api_settings.NON_FIELD_ERRORS_KEY: errors}


def _answer(exc, context) -> Response | None:
    if isinstance(exc, PlayError):
        return Response({"detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, exceptions.Throttled):
        refusal = Refusal.of(scope_of(context["request"], context["view"]), exc.wait, getattr(exc, "reason", ""))
        return refusal.applied_to(Response({"detail": refusal.detail, "retry_after": refusal.wait}))
    if isinstance(exc, exceptions.ValidationError):
        # 400, or 422 for a request of the schema's shape that cannot be done (input.UnprocessableInput).
        return Response({"detail": _first_message(exc.detail), "errors": _per_field(exc.detail)},
                        status=exc.status_code)
    response = exception_handler(exc, context)
    if response is not None and not (isinstance(response.data, dict) and "detail" in response.data):
        response.data = {"detail": _first_message(response.data), "errors": _per_field(response.data)}
    return response


def json_exception_handler(exc, context):
    """Turn play errors and DRF errors into ``{"detail": ...}`` JSON answers; a throttled request keeps its Retry-After."""
    response = _answer(exc, context)
    request = context.get("request")
    if response is not None and request is not None:
        # The view renders its answer with the renderer the request negotiated (finalize_response): make it JSON.
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
    return response
