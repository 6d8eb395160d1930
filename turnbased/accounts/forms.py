"""Forms: allauth's sign-up and password forms with our choices added, and the API token form."""

from __future__ import annotations

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from allauth.core import context
from django import forms
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from turnbased.accounts.models import ApiToken
from turnbased.accounts.readers import asks_for_a_language, offered_language
from turnbased.accounts.services.languages import language_choose
from turnbased.accounts.services.signup_networks import signup_network_note
from turnbased.accounts.services.time_zones import zone_set
from turnbased.accounts.time_zones import DEFAULT_ZONE, zone_names

# Days a new token lasts; 0 is never.
TOKEN_LIFETIMES = [(30, gettext_lazy("30 days")), (90, gettext_lazy("90 days")), (365, gettext_lazy("a year")),
                   (0, gettext_lazy("never"))]


class SignupForm(allauth_forms.SignupForm):
    # Preselected with the browser's zone by js/time-zone.js; without script (or through the API) UTC.
    time_zone = forms.ChoiceField(
        required=False, label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("Pages and emails show times in it; change it in Settings."),
        widget=forms.Select(attrs={"data-browser-time-zone": "preselect", "translate": "no"}),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _("Other players see this name. Letters, digits and @ . + - _ only.")
        self.fields["email"].help_text = _("We send a link to confirm it; turn emails and email moves use it.")
        self.fields["time_zone"].choices = [(name, name.replace("_", " ")) for name in zone_names()]
        self.fields["time_zone"].initial = DEFAULT_ZONE

    def custom_signup(self, request, user) -> None:
        """Keep the zone picked on the form (the browser's, as offered); a form without one leaves UTC, unchosen.

        The language the person signed up in (the switcher's, or their browser's) becomes their account's, so
        their emails come in it; a request that names no language leaves it unchosen. The network the sign-up
        came from is noted for the ratings (``signup_network_note``), through the web and the API alike.
        """
        zone = self.cleaned_data.get("time_zone")
        if zone:
            zone_set(user=user, zone=zone)  # a new account has no deadline the zone would move
        named = request is not None and (asks_for_a_language(request)
                                         or settings.LANGUAGE_COOKIE_NAME in request.COOKIES)
        if named:
            language_choose(user=user, language=offered_language(translation.get_language()))
        if request is not None:
            signup_network_note(user=user, address=_client_address(request))


def _client_address(request) -> str | None:
    """Return the client's address as allauth's own limits read it (``TRUSTED_PROXY_COUNT`` proxies in front)."""
    try:
        return get_adapter(request).get_client_ip(request)
    except PermissionDenied:  # no address to be read
        return None


class _SessionsAndTokensChoice(forms.Form):
    """What a new password ends besides itself: the other sessions and the chosen API tokens."""

    end_other_sessions = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Sign me out everywhere else"),
        help_text=gettext_lazy("Untick to stay signed in in your other browsers."),
    )
    revoke_tokens = forms.ModelMultipleChoiceField(
        queryset=ApiToken.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Revoke these API tokens"),
    )

    def _offer_tokens(self, user, *, revoke_all: bool) -> None:
        tokens = ApiToken.objects.filter(user=user) if user is not None else ApiToken.objects.none()
        self.fields["revoke_tokens"].queryset = tokens
        self.fields["revoke_tokens"].label_from_instance = lambda token: _("%(name)s (created %(date)s)") % {
            "name": token.name, "date": date_format(timezone.localtime(token.created), "SHORT_DATE_FORMAT")}
        if not tokens:
            del self.fields["revoke_tokens"]
        elif revoke_all:
            self.fields["revoke_tokens"].initial = list(tokens)

    def _settle(self, user) -> None:
        from turnbased.accounts.services.passwords import password_changed_settle

        request = context.request
        password_changed_settle(
            user=user,
            current_session_key=request.session.session_key if request is not None else None,
            end_other_sessions=self.cleaned_data.get("end_other_sessions", False),
            revoke_token_ids=[token.pk for token in self.cleaned_data.get("revoke_tokens", [])],
        )


class ChangePasswordForm(_SessionsAndTokensChoice, allauth_forms.ChangePasswordForm):
    """Change the password; by default sign out the other sessions and keep the API tokens."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._offer_tokens(self.user, revoke_all=False)

    def save(self) -> None:
        super().save()
        self._settle(self.user)


class ResetPasswordKeyForm(_SessionsAndTokensChoice, allauth_forms.ResetPasswordKeyForm):
    """Set a new password from a reset link; by default end every session and revoke every token."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["end_other_sessions"].label = _("Sign me out everywhere")
        self.fields["end_other_sessions"].help_text = _("Untick to stay signed in where you still are.")
        self._offer_tokens(self.user, revoke_all=True)

    def save(self) -> None:
        super().save()
        self._settle(self.user)


class TokenCreateForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("What uses it, e.g. “my bot” or “laptop script”."))
    lifetime_days = forms.TypedChoiceField(choices=TOKEN_LIFETIMES, coerce=int, initial=90,
                                           label=gettext_lazy("Expires after"))


class RequestReauthenticationCodeForm(allauth_forms.RequestReauthenticationCodeForm):
    """allauth's choice of where to send a sign-in code, with a label in the reader's language (allauth names
    the field after itself, untranslated)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["recipient"].label = _("Send the code to")
