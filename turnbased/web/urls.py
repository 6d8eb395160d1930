from django.urls import path

from turnbased.web import assets, guide, invitation_views, move_views, record_views, replay_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/next/", views.next_game, name="game-next"),
    path("games/<int:game_id>/", views.game_detail, name="game-detail"),
    path("games/<int:game_id>/panel/", views.game_panel, name="game-panel"),
    path("games/<int:game_id>/history/", views.game_history, name="game-history"),
    path("games/<int:game_id>/replay/", replay_views.game_replay, name="game-replay"),
    path("games/<int:game_id>/move/", views.game_move, name="game-move"),
    path("games/<int:game_id>/moves/", move_views.game_move_buttons, name="game-move-buttons"),  # issue 47
    path("games/<int:game_id>/join/", views.game_join, name="game-join"),
    path("games/<int:game_id>/start/", views.game_start, name="game-start"),
    path("games/<int:game_id>/leave/", views.game_leave, name="game-leave"),
    path("games/<int:game_id>/abort/", views.game_abort, name="game-abort"),
    path("games/<int:game_id>/resign/", views.game_resign, name="game-resign"),
    path("games/<int:game_id>/verify/", record_views.game_verify, name="game-verify"),
    path("games/<int:game_id>/invite/<str:invite_code>/", views.game_invite, name="game-invite"),
    path("games/<int:game_id>/invitations/", invitation_views.game_invite_player, name="game-invitations"),
    path("games/<int:game_id>/invitations/decline/", invitation_views.game_invitation_decline,
         name="game-invitation-decline"),
    path("guide/", guide.players_guide, name="players-guide"),  # issue 47: the players' guide, in their language
    path("assets/games/<slug:slug>/<slug:name>.<str:digest>.json", assets.serve_asset, name="game-asset"),
]
