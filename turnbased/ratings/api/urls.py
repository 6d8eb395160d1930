from django.urls import path

from turnbased.ratings.api import views

urlpatterns = [
    path("ratings/", views.RatingListApi.as_view(), name="api-ratings"),
    path("players/<str:username>/", views.PlayerApi.as_view(), name="api-player"),
    path("players/<str:username>/games/", views.PlayerGamesApi.as_view(), name="api-player-games"),
]
