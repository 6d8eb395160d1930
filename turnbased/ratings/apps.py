from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "turnbased.ratings"
    verbose_name = "Ratings and players"

    def ready(self) -> None:
        from turnbased.ratings import reactions  # noqa: F401 - registers its reactions to the core's facts (play.facts)
