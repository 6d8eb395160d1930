from django.urls import path

from turnbased.competitions.api import views

urlpatterns = [
    path("competitions/", views.CompetitionListApi.as_view(), name="api-competitions"),
    path("competitions/<int:competition_id>/", views.CompetitionApi.as_view(), name="api-competition"),
    path("competitions/<int:competition_id>/cancel/", views.CancelApi.as_view(), name="api-competition-cancel"),
    path("competitions/<int:competition_id>/entry/", views.EntryApi.as_view(), name="api-competition-entry"),
    path("competitions/<int:competition_id>/entrants/", views.EntrantsApi.as_view(), name="api-competition-entrants"),
    path("competitions/<int:competition_id>/entrants/<str:username>/", views.EntrantApi.as_view(),
         name="api-competition-entrant"),
    path("competitions/<int:competition_id>/invitations/", views.InvitationsApi.as_view(),
         name="api-competition-invitations"),
    path("competitions/<int:competition_id>/standings/", views.StandingsApi.as_view(),
         name="api-competition-standings"),
    path("competitions/<int:competition_id>/rounds/", views.RoundsApi.as_view(), name="api-competition-rounds"),
    path("competitions/<int:competition_id>/challenges/", views.ChallengesApi.as_view(),
         name="api-competition-challenges"),
    path("me/competitions/", views.MyCompetitionsApi.as_view(), name="api-my-competitions"),
]
