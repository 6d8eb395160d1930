from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from turnbased.accounts import api as accounts_api
from turnbased.clocks import api as clocks_api

api_patterns = [
    path("accounts/", accounts_api.AccountCreateApi.as_view(), name="api-accounts"),
    path("auth/token/", accounts_api.TokenObtainApi.as_view(), name="api-token"),
    path("tokens/", accounts_api.TokenListApi.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", accounts_api.TokenDetailApi.as_view(), name="api-token-detail"),
    path("me/", clocks_api.ProfileApi.as_view(), name="api-me"),
    path("absences/", clocks_api.AbsenceListApi.as_view(), name="api-absences"),
    path("absences/end/", clocks_api.AbsenceEndApi.as_view(), name="api-absence-end"),
    path("absences/<int:absence_id>/", clocks_api.AbsenceDetailApi.as_view(), name="api-absence"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("turnbased.play.api.urls")),
]

# The admin logs in through the account login page, with its lockout, not a door of its own.
admin.site.login = secure_admin_login(admin.site.login)
# allauth answers its rate-limited pages with this (429 and Retry-After).
handler429 = "turnbased.accounts.ratelimits.handler429"

urlpatterns = [
    path("accounts/", include("turnbased.accounts.urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
    path("anymail/", include("anymail.urls")),
    path("", include("turnbased.mail.urls")),
    path("", include("turnbased.play.urls")),
]
