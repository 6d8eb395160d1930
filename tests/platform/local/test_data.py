"""What ``make clean-data`` refuses to delete, run through make as an operator runs it (turnbased/local/data.py):
a folder that is no data folder of the service (a typo in TURNBASED_DATA_DIR must never delete a home or a
checkout), and a data folder whose embedded PostgreSQL another command uses (a ``make test``, stood for here by a
shared hold taken the way it takes one). tests/faults/test_starting_and_stopping.py runs it against ``make run``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from turnbased.local.services import BASE_DIR
from turnbased.local.data import refusal_to_delete
from turnbased.local.postgres import using_the_server


def make_clean_data(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "clean-data"], cwd=BASE_DIR, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "TURNBASED_DATA_DIR": str(folder)})


@pytest.mark.parametrize("folder", [Path("/"), Path.home(), BASE_DIR, BASE_DIR.parent])
def test_no_home_checkout_or_root_is_a_data_folder(folder):
    assert refusal_to_delete(folder.resolve(), BASE_DIR) == f"{folder.resolve()} is not a data folder of the service"


def test_a_folder_the_service_did_not_write_is_not_deleted(tmp_path):
    (tmp_path / "thesis.tex").write_text("years of work")
    refused = make_clean_data(tmp_path)
    assert refused.returncode != 0
    assert f"not deleting: {tmp_path} does not look like a data folder of the service" in refused.stdout
    assert (tmp_path / "thesis.tex").read_text() == "years of work"


def test_a_folder_that_is_not_there_is_said_so(tmp_path):
    cleaned = make_clean_data(tmp_path / "never-made")
    assert cleaned.returncode == 0
    assert f"nothing to delete: {tmp_path / 'never-made'} does not exist" in cleaned.stdout


def test_a_data_folder_whose_postgresql_another_command_uses_is_not_deleted(tmp_path):
    (tmp_path / "secret_key").write_text("kept")
    with using_the_server(tmp_path):  # as make test holds it while its tests run
        refused = make_clean_data(tmp_path)
    assert refused.returncode != 0
    assert f"not deleting: the embedded PostgreSQL of {tmp_path} is in use by pid {os.getpid()} (" in refused.stdout
    assert (tmp_path / "secret_key").read_text() == "kept"
    cleaned = make_clean_data(tmp_path)  # once it let go
    assert cleaned.returncode == 0 and not tmp_path.exists()
    assert "  secret_key " in cleaned.stdout
