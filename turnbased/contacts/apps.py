from django.apps import AppConfig


class ContactsConfig(AppConfig):
    name = "turnbased.contacts"
    label = "contacts"
    verbose_name = "Friends and blocks"

    def ready(self) -> None:
        from turnbased.contacts import reactions  # noqa: F401 - registers what blocks refuse (play.facts)
