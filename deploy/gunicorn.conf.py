"""gunicorn settings for the web process: behind nginx in production, alone under ``make run``.

Sizing (deploy/README.md, measured with benchmarks/http_moves.py): Python runs in parallel only
across processes, and a request spends part of its time waiting on PostgreSQL, so there are about
two processes per usable core plus one (``2 x cores + 1``), each with two threads (gthread): a
process whose request waits still takes another, and few threads queue little on the GIL. On 2
cores that is 5 x 2: ten requests in flight, at most ten database connections.
Override with WEB_CONCURRENCY and WEB_THREADS, e.g. when a container's CPU quota is lower than the
cores it can see. Each thread holds at most one database connection, so the web tier's share of
PostgreSQL's max_connections is workers x threads per machine.

With DJANGO_DEBUG on (``make run``) the same server reloads itself: each worker loads the code
itself and is restarted when a Python file or a template changes, and a stop is quick.
"""

import os
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
# The same reading of DJANGO_DEBUG as the settings' (the environment first, then .env).
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
DEBUG = environ.Env().bool("DJANGO_DEBUG", default=False)


def _usable_cores() -> int:
    """Return the number of cores this process may run on (a container's cpuset included)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # platforms without sched_getaffinity
        return os.cpu_count() or 1


bind = os.environ.get("WEB_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# gunicorn's threaded worker (gthread), whose own error answers (a request it cannot read, headers over its
# limits) are problem documents under /api/ as every other answer there is (turnbased/web_worker.py).
worker_class = "turnbased.web_worker.ProblemThreadWorker"
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * _usable_cores() + 1))
threads = int(os.environ.get("WEB_THREADS", "2"))

if DEBUG:
    # Each worker imports the code itself, so a restarted worker runs the edited code; the
    # templates are watched too (Django's cached template loader forgets them only on a restart).
    preload_app = False
    reload = True
    # and so are the compiled translations (``python -m turnbased.kit.texts.catalogs compile`` after editing a catalog).
    reload_extra_files = [str(BASE_DIR / "templates" / "**" / "*.html"),
                          str(BASE_DIR / "turnbased" / "*" / "templates" / "**" / "*.html"),
                          str(BASE_DIR / "**" / "LC_MESSAGES" / "*.mo")]
    # Ctrl-C: honcho kills what still runs after 5 seconds; finish the requests in flight before that.
    graceful_timeout = 3
else:
    # Load Django once in the master and fork the workers from it: quicker boots, shared memory.
    preload_app = True
    graceful_timeout = 30

# A request still running after WEB_TIMEOUT seconds gets its worker restarted; nginx waits longer
# (proxy_read_timeout), so the answer the client sees is gunicorn's, not a proxy timeout.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
keepalive = 5
# Recycle each worker now and then, so a slow leak never grows unbounded (WEB_MAX_REQUESTS, 0 = never).
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "10000"))
max_requests_jitter = max_requests // 10
# The heartbeat file on a container's overlay filesystem can stall a worker; shared memory does not.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# Only nginx may say the request came over HTTPS (X-Forwarded-Proto): its address, and no other.
# In the compose file that is the nginx container's fixed address; on one machine, loopback.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# No control socket (gunicornc): compose restarts processes, and two web processes sharing a home
# folder would fight over the socket's default path.
control_socket_disable = True

accesslog = "-"
errorlog = "-"
# The client's address is the one nginx puts in X-Forwarded-For; %(L)s is the request time in seconds.
access_log_format = '%({x-forwarded-for}i)s "%(r)s" %(s)s %(B)s %(L)ss "%(a)s"'
