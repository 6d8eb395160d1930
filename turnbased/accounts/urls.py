from django.contrib.auth import views as auth_views
from django.urls import path

from turnbased.accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", views.account_settings, name="account-settings"),
    path("absence/", views.absences, name="absences"),
]
