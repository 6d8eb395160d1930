"""``python -m games.golden`` writes complete records that verify, and never rewrites one unasked."""

from __future__ import annotations

import json

from games import golden
from games.record import verify_record


def test_a_golden_game_is_written_as_a_record_that_verifies(tmp_path, capsys):
    assert golden.main(["--out", str(tmp_path), "--only", "halali-2"]) == 0
    path = tmp_path / "halali-2.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert verify_record(record).ok
    assert record["players"][1]["bot"] == "random"
    assert record["moves"][-1]["move"] == {"resign": True}
    assert [entry for entry in record["moves"] if entry["seat"] == 1][0]["source"] == "bot"
    assert record["result"]["bot_played_seats"] == [1]
    assert list(tmp_path.iterdir()) == [path]


def test_a_record_already_written_is_kept_unless_forced(tmp_path, capsys):
    path = tmp_path / "halali-2.json"
    path.write_text("{}", encoding="utf-8")
    golden.main(["--out", str(tmp_path), "--only", "halali-2"])
    assert path.read_text(encoding="utf-8") == "{}"
    golden.main(["--out", str(tmp_path), "--only", "halali-2", "--force"])
    assert verify_record(json.loads(path.read_text(encoding="utf-8"))).ok


def test_the_file_layout_is_json_with_one_line_per_move():
    record = golden.play(golden.GOLDEN[1], game_id=5)
    text = golden.dump_record(record)
    assert json.loads(text) == record
    move_lines = [line for line in text.splitlines() if line.startswith('  {"seq":')]
    assert len(move_lines) == len(record["moves"])
