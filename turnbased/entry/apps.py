from django.apps import AppConfig


class EntryConfig(AppConfig):
    name = "turnbased.entry"
    label = "entry"
    verbose_name = "Fair entry"

    def ready(self) -> None:
        from turnbased.entry import reactions  # noqa: F401 - registers a table's requirements (play.facts)
