from django.apps import AppConfig


class AftergameConfig(AppConfig):
    name = "turnbased.aftergame"
    label = "aftergame"
    verbose_name = "After the game"

    def ready(self) -> None:
        from turnbased.aftergame import reactions  # noqa: F401 - registers its reactions to the core's facts (play.facts)
