from django.urls import path

from turnbased.chat import views

urlpatterns = [
    path("games/<int:game_id>/chat/", views.chat_poll, name="chat-poll"),
    path("games/<int:game_id>/chat/post/", views.chat_post, name="chat-post"),
    path("games/<int:game_id>/chat/mute/", views.chat_mute, name="chat-mute"),
    path("games/<int:game_id>/chat/report/", views.chat_report, name="chat-report"),
    path("games/<int:game_id>/chat/read/", views.chat_read, name="chat-read"),
    path("lobby/changes/", views.lobby_changes, name="lobby-changes"),
]
