from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "turnbased.notifications"
    label = "notifications"

    def ready(self) -> None:
        from turnbased.notifications import reactions  # noqa: F401 - registers its reactions to the core's facts (play.facts)
