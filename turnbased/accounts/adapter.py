"""Our rules inside django-allauth: the username checks every sign-up door goes through."""

from __future__ import annotations

import logging
import smtplib

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from anymail.exceptions import AnymailError
from django.core.exceptions import ValidationError

from turnbased.accounts.confusables import mixes_scripts, scripts_of, skeletons
from turnbased.accounts.models import UsernameSkeleton
from turnbased.accounts.readers import for_reader

logger = logging.getLogger(__name__)

USERNAME_LOOKS_TAKEN = "That name looks too much like another player's name. Choose another."


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_taken": "That username is taken.",
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse, beyond allauth's checks, mixed alphabets and names that look like a taken or reserved one."""
        username = super().clean_username(username, shallow=shallow)
        if mixes_scripts(username):
            alphabets = " and ".join(sorted(script.replace("_", " ").title() for script in scripts_of(username)))
            raise ValidationError(f"Use the letters of one alphabet: this name mixes {alphabets}.",
                                  code="username_mixed_scripts")
        keys = skeletons(username)
        reserved = set().union(*(skeletons(name) for name in app_settings.USERNAME_BLACKLIST))
        if keys & reserved:
            raise self.validation_error("username_blacklisted")
        if not shallow and UsernameSkeleton.objects.filter(skeleton__in=keys).exists():
            raise ValidationError(USERNAME_LOOKS_TAKEN, code="username_looks_taken")
        return username

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Send an account email; if the mail server fails, log it and answer the page all the same.

        The person can ask again (log in for a new verification link, or request a new reset
        link); a server error would tell them less and, on sign-up, leak nothing more.
        """
        try:
            with for_reader(context.get("user")):  # in the recipient's language, whoever asked for it
                super().send_mail(template_prefix, email, context)
        except (smtplib.SMTPException, OSError, AnymailError):
            logger.exception("account email %s to %s not sent", template_prefix, email)

    def unstash_verified_email(self, request) -> str | None:
        # allauth writes None back even when nothing was stashed, which would give every API
        # sign-up a session; only touch the session when there is something to take out.
        if request is None or not request.session.get("account_verified_email"):
            return None
        return super().unstash_verified_email(request)
