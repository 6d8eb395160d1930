"""What `make serve` refuses to start with, how it schedules and prunes its backups, and which processes it runs
(turnbased/local/serve.py, turnbased/local/backup.py), without starting anything; tests/serving/test_make_serve.py
runs the whole of it."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest

from turnbased.local.services import BASE_DIR
from turnbased.local.backup import Schedule, backups, prune, schedule_from, seconds_until_due, taken_at
from turnbased.local.data import DataFolderInUse, holding
from turnbased.local.serve import configuration_problems, extra_processes, leave_out, production_environment
from turnbased.local.supervision import supervised_procfile

HOSTED = {"SITE_URL": "https://games.example.org", "MAIL_DOMAIN": "games.example.org",
          "EMAIL_HOST": "smtp.example.org"}


def problems_with(tmp_path, **settings: str) -> str:
    return "\n".join(configuration_problems({**HOSTED, **settings}, tmp_path))


def test_a_domain_and_a_relay_are_enough(tmp_path):
    assert configuration_problems(HOSTED, tmp_path) == []
    anymail = {**HOSTED, "EMAIL_HOST": "", "EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend",
               "ANYMAIL": '{"MAILGUN_API_KEY": "key"}'}
    assert configuration_problems(anymail, tmp_path) == []


@pytest.mark.parametrize(("settings", "said"), [
    ({"SITE_URL": ""}, "SITE_URL is not set"),
    ({"SITE_URL": "http://games.example.org"}, "is not an origin"),
    ({"SITE_URL": "https://games.example.org/play"}, "is not an origin"),
    ({"MAIL_DOMAIN": " "}, "MAIL_DOMAIN is not set"),
    ({"EMAIL_HOST": ""}, "EMAIL_HOST is not set"),
    ({"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}, "delivers no email"),
    ({"EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend"}, "ANYMAIL is not set"),
    ({"DJANGO_DEBUG": "on"}, "DJANGO_DEBUG is on"),
    ({"MAIL_SINK": "1"}, "MAIL_SINK is on"),
    ({"TESTS_ONLY_FAST_PASSWORD_HASHING": "on"}, "TESTS_ONLY_FAST_PASSWORD_HASHING is on"),
    ({"WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true"}, "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES is on"),
    ({"BACKUP_INTERVAL_HOURS": "daily"}, "BACKUP_INTERVAL_HOURS=daily must be a number of hours"),
    ({"BACKUP_INTERVAL_HOURS": "-6"}, "BACKUP_INTERVAL_HOURS=-6 must be a number of hours"),
    ({"BACKUP_KEEP": "0"}, "BACKUP_KEEP=0 must be a whole number"),
])
def test_what_would_fall_back_to_development_stops_it(tmp_path, settings, said):
    assert said in problems_with(tmp_path, **settings)


def test_plain_http_only_when_asked_for(tmp_path):
    assert problems_with(tmp_path, SITE_URL="http://games.lan", DJANGO_HTTPS="off") == ""
    environment = {**HOSTED, "SITE_URL": "http://games.lan", "DJANGO_HTTPS": "off"}
    production_environment(environment, data_dir=tmp_path, web_port=8000, stream_port=8001)
    assert environment["TRUSTED_PROXY_COUNT"] == "0"  # no proxy: X-Forwarded-For is the client's own word


def test_a_data_folder_make_run_used_is_refused(tmp_path):
    (tmp_path / "demo-accounts.json").write_text("{}")
    assert "demo accounts" in problems_with(tmp_path)


def test_the_production_environment_serves_the_site_on_loopback_behind_the_proxy(tmp_path):
    environment = {**HOSTED, "DJANGO_DEBUG": "off"}
    production_environment(environment, data_dir=tmp_path, web_port=8100, stream_port=8101)
    assert environment["DJANGO_DEBUG"] == "off" and environment["MAIL_SINK"] == "off"
    assert environment["DJANGO_ALLOWED_HOSTS"] == "games.example.org"
    assert environment["WEB_BIND"] == "127.0.0.1:8100"
    assert (environment["UVICORN_HOST"], environment["UVICORN_PORT"]) == ("127.0.0.1", "8101")
    assert environment["TRUSTED_PROXY_COUNT"] == "1"
    assert "STREAM_URL" not in environment  # /api/stream/ on the site's own origin, through the proxy


def test_the_processes_are_the_procfiles_with_backups_and_replies_as_configured(tmp_path):
    def names(environment) -> list[str]:
        written = supervised_procfile(BASE_DIR / "Procfile", tmp_path / "Procfile.serve",
                                      leave_out=leave_out(environment), extra=extra_processes(environment, tmp_path))
        return [line.split(":")[0] for line in written.read_text().splitlines() if line and not line.startswith("#")]

    everything = names({**HOSTED, "MAIL_INBOUND_PORT": "2526"})
    assert everything[-1] == "backup" and "mail" in everything and "web" in everything
    assert names({**HOSTED, "BACKUP_INTERVAL_HOURS": "0"}) == [name for name in everything
                                                               if name not in ("mail", "backup")]


def test_one_service_per_data_folder_and_the_refusal_names_the_one_holding_it(tmp_path):
    with holding(tmp_path, "make serve"):
        with pytest.raises(DataFolderInUse) as refused:
            with holding(tmp_path, "make run"):
                pass
    assert str(refused.value).startswith(f"make serve (pid {os.getpid()}, since ")
    with holding(tmp_path, "make run"):  # let go once the first stopped
        pass


def test_a_backup_is_due_when_the_newest_is_older_than_the_interval(tmp_path):
    schedule = Schedule(folder=tmp_path, interval=timedelta(hours=24), keep=3)
    now = datetime(2026, 12, 3, 4, 0, tzinfo=UTC)
    assert seconds_until_due(schedule, now) == 0  # none yet
    (tmp_path / "turnbased-2026-12-02T100000Z.dump").write_bytes(b"")
    assert seconds_until_due(schedule, now) == 6 * 3600
    assert seconds_until_due(schedule, now + timedelta(days=2)) == 0  # the machine was off: one at once


def test_pruning_keeps_the_newest_and_drops_dumps_cut_short(tmp_path):
    names = [f"turnbased-2026-12-0{day}T030000Z.dump" for day in range(1, 6)]
    for name in names + ["turnbased-2026-12-06T030000Z.dump.partial", "notes.txt"]:
        (tmp_path / name).write_bytes(b"")
    prune(tmp_path, keep=2)
    assert [path.name for path in backups(tmp_path)] == names[-2:]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(names[-2:] + ["notes.txt"])
    assert taken_at(backups(tmp_path)[-1]) == datetime(2026, 12, 5, 3, 0, tzinfo=UTC)


def test_the_schedule_reads_its_settings(tmp_path):
    schedule = schedule_from({"BACKUP_INTERVAL_HOURS": "6", "BACKUP_KEEP": "28", "BACKUP_DIR": str(tmp_path / "b")},
                             tmp_path)
    assert schedule == Schedule(folder=tmp_path / "b", interval=timedelta(hours=6), keep=28)
    default = schedule_from({}, tmp_path)
    assert (default.folder, default.interval, default.keep) == (tmp_path / "backups", timedelta(hours=24), 14)
    assert schedule_from({"BACKUP_INTERVAL_HOURS": "0"}, tmp_path).interval is None
