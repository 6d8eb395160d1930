"""The production topology on one machine: compose.yaml's services as local processes, without Docker.

Each compose service has a local stand-in. PostgreSQL is a database of its own on the server the
test run uses, Redis a fresh embedded server (both reached only through ``DATABASE_URL`` and
``CELERY_BROKER_URL``, as external services), nginx is Debian's binary with the compose file's
template rendered for loopback, and every service built from the Django image runs its compose
``command`` as written, from the repository root, with production settings, once per replica.

Replicas: in compose each one is a container with an address of its own, and Docker's DNS answers
``web`` with all of them, so nginx's one ``server web:8000;`` line balances over every replica. On one
machine each replica of a listening service gets a loopback port of its own instead, and the upstream
variable is rendered as one ``server`` line per replica; each Celery replica gets a node name of its
own (``--hostname``), as each container has a host name of its own.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.topology.compose import (
    compose_command, django_services, load_compose, nginx_template_path, render_template, replicas, upstream_servers,
)
from turnbased.local.services import BASE_DIR, embedded_redis, free_port, port_answers, scratch_database

NGINX = Path("/usr/sbin/nginx")
# compose.yaml's services that are images of other software, and what stands in for each here.
# Every other service runs the Django image, so here its command.
STAND_INS = {
    "postgres": "a database of its own on the test run's PostgreSQL",
    "redis": "a fresh embedded Redis",
    "nginx": "Debian's nginx with the same template",
}
# The order the Django image's services start in: migrate first and alone, then the rest.
ONE_OFF = "migrate"
# What a process prints once it is ready to work (None: its port answering is enough).
READY_LINES = {"worker": "ready.", "mailer": "ready.", "hooks": "ready.", "bots": "ready.", "beat": "beat: Starting",
               "dispatch": "dispatch: listening on turnbased_work"}
START_TIMEOUT = 60.0
# Set for the stack, so the tests can reach them: chat messages an account (and an address) may send a minute;
# how often beat sends its sweeps (SWEEP_SECONDS: a minute by default, here a test counts what two beats' sweeps
# do); the streams an account may hold open at once, in every stream process together (5 by default).
CHAT_MESSAGES_PER_MINUTE = 10
SWEEP_SECONDS = 2
STREAMS_PER_ACCOUNT = 4
# Where the running stack is kept while its tests run (conftest.py adds its logs to failures).
RUNNING_STACK = pytest.StashKey["ProductionStack"]()
LOG_TAIL_LINES = 40


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """Make a certificate for 127.0.0.1 and localhost; return (certificate, key) paths."""
    certificate, key = folder / "certificate.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )
    return certificate, key


@dataclass
class Process:
    """A child process in a session of its own, its output kept in a log file."""

    name: str
    argv: list[str]
    log: Path
    popen: subprocess.Popen | None = None
    environment: dict[str, str] | None = field(default=None, repr=False)  # as last started, to start it again
    started_at_byte: int = 0  # where this start's output begins in the log (a restart appends to it)

    def start(self, environment: dict[str, str]) -> Process:
        executable = shutil.which(self.argv[0], path=environment["PATH"])
        assert executable, f"{self.name}: {self.argv[0]} is not installed"
        self.environment = environment
        self.started_at_byte = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as output:
            self.popen = subprocess.Popen(
                [executable, *self.argv[1:]], cwd=BASE_DIR, env=environment, stdin=subprocess.DEVNULL,
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def output_since_start(self) -> str:
        """Return what the process printed since it was last started."""
        return self.log.read_bytes()[self.started_at_byte:].decode(errors="replace") if self.log.exists() else ""

    def check_running(self) -> None:
        if self.popen.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.popen.returncode}:\n{self.tail()}")

    def tail(self) -> str:
        return "\n".join(self.output().splitlines()[-LOG_TAIL_LINES:])

    def signal(self, signum: int) -> None:
        """Signal the process and every child it started (gunicorn's and Celery's workers).

        The process leads a session of its own, so its group is exactly what it started; the group
        outlives the leader while a child does.
        """
        if self.popen is not None:
            try:
                os.killpg(self.popen.pid, signum)
            except ProcessLookupError:
                pass


def wait_for_exit(process: Process, timeout: float = START_TIMEOUT) -> None:
    """Wait for a started one-off process to finish; fail, with its log, unless it succeeded."""
    try:
        process.popen.wait(timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{process.name} took over {timeout:.0f} s:\n{process.tail()}") from None
    if process.popen.returncode != 0:
        raise AssertionError(f"{process.name} failed with {process.popen.returncode}:\n{process.tail()}")


def wait_until(condition, what: str, processes: list[Process], timeout: float = START_TIMEOUT) -> None:
    """Wait for ``condition``; fail at once, with its log, if one of ``processes`` exits meanwhile."""
    deadline = time.monotonic() + timeout
    while not condition():
        for process in processes:
            process.check_running()
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@dataclass
class Ports:
    web: list[int]  # one per replica
    stream: list[int]
    https: int = field(default_factory=free_port)
    http: int = field(default_factory=free_port)
    redis: int = field(default_factory=free_port)
    mail_inbound: int = field(default_factory=free_port)
    mail_sink: int = field(default_factory=free_port)


# The limits on games waiting on a person (issue 44), which the test runner turns off for every test.
WAITING_LIMITS = ("GAMES_WAITING_TO_CREATE", "GAMES_WAITING_TO_JOIN", "NEW_ACCOUNT_OPEN_GAMES")


class ProductionStack:
    """Start compose.yaml's services locally; stop every one of them on exit, whatever happened."""

    def __init__(self, folder: Path, *, database_server_url: str, mail_sink_port: int):
        self.folder = folder
        self.compose = load_compose()
        self.ports = Ports(web=[free_port() for _ in range(replicas(self.compose, "web"))],
                           stream=[free_port() for _ in range(replicas(self.compose, "stream"))],
                           mail_sink=mail_sink_port)
        self.database_server_url = database_server_url
        self.site_url = f"https://127.0.0.1:{self.ports.https}"
        self.processes: list[Process] = []  # everything started, one-offs and extras too
        self.services: dict[str, list[Process]] = {}  # the long-running ones by compose service, replicas in order
        self.stopped_on_purpose: set[str] = set()  # by a test (a node killed), until it starts them again
        self.database_url = self.broker_url = ""
        self.certificate: Path | None = None
        self.secret_key = secrets.token_urlsafe(64)  # long, random: what production demands
        self._stack = ExitStack()

    # --- the one place that says how each process is configured ----------------------------

    def django_environment(self, service: str, *, database_url: str, broker_url: str) -> dict[str, str]:
        """Return the environment of a Django-image process: compose's, then loopback addresses.

        Production settings (DEBUG off, a strong random secret key), external PostgreSQL and Redis,
        outgoing mail to the test's SMTP sink, replies on the mail server's own port.
        """
        environment = {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
            "HOME": os.environ.get("HOME", str(self.folder)),
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "turnbased.settings",
            "TURNBASED_DATA_DIR": str(self.folder / "data"),
        }
        environment.update(self.compose["services"][service].get("environment") or {})
        environment.update({
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": self.secret_key,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            # No trusted origins: a form posted through nginx passes Django's origin check only if
            # nginx passes the Host (with its port) and the scheme correctly.
            "DJANGO_CSRF_TRUSTED_ORIGINS": "",
            "SITE_URL": self.site_url,
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.ports.mail_sink),
            "EMAIL_USE_TLS": "false",
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "ANYMAIL": "{}",
            "MAIL_INBOUND_HOST": "127.0.0.1",
            "MAIL_INBOUND_PORT": str(self.ports.mail_inbound),
            "UVICORN_HOST": "127.0.0.1",  # the stream process (uvicorn reads its address from these)
            # Whom gunicorn lets set X-Forwarded-For and -Proto (uvicorn, run with --no-proxy-headers, believes
            # no header): nginx's address in compose is loopback here. Where compose trusts nobody, trust an
            # address nothing here has: gunicorn's default, loopback, would trust this nginx where compose's
            # processes do not trust theirs.
            "FORWARDED_ALLOW_IPS": "127.0.0.1" if environment.get("FORWARDED_ALLOW_IPS") == self.nginx_address
            else "192.0.2.1",
            # The rate limits stay on; both players move from loopback, a whole game in seconds.
            "RATE_LIMIT_MOVES": "600/min",
            # Low enough for the tests to reach (the constants above).
            "RATE_LIMIT_CHAT": f"{CHAT_MESSAGES_PER_MINUTE}/min",
            "SWEEP_SECONDS": str(SWEEP_SECONDS),
            "STREAM_MAX_PER_USER": str(STREAMS_PER_ACCOUNT),
            # Passwords hashed cheaply, as by every server the tests start (the test runner sets it): PBKDF2's
            # million rounds for each sign-up and log in were most of the stack's work here.
            # The limits on games waiting off, as the test runner has them (the players here sit at many tables).
            **{name: os.environ[name] for name in ("TESTS_ONLY_FAST_PASSWORD_HASHING", *WAITING_LIMITS)
               if name in os.environ},
        })
        unresolved = {key: value for key, value in environment.items() if "${" in str(value)}
        assert not unresolved, f"compose.yaml sets {sorted(unresolved)} for {service}: give them loopback values here"
        return environment

    def replica_environment(self, service: str, replica: int, environment: dict[str, str]) -> dict[str, str]:
        """Return a replica's environment: each replica of a listening service on a loopback port of its own."""
        if service == "web":
            return {**environment, "WEB_BIND": f"127.0.0.1:{self.ports.web[replica - 1]}"}
        if service == "stream":
            return {**environment, "UVICORN_PORT": str(self.ports.stream[replica - 1])}
        return environment

    @property
    def nginx_address(self) -> str:
        return self.compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]

    def nginx_values(self, certificate: Path, key: Path) -> dict[str, str]:
        """Return the values for the nginx template's variables (compose.yaml sets the same names)."""
        return {
            # compose's "web:8000" is every replica (Docker's DNS): here one server line per replica's port.
            "WEB_UPSTREAM": upstream_servers(self.ports.web),
            "STREAM_UPSTREAM": upstream_servers(self.ports.stream),
            "NGINX_HTTP_LISTEN": f"127.0.0.1:{self.ports.http}",
            "NGINX_HTTPS_LISTEN": f"127.0.0.1:{self.ports.https}",
            "SITE_URL": self.site_url,
            "TLS_CERTIFICATE": str(certificate),
            "TLS_CERTIFICATE_KEY": str(key),
        }

    # --- starting and stopping -------------------------------------------------------------

    def __enter__(self) -> ProductionStack:
        try:
            self._start()
        except BaseException:
            print(self.log_tails())
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self._stack.close()

    def _start(self) -> None:
        (self.folder / "logs").mkdir()
        self.database_url = self._stack.enter_context(
            scratch_database(self.database_server_url, f"topology_{os.getpid()}")
        )
        redis_folder = self.folder / "redis"
        redis_folder.mkdir()
        self.broker_url = self._stack.enter_context(embedded_redis(self.ports.redis, folder=redis_folder))
        # Registered last, so it runs first: every process stops before Redis and the database go.
        self._stack.callback(self._stop_processes)

        environments = {
            name: self.django_environment(name, database_url=self.database_url, broker_url=self.broker_url)
            for name in django_services(self.compose)
        }
        # The image runs collectstatic when it is built; migrate is compose's one-off service.
        one_offs = [
            self._process("collectstatic", ["python", "manage.py", "collectstatic", "--noinput"]),
            self._process(ONE_OFF, compose_command(self.compose["services"][ONE_OFF])),
        ]
        for process in one_offs:
            process.start(environments[ONE_OFF])
        for process in one_offs:
            wait_for_exit(process)

        for name in django_services(self.compose):
            if name == ONE_OFF:
                continue
            command = compose_command(self.compose["services"][name])
            count = replicas(self.compose, name)
            for replica in range(1, count + 1):
                label, argv = (f"{name}-{replica}", command) if count > 1 else (name, command)
                if count > 1 and command[0] == "celery":
                    # Each container has a host name of its own; on one machine each replica needs a node name.
                    argv = [*(argument for argument in command if not argument.startswith("--hostname=")),
                            f"--hostname={name}{replica}@%h"]
                process = self._process(label, argv).start(self.replica_environment(name, replica, environments[name]))
                self.services.setdefault(name, []).append(process)
        self.services["nginx"] = [self._start_nginx()]
        for process in self.long_running():
            self.wait_ready(process)

    def long_running(self) -> list[Process]:
        return [process for replicas_of_one in self.services.values() for process in replicas_of_one]

    def wait_ready(self, process: Process) -> None:
        """Wait until a started process listens on its port, or has printed its ready line; fail if any process dies."""
        service = next(name for name, started in self.services.items() if process in started)
        ports = {"web": self.ports.web, "stream": self.ports.stream, "mail": [self.ports.mail_inbound],
                 "nginx": [self.ports.https]}
        running = [other for other in self.long_running() if other.name not in self.stopped_on_purpose]
        if service in ports:
            port = ports[service][self.services[service].index(process)]
            wait_until(lambda: port_answers(port), f"{process.name} to listen on {port}", running)
        if line := READY_LINES.get(service):
            wait_until(lambda: line in process.output_since_start(), f"{process.name} to be ready", running)

    # --- what a test does to the running stack ----------------------------------------------

    def freeze(self, process: Process) -> None:
        """Stop a process and its children where they are (SIGSTOP): requests sent to it wait, unanswered."""
        self.stopped_on_purpose.add(process.name)
        process.signal(signal.SIGSTOP)

    def thaw(self, process: Process) -> None:
        """Let a frozen process and its children go on (SIGCONT)."""
        process.signal(signal.SIGCONT)
        self.stopped_on_purpose.discard(process.name)

    def kill(self, process: Process) -> None:
        """Kill a process and every child it started at once (SIGKILL: a machine that loses its power)."""
        self.stopped_on_purpose.add(process.name)
        process.signal(signal.SIGKILL)
        process.popen.wait(10)

    def start_again(self, process: Process) -> None:
        """Start a killed process again, as it was started (its supervisor's restart), and wait until it is ready."""
        if process.popen.poll() is None:  # frozen, or never killed: the new one must not find its port taken
            self.kill(process)
        process.start(process.environment)
        self.stopped_on_purpose.discard(process.name)
        self.wait_ready(process)

    def start_extra(self, name: str, argv: list[str], *, like: str) -> Process:
        """Start a process compose does not list (a second beat, by mistake) with the environment of service ``like``;
        it is stopped with the stack, or by ``stop_extra``."""
        environment = self.services[like][0].environment
        return self._process(name, argv).start(environment)

    def stop_extra(self, process: Process) -> None:
        """Stop a process ``start_extra`` started (one without children: a beat)."""
        process.popen.terminate()
        try:
            process.popen.wait(15)
        except subprocess.TimeoutExpired:
            process.popen.kill()
            process.popen.wait(10)

    def check_running(self) -> None:
        """Fail, with its log, if a process of the stack has died that no test stopped on purpose."""
        for process in self.long_running():
            if process.name not in self.stopped_on_purpose:
                process.check_running()

    def _process(self, name: str, argv: list[str]) -> Process:
        process = Process(name, argv, self.folder / "logs" / f"{name}.log")
        self.processes.append(process)
        return process

    def _start_nginx(self) -> Process:
        assert NGINX.exists(), f"{NGINX} is missing: apt-get install nginx (.ci/run does)"
        self.certificate, key = self_signed_certificate(self.folder)
        template = nginx_template_path(self.compose).read_text()
        site = self.folder / "nginx-site.conf"
        site.write_text(render_template(template, self.nginx_values(self.certificate, key)))
        prefix = self.folder / "nginx"
        prefix.mkdir()
        # What the official image's /etc/nginx/nginx.conf does, with every path under the test's folder.
        user = "user root;" if os.geteuid() == 0 else ""  # as root, workers must still reach the temp paths
        temp_paths = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                               for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        main = self.folder / "nginx.conf"
        main.write_text(f"""daemon off;
{user}
worker_processes 1;
pid {prefix / 'nginx.pid'};
error_log stderr notice;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    # Which upstream server took each request (and, after a failure, the one tried next), and when it began: the
    # moment the line is written (msec) less the time the request took, in seconds since the epoch.
    log_format upstreams '$remote_addr "$request" $status began=$msec-$request_time upstream=$upstream_addr';
    access_log {self.folder / 'logs' / 'nginx-access.log'} upstreams;
{temp_paths}
    include {site};
}}
""")
        return self._process("nginx", [str(NGINX), "-p", str(prefix), "-c", str(main), "-e", "stderr"]).start(
            {"PATH": os.environ.get("PATH", "")}
        )

    def _stop_processes(self) -> None:
        # Only what still runs: a process that already ended may have had its id reused since.
        running = [process for process in self.processes if process.popen and process.popen.poll() is None]
        for process in reversed(running):
            process.signal(signal.SIGTERM)
            process.signal(signal.SIGCONT)  # one a test froze and left so
        deadline = time.monotonic() + 15
        for process in running:
            try:
                process.popen.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.signal(signal.SIGKILL)
                process.popen.wait()
            # Children left behind in the process's group (a Celery pool process) go too.
            process.signal(signal.SIGKILL)

    def log_tails(self) -> str:
        """Return the end of every process's log, and of nginx's access log."""
        parts = [f"----- {process.name} (last {LOG_TAIL_LINES} lines of {process.log}) -----\n{process.tail()}"
                 for process in self.processes]
        access_log = self.folder / "logs" / "nginx-access.log"
        if access_log.exists():
            lines = access_log.read_text().splitlines()[-LOG_TAIL_LINES:]
            parts.append("----- nginx access log -----\n" + "\n".join(lines))
        return "\n".join(parts)
