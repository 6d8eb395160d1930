"""The capacity model of docs/capacity.md: from what each unit of work costs and a stated player behaviour, how many
active players each resource holds, which runs out first, and when each scaling step is due.

    .venv/bin/python benchmarks/capacity_model.py [FILE] [--moves-per-day 20] [--online-share 0.1] [...]

FILE is what ``benchmarks/capacity.py --json FILE`` wrote (default: docs/capacity.json, the run the docs quote).
Arithmetic only: no Django, no database. tests/docs/test_capacity.py holds that the tables of docs/capacity.md are
what this prints from docs/capacity.json with the default behaviour.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "capacity.json"
GAMES = ["love-letter", "halali", "carcassonne-hg", "savernake-forest"]
DAY, YEAR_DAYS = 86_400, 365
# What a kind of server holds: the processes whose CPU it gives.
RESOURCES = {
    "web core": ("web",),
    "stream process": ("stream",),
    "worker core (mail and webhooks)": ("mailer", "hooks"),
    "dispatcher": ("dispatch",),
    "PostgreSQL core": ("PostgreSQL",),
    "Redis": ("Redis",),
}
# An idle stream costs the stream process and Redis (heartbeats, the stream's slots, the page's presence) and never
# the database; whatever else the measured window shows of the other processes is their noise.
IDLE_STREAM_PROCESSES = ("stream", "Redis")
POLL_SECONDS = 4  # a page that cannot follow the stream asks every 4 s (play/_panel.html, chat/_poller.html)
EVENTS_KEEP_DAYS, DELIVERIES_KEEP_DAYS = 7, 30  # the defaults of EVENTS_KEEP_DAYS and WEBHOOKS_KEEP_DAYS
# The deployment the steps assume: hosts of 4 cores; PostgreSQL's default max_connections (100), 3 kept for a
# superuser, 10 for an operator, and what the processes other than the web hold in compose.yaml (deploy/README.md):
# stream 3, worker 4, mailer 2, hooks 2, dispatch 1, beat 1, mail 2.
HOST_CORES = 4
WEB_CONNECTIONS = (100 - 3 - 10) - (3 + 4 + 2 + 2 + 1 + 1 + 2)
CONNECTIONS_PER_WEB_CORE = (2 * HOST_CORES + 1) * 2 / HOST_CORES  # gunicorn's 2 x cores + 1 processes, 2 threads
# When the move log is worth partitioning by game: a billion rows (its indexes far beyond any cache; vacuum and a
# restore take hours), read as bytes with the log's own size per move.
LOG_PARTITION_ROWS = 1_000_000_000


@dataclass(frozen=True)
class Behaviour:
    """What an active player does, on average, and how the load is planned for."""

    moves_per_day: float = 20.0  # moves an active player makes a day, over all their games
    peak_factor: float = 3.0  # the busiest hour's rate of moves over the day's mean
    online_share: float = 0.10  # players with a page of the site open in the busiest hour
    streams_per_online: float = 1.5  # pages (tabs) each of them holds open: a stream each
    polling_share: float = 0.0  # of those pages, the share that polls instead of following the stream
    views_per_move: float = 1.0  # game pages opened for each move made (from the email's link, the lobby)
    refreshes_per_move: float = 0.5  # moves an open page is told of and shows (the opponent watching)
    emails_per_move: float = 0.5  # turn emails sent per move (the others: present, digest or no emails)
    deliveries_per_move: float = 0.05  # webhook deliveries per move (few players run a bot or a bridge)
    utilization: float = 0.6  # the share of a core planned for, the rest headroom
    mix: tuple[tuple[str, float], ...] = tuple((slug, 0.25) for slug in GAMES)  # shares of the moves, by game


def per_move(units: dict, behaviour: Behaviour) -> dict[str, float]:
    """CPU ms by process for one move as players make it: the move, and what comes with it per move."""
    counts = {"move": 1.0, "game page view": behaviour.views_per_move,
              "page refresh after a move": behaviour.refreshes_per_move, "email": behaviour.emails_per_move,
              "webhook delivery": behaviour.deliveries_per_move}
    processes = units["move"]["by_process"]
    return {p: sum(count * units[unit]["by_process"][p] for unit, count in counts.items()) for p in processes}


def mixed(figures: dict, behaviour: Behaviour, cost) -> dict[str, float]:
    """Average ``cost(game summary)`` (a dict of numbers) over the games, weighted by the mix."""
    games, total = figures["summary"]["games"], sum(share for _, share in behaviour.mix)
    result: dict[str, float] = {}
    for slug, share in behaviour.mix:
        for key, value in cost(games[slug]).items():
            result[key] = result.get(key, 0.0) + value * share / total
    return result


def demand(figures: dict, behaviour: Behaviour) -> dict[str, float]:
    """CPU ms per second, by process, that one active player asks for in the busiest hour."""
    moves = mixed(figures, behaviour, lambda game: per_move(game["units"], behaviour))
    polls = mixed(figures, behaviour, lambda game: game["units"]["page poll, unchanged"]["by_process"])
    idle = figures["summary"]["idle stream"]["by_process"]
    rate = behaviour.moves_per_day * behaviour.peak_factor / DAY
    pages = behaviour.online_share * behaviour.streams_per_online
    return {p: rate * moves[p]
            + pages * (1 - behaviour.polling_share) * (idle[p] / 60 if p in IDLE_STREAM_PROCESSES else 0.0)
            + pages * behaviour.polling_share * polls[p] / POLL_SECONDS
            for p in moves}


def storage(figures: dict, behaviour: Behaviour) -> dict[str, float]:
    """Bytes on disk per move, by what is kept for good and what is pruned, mixed over the games."""
    def of(game: dict) -> dict[str, float]:
        kept, rows = game["storage per finished game"], game["outbox row bytes"]
        disk, moves = kept["disk_bytes"], kept["moves"]
        return {"log": disk["log"] / moves,
                "rest kept": (disk["snapshot"] + disk["records"] + disk["outbox"]) / moves
                + behaviour.emails_per_move * rows["email"]["disk_bytes"],
                "events": disk["events"] / moves,
                "deliveries": behaviour.deliveries_per_move * rows["webhook delivery"]["disk_bytes"]}

    games = {slug: {**figures["games"][slug], **figures["summary"]["games"][slug]} for slug in GAMES}
    return mixed({"summary": {"games": games}}, behaviour, of)


def capacity(figures: dict, behaviour: Behaviour) -> dict:
    """How many active players one of each resource holds, and the bytes a player keeps."""
    asked = demand(figures, behaviour)
    held_by = {name: behaviour.utilization * 1000 / sum(asked[p] for p in processes)
               for name, processes in RESOURCES.items()}
    per_move_bytes, daily = storage(figures, behaviour), behaviour.moves_per_day
    kept = daily * YEAR_DAYS * (per_move_bytes["log"] + per_move_bytes["rest kept"])  # grows for good
    held = daily * (EVENTS_KEEP_DAYS * per_move_bytes["events"] + DELIVERIES_KEEP_DAYS * per_move_bytes["deliveries"])
    return {"demand": asked, "players": held_by, "kept per player-year": kept, "held per player": held,
            "bytes per player-year": kept + held, "players per GB-year": 1e9 / (kept + held),
            "log bytes at partitioning": per_move_bytes["log"] * LOG_PARTITION_ROWS,
            "player-years at partitioning": LOG_PARTITION_ROWS / (daily * YEAR_DAYS)}


def steps(figures: dict, behaviour: Behaviour) -> list[tuple[float, str, str]]:
    """The points where something runs out as players grow, in order: (players, what runs out, what to add)."""
    found = capacity(figures, behaviour)
    players, asked = found["players"], found["demand"]
    everything = HOST_CORES * behaviour.utilization * 1000 / sum(asked.values())
    web_share = asked["web"] / sum(asked.values())
    the_rest = HOST_CORES * behaviour.utilization * 1000 / (sum(asked.values()) - asked["web"])
    reads = read_share(figures, behaviour)
    primary = HOST_CORES * players["PostgreSQL core"]
    return sorted([
        (everything, f"one {HOST_CORES}-core host running every process (the web is {web_share:.0%} of its CPU)",
         "web nodes of their own behind nginx, then more of them"),
        (the_rest, f"the first host's {HOST_CORES} cores once the web has left (workers, stream process, "
                   "dispatcher, PostgreSQL, Redis)", "PostgreSQL on a host of its own"),
        (players["worker core (mail and webhooks)"], "one core of mail and webhook workers",
         "the mailer's second process (`--concurrency`), then a second worker pool on a host of its own"),
        (players["stream process"], "the one stream process's core", "a second stream process (each LISTENs)"),
        (players["dispatcher"], "the one dispatcher's core",
         "nothing simple: a second dispatcher queues every task twice (harmless, not faster)"),
        (WEB_CONNECTIONS / CONNECTIONS_PER_WEB_CORE * players["web core"],
         f"PostgreSQL's 100 connections ({CONNECTIONS_PER_WEB_CORE:.1f} per web core)",
         "PgBouncer in transaction pooling (deploy/compose.pgbouncer.yaml)"),
        (primary, f"a {HOST_CORES}-core PostgreSQL primary ({reads:.0%} of its CPU is reads)",
         "a bigger primary; a read replica (DATABASE_REPLICA_URL) for the lag-tolerant pages"),
        (players["Redis"], "Redis's one core", "a Redis of its own for the cache (CACHE_URL), apart from the broker"),
    ])


def read_share(figures: dict, behaviour: Behaviour) -> float:
    """The share of PostgreSQL's CPU that goes to pages' reads (views, refreshes, polls), which a replica could take."""
    def postgres(game: dict) -> dict[str, float]:
        units = game["units"]
        reads = (behaviour.views_per_move * units["game page view"]["by_process"]["PostgreSQL"]
                 + behaviour.refreshes_per_move * units["page refresh after a move"]["by_process"]["PostgreSQL"])
        return {"reads": reads, "all": per_move(units, behaviour)["PostgreSQL"]}

    shares = mixed(figures, behaviour, postgres)
    return shares["reads"] / shares["all"]


# -- the tables ----------------------------------------------------------------------------------------------

NAMES = {"love-letter": "Love Letter", "halali": "Halali!", "carcassonne-hg": "Carcassonne H&G",
         "savernake-forest": "Savernake Forest"}
UNITS = ["move", "game page view", "page refresh after a move", "page poll, unchanged", "API poll, unchanged",
         "email", "webhook delivery"]
FLOOR, PG_FLOOR = "framework floor request", "PostgreSQL floor commit"


def _header(first: str, extra: str = "") -> list[str]:
    columns = [NAMES[slug] for slug in GAMES] + ([extra] if extra else [])
    return [f"| {first} | " + " | ".join(columns) + " |", "| --- |" + " ---: |" * len(columns)]


def figures_markdown(figures: dict) -> str:
    """The measured figures as docs/capacity.md shows them."""
    summary, games = figures["summary"], figures["summary"]["games"]
    lines = _header("CPU ms per unit of work (x the framework floor's request)")
    for unit in UNITS:
        lines.append(f"| {unit} | " + " | ".join(
            f"{games[s]['units'][unit]['cpu_ms']:.1f} ({games[s]['units'][unit]['per_floor_request']:.1f} x)"
            for s in GAMES) + " |")
    lines += [""] + _header("a move's CPU ms, by process")
    for process in games[GAMES[0]]["units"]["move"]["by_process"]:
        lines.append(f"| {process} | " + " | ".join(f"{games[s]['units']['move']['by_process'][process]:.2f}"
                                                    for s in GAMES) + " |")
    database = {s: games[s]["PostgreSQL per move"] for s in GAMES}
    lines += [""] + _header("PostgreSQL, per move")
    for label, key, form in (("transactions", "transactions", "{:.1f}"), ("rows inserted", "rows_inserted", "{:.1f}"),
                             ("rows updated", "rows_updated", "{:.1f}"), ("rows deleted", "rows_deleted", "{:.2f}")):
        lines.append(f"| {label} | " + " | ".join(form.format(database[s][key]) for s in GAMES) + " |")
    lines.append("| WAL, KiB | " + " | ".join(f"{database[s]['wal_bytes'] / 1024:.1f}" for s in GAMES) + " |")
    lines.append("| CPU ms (x the PostgreSQL floor's commit) | " + " | ".join(
        f"{games[s]['units']['move']['by_process']['PostgreSQL']:.1f} "
        f"({games[s]['units']['move']['postgres_per_floor_commit']:.0f} x)" for s in GAMES) + " |")
    kept = {s: figures["games"][s]["storage per finished game"] for s in GAMES}
    rows = {s: figures["games"][s]["outbox row bytes"] for s in GAMES}
    lines += [""] + _header("a finished game keeps, KB (rows as stored / on disk)")
    lines.append("| moves | " + " | ".join(f"{kept[s]['moves']:.0f}" for s in GAMES) + " |")
    for part in ("log", "snapshot", "events", "outbox", "records"):
        lines.append(f"| {part} | " + " | ".join(f"{kept[s]['row_bytes'][part] / 1000:.1f} / "
                                                 f"{kept[s]['disk_bytes'][part] / 1000:.1f}" for s in GAMES) + " |")
    for unit in ("email", "webhook delivery"):
        lines.append(f"| one {unit}'s row | " + " | ".join(f"{rows[s][unit]['row_bytes'] / 1000:.1f} / "
                                                          f"{rows[s][unit]['disk_bytes'] / 1000:.1f}" for s in GAMES)
                     + " |")
    floor, pg_floor, idle = summary["baselines"][FLOOR], summary["baselines"][PG_FLOOR], summary["idle stream"]
    lines += ["", "| baseline or idle cost | measured |", "| --- | ---: |",
              f"| the framework floor's request, CPU ms (web; PostgreSQL) | {floor['cpu_ms']:.2f} "
              f"({floor['by_process']['web']:.2f}; {floor['by_process']['PostgreSQL']:.2f}) |",
              f"| the PostgreSQL floor's commit, PostgreSQL's CPU ms | {pg_floor['postgres_cpu_ms']:.2f} |",
              f"| an idle game page's stream, CPU ms a minute (stream process; Redis) | "
              f"{sum(idle['by_process'][p] for p in IDLE_STREAM_PROCESSES):.2f} "
              f"({idle['by_process']['stream']:.2f}; {idle['by_process']['Redis']:.2f}) |",
              f"| an idle game page's stream, the stream process's memory, KiB | {idle['rss_kib']:.1f} |"]
    return "\n".join(lines) + "\n"


def markdown(figures: dict, behaviour: Behaviour = Behaviour()) -> str:
    """The model's tables as docs/capacity.md shows them."""
    games = {slug: capacity(figures, replace(behaviour, mix=((slug, 1.0),))) for slug in GAMES}
    together = capacity(figures, behaviour)
    lines = _header("one ... holds (active players)", "the mix")
    for resource in RESOURCES:
        lines.append(f"| {resource} | " + " | ".join(_count(games[s]["players"][resource]) for s in GAMES)
                     + f" | {_count(together['players'][resource])} |")
    lines.append("| GB of storage, for a year of play | " + " | ".join(_count(games[s]["players per GB-year"])
                                                                        for s in GAMES)
                 + f" | {_count(together['players per GB-year'])} |")
    lines += [""] + _header("what an active player keeps", "the mix")
    for label, key, scale, form in (
            ("kept for good, a year of play (log, snapshots, records, outbox), MB", "kept per player-year", 1e6,
             "{:.1f}"),
            ("held while kept (a week of events, 30 days of deliveries), MB", "held per player", 1e6, "{:.2f}"),
            ("the move log at a billion moves, GB", "log bytes at partitioning", 1e9, "{:,.0f}")):
        lines.append(f"| {label} | " + " | ".join(form.format(games[s][key] / scale) for s in GAMES)
                     + f" | {form.format(together[key] / scale)} |")
    lines += [""] + _header("CPU ms per second per active player, busiest hour", "the mix")
    for process in together["demand"]:
        lines.append(f"| {process} | " + " | ".join(f"{games[s]['demand'][process]:.3f}" for s in GAMES)
                     + f" | {together['demand'][process]:.3f} |")
    lines += ["", "| active players | what runs out | what to add |", "| ---: | --- | --- |"]
    lines += [f"| {_count(players)} | {what} | {add} |" for players, what, add in steps(figures, behaviour)]
    return "\n".join(lines) + "\n"


def _count(value: float) -> str:
    """Round a count of players to two significant figures: the figures behind it hold no more."""
    if value >= 100:
        digits = len(str(int(value))) - 2
        return f"{round(value, -digits):,.0f}"
    return f"{value:.2g}"


def rescaled(figures: dict, floor_ms: float) -> dict:
    """Return the figures with every CPU time scaled as the framework floor's request is from the measured run to
    ``floor_ms`` (a machine of one's own: benchmarks/move_cost.py measures its floor). One factor for every process:
    a rough guide, since PostgreSQL's share may not scale as Python's does."""
    scaled = json.loads(json.dumps(figures))
    summary = scaled["summary"]
    factor = floor_ms / summary["baselines"][FLOOR]["cpu_ms"]
    for game in summary["games"].values():
        for unit in game["units"].values():
            unit["cpu_ms"] *= factor
            unit["by_process"] = {p: value * factor for p, value in unit["by_process"].items()}
    idle = summary["idle stream"]
    idle["by_process"] = {p: value * factor for p, value in idle["by_process"].items()}
    return scaled


PAGE = ROOT / "docs" / "capacity.md"


def block_pattern(name: str) -> str:
    """Where docs/capacity.md holds a table this module makes (``measured`` or ``model``)."""
    return rf"(<!-- {name}: made by benchmarks/capacity_model.py -->\n)(.*?)(<!-- end of {name} -->)"


def update_page(figures: dict) -> None:
    """Write the tables into docs/capacity.md; the prose around them, which quotes them, is for a person to reread."""
    import re

    text = PAGE.read_text()
    for name, made in (("measured", figures_markdown(figures)), ("model", markdown(figures))):
        text = re.sub(block_pattern(name), lambda found: found.group(1) + made + found.group(3), text, flags=re.S)
    PAGE.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", nargs="?", default=str(FIGURES), help="the figures (default docs/capacity.json)")
    defaults = Behaviour()
    for item in fields(Behaviour):
        if item.name != "mix":
            parser.add_argument(f"--{item.name.replace('_', '-')}", type=float, default=getattr(defaults, item.name))
    parser.add_argument("--update-page", action="store_true",
                        help="write the tables of docs/capacity.md from FIGURES with the default behaviour "
                             "(then reread the page's prose, which quotes them)")
    parser.add_argument("--floor-ms", type=float, default=0.0,
                        help="scale every CPU figure as the framework floor's request from the run's to this many ms")
    args = parser.parse_args(argv)
    behaviour = Behaviour(**{item.name: getattr(args, item.name) for item in fields(Behaviour) if item.name != "mix"})
    figures = json.loads(Path(args.figures).read_text())
    if args.update_page:
        update_page(figures)
        return 0
    if args.floor_ms:
        figures = rescaled(figures, args.floor_ms)
    print(f"From {args.figures} ({figures['meta']['date']}, {figures['meta']['mode']} run); {behaviour}\n")
    print(figures_markdown(figures))
    print(markdown(figures, behaviour))
    return 0


if __name__ == "__main__":
    sys.exit(main())
