"""schemathesis' command line, every check, its examples and coverage phases: the server is as strict as its schema.

``test_fuzz.py`` draws requests at random (Hypothesis) against every object of a world. This runs
``st run --checks all`` as a third-party client would, with the phases that walk the schema itself: each
documented example, then the coverage phase's boundary and near-boundary values of every parameter and
property (the shortest string, one past ``maxLength``, each enum value, a wrong type, a missing required
field...). Every check must pass: above all ``positive_data_acceptance`` (a request the schema allows is not
refused as malformed: 400 is kept for requests that break the schema, 422 answers one that cannot be done for
what it says) and ``negative_data_rejection`` (a request the schema forbids is refused). Requests naming an
object by id name a real one of the world (``fuzz_hooks.py``). The run is seeded and keeps no example
database, so it repeats exactly.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.platform.api.test_fuzz import build_world
from tests.platform.conftest import api_token

HERE = Path(__file__).parent
PLAYED_GAME = "ann's love-letter in play"


@pytest.fixture
def world(transactional_db, make_user, settings):
    settings.RATE_LIMITS_ON = False  # a few thousand requests from one account in a minute
    return build_world(make_user)


def test_every_check_passes_on_the_schemas_examples_and_its_coverage_phase(live_server, world, tmp_path):
    targets = {name: next(iter(objects.values())) for name, objects in world.targets.items() if objects}
    targets["game_id"] = world.targets["game_id"][PLAYED_GAME]
    environment = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.platform.api.fuzz_hooks",
                   "TURNBASED_FUZZ_TARGETS": json.dumps(targets), "PYTHONPATH": str(Path.cwd())}
    report = tmp_path / "report.ndjson"
    command = [
        str(Path(sys.executable).with_name("st")), "--config-file", str(HERE / "schemathesis.toml"), "--no-color",
        "run", f"{live_server.url}/api/schema/?format=json", "--checks", "all", "--phases", "examples,coverage",
        "--header", f"Authorization: Token {api_token(world.player)}", "--seed", "1", "--workers", "1",
        "--generation-database", "none", "--continue-on-failure",
        "--report", "ndjson", "--report-ndjson-path", str(report),
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=900, env=environment, cwd=tmp_path)
    summary = finished.stdout[-20000:]
    assert finished.returncode == 0, summary
    counts = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert counts and counts[1] == counts[2] and int(counts[1]) >= 1500, summary  # every case sent, all passed
