"""WSGI entry point (gunicorn turnbased.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")
application = get_wsgi_application()
