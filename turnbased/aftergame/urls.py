from django.urls import path

from turnbased.aftergame import views

urlpatterns = [
    path("games/<int:game_id>/rematch/", views.rematch, name="game-rematch"),
    path("games/<int:game_id>/rematch/accept/", views.rematch_accept, name="game-rematch-accept"),
    path("games/<int:game_id>/rematch/decline/", views.rematch_decline, name="game-rematch-decline"),
    path("games/<int:game_id>/rematch/box/", views.rematch_box, name="game-rematch-box"),
]
