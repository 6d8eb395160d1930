from django.urls import path

from turnbased.entry.api import views

urlpatterns = [
    path("me/waiting/", views.GamesWaitingApi.as_view(), name="api-games-waiting"),
    path("games/<int:game_id>/requirements/", views.TableRequirementsApi.as_view(), name="api-game-requirements"),
]
