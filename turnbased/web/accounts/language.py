"""The language switcher on every page: visitors keep their choice in a cookie, people on their account too."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from turnbased.accounts.readers import offered_language
from turnbased.accounts.services.languages import language_choose


@require_POST
def language_switch(request):
    """Read the site in the chosen language from now on, and go back to the page the switcher was on."""
    language = offered_language(request.POST.get("language", ""))
    if not language:
        return HttpResponseBadRequest(_("Choose one of the languages the site offers."),
                                      content_type="text/plain; charset=utf-8")
    if request.user.is_authenticated:
        language_choose(user=request.user, language=language)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    translation.activate(language)
    response = redirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE or request.is_secure(), httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
