from django.urls import path

from turnbased.entry.api import views

urlpatterns = [
    path("games/<int:game_id>/requirements/", views.TableRequirementsApi.as_view(), name="api-game-requirements"),
]
