from django.urls import path

from turnbased.agreements import api

urlpatterns = [
    path("games/<int:game_id>/proposals/", api.ProposalsApi.as_view(), name="api-game-proposals"),
    path("games/<int:game_id>/proposals/<int:proposal_id>/", api.ProposalApi.as_view(), name="api-game-proposal"),
    path("games/<int:game_id>/proposals/<int:proposal_id>/answer/", api.ProposalAnswerApi.as_view(),
         name="api-game-proposal-answer"),
    path("games/<int:game_id>/takebacks/", api.TakebackApi.as_view(), name="api-game-takebacks"),
]
