from django.apps import AppConfig


class SeatsConfig(AppConfig):
    name = "turnbased.seats"
    verbose_name = "Seats changing hands"

    def ready(self) -> None:
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording
        from turnbased.seats import reactions  # noqa: F401  (the table term, the news of a seat taken)
        from turnbased.seats.selectors import word_seat_event

        register_wording([EventKind.SEAT_OFFERED, EventKind.SEAT_TAKEN], word_seat_event)
