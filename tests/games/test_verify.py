"""``python -m games.verify``: every check printed, exit 0 for good records and 1 otherwise, with only ``games/``.

The stand-alone runs copy ``games/`` alone into an empty directory and start Python with ``-S`` (no
site-packages): exactly what a player who downloaded the repository's ``games/`` has, no Django.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.verify import main

RECORDS = Path(__file__).resolve().parents[1] / "records"
GOOD = RECORDS / "halali-2.json"


@pytest.fixture(scope="module")
def games_alone(tmp_path_factory):
    """Return a directory holding a copy of ``games/`` and nothing else."""
    root = tmp_path_factory.mktemp("alone")
    shutil.copytree(Path(games.__file__).parent, root / "games", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def run_alone(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-S", *args], cwd=root, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})


def tampered(tmp_path: Path) -> Path:
    record = json.loads(GOOD.read_text(encoding="utf-8"))
    record["moves"][3]["events"][0]["data"]["tampered"] = True
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_the_stand_alone_run_has_no_django(games_alone):
    assert run_alone(games_alone, "-c", "import django").returncode != 0
    assert run_alone(games_alone, "-c", "import games.record, games.verify").returncode == 0


def test_every_golden_record_verifies_with_only_games_and_the_standard_library(games_alone):
    paths = sorted(str(path) for path in RECORDS.glob("*.json"))
    done = run_alone(games_alone, "-m", "games.verify", *paths)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("verdict: verified") == len(paths)
    assert "ok    commitment:" in done.stdout


def test_a_tampered_file_exits_1_alone(games_alone, tmp_path):
    done = run_alone(games_alone, "-m", "games.verify", str(GOOD), str(tampered(tmp_path)))
    assert done.returncode == 1
    assert "FAIL  events: move 4:" in done.stdout
    assert done.stdout.count("verdict: verified") == 1
    assert "verdict: NOT verified" in done.stdout
    assert done.stderr == ""


def test_good_records_exit_0_and_each_check_is_printed(capsys):
    assert main([str(GOOD)]) == 0
    out = capsys.readouterr().out
    for name in ("format", "complete", "engine", "players", "options", "commitment", "seq", "seats", "moves",
                 "events", "bots", "end", "result"):
        assert f"ok    {name}: " in out
    assert out.rstrip().endswith("verdict: verified")


def test_quiet_prints_only_the_verdicts(capsys, tmp_path):
    assert main(["-q", str(GOOD), str(tampered(tmp_path))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{GOOD}:", "  verdict: verified", f"{tmp_path / 'tampered.json'}:", "  verdict: NOT verified"]


def test_a_partial_record_exits_1_and_says_it_cannot_be_verified_yet(capsys, tmp_path):
    record = json.loads(GOOD.read_text(encoding="utf-8"))
    record.update(complete=False, viewer_seat=1, seed=None, result=None)
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "cannot be verified until the game ends" in out
    assert "verdict: cannot be verified" in out


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe\x00", b"[1, 2]"])
def test_a_file_that_is_not_a_record_exits_1_without_a_traceback(capsys, tmp_path, content):
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    assert main([str(path)]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_a_missing_file_exits_1(capsys, tmp_path):
    assert main([str(tmp_path / "absent.json")]) == 1
    assert "cannot read the file" in capsys.readouterr().out
