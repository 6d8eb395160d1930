"""docs/record-format.md and its JSON Schema: the golden records and partial records fit the schema,
what the format forbids is refused, and the document's worked example and checks are the code's."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest

from games.record import commitment_bytes, seed_commitment, verify_record

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "docs" / "record-format.schema.json").read_text(encoding="utf-8"))
GOLDEN = sorted((ROOT / "tests" / "records").glob("*.json"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def errors(record) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(record)]


def golden(name="love-letter-4.json") -> dict:
    return json.loads((ROOT / "tests" / "records" / name).read_text(encoding="utf-8"))


def partial_of(record: dict, seat: int | None) -> dict:
    """Return the record as a viewer would have exported it during play (docs/record-format.md)."""
    partial = copy.deepcopy(record)
    partial.update(complete=False, viewer_seat=seat, seed=None, result=None)
    partial["game"].update(status="active", finished_at=None)
    for entry in partial["moves"]:
        del entry["move"]
        if entry["seat"] != seat:
            entry["notation"] = None
        entry["events"] = [e for e in entry["events"] if e["visible_to"] is None or (seat is not None and seat in e["visible_to"])]
        entry["lines"] = entry["lines"][: len(entry["events"])]
    return partial


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_every_golden_record_fits_the_schema(path):
    assert errors(json.loads(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("seat", [0, 2, None])
def test_partial_records_fit_the_schema(seat):
    assert errors(partial_of(golden(), seat)) == []


def test_a_record_of_a_game_that_never_started_fits_the_schema():
    record = golden()
    record.update(complete=False, commitment=None, seed=None, moves=[], result=None)
    record["game"].update(status="open", started_at=None, finished_at=None)
    assert errors(record) == []


@pytest.mark.parametrize("breach", [
    lambda r: r.update(seed=None),                                  # complete without its seed
    lambda r: r.update(viewer_seat=0),                              # a complete record is for nobody in particular
    lambda r: r.update(commitment=None),
    lambda r: r["moves"][0].pop("move"),                            # complete without a raw move
    lambda r: r.update(result=None),                                # finished without a result
    lambda r: r["game"].update(status="active"),                    # complete while in play
    lambda r: r["commitment"].update(value="ABC"),
    lambda r: r["moves"][0]["events"][0].update(visible_to="all"),
    lambda r: r["moves"][0].update(at="yesterday"),
    lambda r: r.update(format_version=2),
    lambda r: r.update(extra=1),
    lambda r: r["players"][0].pop("bot"),
], ids=["seed", "viewer", "commitment", "move", "result", "status", "hex", "visible_to", "instant", "version",
        "extra", "bot"])
def test_the_schema_refuses_what_the_format_forbids_in_a_complete_record(breach):
    record = golden()
    breach(record)
    assert errors(record)


@pytest.mark.parametrize("breach", [
    lambda r: r.update(seed="leaked"),
    lambda r: r["moves"][0].update(move={"card": "guard"}),
    lambda r: r.update(result={"winners": [0], "scores": [1, 0, 0], "ranking": [0, 1, 2], "summary": "x"}),
], ids=["seed", "raw-move", "result"])
def test_the_schema_refuses_secrets_in_a_partial_record(breach):
    record = partial_of(golden(), 1)
    breach(record)
    assert errors(record)


def test_the_documents_worked_example_is_the_codes_commitment():
    example = dict(seed="3f9c0b6e8a1d4c27b5e0f1a2d3c4b5a6", game_id=42, engine="love-letter", engine_version=2)
    section = DOC.split("**Worked example.**", 1)[1].split("## ", 1)[0]
    hex_lines = re.findall(r"^    ([0-9a-f]+)$", section, flags=re.MULTILINE)
    assert "".join(hex_lines[:-1]) == commitment_bytes(**example).hex()
    assert hex_lines[-1] == seed_commitment(**example)
    assert f"bytes ({len(commitment_bytes(**example))} of them" in section
    assert "printf 'turnbased-seed-commitment/1\\n42\\nlove-letter\\n2\\n3f9c0b6e8a1d4c27b5e0f1a2d3c4b5a6'" in section


def test_the_document_lists_every_check_the_verifier_makes():
    report = verify_record(golden())
    documented = re.findall(r"^\| `(\w+)` \| ", DOC.split("## Verifying a record offline", 1)[1], flags=re.MULTILINE)
    assert documented == [name for name, _, _ in report.checks]


def test_the_document_names_every_field_of_the_schema():
    for name in [*SCHEMA["properties"], *SCHEMA["$defs"]["game"]["properties"], *SCHEMA["$defs"]["move"]["properties"],
                 *SCHEMA["$defs"]["player"]["properties"], *SCHEMA["$defs"]["commitment"]["properties"]]:
        assert f"`{name}`" in DOC, name
