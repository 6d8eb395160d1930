from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from turnbased.accounts import api as accounts_api
from turnbased.clocks import api as clocks_api

api_patterns = [
    path("accounts/", accounts_api.AccountCreateApi.as_view(), name="api-accounts"),
    path("auth/token/", accounts_api.TokenObtainApi.as_view(), name="api-token"),
    path("me/", clocks_api.ProfileApi.as_view(), name="api-me"),
    path("absences/", clocks_api.AbsenceListApi.as_view(), name="api-absences"),
    path("absences/end/", clocks_api.AbsenceEndApi.as_view(), name="api-absence-end"),
    path("absences/<int:absence_id>/", clocks_api.AbsenceDetailApi.as_view(), name="api-absence"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("turnbased.play.api.urls")),
]

urlpatterns = [
    path("accounts/", include("turnbased.accounts.urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
    path("anymail/", include("anymail.urls")),
    path("", include("turnbased.mail.urls")),
    path("", include("turnbased.play.urls")),
]
