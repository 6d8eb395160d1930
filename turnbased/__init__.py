"""The turnbased service: the Django project and its platform apps."""

from turnbased.celery import app as celery_app

__all__ = ["celery_app"]
