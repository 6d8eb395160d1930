from django.urls import path

from turnbased.notes import views

urlpatterns = [
    path("games/<int:game_id>/notes/", views.game_notes, name="game-notes"),
    path("games/<int:game_id>/notes/marks/", views.note_mark, name="game-note-marks"),
    path("games/<int:game_id>/notes/marks/remove/", views.note_mark_remove, name="game-note-mark-remove"),
]
