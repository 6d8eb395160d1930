from django.apps import AppConfig


class EntryConfig(AppConfig):
    name = "turnbased.entry"
    label = "entry"
    verbose_name = "Fair entry"

    def ready(self) -> None:
        from turnbased.entry import reactions  # noqa: F401 - registers a table's requirements (play.facts)
        from turnbased.entry.wording import word_tables_left
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording

        register_wording([EventKind.TABLES_LEFT], word_tables_left)
