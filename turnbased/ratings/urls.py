from django.urls import path

from turnbased.ratings import views

urlpatterns = [
    path("ratings/", views.ratings_index, name="ratings"),
    path("ratings/<slug:game_slug>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player_profile, name="player"),
    path("players/<str:username>/games/", views.player_games, name="player-games"),
]
