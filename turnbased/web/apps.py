from django.apps import AppConfig


class WebConfig(AppConfig):
    """The table's web pages: the lobby, a table, its replay, records and invitations (a door: docs/design.md)."""

    name = "turnbased.web"
    label = "web"
