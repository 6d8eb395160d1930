from django.urls import path

from turnbased.contacts import views

urlpatterns = [
    path("friends/", views.people, name="contacts-people"),
    path("friends/tables/", views.friends_tables, name="contacts-friends-tables"),
    path("friends/follow/", views.follow, name="contacts-follow"),
    path("friends/unfollow/", views.unfollow, name="contacts-unfollow"),
    path("friends/block/", views.block, name="contacts-block"),
    path("friends/unblock/", views.unblock, name="contacts-unblock"),
]
