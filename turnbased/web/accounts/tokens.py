"""The API tokens page: list, create with a name (the key is shown once), revoke."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from turnbased.accounts.forms import TokenCreateForm
from turnbased.accounts.models import ApiToken
from turnbased.accounts.selectors import tokens_of
from turnbased.accounts.services.tokens import TooManyTokens, token_create, token_revoke


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_tokens(request):
    """List the tokens; a valid POST creates one and shows its key on this answer only (409 at the cap)."""
    form = TokenCreateForm(request.POST or None)
    new_key, status = None, 200
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["lifetime_days"]
        try:
            _token, new_key = token_create(user=request.user, name=form.cleaned_data["name"],
                                           lifetime=timedelta(days=days) if days else None)
        except TooManyTokens as refusal:  # at the cap: the form says so above its fields, nothing is made
            form.add_error(None, refusal.detail)
            status = refusal.status
        else:
            form = TokenCreateForm()
    return render(request, "accounts/tokens.html", {"form": form, "tokens": tokens_of(request.user),
                                                    "new_key": new_key, "most": settings.API_TOKENS_MAX_PER_USER},
                  status=status)


@login_required
@require_POST
def api_token_revoke(request, token_id: int):
    try:
        token_revoke(user=request.user, token_id=token_id)
    except ApiToken.DoesNotExist:
        messages.error(request, _("No such token: it was revoked already, or it is not yours."))
    else:
        messages.success(request, _("Token revoked: it no longer works."))
    return redirect("account-tokens")
