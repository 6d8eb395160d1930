"""A game whose pinned engine version this installation lacks gets a clear 409 on every page and endpoint.

Such a game (a record imported from a newer installation, a rolled-back deploy) cannot be shown or played
by any other rules, and ``store.engine_of`` refuses it wherever it is read; this turns that refusal into an
answer that says why instead of a server error.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from turnbased.kit.errors import EngineUnavailable
from turnbased.kit.http.request_guards import is_api


class EngineUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, EngineUnavailable):
            return None
        if is_api(request):
            return JsonResponse({"detail": exception.detail}, status=exception.status)
        page = render_to_string("play/engine_unavailable.html", {"detail": exception.detail}, request=request)
        return HttpResponse(page, status=exception.status)
