from django.urls import path

from turnbased.notes import views

urlpatterns = [
    path("games/<int:game_id>/notes/", views.game_notes, name="game-notes"),
]
