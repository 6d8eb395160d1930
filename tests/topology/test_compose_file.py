"""compose.yaml itself: what it publishes, whom its processes trust, how many of each it runs, and that
tests/topology stands in for exactly its services and fills exactly its nginx template's variables."""

from __future__ import annotations

import ipaddress

import pytest

from tests.platform.events.streams import procfile_command
from tests.topology.compose import (
    compose_command,
    django_services,
    load_compose,
    nginx_template_path,
    replicas,
    template_variables,
)
from tests.topology.stack import STAND_INS

pytestmark = pytest.mark.topology

PUBLIC_PORTS = {"nginx": {"80", "443"}, "mail": {"2526"}}


def published_ports(service: dict) -> set[str]:
    """Return the container ports a compose service publishes on the host."""
    ports = set()
    for entry in service.get("ports", []):
        if isinstance(entry, dict):
            ports.add(str(entry["target"]))
        else:
            ports.add(str(entry).rsplit(":", 1)[-1].split("/")[0])
    return ports


def test_only_nginx_publishes_the_web_and_only_mail_publishes_smtp():
    compose = load_compose()
    published = {name: published_ports(service) for name, service in compose["services"].items()
                 if published_ports(service)}
    assert published == PUBLIC_PORTS
    assert "network_mode" not in compose["services"]["web"]  # host networking would expose it too


def test_gunicorn_trusts_the_scheme_only_from_nginx_in_compose():
    compose = load_compose()
    nginx_address = compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(nginx_address) in ipaddress.ip_network(subnet)
    assert compose["services"]["web"]["environment"]["FORWARDED_ALLOW_IPS"] == nginx_address
    assert compose["services"]["nginx"]["environment"]["WEB_UPSTREAM"] == "web:8000"


def test_the_processes_behind_nginx_trust_only_nginx_for_the_forwarded_address():
    """The stream process too: else every stream counted under nginx's address, and the whole site could hold
    STREAM_MAX_PER_ADDRESS streams."""
    compose = load_compose()
    nginx_address = compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]
    web = compose["services"]["web"]["environment"]
    assert (web["FORWARDED_ALLOW_IPS"], web["TRUSTED_PROXY_COUNT"]) == (nginx_address, "1")
    assert compose["services"]["stream"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"


def test_the_stream_process_reads_no_proxy_header_itself_and_runs_the_procfiles_command():
    """Issue 42: uvicorn's own proxy headers trusted X-Forwarded-For from loopback, whatever TRUSTED_PROXY_COUNT said;
    tests/platform/events/test_stream_process.py runs the Procfile's command, so compose must run the same."""
    command = compose_command(load_compose()["services"]["stream"])
    assert "--no-proxy-headers" in command
    assert command == procfile_command("stream")


def test_compose_runs_two_of_every_stateless_process_and_one_beat_and_one_dispatcher():
    compose = load_compose()
    counts = {name: replicas(compose, name) for name in django_services(compose) if name != "migrate"}
    assert counts == {"web": 2, "stream": 2, "worker": 2, "mailer": 2, "hooks": 2, "bots": 2, "dispatch": 1,
                      "beat": 1, "mail": 1}


def test_the_test_runs_exactly_the_services_compose_lists():
    compose = load_compose()
    assert set(compose["services"]) == set(STAND_INS) | set(django_services(compose))
    for name in django_services(compose):
        assert compose["services"][name].get("command"), f"{name} has no command for the test to run"


def test_compose_sets_every_variable_of_the_nginx_template():
    compose = load_compose()
    template = nginx_template_path(compose).read_text()
    assert set(compose["services"]["nginx"]["environment"]) == template_variables(template)
