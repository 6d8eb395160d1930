from django.urls import path

from turnbased.notes import api

urlpatterns = [
    path("games/<int:game_id>/notes/", api.GameNoteApi.as_view(), name="api-game-notes"),
    path("me/notes/", api.MyNotesApi.as_view(), name="api-my-notes"),
]
