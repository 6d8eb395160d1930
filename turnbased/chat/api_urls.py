from django.urls import path

from turnbased.chat import api

urlpatterns = [
    path("games/<int:game_id>/messages/", api.MessageListApi.as_view(), name="api-messages"),
]
