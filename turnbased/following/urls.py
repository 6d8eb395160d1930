from django.urls import path

from turnbased.following import views

urlpatterns = [
    path("following/", views.following, name="following"),
    # The path names what is followed (a page of one game differs from another's by its path alone).
    path("games/<int:target>/follow/", views.follow, {"kind": "game"}, name="following-follow-game"),
    path("groups/<int:target>/follow/", views.follow, {"kind": "group"}, name="following-follow-group"),
    path("competitions/<int:target>/follow/", views.follow, {"kind": "competition"},
         name="following-follow-competition"),
    path("following/<int:watch_id>/", views.watch_change, name="following-change"),
    path("following/<int:watch_id>/stop/", views.watch_stop, name="following-stop"),
]
