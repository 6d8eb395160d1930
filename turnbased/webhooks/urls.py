from django.urls import path

from turnbased.webhooks import api

urlpatterns = [
    path("webhooks/", api.WebhookListApi.as_view(), name="api-webhooks"),
    path("webhooks/<int:webhook_id>/", api.WebhookDetailApi.as_view(), name="api-webhook"),
    path("webhooks/<int:webhook_id>/deliveries/", api.WebhookDeliveryListApi.as_view(), name="api-webhook-deliveries"),
    path("webhooks/<int:webhook_id>/ping/", api.WebhookPingApi.as_view(), name="api-webhook-ping"),
    path("webhooks/<int:webhook_id>/rotate-secret/", api.WebhookSecretApi.as_view(),
         name="api-webhook-rotate-secret"),
]
