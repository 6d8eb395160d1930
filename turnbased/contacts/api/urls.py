from django.urls import path

from turnbased.contacts.api import views

urlpatterns = [
    path("me/following/", views.FollowingApi.as_view(), name="api-following"),
    path("me/following/<str:username>/", views.FollowingDetailApi.as_view(), name="api-following-detail"),
    path("me/blocked/", views.BlockedApi.as_view(), name="api-blocked"),
    path("me/blocked/<str:username>/", views.BlockedDetailApi.as_view(), name="api-blocked-detail"),
    path("friends/tables/", views.FriendsOpenTablesApi.as_view(), name="api-friends-tables"),
    path("friends/games/", views.FriendsGamesApi.as_view(), name="api-friends-games"),
]
