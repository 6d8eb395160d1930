from django.urls import path

from turnbased.competitions import views

urlpatterns = [
    path("competitions/", views.competition_list, name="competition-list"),
    path("competitions/new/", views.competition_new, name="competition-new"),
    path("competitions/<int:competition_id>/", views.competition_detail, name="competition-detail"),
    path("competitions/<int:competition_id>/standings.csv", views.standings_csv, name="competition-standings-csv"),
    path("competitions/<int:competition_id>/enter/", views.enter, name="competition-enter"),
    path("competitions/<int:competition_id>/withdraw/", views.withdraw, name="competition-withdraw"),
    path("competitions/<int:competition_id>/invite/", views.invite, name="competition-invite"),
    path("competitions/<int:competition_id>/entrants/<str:username>/remove/", views.remove,
         name="competition-remove"),
    path("competitions/<int:competition_id>/cancel/", views.cancel, name="competition-cancel"),
    path("competitions/<int:competition_id>/challenge/<str:username>/", views.challenge,
         name="competition-challenge"),
]
