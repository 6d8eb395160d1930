from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "turnbased.groups"
    label = "groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording
        from turnbased.groups import reactions  # noqa: F401 - registers who sees and joins a group's tables (play.facts)
        from turnbased.groups.wording import word_invitation, word_request

        register_wording([EventKind.GROUP_INVITATION], word_invitation)
        register_wording([EventKind.GROUP_REQUEST], word_request)
