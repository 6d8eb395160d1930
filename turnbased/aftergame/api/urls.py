from django.urls import path

from turnbased.aftergame.api import views

urlpatterns = [
    path("games/<int:game_id>/rematch/", views.RematchApi.as_view(), name="api-game-rematch"),
    path("games/<int:game_id>/rematch/accept/", views.RematchAcceptApi.as_view(), name="api-game-rematch-accept"),
    path("games/<int:game_id>/summary/", views.GameSummaryApi.as_view(), name="api-game-summary"),  # issue 47
    path("games/<int:game_id>/rematch/decline/", views.RematchDeclineApi.as_view(), name="api-game-rematch-decline"),
]
