"""Account pages under /accounts/: allauth's views by allauth's names, and ours.

allauth.account.urls, listed here rather than included because /accounts/email/ is the email
settings page (turnbased.mail): allauth's address page lives at /accounts/address/ instead. Keep
every allauth route: allauth reverses their names.
The old names ``login``, ``signup`` and ``logout`` stay for the templates that use them.
"""

from allauth.account import views as allauth_views
from allauth.usersessions import views as usersessions_views
from django.urls import path, re_path

from turnbased.accounts import forms
from turnbased.web.accounts import entrance, language, profile, tokens

urlpatterns = [
    path("login/", entrance.login, name="account_login"),
    path("login/", entrance.login, name="login"),
    path("logout/", allauth_views.logout, name="account_logout"),
    path("logout/", allauth_views.logout, name="logout"),
    path("signup/", entrance.signup, name="account_signup"),
    path("signup/", entrance.signup, name="signup"),
    path("inactive/", allauth_views.account_inactive, name="account_inactive"),
    path("reauthenticate/", allauth_views.reauthenticate, name="account_reauthenticate"),
    path("reauthenticate/code/",
         allauth_views.RequestReauthenticationCodeView.as_view(form_class=forms.RequestReauthenticationCodeForm),
         name="account_request_reauthentication_code"),
    path("reauthenticate/code/confirm/", allauth_views.confirm_reauthentication_code,
         name="account_confirm_reauthentication_code"),
    path("login/code/confirm/", allauth_views.confirm_login_code, name="account_confirm_login_code"),
    # Addresses: verification, and changing to a new one (verified before it replaces the old).
    path("address/", allauth_views.email, name="account_email"),
    path("confirm-email/", allauth_views.email_verification_sent, name="account_email_verification_sent"),
    re_path(r"^confirm-email/(?P<key>[-:\w]+)/$", allauth_views.confirm_email, name="account_confirm_email"),
    # Passwords.
    path("password/change/", allauth_views.password_change, name="account_change_password"),
    path("password/set/", allauth_views.password_set, name="account_set_password"),
    path("password/reset/", allauth_views.password_reset, name="account_reset_password"),
    path("password/reset/done/", allauth_views.password_reset_done, name="account_reset_password_done"),
    re_path(r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$", allauth_views.password_reset_from_key,
            name="account_reset_password_from_key"),
    path("password/reset/key/done/", allauth_views.password_reset_from_key_done,
         name="account_reset_password_from_key_done"),
    # Where I am signed in; API tokens.
    path("sessions/", usersessions_views.list_usersessions, name="usersessions_list"),
    path("tokens/", tokens.api_tokens, name="account-tokens"),
    path("tokens/<int:token_id>/revoke/", tokens.api_token_revoke, name="account-token-revoke"),
    # Settings and absences.
    path("settings/", profile.account_settings, name="account-settings"),
    path("settings/time-zone/", profile.time_zone_choose, name="account-time-zone"),
    # The language switcher of every page, for visitors too (under /accounts/, where a bot account may post).
    path("language/", language.language_switch, name="language-switch"),
    path("absence/", profile.absences, name="absences"),
]
