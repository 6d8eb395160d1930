"""REST API for webhooks: thin adapters over ``services`` and ``selectors``.

Lists are cursor pages ``{next, previous, results}``, newest first. Another
user's hook answers 404, as one that does not exist.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.validators import RegexValidator
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer, UnprocessableInput
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.events.models import EventKind
from turnbased.idempotency.once import idempotent
from turnbased.webhooks import selectors, services
from turnbased.webhooks.models import DeliveryState, Webhook, WebhookDelivery
from turnbased.webhooks.services import WebhookError

HOOK_ID = OpenApiParameter("webhook_id", int, OpenApiParameter.PATH, description="The webhook's id.")
KIND_HELP = "Event kinds it is sent: " + ", ".join(f"`{value}` ({label})" for value, label in EventKind.choices)
NOT_MINE = error("No such webhook of mine.")
# Newest first, 20 hooks and 50 deliveries a page (the project's cursor pages: docs/api.md).
DELIVERIES_PAGE_SIZE = 50


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT


def _refusal(failure: WebhookError) -> APIException:
    """Return the API's answer to a service's refusal: 404, 409, or 422 or 400 naming the field."""
    if isinstance(failure, services.WebhookNotFound):
        return NotFound(failure.detail)
    if failure.status == status.HTTP_409_CONFLICT:
        return Conflict(failure.detail)
    refusal = UnprocessableInput if failure.status == status.HTTP_422_UNPROCESSABLE_ENTITY else serializers.ValidationError
    return refusal({failure.field: [failure.detail]} if failure.field else failure.detail)


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=EventKind.choices), help_text=KIND_HELP)
    active = serializers.BooleanField(help_text="Sent events. Off: turned off by me, or disabled for failing.")
    consecutive_failures = serializers.IntegerField(help_text="Failed attempts in a row since the last success.")
    failing_since = serializers.DateTimeField(allow_null=True, help_text="When the first of those failed.")
    disabled_at = serializers.DateTimeField(allow_null=True, help_text="When it was last turned off.")
    disabled_reason = serializers.CharField(help_text="Why: turned off by its owner, or the failures.")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Webhook"


class NewSecretWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="The key of the signatures: webhook-signature (Standard Webhooks: "
                                             "`whsec_` and base64, which its libraries read) and the deprecated "
                                             "X-Turnbased-Signature. Shown only this once: keep it with the receiver.")

    class Meta:
        ref_name = "WebhookWithSecret"


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The webhook-id (and X-Turnbased-Delivery) header of its requests.")
    event = serializers.IntegerField(source="event_id", allow_null=True, help_text="The event's id (null for a ping).")
    kind = serializers.CharField(help_text="The event's kind, or `ping`.")
    state = serializers.ChoiceField(choices=DeliveryState.choices)
    attempts = serializers.IntegerField()
    status_code = serializers.IntegerField(allow_null=True, help_text="The receiver's status at the last attempt.")
    response_excerpt = serializers.CharField(help_text="The start of the receiver's answer (up to 1000 bytes).")
    error = serializers.CharField(help_text="Why the last attempt failed (empty if it did not).")
    duration_ms = serializers.IntegerField(allow_null=True, help_text="How long the last attempt took.")
    created_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.SerializerMethodField(help_text="While pending: the next attempt, at the latest.")
    finished_at = serializers.DateTimeField(allow_null=True, help_text="When it was delivered or given up.")

    class Meta:
        ref_name = "WebhookDelivery"

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_next_attempt_at(self, delivery: WebhookDelivery) -> str | None:
        if delivery.state != DeliveryState.PENDING:
            return None
        return serializers.DateTimeField().to_representation(delivery.next_attempt_at)


class SchemeValidator(RegexValidator):
    """Refuse a URL of another scheme than https (or http, where WEBHOOKS_ALLOW_HTTP): 400, as the schema states.

    Its regex is the schema's pattern for ``url`` (issue 42: a rule the schema can state, it states), read
    from the setting when used. Whether the address is public is known only once resolved: 422, after.
    """

    def __init__(self):  # the regex and message follow the setting: nothing is fixed at import
        self.code, self.inverse_match, self.flags = "invalid", False, 0

    @property
    def regex(self):
        return re.compile(HTTP_OR_HTTPS if settings.WEBHOOKS_ALLOW_HTTP else HTTPS_ONLY)

    @property
    def message(self):
        if settings.WEBHOOKS_ALLOW_HTTP:
            return gettext("The URL must start with https:// or http://.")
        return gettext("The URL must start with https://.")


# The scheme, in either case (a URL's scheme is case-insensitive), then no NUL (DRF refuses one in any string);
# white space around it is trimmed before the check, so the pattern allows it.
HTTPS_ONLY = r"^\s*[Hh][Tt][Tt][Pp][Ss]://[^\u0000]*$"
HTTP_OR_HTTPS = r"^\s*[Hh][Tt][Tt][Pp][Ss]?://[^\u0000]*$"


class WebhookInputSerializer(BodySerializer):
    url = serializers.CharField(max_length=2000, validators=[SchemeValidator()],
                                help_text="Where to POST: https, a public address.")
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=EventKind.choices), allow_empty=False,
                                  max_length=len(EventKind.choices), help_text=KIND_HELP + ".")
    active = serializers.BooleanField(help_text="false turns it off; true turns it on again and forgets its failures.")

    class Meta:
        ref_name = "WebhookRequest"


class WebhookListApi(APIView):
    """My webhooks; register one (at most WEBHOOKS_MAX_PER_USER)."""

    throttle_scope = "webhooks"

    class InputSerializer(WebhookInputSerializer):
        kinds = serializers.ListField(child=serializers.ChoiceField(choices=EventKind.choices), allow_empty=False,
                                      max_length=len(EventKind.choices), required=False,
                                      help_text=KIND_HELP + ". Default: all.")
        active = None

        class Meta:
            ref_name = "WebhookCreateRequest"

    @extend_schema(operation_id="webhooks_list", tags=["webhooks"], summary="My webhooks",
                   parameters=cursor_parameters(), responses={200: page_of("WebhookList", WebhookSerializer)})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.webhooks_of(request.user), ordering=("-id",))
        return Response(page.body(WebhookSerializer(page.items, many=True).data))

    @extend_schema(
        operation_id="webhooks_create", tags=["webhooks"], summary="Register a webhook",
        description="The URL must be https and resolve only to public addresses (it is resolved now, and again "
                    "before each delivery). The answer holds the secret that signs every request: it is shown "
                    "only here (and when rotated).",
        request=InputSerializer, parameters=[created_location("the new webhook (GET /api/webhooks/{id}/)")],
        responses={201: NewSecretWebhookSerializer,
                   400: error("A URL that may not receive webhooks, an unknown kind, or already the most hooks.")},
        examples=[OpenApiExample("My turns and moves", request_only=True, value={
            "url": "https://bot.example.org/turnbased", "kinds": ["your_turn", "move_played"]})],
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            hook, _ = services.webhook_create(owner=request.user, **data.validated_data)
        except WebhookError as failure:
            raise _refusal(failure) from None
        return Response(NewSecretWebhookSerializer(hook).data, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-webhook", args=[hook.pk])})


class WebhookDetailApi(APIView):
    """One of my webhooks: read it, change its URL, kinds or state, delete it."""

    throttle_scope = "webhooks"

    class InputSerializer(WebhookInputSerializer):
        class Meta:
            ref_name = "WebhookUpdateRequest"

    def _hook(self, request, webhook_id: int) -> Webhook:
        hook = selectors.webhook_of(request.user, webhook_id)
        if hook is None:
            raise NotFound(gettext("No such webhook."))
        return hook

    @extend_schema(operation_id="webhooks_retrieve", tags=["webhooks"], summary="One of my webhooks",
                   parameters=[HOOK_ID], responses={200: WebhookSerializer, 404: NOT_MINE})
    @conditional_read
    def get(self, request, webhook_id: int):
        return Response(WebhookSerializer(self._hook(request, webhook_id)).data)

    @extend_schema(
        operation_id="webhooks_partial_update", tags=["webhooks"], summary="Change a webhook",
        description="Any of `url` (checked as at registration; deliveries still waiting go to the new one), "
                    "`kinds`, `active` (true also after it was disabled for failing: its failures are forgotten).",
        parameters=[HOOK_ID], request=InputSerializer,
        responses={200: WebhookSerializer, 400: error("A URL that may not receive webhooks, or an unknown kind."),
                   404: NOT_MINE},
        examples=[OpenApiExample("Turn it on again", request_only=True, value={"active": True})],
    )
    def patch(self, request, webhook_id: int):
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        try:
            hook = services.webhook_update(owner=request.user, hook_id=webhook_id, **data.validated_data)
        except WebhookError as failure:
            raise _refusal(failure) from None
        return Response(WebhookSerializer(hook).data)

    @extend_schema(operation_id="webhooks_destroy", tags=["webhooks"], summary="Delete a webhook and its log",
                   parameters=[HOOK_ID], responses={204: OpenApiResponse(description="Deleted."), 404: NOT_MINE})
    def delete(self, request, webhook_id: int):
        try:
            services.webhook_delete(owner=request.user, hook_id=webhook_id)
        except WebhookError as failure:
            raise _refusal(failure) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveryListApi(APIView):
    """A webhook's delivery log, newest first: each event or ping sent, its attempts and the last answer."""

    @extend_schema(operation_id="webhook_deliveries_list", tags=["webhooks"], summary="A webhook's delivery log",
                   parameters=[HOOK_ID, *cursor_parameters(DELIVERIES_PAGE_SIZE)],
                   responses={200: page_of("WebhookDeliveryList", DeliverySerializer), 404: NOT_MINE})
    @conditional_read
    def get(self, request, webhook_id: int):
        hook = selectors.webhook_of(request.user, webhook_id)
        if hook is None:
            raise NotFound(gettext("No such webhook."))
        page = paginate(request, selectors.deliveries_of(hook), ordering=("-id",), page_size=DELIVERIES_PAGE_SIZE)
        return Response(page.body(DeliverySerializer(page.items, many=True).data))


class WebhookPingApi(APIView):
    """Send a webhook a test event now."""

    throttle_scope = "webhooks"

    @extend_schema(
        operation_id="webhooks_ping", tags=["webhooks"], summary="Send a test event",
        description="A `ping` event (`data`: the hook's id and kinds), signed like every delivery, sent once at "
                    "once by a worker, without retries; its delivery log entry shows how it went.",
        parameters=[HOOK_ID], request=None,
        responses={202: DeliverySerializer, 404: NOT_MINE, 409: error("The webhook is off: turn it on first.")},
    )
    def post(self, request, webhook_id: int):
        try:
            ping = services.webhook_ping(owner=request.user, hook_id=webhook_id)
        except WebhookError as failure:
            raise _refusal(failure) from None
        return Response(DeliverySerializer(ping).data, status=status.HTTP_202_ACCEPTED)


class WebhookSecretApi(APIView):
    """Give a webhook a new secret."""

    throttle_scope = "webhooks"

    @extend_schema(
        operation_id="webhooks_rotate_secret", tags=["webhooks"], summary="Give a webhook a new secret",
        description="The old secret stops at once: every request from now on, retries included, is signed with "
                    "the new one, shown only in this answer. A receiver that refuses them meanwhile gets them "
                    "again at the next retries.",
        parameters=[HOOK_ID], request=None, responses={200: NewSecretWebhookSerializer, 404: NOT_MINE},
    )
    def post(self, request, webhook_id: int):
        try:
            hook, _ = services.webhook_rotate_secret(owner=request.user, hook_id=webhook_id)
        except WebhookError as failure:
            raise _refusal(failure) from None
        return Response(NewSecretWebhookSerializer(hook).data)
