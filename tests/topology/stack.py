"""The production topology on one machine: compose.yaml's services as local processes, without Docker.

Each compose service has a local stand-in. PostgreSQL is a database of its own on the server the
test run uses, Redis a fresh embedded server (both reached only through ``DATABASE_URL`` and
``CELERY_BROKER_URL``, as external services), nginx is Debian's binary with the compose file's
template rendered for loopback, and every service built from the Django image runs its compose
``command`` as written (worker once per replica), from the repository root, with production settings.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from turnbased.local import BASE_DIR, embedded_redis, free_port, port_answers, scratch_database

COMPOSE_FILE = BASE_DIR / "deploy" / "compose.yaml"
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
READY_LINES = {"worker": "ready.", "mailer": "ready.", "hooks": "ready.", "beat": "beat: Starting",
               "dispatch": "dispatch: listening on turnbased_work"}
START_TIMEOUT = 60.0
# Where the running stack is kept while its tests run (conftest.py adds its logs to failures).
RUNNING_STACK = pytest.StashKey["ProductionStack"]()
LOG_TAIL_LINES = 40


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text())


def django_services(compose: dict) -> list[str]:
    """Return the services built from the Django image, in the compose file's order."""
    return [name for name, service in compose["services"].items() if "build" in service]


def compose_command(service: dict) -> list[str]:
    """Return a service's command as argv, with compose's ``$$`` escape turned back into ``$``."""
    command = service["command"]
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    return [argument.replace("$$", "$") for argument in argv]


TEMPLATE_VARIABLE = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}|\$([A-Z][A-Z0-9_]*)")


def template_variables(template: str) -> set[str]:
    """Return the environment variables an nginx template uses (envsubst replaces only capitals here)."""
    return {braced or bare for braced, bare in TEMPLATE_VARIABLE.findall(template)}


def render_template(template: str, values: dict[str, str]) -> str:
    """Substitute ``values`` as the nginx image's envsubst does: ``$NAME`` and ``${NAME}``, defined names only."""
    return TEMPLATE_VARIABLE.sub(lambda match: values.get(match[1] or match[2], match[0]), template)


def nginx_template_path(compose: dict) -> Path:
    """Return the template file compose.yaml mounts into the nginx image's templates folder."""
    for volume in compose["services"]["nginx"]["volumes"]:
        source, target = volume.split(":")[:2]
        if target.startswith("/etc/nginx/templates/"):
            return (COMPOSE_FILE.parent / source).resolve()
    raise AssertionError("compose.yaml mounts no template into /etc/nginx/templates/")


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

    def start(self, environment: dict[str, str]) -> Process:
        executable = shutil.which(self.argv[0], path=environment["PATH"])
        assert executable, f"{self.name}: {self.argv[0]} is not installed"
        with self.log.open("ab") as output:
            self.popen = subprocess.Popen(
                [executable, *self.argv[1:]], cwd=BASE_DIR, env=environment, stdin=subprocess.DEVNULL,
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

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
    web: int = field(default_factory=free_port)
    stream: int = field(default_factory=free_port)
    https: int = field(default_factory=free_port)
    http: int = field(default_factory=free_port)
    redis: int = field(default_factory=free_port)
    mail_inbound: int = field(default_factory=free_port)
    mail_sink: int = field(default_factory=free_port)


class ProductionStack:
    """Start compose.yaml's services locally; stop every one of them on exit, whatever happened."""

    def __init__(self, folder: Path, *, database_server_url: str, mail_sink_port: int):
        self.folder = folder
        self.compose = load_compose()
        self.ports = Ports(mail_sink=mail_sink_port)
        self.database_server_url = database_server_url
        self.site_url = f"https://127.0.0.1:{self.ports.https}"
        self.processes: list[Process] = []
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
            "WEB_BIND": f"127.0.0.1:{self.ports.web}",
            "UVICORN_HOST": "127.0.0.1",  # the stream process (uvicorn reads its address from these)
            "UVICORN_PORT": str(self.ports.stream),
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            # The rate limits stay on; both players move from loopback, a whole game in seconds.
            "RATE_LIMIT_MOVES": "600/min",
        })
        unresolved = {key: value for key, value in environment.items() if "${" in str(value)}
        assert not unresolved, f"compose.yaml sets {sorted(unresolved)} for {service}: give them loopback values here"
        return environment

    def nginx_values(self, certificate: Path, key: Path) -> dict[str, str]:
        """Return the values for the nginx template's variables (compose.yaml sets the same names)."""
        return {
            "WEB_UPSTREAM": f"127.0.0.1:{self.ports.web}",
            "STREAM_UPSTREAM": f"127.0.0.1:{self.ports.stream}",
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
        database_url = self._stack.enter_context(
            scratch_database(self.database_server_url, f"topology_{os.getpid()}")
        )
        redis_folder = self.folder / "redis"
        redis_folder.mkdir()
        broker_url = self._stack.enter_context(embedded_redis(self.ports.redis, folder=redis_folder))
        # Registered last, so it runs first: every process stops before Redis and the database go.
        self._stack.callback(self._stop_processes)

        environments = {
            name: self.django_environment(name, database_url=database_url, broker_url=broker_url)
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

        long_running = []
        for name in django_services(self.compose):
            if name == ONE_OFF:
                continue
            argv = compose_command(self.compose["services"][name])
            replicas = self.compose["services"][name].get("deploy", {}).get("replicas", 1)
            for replica in range(1, replicas + 1):
                # Each container has a host name of its own; on one machine each replica needs a node name.
                extra = [f"--hostname={name}{replica}@%h"] if replicas > 1 else []
                label = f"{name}-{replica}" if replicas > 1 else name
                long_running.append((name, self._process(label, argv + extra).start(environments[name])))
        nginx = self._start_nginx()

        running = [process for _, process in long_running] + [nginx]
        wait_until(lambda: port_answers(self.ports.web), "gunicorn to listen", running)
        wait_until(lambda: port_answers(self.ports.stream), "the stream process to listen", running)
        wait_until(lambda: port_answers(self.ports.mail_inbound), "the mail server to listen", running)
        wait_until(lambda: port_answers(self.ports.https), "nginx to listen", running)
        for name, process in long_running:
            line = READY_LINES.get(name)
            if line:
                wait_until(lambda: line in process.output(), f"{process.name} to be ready", running)

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
    access_log {self.folder / 'logs' / 'nginx-access.log'};
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
