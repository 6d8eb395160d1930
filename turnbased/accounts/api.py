"""REST API for accounts: sign up and obtain a token."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.services import AccountError, api_token, create_account


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class AccountCreateApi(APIView):
    """Sign up; the answer carries the new account's API token."""

    permission_classes = [AllowAny]
    # Token authentication only so a failed login answers 401 with a WWW-Authenticate header.
    authentication_classes = [TokenAuthentication]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        email = serializers.CharField(max_length=254)
        password = serializers.CharField(max_length=128, write_only=True)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        email = serializers.CharField()
        token = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = create_account(**data.validated_data)
        except AccountError as error:
            raise serializers.ValidationError(error.errors) from None
        body = {"id": user.pk, "username": user.username, "email": user.email, "token": api_token(user)}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenObtainApi(APIView):
    """Exchange a username and password for the account's API token."""

    permission_classes = [AllowAny]
    # Token authentication only so a failed login answers 401 with a WWW-Authenticate header.
    authentication_classes = [TokenAuthentication]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=InputSerializer, responses=TokenOutputSerializer)
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None:
            raise AuthenticationFailed("Wrong username or password.")
        return Response({"token": api_token(user)})
