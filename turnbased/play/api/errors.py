"""Every API error is JSON with a human ``detail`` and the right status code."""

from __future__ import annotations

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from turnbased.limits import Refusal, scope_of
from turnbased.play.errors import PlayError


def _first_message(errors) -> str:
    if isinstance(errors, dict):
        for field, value in errors.items():
            message = _first_message(value)
            return message if field in ("non_field_errors", "detail") else f"{field}: {message}"
    if isinstance(errors, list) and errors:
        return _first_message(errors[0])
    return str(errors)


def json_exception_handler(exc, context):
    """Turn play errors and DRF errors into ``{"detail": ...}`` responses; a throttled request keeps its Retry-After."""
    if isinstance(exc, PlayError):
        return Response({"detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, exceptions.Throttled):
        refusal = Refusal.of(scope_of(context["request"], context["view"]), exc.wait, getattr(exc, "reason", ""))
        return refusal.applied_to(Response({"detail": refusal.detail, "retry_after": refusal.wait}))
    if isinstance(exc, exceptions.ValidationError):
        return Response({"detail": _first_message(exc.detail), "errors": exc.detail}, status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": _first_message(response.data), "errors": response.data}
    return response
