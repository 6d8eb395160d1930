from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "turnbased.accounts"
    label = "accounts"

    def ready(self) -> None:
        from turnbased.accounts import receivers, schema  # noqa: F401  (signal receivers, schema extension)
