"""Create accounts under the sign-up rules, sign up through the API as the web does, verify addresses."""

from __future__ import annotations

from allauth.account import signals
from allauth.account.adapter import get_adapter
from allauth.account.internal.flows.email_verification import (
    consume_email_verification_rate_limit,
    get_address_for_user,
)
from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from turnbased.accounts.adapter import USERNAME_LOOKS_TAKEN
from turnbased.accounts.forms import SignupForm

# Form fields as the API and the services name them.
_FIELD_NAMES = {"password1": "password", "password2": "password", "__all__": "non_field_errors"}


class AccountError(Exception):
    """Sign-up refused; ``errors`` maps field names to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{field}: {' '.join(map(str, messages))}" for field, messages in errors.items()))
        self.errors = errors


def _valid_signup_form(*, username: str, email: str, password: str) -> SignupForm:
    """Return the web's sign-up form filled in and validated; raise AccountError if it has errors."""
    form = SignupForm(data={"username": username, "email": email, "password1": password, "password2": password})
    if not form.is_valid():
        errors: dict[str, list[str]] = {}
        for field, messages in form.errors.items():
            errors.setdefault(_FIELD_NAMES.get(field, field), []).extend(messages)
        raise AccountError(errors)
    return form


def account_create(*, username: str, email: str, password: str, email_verified: bool = False):
    """Create an account under the sign-up rules without mailing anyone (demo accounts, tests, tooling).

    Raises AccountError for a bad or taken name, a bad or registered address, or a weak password.
    """
    form = _valid_signup_form(username=username, email=email, password=password)
    if form.account_already_exists:
        raise AccountError({"email": [_("An account with that email address already exists.")]})
    adapter = get_adapter()
    try:
        with transaction.atomic():
            user = adapter.save_user(None, adapter.new_user(None), form)
            EmailAddress.objects.create(user=user, email=form.cleaned_data["email"], primary=True,
                                        verified=email_verified)
    except IntegrityError:
        raise AccountError({"username": [USERNAME_LOOKS_TAKEN]}) from None
    return user


def account_signup(*, request, username: str, email: str, password: str) -> None:
    """Sign up as the web form does, answering alike whether or not the address is registered.

    A new account is created unverified and its address gets the verification link; for a
    registered address nothing is created and its owner is told by email. Raises AccountError
    for a bad or taken name, a bad address or a weak password.
    """
    form = _valid_signup_form(username=username, email=email, password=password)
    if form.account_already_exists:
        _send_verification(request, EmailAddress(user=None, email=form.cleaned_data["email"]), signup=True)
        return
    try:
        with transaction.atomic():
            user = form.save(request)
    except IntegrityError:  # a look-alike name signed up at the same moment
        raise AccountError({"username": [USERNAME_LOOKS_TAKEN]}) from None
    signals.user_signed_up.send(sender=user.__class__, request=request, user=user)
    _send_verification(request, EmailAddress.objects.get_primary(user), signup=True)


def email_verification_resend(*, request, user) -> bool:
    """Mail the user's unverified primary address a new verification link (at most one per cooldown)."""
    address = get_address_for_user(user)  # creates the row for an account older than verification
    if address is None or address.verified:
        return False
    return _send_verification(request, address, signup=False)


def email_mark_verified(*, user) -> EmailAddress:
    """Record the user's current address as verified and primary, for accounts an operator vouches for."""
    with transaction.atomic():
        address, _ = EmailAddress.objects.get_or_create(user=user, email=user.email.lower())
        EmailAddress.objects.filter(user=user, primary=True).exclude(pk=address.pk).update(primary=False)
        address.verified = address.primary = True
        address.save(update_fields=["verified", "primary"])
    return address


def _send_verification(request, address: EmailAddress, *, signup: bool) -> bool:
    # allauth's own sending, without the page messages it adds for browsers; the same cooldown
    # per address applies (a link sent a moment ago still works).
    if not consume_email_verification_rate_limit(request, address.email):
        return False
    if address.user_id is None:
        get_adapter(request).send_account_already_exists_mail(address.email)
        return True
    confirmation = address.send_confirmation(request, signup=signup)
    signals.email_confirmation_sent.send(sender=confirmation.__class__, request=request,
                                         confirmation=confirmation, signup=signup)
    return True
