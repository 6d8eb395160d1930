from django.urls import path

from turnbased.following import api

urlpatterns = [
    path("watches/", api.WatchesApi.as_view(), name="api-watches"),
    path("watches/games/", api.FollowedGamesApi.as_view(), name="api-followed-games"),
    path("watches/<int:watch_id>/", api.WatchApi.as_view(), name="api-watch"),
]
