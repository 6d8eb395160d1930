from django.urls import path

from turnbased.chat import api

urlpatterns = [
    path("games/<int:game_id>/messages/", api.MessageListApi.as_view(), name="api-messages"),
    path("games/<int:game_id>/messages/<int:message_id>/", api.MessageDetailApi.as_view(), name="api-message"),
]
