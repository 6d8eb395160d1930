from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "turnbased.notifications"
    label = "notifications"
