"""gunicorn settings for the web process, behind nginx.

Sizing: requests are short and spend much of their time waiting on PostgreSQL, so each worker
process runs a few threads (the gthread worker) that overlap those waits, and the processes,
which are what runs Python in parallel, number one more than the cores (one can run while another
waits). On 2 cores that is 3 processes x 4 threads: 12 requests in flight and at most 12 database
connections for the web tier. More processes would only contend for the same cores and memory
(each holds a whole Django); more threads would mostly queue on the GIL and the database.
Override with WEB_CONCURRENCY and WEB_THREADS, e.g. when a container's CPU quota is lower than the
cores it can see.
"""

import os


def _usable_cores() -> int:
    """Return the number of cores this process may run on (a container's cpuset included)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # platforms without sched_getaffinity
        return os.cpu_count() or 1


bind = os.environ.get("WEB_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", _usable_cores() + 1))
threads = int(os.environ.get("WEB_THREADS", "4"))
# Load Django once in the master and fork the workers from it: quicker boots, shared memory.
preload_app = True

# A request still running after WEB_TIMEOUT seconds gets its worker restarted; nginx waits longer
# (proxy_read_timeout), so the answer the client sees is gunicorn's, not a proxy timeout.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# Recycle each worker after about a thousand requests, so a slow leak never grows unbounded.
max_requests = 1000
max_requests_jitter = 100
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
