from django.urls import path

from turnbased.api import invitations, records, text, turns, views

urlpatterns = [
    path("game-types/", views.GameTypesApi.as_view(), name="api-game-types"),
    path("games/", views.GameListApi.as_view(), name="api-games"),
    path("games/open/", views.OpenGameListApi.as_view(), name="api-games-open"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", views.GameJoinApi.as_view(), name="api-game-join"),
    path("games/<int:game_id>/start/", views.GameStartApi.as_view(), name="api-game-start"),
    path("games/<int:game_id>/leave/", views.GameLeaveApi.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/abort/", views.GameAbortApi.as_view(), name="api-game-abort"),
    path("games/<int:game_id>/resign/", views.GameResignApi.as_view(), name="api-game-resign"),
    path("games/<int:game_id>/legal-moves/", views.LegalMovesApi.as_view(), name="api-legal-moves"),
    path("games/<int:game_id>/moves/", views.MoveSubmitApi.as_view(), name="api-moves"),
    path("games/<int:game_id>/history/", views.HistoryApi.as_view(), name="api-history"),
    path("games/<int:game_id>/text/", text.PositionTextApi.as_view(), name="api-game-text"),
    path("games/<int:game_id>/record/", records.GameRecordApi.as_view(), name="api-game-record"),
    path("games/<int:game_id>/verify/", records.GameVerifyApi.as_view(), name="api-game-verify"),
    path("games/<int:game_id>/positions/<int:seq>/", views.PositionApi.as_view(), name="api-position"),
    path("games/<int:game_id>/invitations/", invitations.GameInvitationsApi.as_view(), name="api-game-invitations"),
    path("games/<int:game_id>/invitations/<int:invitation_id>/", invitations.GameInvitationDetailApi.as_view(),
         name="api-game-invitation"),
    path("games/<int:game_id>/invitations/decline/", invitations.InvitationDeclineApi.as_view(),
         name="api-game-invitation-decline"),
    path("me/turns/", turns.MyTurnsApi.as_view(), name="api-my-turns"),
    path("invitations/", invitations.MyInvitationsApi.as_view(), name="api-invitations"),
    path("invitations/people/", invitations.PeopleIPlayedWithApi.as_view(), name="api-invitations-people"),
]
