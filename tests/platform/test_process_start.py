"""What a process of the service loads as it starts: every web and Celery worker, every management command.

A library only one task uses is imported by that task, not at start: pywebpush brings aiohttp, a third of a
second of CPU at each process's start (a web node restarting its workers, a test starting a stack).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from turnbased.local.services import BASE_DIR

# Loaded by the push task alone (turnbased/notifications/push.py imports it where it sends).
LOADED_ONLY_WHEN_USED = ("pywebpush", "aiohttp")

START_A_WORKER = """
import json, sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # a web worker's first request loads the URL map and every view
import turnbased.celery  # a Celery worker's app and its tasks
print(json.dumps(sorted(sys.modules)))
"""


def test_a_starting_process_does_not_load_what_one_task_alone_uses():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "turnbased.settings"}
    started = subprocess.run([sys.executable, "-c", START_A_WORKER], cwd=BASE_DIR, env=environment,
                             capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr[-2000:]
    loaded = set(json.loads(started.stdout.splitlines()[-1]))
    assert "turnbased.notifications.push" in loaded, "the check must see the module that pushes"
    assert not loaded & set(LOADED_ONLY_WHEN_USED), sorted(loaded & set(LOADED_ONLY_WHEN_USED))
