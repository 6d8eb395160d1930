"""Account actions."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from rest_framework.authtoken.models import Token

User = get_user_model()


class AccountError(Exception):
    """Sign-up refused; ``errors`` maps field names to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{field}: {' '.join(messages)}" for field, messages in errors.items()))
        self.errors = errors


def create_account(*, username: str, email: str, password: str):
    """Create a user after checking the name is free, the address valid and the password strong enough."""
    errors: dict[str, list[str]] = {}
    username_field = User._meta.get_field("username")
    try:
        username_field.clean(username, None)
    except ValidationError as error:
        errors["username"] = list(error.messages)
    else:
        if User.objects.filter(username__iexact=username).exists():
            errors["username"] = ["That username is taken."]
    try:
        validate_email(email)
    except ValidationError as error:
        errors["email"] = list(error.messages)
    else:
        if User.objects.filter(email__iexact=email).exists():
            errors["email"] = ["An account with that email address already exists."]
    try:
        password_validation.validate_password(password, User(username=username, email=email))
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise AccountError(errors)
    with transaction.atomic():
        return User.objects.create_user(username=username, email=email, password=password)


def api_token(user) -> str:
    """Return the user's API token, creating it on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
