"""``GET /api/stream/`` as the web process answers it, and as the API schema describes it.

The stream itself is served by the stream process (``asgi.py``; nginx routes
``/api/stream/`` there, and ``make run`` serves it on its own port), where an
idle stream holds no thread. A request that reaches the web process instead
gets the same opening and the events already waiting (a page at most), and the
answer ends there: a client reconnects after ``retry`` with the last id it got,
so it misses nothing, only learns later. No web thread is held open.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.views import APIView

from turnbased.events import selectors, sse
from turnbased.events.models import EventKind
from turnbased.kit.db.json_codec import JSONRenderer

EXAMPLE = (
    "retry: 3000\n\n"
    "id: 1041\nevent: move_played\n"
    'data: {"id":1041,"kind":"move_played","game":12,"seq":7,"created_at":"2026-12-01T09:30:00.120Z",'
    '"data":{"name":"Love Letter #12","engine":"love-letter","seat":0,"player":"bob","mover_seat":1,'
    '"text":"bob played the Priest on alice.","entries":[{"seq":7,"seat":1,"kind":"priest_played",'
    '"data":{"seat":1,"target":0},"private":false,"text":"bob played the Priest on alice."}]}}\n\n'
    "id: 1042\nevent: your_turn\n"
    'data: {"id":1042,"kind":"your_turn","game":12,"seq":7,"created_at":"2026-12-01T09:30:00.120Z",'
    '"data":{"name":"Love Letter #12","engine":"love-letter","seat":0}}\n\n'
    ": keep-alive\n\n"
)

DESCRIPTION = f"""My events, as they happen, as [Server-Sent Events](https://html.spec.whatwg.org/multipage/server-sent-events.html)
(`text/event-stream`): {", ".join(f"`{kind}` ({label})" for kind, label in EventKind.choices)}.

The answer is text that does not end (no schema describes it as one document: read it as it comes,
with an event stream client). Each event has an `id:` (it grows, digits), an `event:` (its kind) and
one `data:` line of JSON:
`{{id, kind, game, seq, created_at, data}}`, where `data` is the kind's own payload, worded for me
(a move as my seat may see it: never another seat's hidden cards).

**Resuming.** Send the last id you received as the `Last-Event-ID` header (browsers' `EventSource`
does it by itself), or as `?last_event_id=` when you cannot set headers: the stream first sends
every event after it (events are kept at least 7 days), then new ones. `0` sends everything kept.
Without either, the stream begins with an `id:` and no data: the point to resume from, so a client
that reconnects misses nothing even if no event came before.

**Playing from the stream.** With `?include=actions`, each `your_turn` that is still my turn when it is
sent carries `view` (the game from my seat) and `legal_moves` (`[{{move, text}}]`, as legal-moves lists
them): answer it with one POST of a move (`Prefer: return=minimal` keeps the answer lean; it carries my
legal moves when I act again at once). A turn that has passed carries neither: a newer event follows.
Webhooks of `your_turn` always carry them.

A comment line (`: keep-alive`) comes every 15 seconds. The stream ends after an hour, and whenever
the server restarts: reconnect after `retry` milliseconds with `Last-Event-ID`.

Served by the stream process, which holds each stream open; should the request reach the web process
instead, the answer is the same but ends after the events already waiting."""


class _JsonErrors(BaseContentNegotiation):
    """Answer errors as JSON whatever the request accepts (an event stream's client accepts text/event-stream);
    the stream itself is written by the view."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class StreamApi(APIView):
    """My events as they happen (Server-Sent Events), resumable with Last-Event-ID."""

    renderer_classes = [JSONRenderer]
    content_negotiation_class = _JsonErrors

    @extend_schema(
        operation_id="stream", tags=["stream"], summary="My events as they happen (Server-Sent Events)",
        description=DESCRIPTION,
        parameters=[
            OpenApiParameter("Last-Event-ID", {"type": "string", "pattern": "^([0-9]{1,18})?$"},
                             OpenApiParameter.HEADER, required=False,
                             description="The id of the last event received: the stream resumes after it (empty: "
                                         "as if not sent)."),
            OpenApiParameter("last_event_id", {"type": "integer", "minimum": 0, "maximum": 10**18 - 1},
                             OpenApiParameter.QUERY, required=False,
                             description="The same, for clients that cannot set headers (the header wins)."),
            OpenApiParameter("include", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, enum=["actions"],
                             description="actions: each your_turn still current when sent carries my view and "
                                         "legal_moves there (as the game and legal-moves give them), so a client "
                                         "that plays needs no request but its move."),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR, description="The event stream: text that does not end, read as it comes, never one JSON document "
                            "(so no schema: a generated client must not wait for its end to parse it). The "
                            "description above says what each event holds.",
                examples=[OpenApiExample("A move and my turn", value=EXAMPLE, media_type="text/event-stream")],
            ),
        },
    )
    def get(self, request):
        try:
            resume = sse.last_event_id(request.headers.get("Last-Event-ID"), request.query_params.get("last_event_id"))
        except sse.BadLastEventId as error:
            raise ValidationError({"last_event_id": [str(error)]}) from None
        try:
            extras = sse.extras(request.query_params.getlist("include"))
        except sse.BadExtras as error:
            raise ValidationError({"include": [str(error)]}) from None
        user_id = request.user.pk
        if resume is None:
            body = sse.opening(selectors.latest_event_id(user_id=user_id))
        else:
            events = selectors.events_after(user_id=user_id, after_id=resume, with_current="actions" in extras)
            body = sse.opening(None) + b"".join(sse.frame(event) for event in events)
        response = HttpResponse(body, content_type=sse.CONTENT_TYPE)
        response["Cache-Control"] = "no-cache, no-store"
        return response
