from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "turnbased.events"
    label = "events"
