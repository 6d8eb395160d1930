"""REST API for accounts: sign up, exchange a password for a named token, list and revoke tokens, become a bot
account.

Sign-up and log in go through allauth as the web pages do: the same rules, the same emails, the
same enumeration-safe answer, and the same failed-login lockout.
"""

from __future__ import annotations

from datetime import timedelta

from allauth.account.adapter import get_adapter
from allauth.account.internal.flows.login import derive_login_method
from allauth.account.utils import has_verified_email
from allauth.core import ratelimit
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.authentication import AccountApiTokenAuthentication
from turnbased.accounts.models import ApiToken
from turnbased.accounts.ratelimits import login_failed_retry_after, retry_after
from turnbased.accounts.selectors import tokens_of
from turnbased.accounts.services.accounts import AccountError, account_signup, email_verification_resend
from turnbased.accounts.services.tokens import default_token_lifetime, token_create, token_revoke
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer, UnprocessableInput
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.idempotency.once import idempotent, key_of, keyed, run_once
from turnbased.kit.http.limits import LimitReached
from turnbased.play.services.bot_accounts import BotAccountStatus, bot_account_enable, bot_account_status

CHECK_YOUR_EMAIL = gettext_lazy("Check your email: we sent a link to confirm the address. Follow it, then ask for a "
                                "token at %(path)s.")
DetailSerializer = inline_serializer("AccountCreated", {"detail": serializers.CharField()})
TOO_MANY_TOKENS = error("The account already holds API_TOKENS_MAX_PER_USER live tokens (50 by default): revoke one "
                        "first. Nothing was made.")


@extend_schema_serializer(component_name="TokenCreateInput")
class TokenInputSerializer(BodySerializer):
    name = serializers.CharField(max_length=100, help_text="What uses the token, to tell it apart when revoking.")
    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=3650, required=False, allow_null=True,
        help_text="Days until the token stops working; null: never. Default: API_TOKEN_DEFAULT_DAYS (90).",
    )

    def validate_name(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError(_("Give the token a name."))
        return value.strip()

    def lifetime(self) -> timedelta | None:
        if "expires_in_days" not in self.validated_data:
            return default_token_lifetime()
        days = self.validated_data["expires_in_days"]
        return timedelta(days=days) if days else None


@extend_schema_serializer(component_name="Token")
class TokenOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="To the minute.")
    expiry = serializers.DateTimeField(allow_null=True, help_text="null: never expires.")
    current = serializers.SerializerMethodField(help_text="Whether this request was made with it.")

    def get_current(self, token: ApiToken) -> bool:
        request = self.context.get("request")
        return bool(request and isinstance(request.auth, ApiToken) and request.auth.pk == token.pk)


@extend_schema_serializer(component_name="NewToken")
class NewTokenOutputSerializer(TokenOutputSerializer):
    token = serializers.CharField(source="key",
                                  help_text="The key, for `Authorization: Token <key>`. Shown only this once.")


def _new_token_body(request, user, data: TokenInputSerializer) -> dict:
    token, key = token_create(user=user, name=data.validated_data["name"], lifetime=data.lifetime())
    token.key = key  # only in this answer: the stored token has its hash alone
    return NewTokenOutputSerializer(token, context={"request": request}).data


class AccountCreateApi(APIView):
    """Sign up. The answer is the same whether or not the address is registered: check your email."""

    permission_classes = [AllowAny]
    # Token authentication only so a failed login answers 401 with a WWW-Authenticate header.
    authentication_classes = [AccountApiTokenAuthentication]
    # Sign-ups are limited by allauth's own "signup" rate (web and API together, RATE_LIMIT_SIGNUP).

    @extend_schema_serializer(component_name="AccountCreateInput")
    class InputSerializer(BodySerializer):
        username = serializers.CharField(max_length=150)
        email = serializers.CharField(max_length=254)
        password = serializers.CharField(max_length=128, write_only=True)

    @extend_schema(
        operation_id="account_create", request=InputSerializer,
        parameters=[created_location("the account (GET /api/me/, with a token once the address is confirmed)")],
        responses={201: DetailSerializer, 400: OpenApiResponse(description="A field is wrong: `errors` says which."),
                   422: OpenApiResponse(description="The username is taken or not allowed, the address cannot be "
                                                    "used, or the password is too weak: `errors` says which."),
                   429: OpenApiResponse(description="Too many sign-ups from this address; see Retry-After.")},
        examples=[OpenApiExample("sign up", request_only=True, value={
            "username": "ann", "email": "ann@example.com", "password": "a-long-enough-pass-9"})],
    )
    def post(self, request):
        # The web sign-up's limit per client address, counted together with it.
        if not ratelimit.consume(request._request, action="signup"):
            raise LimitReached(wait=retry_after(request._request, action="signup"),
                               reason=_("Too many sign-ups from your address."))
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            account_signup(request=request._request, **data.validated_data)
        except AccountError as error:
            raise UnprocessableInput(error.errors) from None
        # The account is read at /api/me/ once its address is confirmed and a token taken.
        return Response({"detail": CHECK_YOUR_EMAIL % {"path": "/api/auth/token/"}}, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-me")})


class TokenObtainApi(APIView):
    """Exchange a username (or email) and password for a new named token."""

    permission_classes = [AllowAny]
    # Token authentication only so a failed login answers 401 with a WWW-Authenticate header.
    authentication_classes = [AccountApiTokenAuthentication]
    throttle_scope = "auth"

    @extend_schema_serializer(component_name="AuthTokenInput")
    class InputSerializer(TokenInputSerializer):
        username = serializers.CharField(max_length=254, help_text="Your username or email address.")
        password = serializers.CharField(max_length=4096, write_only=True)
        name = serializers.CharField(max_length=100, required=False, default="API log in",
                                     help_text="What uses the token, to tell it apart when revoking.")

    @extend_schema(
        operation_id="auth_token_create", request=InputSerializer,
        responses={200: NewTokenOutputSerializer,
                   401: OpenApiResponse(description="Wrong username or password."),
                   403: OpenApiResponse(description="Right password, but the email address is not confirmed yet."),
                   409: TOO_MANY_TOKENS,
                   429: OpenApiResponse(description="Locked out after failed attempts; see Retry-After.")},
        examples=[OpenApiExample("log in", request_only=True, value={
            "username": "ann", "password": "a-long-enough-pass-9", "name": "my bot", "expires_in_days": 30})],
    )
    @keyed  # honoured once the account is known (run_once below)
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        login, password = data.validated_data["username"].strip(), data.validated_data["password"]
        # The same credentials allauth's log-in form builds, so the same lockout counter applies.
        credentials = {derive_login_method(login).value: login, "username": login, "password": password}
        try:
            user = get_adapter().authenticate(request._request, **credentials)
        except ValidationError:  # too many failed attempts
            raise LimitReached(wait=login_failed_retry_after(request._request, credentials),
                               reason=_("Too many failed log in attempts.")) from None
        if user is None:
            raise AuthenticationFailed(_("Wrong username or password."))
        if not has_verified_email(user):  # as the log-in page requires
            email_verification_resend(request=request._request, user=user)
            raise PermissionDenied(_("Confirm your email address first: follow the link we emailed you "
                                     "(we sent a new one if the last was more than a few minutes ago)."))
        # Known only now whose keys to look in: a log in sent again under its key answers the same token.
        key = key_of(request)
        if key is None:
            return Response(_new_token_body(request, user, data))
        return run_once(request, user, key, lambda: Response(_new_token_body(request, user, data)))


TokenListSerializer = page_of("TokenList", TokenOutputSerializer, description="My tokens, the newest first.")


class TokenListApi(APIView):
    """My API tokens (never their keys); create one with a name."""

    @extend_schema(operation_id="tokens_list", parameters=cursor_parameters(), responses={200: TokenListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, tokens_of(request.user), ordering=("-pk",))
        return Response(page.body(TokenOutputSerializer(page.items, many=True, context={"request": request}).data))

    @extend_schema(operation_id="tokens_create", request=TokenInputSerializer,
                   description="At most API_TOKENS_MAX_PER_USER (50) live tokens per account, whichever way they "
                               "were made (this, `POST /api/auth/token/`, the tokens page); expired ones do not count.",
                   parameters=[created_location("the new token (GET /api/tokens/{id}/; never its key)")],
                   responses={201: NewTokenOutputSerializer, 409: TOO_MANY_TOKENS},
                   examples=[OpenApiExample("new token", request_only=True,
                                            value={"name": "laptop script", "expires_in_days": 90})])
    @idempotent
    def post(self, request):
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = _new_token_body(request, request.user, data)
        return Response(body, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-token-detail", args=[body["id"]])})


class TokenDetailApi(APIView):
    """One of my tokens (never its key); revoke it: it stops working at once."""

    @extend_schema(operation_id="tokens_retrieve",
                   responses={200: TokenOutputSerializer, 404: OpenApiResponse(description="No such token of mine.")})
    @conditional_read
    def get(self, request, token_id: int):
        token = tokens_of(request.user).filter(pk=token_id).first()
        if token is None:
            raise NotFound(_("No such token."))
        return Response(TokenOutputSerializer(token, context={"request": request}).data)

    @extend_schema(operation_id="tokens_revoke", request=None,
                   responses={204: None, 404: OpenApiResponse(description="No such token of mine.")})
    def delete(self, request, token_id: int):
        try:
            token_revoke(user=request.user, token_id=token_id)
        except ApiToken.DoesNotExist:
            raise NotFound(_("No such token.")) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_serializer(component_name="BotAccount")
class BotAccountSerializer(serializers.Serializer):
    bot_account = serializers.BooleanField(help_text="Whether this account is a bot account.")
    since = serializers.DateTimeField(allow_null=True, help_text="When it became one; null while it is not.")
    eligible = serializers.BooleanField(help_text="Whether POST /api/me/bot/ would make it one now (true once it is).")
    reason = serializers.CharField(allow_null=True, help_text="Why it may not become one; null when it may or is one.")


def _bot_account_body(state: BotAccountStatus) -> dict:
    return {"bot_account": state.bot_account, "since": state.since, "eligible": state.refusal is None,
            "reason": state.refusal}


class BotAccountApi(APIView):
    """Whether I am a bot account; become one (for good) before playing anyone."""

    @extend_schema(operation_id="me_bot_retrieve", tags=["me"], summary="Am I a bot account?",
                   responses={200: BotAccountSerializer})
    @conditional_read
    def get(self, request):
        return Response(_bot_account_body(bot_account_status(request.user)))

    @extend_schema(
        operation_id="me_bot_create", tags=["me"], summary="Make my account a bot account",
        description="For good (only the site's staff can take it back). Only an account that has never shared a table "
                    "with another account may: make a new account for the bot. A bot account's name carries a bot "
                    "badge everywhere (bot_account: true beside it in the API), it plays through the API with a token "
                    "only (its pages are read-only, its email replies refused), it gets no game emails, and its rated "
                    "games count in the bot pool. Asking again once it is one changes nothing.",
        request=None,
        responses={200: BotAccountSerializer,
                   409: error("The account has already shared a table with other people.")},
    )
    @idempotent
    def post(self, request):
        return Response(_bot_account_body(bot_account_enable(user=request.user)))
