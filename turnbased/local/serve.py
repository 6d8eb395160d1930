"""What ``make serve`` (``python -m turnbased.local serve``) adds to ``make run``: the service hosted for real.

``make run`` is a developer's stack: DEBUG on, outgoing mail kept in a local sink for the mailbox page, demo
accounts, gunicorn reloading on every edit. ``make serve`` runs the same processes on the same embedded
PostgreSQL and Redis, supervised the same way, with the production settings: DEBUG off (so HTTPS only, behind
a proxy on this machine that terminates TLS), mail delivered through a real relay, no demo accounts, no
mailbox, static files collected, and a ``backup`` process that dumps the database on a schedule
(``turnbased/local/backup.py``). docs/operating.md ("Hosting on one machine") is the operator's guide.

The operator's settings come from the environment or from ``serve.env`` in the data folder (written from
``deploy/serve.env.example`` at the first start), handed on to every process: a file in the data folder rather
than the repository's ``.env`` (still read, below it, as every Django process reads it), because the same
checkout's ``make run`` and ``make test`` read that ``.env`` too, and the settings belong with the data they
serve. Nothing required falls back to a development default: a missing site address, mail domain or relay
stops ``make serve`` before anything starts, saying what to set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import environ

from turnbased.local.backup import restore_into, schedule_from, take_backup
from turnbased.local.data import STARTED_BY, DataFolderInUse, holding, mark_hosted
from turnbased.local.services import (
    BASE_DIR, DATA_DIR, DATABASE_NAME, BadPort, embedded_postgres, free_port, manage, port_setting, run_supervised, say,
    server_statement, service_environment, taken_ports,
)
from turnbased.local.supervision import supervised_procfile

SETTINGS_FILE = "serve.env"
SETTINGS_TEMPLATE = BASE_DIR / "deploy" / "serve.env.example"
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# Django's backends that deliver nothing: production mail would vanish without a word.
NOT_DELIVERING = {f"django.core.mail.backends.{name}.EmailBackend" for name in ("console", "locmem", "filebased",
                                                                               "dummy")}
# Switches for tests and development that a service on the internet must never run with.
NEVER_IN_PRODUCTION = {
    "DJANGO_DEBUG": "debug pages show settings and code to anyone; `make run` is the development stack",
    "MAIL_SINK": "outgoing mail would be kept on this machine for the mailbox page, never delivered",
    "TESTS_ONLY_FAST_PASSWORD_HASHING": "passwords would be hashed with MD5, for the test suite's speed",
    "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "anyone could make the workers call addresses inside this network",
    "WEBHOOKS_ALLOW_HTTP": "webhooks would travel unencrypted",
    "WEB_PUSH_ALLOW_HTTP": "pushes would travel unencrypted",
}
# A file make run leaves in the data folder: its demo accounts' passwords, printed on its console.
DEMO_ACCOUNTS = "demo-accounts.json"


def _given(environment: dict[str, str], name: str) -> str:
    return (environment.get(name) or "").strip()


def _on(environment: dict[str, str], name: str, default: bool = False) -> bool:
    value = _given(environment, name).lower()
    return value in environ.Env.BOOLEAN_TRUE_STRINGS if value else default


def read_operator_settings(data_dir: Path, *, write_template: bool = False) -> Path:
    """Read ``serve.env`` of the data folder into this process's environment (what is already set wins), and
    below it the repository's ``.env``, which every Django process reads too: what is checked is what they get.
    With ``write_template``, write the commented template first if the file is missing. Return its path."""
    path = data_dir / SETTINGS_FILE
    if write_template and not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SETTINGS_TEMPLATE, path)
        path.chmod(0o600)  # it will hold the relay's password
    for settings in (path, BASE_DIR / ".env"):
        if settings.exists():
            environ.Env.read_env(settings, overwrite=False)
    return path


def configuration_problems(environment: dict[str, str], data_dir: Path) -> list[str]:
    """Return what stops the service from being hosted with these settings, one sentence each (none: it may)."""
    problems = []
    https = _on(environment, "DJANGO_HTTPS", default=True)
    site = _given(environment, "SITE_URL")
    if not site:
        problems.append("SITE_URL is not set: the address players open, such as https://games.example.org (every "
                        "email links to it, and only its host name is served)")
    else:
        parts = urlsplit(site)
        schemes = ("https",) if https else ("http", "https")
        if parts.scheme not in schemes or not parts.hostname or parts.path.strip("/") or parts.query:
            problems.append(f"SITE_URL={site} is not an origin such as https://games.example.org (https:// unless "
                            "DJANGO_HTTPS=off; no path)")
    if not _given(environment, "MAIL_DOMAIN"):
        problems.append("MAIL_DOMAIN is not set: the domain the service's email comes from and replies go to, such "
                        "as games.example.org")
    backend = _given(environment, "EMAIL_BACKEND") or SMTP_BACKEND
    if backend in NOT_DELIVERING:
        problems.append(f"EMAIL_BACKEND={backend} delivers no email: leave it unset for an SMTP relay, or name a "
                        "django-anymail backend")
    elif backend == SMTP_BACKEND and not _given(environment, "EMAIL_HOST"):
        problems.append("EMAIL_HOST is not set: the SMTP relay that delivers the service's email (with EMAIL_PORT, "
                        "EMAIL_USE_TLS, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD), or set EMAIL_BACKEND to a "
                        "django-anymail backend and ANYMAIL to its settings")
    elif backend.startswith("anymail.") and not _given(environment, "ANYMAIL"):
        problems.append(f"ANYMAIL is not set: the settings of {backend} (its API key), as JSON")
    for name, why in NEVER_IN_PRODUCTION.items():
        if _on(environment, name):
            problems.append(f"{name} is on: {why}. Leave it unset")
    if (data_dir / DEMO_ACCOUNTS).exists():
        problems.append(f"{data_dir} holds `make run`'s demo accounts, whose passwords were printed: host the "
                        "service on a data folder of its own (TURNBASED_DATA_DIR, or a checkout of its own)")
    try:
        schedule_from(environment, data_dir)
    except ValueError as error:
        problems.append(str(error))
    return problems


def production_environment(environment: dict[str, str], *, data_dir: Path, web_port: int,
                           stream_port: int) -> None:
    """Complete ``environment`` (the operator's settings and the embedded services') for every process."""
    https = _on(environment, "DJANGO_HTTPS", default=True)
    environment["DJANGO_DEBUG"] = "off"
    environment["MAIL_SINK"] = "off"
    environment["TURNBASED_DATA_DIR"] = str(data_dir)
    environment[STARTED_BY] = f"make serve (pid {os.getpid()})"  # what make clean-data looks for
    # Only the site's own host name is served; a request naming another host (scanners) is refused with 400.
    environment.setdefault("DJANGO_ALLOWED_HOSTS", urlsplit(environment["SITE_URL"]).hostname)
    # gunicorn and the stream on loopback: only the proxy on this machine reaches them, and gunicorn trusts
    # X-Forwarded-Proto from loopback alone (deploy/gunicorn.conf.py).
    environment["WEB_PORT"] = str(web_port)
    environment.setdefault("WEB_BIND", f"127.0.0.1:{web_port}")
    environment.setdefault("UVICORN_HOST", "127.0.0.1")
    environment["UVICORN_PORT"] = str(stream_port)
    # The proxy replaces X-Forwarded-For with the client's address, which the rate limits then count; with no
    # proxy (plain HTTP on a trusted network) the header is the client's own word and is ignored.
    environment.setdefault("TRUSTED_PROXY_COUNT", "1" if https else "0")


def leave_out(environment: dict[str, str]) -> frozenset[str]:
    """Return the Procfile's processes ``make serve`` does not run: the inbound mail server unless replies come
    by SMTP (MAIL_INBOUND_PORT set; a provider's inbound webhook needs none)."""
    return frozenset() if _given(environment, "MAIL_INBOUND_PORT") else frozenset({"mail"})


def extra_processes(environment: dict[str, str], data_dir: Path) -> dict[str, str]:
    """Return the processes ``make serve`` runs beside the Procfile's: the scheduled backups, unless turned off."""
    if schedule_from(environment, data_dir).interval is None:
        return {}
    return {"backup": "python -m turnbased.local.backup"}


def banner(environment: dict[str, str], data_dir: Path) -> list[str]:
    """Return what ``make serve`` says once everything is ready to start: where it listens, what goes in front."""
    schedule = schedule_from(environment, data_dir)
    lines = [f"serving {environment['SITE_URL']} with the production settings (DEBUG off)",
             f"the web on {environment['WEB_BIND']}, the event stream (/api/stream/) on "
             f"{environment['UVICORN_HOST']}:{environment['UVICORN_PORT']}"]
    if _on(environment, "DJANGO_HTTPS", default=True):
        lines.append("HTTPS only: a proxy on this machine terminates TLS and passes requests to both, "
                     "X-Forwarded-Proto set (deploy/nginx.conf.template)")
    else:
        lines.append("plain HTTP (DJANGO_HTTPS=off): only on a network you trust")
    if "mail" in leave_out(environment):
        lines.append("no inbound SMTP server (MAIL_INBOUND_PORT unset): replies come through a provider's webhook")
    else:
        lines.append(f"replies by SMTP on {environment.get('MAIL_INBOUND_HOST') or '127.0.0.1'}:"
                     f"{environment['MAIL_INBOUND_PORT']}")
    if schedule.interval is None:
        lines.append("no scheduled backups (BACKUP_INTERVAL_HOURS=0)")
    else:
        lines.append(f"a backup every {schedule.interval.total_seconds() / 3600:g} h into {schedule.folder} "
                     f"(the newest {schedule.keep} kept)")
    lines.append("press Ctrl-C (or send SIGTERM) to stop everything")
    return lines


def serve_ports(environment: dict[str, str]) -> dict[str, tuple[str, int]]:
    """Return what ``make serve`` listens on, by variable: (host, port), as production_environment sets them."""
    ports = {}
    bind = _given(environment, "WEB_BIND")
    if bind and not bind.startswith(("unix:", "fd://")):
        host, _, port = bind.rpartition(":")
        ports["WEB_BIND"] = (host.strip("[]") or "0.0.0.0", port_setting({"WEB_BIND": port}, "WEB_BIND", 8000))
    elif not bind:
        ports["WEB_PORT"] = ("127.0.0.1", port_setting(environment, "WEB_PORT", 8000))
    ports["STREAM_PORT"] = (_given(environment, "UVICORN_HOST") or "127.0.0.1",
                            port_setting(environment, "STREAM_PORT", 8001))
    if "CELERY_BROKER_URL" not in environment:
        ports["REDIS_PORT"] = ("127.0.0.1", port_setting(environment, "REDIS_PORT", 6390))
    if "mail" not in leave_out(environment):
        ports["MAIL_INBOUND_PORT"] = (_given(environment, "MAIL_INBOUND_HOST") or "127.0.0.1",
                                      port_setting(environment, "MAIL_INBOUND_PORT", 2526))
    return ports


def serve() -> int:
    """Host the service for real on this machine until Ctrl-C or SIGTERM: production settings, mail through the
    operator's relay, scheduled backups, every process and the embedded services supervised."""
    settings_file = read_operator_settings(DATA_DIR, write_template=True)
    problems = configuration_problems(dict(os.environ), DATA_DIR)
    if problems:
        say(f"not starting; set these in the environment or in {settings_file}:")
        for problem in problems:
            say(f"  - {problem}")
        return 2
    try:
        with holding(DATA_DIR, "make serve"), ExitStack() as stack:
            problems = taken_ports(serve_ports(dict(os.environ)), "make serve")
            if problems:
                say("not starting:")
                for problem in problems:
                    say(f"  - {problem}")
                return 2
            mark_hosted(DATA_DIR, os.environ["SITE_URL"])  # make run refuses the folder from now on
            watched: list = []
            environment = service_environment(stack, redis_port=port_setting(os.environ, "REDIS_PORT", 6390),
                                              watched=watched)
            production_environment(environment, data_dir=DATA_DIR, web_port=port_setting(os.environ, "WEB_PORT", 8000),
                                   stream_port=port_setting(os.environ, "STREAM_PORT", 8001))
            environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
            # DEBUG off: whitenoise serves the files collected into the data folder, not the sources. Collected while
            # the migrations run (it needs no database), as each start after an upgrade does both.
            say("applying migrations and collecting static files")
            collecting = subprocess.Popen([sys.executable, str(BASE_DIR / "manage.py"), "collectstatic", "--noinput"],
                                          env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                manage(environment, "migrate", "--noinput")
            finally:
                errors = collecting.communicate()[1]
            if collecting.returncode:
                raise subprocess.CalledProcessError(collecting.returncode, collecting.args, stderr=errors)
            procfile = supervised_procfile(BASE_DIR / "Procfile", DATA_DIR / "Procfile.serve",
                                           leave_out=leave_out(environment),
                                           extra=extra_processes(environment, DATA_DIR))
            return run_supervised(procfile, environment, watched, ready=banner(environment, DATA_DIR))
    except DataFolderInUse as holder:
        say(f"not starting: {holder} runs on {DATA_DIR}")
        return 2
    except BadPort as error:
        say(f"not starting: {error}")
        return 2
    except subprocess.CalledProcessError as error:  # migrate or collectstatic: say why, not where
        say(_failed(error))
        return 1


def backup() -> int:
    """Take one backup of the database now, beside the scheduled ones (before an upgrade, say)."""
    read_operator_settings(DATA_DIR)  # where the backups go and how many are kept
    schedule = schedule_from(dict(os.environ), DATA_DIR)
    try:
        with ExitStack() as stack:  # the running server when make serve runs, else started for the dump
            database_url = os.environ.get("DATABASE_URL") or stack.enter_context(embedded_postgres())
            path = take_backup(database_url, schedule)
    except subprocess.CalledProcessError as error:
        say(_failed(error))
        return 1
    say(f"wrote {path}")
    return 0


def restore(args: list[str]) -> int:
    """Replace the embedded database with a backup: restored beside it, migrated and checked, then swapped in."""
    if len(args) != 1 or not Path(args[0]).is_file():
        print("usage: python -m turnbased.local restore BACKUP_FILE", file=sys.stderr)
        return 2
    if "DATABASE_URL" in os.environ:
        say("restore replaces the embedded database; for another one use pg_restore (deploy/README.md)")
        return 2
    read_operator_settings(DATA_DIR)  # the same secret key as the service's, should it be set there
    restoring, previous = f"{DATABASE_NAME}_restoring", f"{DATABASE_NAME}_before_restore"
    try:
        with holding(DATA_DIR, "a restore"), ExitStack() as stack:
            environment = service_environment(stack, redis_port=free_port())
            server_url = environment["DATABASE_URL"]
            restored_url = server_url.replace(f"/{DATABASE_NAME}?", f"/{restoring}?")
            _on_databases(server_url, "DROP DATABASE IF EXISTS {} WITH (FORCE)", restoring)
            _on_databases(server_url, "CREATE DATABASE {}", restoring)
            say(f"restoring {args[0]} into a new database")
            restore_into(Path(args[0]), restored_url)
            environment["DATABASE_URL"] = restored_url
            manage(environment, "migrate", "--noinput")  # a backup from an older release is brought forward
            say("replaying every game against its snapshot (verify_games)")
            verify = [sys.executable, str(BASE_DIR / "manage.py"), "verify_games"]
            if subprocess.run(verify, env=environment).returncode:
                say(f"the restored copy fails verify_games: nothing replaced; it is kept as the database {restoring}")
                return 1
            _on_databases(server_url, "DROP DATABASE IF EXISTS {} WITH (FORCE)", previous)
            _on_databases(server_url, "ALTER DATABASE {} RENAME TO {}", DATABASE_NAME, previous)
            _on_databases(server_url, "ALTER DATABASE {} RENAME TO {}", restoring, DATABASE_NAME)
            say(f"restored; the database as it was is kept as {previous} until the next restore")
            return 0
    except DataFolderInUse as holder:
        say(f"{holder} runs on {DATA_DIR}: stop it first")
        return 2
    except subprocess.CalledProcessError as error:
        say(_failed(error))
        return 1


def _on_databases(server_url: str, statement: str, *names: str) -> None:
    from psycopg2 import sql

    server_statement(server_url, sql.SQL(statement).format(*map(sql.Identifier, names)))


def _failed(error: subprocess.CalledProcessError) -> str:
    """Say which command failed, in its own words rather than a traceback."""
    argv = [str(part) for part in error.cmd]
    name = argv[2] if argv[1:2] == [str(BASE_DIR / "manage.py")] else Path(argv[0]).name
    return f"{name} failed:\n{(error.stderr or '').strip()}"
