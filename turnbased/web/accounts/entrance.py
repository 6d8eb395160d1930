"""allauth's log-in and sign-up pages, with a 429 for a locked-out login and a race-safe sign-up."""

from __future__ import annotations

from allauth.account import views as allauth_views
from allauth.account.internal import flows
from allauth.core.exceptions import ImmediateHttpResponse
from django.db import IntegrityError, transaction

from turnbased.accounts.adapter import USERNAME_LOOKS_TAKEN
from turnbased.accounts.ratelimits import login_failed_retry_after

LOCKED_OUT = "too_many_login_attempts"


class LoginView(allauth_views.LoginView):
    def form_invalid(self, form):
        """Answer a locked-out login with 429 and Retry-After (the form says why) instead of 200."""
        response = super().form_invalid(form)
        if form.has_error("__all__", code=LOCKED_OUT) and "login" in form.cleaned_data:
            response.status_code = 429
            response["Retry-After"] = str(login_failed_retry_after(self.request, form.user_credentials()))
        return response


class SignupView(allauth_views.SignupView):
    def form_valid(self, form):
        """Create the account in one transaction: a look-alike name signed up meanwhile is refused, not half-made."""
        try:
            with transaction.atomic():
                self.user, response = form.try_save(self.request)
        except IntegrityError:
            form.add_error("username", USERNAME_LOOKS_TAKEN)
            return self.form_invalid(form)
        if response:
            return response
        try:
            return flows.signup.complete_signup(self.request, user=self.user, redirect_url=self.get_success_url())
        except ImmediateHttpResponse as immediate:
            return immediate.response


login = LoginView.as_view()
signup = SignupView.as_view()
