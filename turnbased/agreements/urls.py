from django.urls import path

from turnbased.agreements import views

urlpatterns = [
    path("games/<int:game_id>/takeback/", views.takeback, name="game-takeback"),
    path("games/<int:game_id>/agreements/", views.panel, name="game-agreements"),
    path("games/<int:game_id>/propose/<str:kind>/", views.propose, name="game-propose"),
    path("games/<int:game_id>/proposals/<int:proposal_id>/answer/", views.answer, name="game-proposal-answer"),
    path("games/<int:game_id>/proposals/<int:proposal_id>/withdraw/", views.withdraw, name="game-proposal-withdraw"),
]
