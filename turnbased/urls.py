from allauth.account.decorators import secure_admin_login
from anymail import urls as anymail_urls
from django.contrib import admin
from django.http import HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import URLPattern, include, path
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from turnbased.api import accounts as accounts_api
from turnbased.clocks import api as clocks_api
from turnbased.events import api as events_api
from turnbased.kit.http.request_guards import only_for_a_configured_mail_provider


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI, its start-up script served as a file so the page needs no inline script.

    GET and HEAD only: an OPTIONS answer has no page for its HTML renderer to draw (any other
    method is refused in JSON, as every API error is).
    """

    http_method_names = ["get", "head"]


api_patterns = [
    path("accounts/", accounts_api.AccountCreateApi.as_view(), name="api-accounts"),
    path("auth/token/", accounts_api.TokenObtainApi.as_view(), name="api-token"),
    path("tokens/", accounts_api.TokenListApi.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", accounts_api.TokenDetailApi.as_view(), name="api-token-detail"),
    path("me/", clocks_api.ProfileApi.as_view(), name="api-me"),
    path("me/bot/", accounts_api.BotAccountApi.as_view(), name="api-me-bot"),  # issue 15: bot accounts
    path("absences/", clocks_api.AbsenceListApi.as_view(), name="api-absences"),
    path("absences/end/", clocks_api.AbsenceEndApi.as_view(), name="api-absence-end"),
    path("absences/<int:absence_id>/", clocks_api.AbsenceDetailApi.as_view(), name="api-absence"),
    # Issue 15: served by the stream process (turnbased/events/asgi.py); the web process's answer ends at once.
    path("stream/", events_api.StreamApi.as_view(), name="api-stream"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("turnbased.api.urls")),
    path("", include("turnbased.ratings.api.urls")),
    path("", include("turnbased.chat.api_urls")),  # issue 12, table talk
    path("", include("turnbased.notes.api_urls")),  # issue 46: private notes
    path("", include("turnbased.agreements.api_urls")),  # issue 46: takebacks by consent
    path("", include("turnbased.seats.api_urls")),  # issue 46: a person takes a seat
    path("", include("turnbased.following.api_urls")),  # issue 46: following games
    path("", include("turnbased.aftergame.api.urls")),
    path("", include("turnbased.webhooks.urls")),  # issue 15
    path("", include("turnbased.notifications.api_urls")),  # issue 25: my devices told of my turns
    path("", include("turnbased.contacts.api.urls")),  # issue 44: friends and blocks
    path("", include("turnbased.groups.api.urls")),  # issue 44: groups
    path("", include("turnbased.entry.api.urls")),  # issue 44: fair entry
    path("", include("turnbased.competitions.api.urls")),  # issue 45: competitions
]


# Provider webhooks (inbound replies, delivery events) answer only for the provider ANYMAIL configures.
anymail_patterns = [
    URLPattern(pattern.pattern, only_for_a_configured_mail_provider(pattern.callback), pattern.default_args, pattern.name)
    for pattern in anymail_urls.urlpatterns
]
# The admin logs in through the account login page, with its lockout, not a door of its own.
admin.site.login = secure_admin_login(admin.site.login)
# allauth answers its rate-limited pages with this (429 and Retry-After).
handler429 = "turnbased.accounts.ratelimits.handler429"


@require_safe
def favicon(request):
    """Send browsers that ask for /favicon.ico without reading the page's icon link to the icon."""
    return redirect(static("favicon.ico"), permanent=True)


# Crawlers may read the public pages (the lobby, open games, players, competitions, the guide). They are kept
# out of what only a person or a program at work asks for: the API, sign-in and account pages, the admin, the mail
# provider's hooks, unsubscribe links (each a person's token) and the mailbox.
ROBOTS = "\n".join([
    "User-agent: *",
    *(f"Disallow: {prefix}" for prefix in ("/api/", "/accounts/", "/admin/", "/anymail/", "/mail/", "/mailbox/")),
    "",
])


@require_safe
def robots(request):
    """Tell crawlers which parts of the site are not pages for them (a missing robots.txt answered 404)."""
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("robots.txt", robots, name="robots"),
    path("accounts/", include("turnbased.web.account_urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
    path("anymail/", include((anymail_patterns, anymail_urls.app_name))),
    path("", include("turnbased.mail.urls")),
    path("", include("turnbased.web.urls")),
    path("", include("turnbased.ratings.urls")),
    path("", include("turnbased.chat.urls")),  # issue 12, table talk
    path("", include("turnbased.notes.urls")),  # issue 46: private notes
    path("", include("turnbased.agreements.urls")),  # issue 46: takebacks by consent
    path("", include("turnbased.seats.urls")),  # issue 46: a person takes a seat
    path("", include("turnbased.following.urls")),  # issue 46: following games
    path("", include("turnbased.aftergame.urls")),
    path("", include("turnbased.notifications.urls")),  # issue 25: service worker, manifest, offline page
    path("", include("turnbased.contacts.urls")),  # issue 44: friends and blocks
    path("", include("turnbased.groups.urls")),  # issue 44: groups
    path("", include("turnbased.competitions.urls")),  # issue 45: competitions
]

# Django's error pages, as {"detail": ...} JSON under /api/.
handler400 = "turnbased.kit.http.request_guards.bad_request"
handler403 = "turnbased.kit.http.request_guards.permission_denied"
handler404 = "turnbased.kit.http.request_guards.page_not_found"
handler500 = "turnbased.kit.http.request_guards.server_error"
