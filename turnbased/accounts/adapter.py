"""Our rules inside django-allauth: the username checks every sign-up door goes through."""

from __future__ import annotations

import logging
import smtplib

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from anymail.exceptions import AnymailError
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from turnbased.accounts.confusables import mixes_scripts, scripts_of, skeletons
from turnbased.accounts.models import UsernameSkeleton
from turnbased.accounts.readers import for_reader
from turnbased.accounts.selectors import account_named_by

logger = logging.getLogger(__name__)

USERNAME_LOOKS_TAKEN = gettext_lazy("That name looks too much like another player's name. Choose another.")
# The alphabets a refused name may mix, named for people (Unicode's script names otherwise, title-cased).
ALPHABET_NAMES = {
    "LATIN": pgettext_lazy("alphabet", "Latin"),
    "CYRILLIC": pgettext_lazy("alphabet", "Cyrillic"),
    "GREEK": pgettext_lazy("alphabet", "Greek"),
    "ARMENIAN": pgettext_lazy("alphabet", "Armenian"),
    "GEORGIAN": pgettext_lazy("alphabet", "Georgian"),
    "HEBREW": pgettext_lazy("alphabet", "Hebrew"),
    "ARABIC": pgettext_lazy("alphabet", "Arabic"),
    "HAN": pgettext_lazy("alphabet", "Chinese"),
    "HIRAGANA": pgettext_lazy("alphabet", "Hiragana"),
    "KATAKANA": pgettext_lazy("alphabet", "Katakana"),
    "HANGUL": pgettext_lazy("alphabet", "Hangul"),
    "THAI": pgettext_lazy("alphabet", "Thai"),
    "DEVANAGARI": pgettext_lazy("alphabet", "Devanagari"),
    "CHEROKEE": pgettext_lazy("alphabet", "Cherokee"),
}


def alphabet_name(script: str) -> str:
    """Name a Unicode script for people, in the reader's language when it is a common one."""
    return str(ALPHABET_NAMES.get(script, script.replace("_", " ").title()))


def worded_list(names: list[str]) -> str:
    """Join names as the reader's language lists them: "Cyrillic and Latin", "Arabic, Cyrillic and Latin"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_taken": gettext_lazy("That username is taken."),
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse, beyond allauth's checks, mixed alphabets and names that look like a taken or reserved one."""
        username = super().clean_username(username, shallow=shallow)
        if mixes_scripts(username):
            alphabets = worded_list(sorted(alphabet_name(script) for script in scripts_of(username)))
            raise ValidationError(_("Use the letters of one alphabet: this name mixes %(alphabets)s.")
                                  % {"alphabets": alphabets}, code="username_mixed_scripts")
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

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """Key the failed log-in limit (``login_failed``'s ``/key`` rate) by the account the login names.

        allauth keys it by the string typed, so a guesser locked out under a username went on under the account's
        address. A login that names no account keeps a key of its own string (lowercased), so such logins lock
        out as known ones do and the lockout does not tell which names exist; the two kinds of key cannot meet.
        Unlike allauth's, the key leaves out the request's host: without the sites framework that is the Host
        header, and each host name the site answers to would have given a guesser another allowance.
        """
        login = credentials.get("email", credentials.get("username", "")) or ""
        account = account_named_by(login)
        if account is None:
            return f"login:{login.strip().lower()}"
        return f"account:{account}"

    def unstash_verified_email(self, request) -> str | None:
        # allauth writes None back even when nothing was stashed, which would give every API
        # sign-up a session; only touch the session when there is something to take out.
        if request is None or not request.session.get("account_verified_email"):
            return None
        return super().unstash_verified_email(request)
