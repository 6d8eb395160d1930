"""The repository stands on its own: no tracked file points a reader at a path outside it."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Built from parts so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join([
        re.escape("../" + "shared/"),
        re.escape("/" + "work/"),
        r"/home/[a-z]",
        r"/Users/[A-Za-z]",
        re.escape("shared/" + "seeds"),
        re.escape("shared/" + "rules"),
    ])
)


def _tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    paths = [ROOT / name for name in names.decode().split("\0") if name]
    return [path for path in paths if path.suffix not in {".png", ".ico", ".woff2"} and path.is_file()]


def test_no_tracked_file_names_a_path_outside_the_repository():
    offenders = []
    for path in _tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert offenders == []


def test_the_pattern_catches_what_it_is_for():
    assert OUTSIDE.search("see ../" + "shared/" + "rules/halali.md")
    assert OUTSIDE.search("/" + "work/main/games")
    assert not OUTSIDE.search("docs/rules/halali.md")
