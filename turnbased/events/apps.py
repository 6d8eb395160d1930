from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "turnbased.events"
    label = "events"

    def ready(self) -> None:
        from turnbased.events import revocations

        revocations.connect()  # a credential that ends closes its streams at once
