"""Score the lobby and each game's page, mid-game and finished, with Lighthouse, at phone and desktop sizes.

    .venv/bin/python benchmarks/lighthouse.py [--forms mobile,desktop] [--games love-letter,halali]

Needs Node (npx fetches Lighthouse 12.8.2 from the npm registry) and the Chromium the browser tests use. The
pages are built through the services on a throwaway test database and served as production serves them
(benchmarks/lighthouse_pages.py). Prints each page's four category scores and its paint metrics; the JSON
reports are left in lighthouse-reports/. About four minutes for everything.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forms", default="mobile,desktop", help="mobile, desktop or both (comma-separated)")
    parser.add_argument("--games", default="love-letter,halali,carcassonne-hg,savernake-forest")
    args = parser.parse_args()
    # Every page is read many times as one account: the limits a person meets would stop the run.
    environment = {**os.environ, "RATE_LIMITS": "off", "LIGHTHOUSE_FORMS": args.forms, "LIGHTHOUSE_GAMES": args.games,
                   "LIGHTHOUSE_OUT": str(ROOT / "lighthouse-reports")}
    run = subprocess.run(
        [sys.executable, "-m", "turnbased.local", "test", "benchmarks/lighthouse_pages.py", "-s", "-q", "-n", "0",
         "-p", "no:randomly", "-m", ""], cwd=ROOT, env=environment, capture_output=True, text=True)
    lines = [line for line in run.stdout.splitlines() if line.startswith("LIGHTHOUSE ")]
    print("\n".join(line.removeprefix("LIGHTHOUSE ") for line in lines))
    below = [line for line in lines if re.search(r"=(?!100\b)\d+\b(?! ms| s)", line.split("|")[0])]
    print(f"\n{len(lines)} runs; {len(below)} below 100 in some category")
    if run.returncode:
        print(run.stdout[-4000:], run.stderr[-4000:], sep="\n")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
