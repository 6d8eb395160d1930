from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "turnbased.competitions"
    label = "competitions"
    verbose_name = "Competitions"

    def ready(self) -> None:
        from turnbased.competitions import reactions  # noqa: F401 - a finished game's places and points (play.facts)
        from turnbased.competitions.wording import word_event
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording

        register_wording([EventKind.COMPETITION_INVITATION, EventKind.COMPETITION_STARTED,
                          EventKind.COMPETITION_TABLE, EventKind.COMPETITION_ROUND, EventKind.COMPETITION_ENDED,
                          EventKind.COMPETITION_REMOVED, EventKind.COMPETITION_SEASON,
                          EventKind.COMPETITION_CHALLENGE], word_event)
