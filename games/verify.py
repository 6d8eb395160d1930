"""Verify finished games' records offline: ``python -m games.verify record.json [more.json ...]``.

For each file it prints every check of ``games.record.verify_record`` (the seed against the
commitment published at the start, then every move replayed from the seed through the engine
version the game was played with, every logged event and the result compared) and a verdict.
Exits 0 when every file verifies, 1 otherwise (a record exported during play cannot be verified
yet and counts as not verified). Needs only ``games/`` and the Python standard library; the format
is in docs/record-format.md.
"""

from __future__ import annotations

import argparse
import json
import sys

from games.record import VerifyReport, verify_record


def verify_file(path: str) -> VerifyReport:
    """Read and verify one record file; an unreadable file is a report with one failed check."""
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        report = VerifyReport()
        report.check("read", False, f"cannot read the file as JSON: {error}")
        return report
    return verify_record(record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.verify",
        description="Check that finished turnbased games were dealt and played fairly: recompute each seed "
                    "commitment and replay every move from the seed.",
    )
    parser.add_argument("records", nargs="+", metavar="record.json", help="a game record exported after the end")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only each file's verdict")
    args = parser.parse_args(argv)
    all_ok = True
    for path in args.records:
        report = verify_file(path)
        all_ok = all_ok and report.ok
        lines = report.lines()
        print(f"{path}:")
        for line in lines[-1:] if args.quiet else lines:
            print(f"  {line}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
