from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "turnbased.notes"
    verbose_name = "Private notes"

    def ready(self) -> None:
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording
        from turnbased.notes.selectors import word_note_event

        register_wording([EventKind.GAME_NOTE], word_note_event)
