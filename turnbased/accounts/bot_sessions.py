"""A bot account's browser session reads every page but plays nothing: a bot account acts through the API with a
token (docs/api-guide.md, "Bot accounts").

Its owner may still sign in as it to manage it: the account pages (settings, API tokens, password, log out), the
email settings and an unsubscribe link. Any other form it sends, and any write to the API made with the session
instead of a token, answers 403 with why, and changes nothing.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

from turnbased.accounts.models import Profile
from turnbased.kit.http.request_guards import is_api

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# Where a bot account's session may still send forms: its account and email settings, unsubscribing, the admin.
ACCOUNT_PREFIXES = ("/accounts/", "/mail/", "/admin/")
REFUSAL = gettext_lazy("%(name)s is a bot account: it plays through the API with an API token (Authorization: Token "
                       "<key>), not through this session. Its pages are read-only; its settings and tokens are under "
                       "/accounts/.")


def sends_a_token(request) -> bool:
    """Tell whether the request carries token credentials (right or wrong: the API's authentication judges them)."""
    parts = request.META.get("HTTP_AUTHORIZATION", "").split()
    return bool(parts) and parts[0].lower() == "token"


def is_bot_session(request) -> bool:
    """Tell whether the request acts (an unsafe method, outside the account pages) in a bot account's session.

    Costs one query, and only for such a request from a signed-in browser.
    """
    if request.method in SAFE_METHODS or request.path_info.startswith(ACCOUNT_PREFIXES):
        return False
    if is_api(request) and sends_a_token(request):
        return False
    user = request.user
    return user.is_authenticated and Profile.objects.filter(user_id=user.pk, is_bot_account=True).exists()


class BotAccountSessionMiddleware:
    """Refuse what a bot account's browser session sends to play: 403, JSON under /api/, else a page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_bot_session(request):
            return self.get_response(request)
        detail = REFUSAL % {"name": request.user.get_username()}
        if is_api(request):
            return JsonResponse({"detail": detail}, status=403)
        page = render_to_string("accounts/bot_account_session.html", {"detail": detail}, request=request)
        return HttpResponse(page, status=403)
