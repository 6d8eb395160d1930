from django.urls import path

from turnbased.notifications import api

# Under /api/: my devices told of my turns (issue 25).
urlpatterns = [
    path("me/push-subscriptions/", api.PushSubscriptionListApi.as_view(), name="api-me-push-subscriptions"),
    path("me/push-subscriptions/<int:subscription_id>/", api.PushSubscriptionDetailApi.as_view(),
         name="api-me-push-subscription"),
]
