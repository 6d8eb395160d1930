from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "turnbased.idempotency"
    label = "idempotency"
