"""REST API for my devices subscribed to push (issue 25): list, subscribe, read, forget.

The game and lobby pages' script subscribes its browser here (``PushSubscription.toJSON()``'s endpoint
and keys); the settings page lists the same devices. Another user's device answers 404, as one that
does not exist.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer, UnprocessableInput
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.idempotency.once import idempotent
from turnbased.notifications import selectors, services
from turnbased.notifications.devices import BadSubscription
from turnbased.notifications.models import PushSubscription

SUBSCRIPTION_ID = OpenApiParameter("subscription_id", int, OpenApiParameter.PATH,
                                   description="The subscription's id.")
NOT_MINE = error("No such device of mine.")


class PushSubscriptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.CharField(help_text="The push service's URL for that browser (as it subscribed).")
    browser = serializers.CharField(help_text="The browser, as its User-Agent named it when it subscribed; "
                                              "empty if it did not say.")
    system = serializers.CharField(help_text="Its operating system, likewise.")
    created_at = serializers.DateTimeField()
    last_pushed_at = serializers.DateTimeField(allow_null=True, help_text="When it was last told of a turn.")

    class Meta:
        ref_name = "PushSubscription"


# The keys' lengths, which the schema states as their patterns (issue 42): a 65-byte point and a 16-byte secret in
# base64url, with or without their padding (white space around is trimmed first). A key of the right length that is
# not a key is refused after (422).
P256DH_PATTERN = r"^\s*[A-Za-z0-9_-]{87}=?\s*$"
AUTH_PATTERN = r"^\s*[A-Za-z0-9_-]{22}(==)?\s*$"


class PushKeysSerializer(BodySerializer):
    p256dh = serializers.CharField(max_length=100, help_text="The browser's P-256 public key, base64url.", validators=[
        RegexValidator(P256DH_PATTERN, gettext_lazy("The p256dh key is not a P-256 public key (65 bytes, base64url)."))])
    auth = serializers.CharField(max_length=40, help_text="Its 16-byte authentication secret, base64url.", validators=[
        RegexValidator(AUTH_PATTERN, gettext_lazy("The auth secret is not 16 bytes written in base64url."))])

    class Meta:
        ref_name = "PushSubscriptionKeys"


class PushSubscriptionListApi(APIView):
    """The devices that tell me when it is my turn; subscribe one (a browser's push subscription)."""

    class InputSerializer(BodySerializer):
        endpoint = serializers.CharField(max_length=2000, help_text="The push service's URL for this browser.")
        keys = PushKeysSerializer()

        class Meta:
            ref_name = "PushSubscriptionCreateRequest"

    @extend_schema(operation_id="me_push_subscriptions_list", tags=["me"], summary="My devices told of my turns",
                   parameters=cursor_parameters(),
                   responses={200: page_of("PushSubscriptionList", PushSubscriptionSerializer)})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.push_subscriptions_of(request.user), ordering=("-id",))
        return Response(page.body(PushSubscriptionSerializer(page.items, many=True).data))

    @extend_schema(
        operation_id="me_push_subscriptions_create", tags=["me"], summary="Tell this device when it is my turn",
        description="Send what the browser's `PushSubscription.toJSON()` gives (its `endpoint` and `keys`), "
                    "subscribed with the site's VAPID public key. The same endpoint again replaces its keys "
                    "(200); one new to my account is added (201), whether or not another account has "
                    "subscribed it (that account's device is never taken over), and beyond WEB_PUSH_MAX_PER_USER devices the one unused "
                    "longest is let go. Pushes say only the game's name and that it is my turn, and go by the "
                    "rules of turn emails (none while I have that game open, none with the digest or no turn "
                    "emails).",
        request=InputSerializer,
        parameters=[created_location("the new device (GET /api/me/push-subscriptions/{id}/)")],
        responses={201: PushSubscriptionSerializer, 200: PushSubscriptionSerializer,
                   400: error("Not a push service the site sends to, or keys that are not keys.")},
        examples=[OpenApiExample("A browser's subscription", request_only=True, value={
            "endpoint": "https://fcm.googleapis.com/fcm/send/dGhpcyBpcyBub3QgYSByZWFsIG9uZQ",
            "keys": {"p256dh": "BHaSadIID9s6dZT7y3AzPN5p9P6RLR4fZMaLTR1vwDoHXb_wDS2xsLu4DTRYujXWSItB6CQpHDeldwGZJDFq6Vk",
                     "auth": "rFldA8HvlxU4t2mZ1DatvQ"}})],
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            subscription, created = services.push_subscription_save(
                user=request.user, endpoint=data.validated_data["endpoint"],
                p256dh=data.validated_data["keys"]["p256dh"], auth=data.validated_data["keys"]["auth"],
                user_agent=request.META.get("HTTP_USER_AGENT", ""))
        except BadSubscription as failure:
            raise UnprocessableInput({failure.field: [str(failure)]}) from None
        if not created:
            return Response(PushSubscriptionSerializer(subscription).data)
        return Response(PushSubscriptionSerializer(subscription).data, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-me-push-subscription", args=[subscription.pk])})


class PushSubscriptionDetailApi(APIView):
    """One of my devices told of my turns: read it, or forget it (no more pushes to it)."""

    def _subscription(self, request, subscription_id: int) -> PushSubscription:
        subscription = selectors.push_subscription_of(request.user, subscription_id)
        if subscription is None:
            raise NotFound(gettext("No such device."))
        return subscription

    @extend_schema(operation_id="me_push_subscriptions_retrieve", tags=["me"], summary="One of my devices",
                   parameters=[SUBSCRIPTION_ID], responses={200: PushSubscriptionSerializer, 404: NOT_MINE})
    @conditional_read
    def get(self, request, subscription_id: int):
        return Response(PushSubscriptionSerializer(self._subscription(request, subscription_id)).data)

    @extend_schema(operation_id="me_push_subscriptions_destroy", tags=["me"], summary="Forget one of my devices",
                   parameters=[SUBSCRIPTION_ID],
                   responses={204: OpenApiResponse(description="Forgotten."), 404: NOT_MINE})
    def delete(self, request, subscription_id: int):
        if not services.push_subscription_remove(user=request.user, subscription_id=subscription_id):
            raise NotFound(gettext("No such device."))
        return Response(status=status.HTTP_204_NO_CONTENT)
