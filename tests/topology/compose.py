"""What tests/topology reads in deploy/compose.yaml and its nginx template: the services, their commands and
replicas, the template's variables, and how the stand-in renders them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from turnbased.local.services import BASE_DIR

COMPOSE_FILE = BASE_DIR / "deploy" / "compose.yaml"


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


def replicas(compose: dict, name: str) -> int:
    """Return how many of a service compose runs (``deploy: replicas``, one without it)."""
    return (compose["services"][name].get("deploy") or {}).get("replicas", 1)


def upstream_servers(ports: list[int]) -> str:
    """Return the value of an upstream variable (``server ${WEB_UPSTREAM};``) that lists every port as a server."""
    return ";\n    server ".join(f"127.0.0.1:{port}" for port in ports)
