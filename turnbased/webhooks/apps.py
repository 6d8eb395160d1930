from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "turnbased.webhooks"
    label = "webhooks"
