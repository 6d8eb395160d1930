"""The service's settings, serving the framework floor's view beside every page and endpoint."""

from turnbased.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.framework_floor.urls"
