from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "turnbased.groups"
    label = "groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        from turnbased.groups import reactions  # noqa: F401 - registers who sees and joins a group's tables (play.facts)
