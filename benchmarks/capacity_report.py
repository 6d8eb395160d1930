"""The figures of benchmarks/capacity.py: how each window is recorded, summed up over the rounds, and printed.

A window's record is what it made (``units``), how long it was measured and each process's CPU seconds. The summary
takes, for every unit of work, the median over the rounds of its CPU per unit (in all, and by process), of its ratio
to the framework floor's request of the same round, and of its PostgreSQL CPU over the PostgreSQL floor's commit of
the same round: the machine is shared, and a ratio within a round holds better than an absolute figure.
"""

from __future__ import annotations

import os

# As every script here: one loopback address plays many accounts (read when Django loads).
os.environ["RATE_LIMITS"] = "off"

import datetime  # noqa: E402
import statistics  # noqa: E402

from benchmarks.capacity_storage import STATS_SETTLE  # noqa: E402
from benchmarks.processes import Cpu  # noqa: E402

PROCESSES = ["web", "stream", "dispatch", "mailer", "hooks", "PostgreSQL", "Redis"]
UNITS = ["move", "game page view", "page refresh after a move", "page poll, unchanged", "API poll, unchanged",
         "email", "webhook delivery"]
FLOOR, PG_FLOOR = "framework floor request", "PostgreSQL floor commit"


def new_figures(machine: list[str], args, gunicorn: str) -> dict:
    return {
        "meta": {"date": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC", "machine": machine,
                 "mode": "quick" if args.quick else "full", "rounds": args.rounds, "seconds": args.seconds,
                 "clients": args.clients, "gunicorn": gunicorn, "players per table": 2,
                 "counters settle seconds": args.settle},
        "baselines": {},
        "games": {},
        "idle processes": [],
    }


def add(into: dict, unit: str, count: float, cpu: Cpu) -> None:
    into.setdefault(unit, []).append({"units": count, "seconds": round(cpu.seconds, 3),
                                      "cpu_seconds": {name: round(value, 4) for name, value in cpu.by_process.items()}})


def _per_unit(record: dict, process: str | None = None) -> float:
    """CPU milliseconds per unit in one window: of every process, or of one."""
    used = sum(record["cpu_seconds"].values()) if process is None else record["cpu_seconds"].get(process, 0.0)
    return used * 1000 / record["units"]


def summarize(figures: dict) -> None:
    """Add ``summary``: the medians the model and the docs read."""
    # By round (a unit's windows and the floors' are numbered alike); a window that made nothing is left out.
    floor, pg_floor = figures["baselines"][FLOOR], figures["baselines"][PG_FLOOR]
    summary = {"baselines": {
        FLOOR: {"cpu_ms": statistics.median(_per_unit(r) for r in floor if r["units"]),
                "by_process": {p: statistics.median(_per_unit(r, p) for r in floor if r["units"]) for p in PROCESSES},
                "per_second": statistics.median(r["units"] / r["seconds"] for r in floor)},
        PG_FLOOR: {"postgres_cpu_ms": statistics.median(_per_unit(r, "PostgreSQL") for r in pg_floor if r["units"]),
                   "per_second": statistics.median(r["units"] / r["seconds"] for r in pg_floor)},
    }, "games": {}}
    for slug, game in figures["games"].items():
        units = {}
        for unit, records in game["units"].items():
            rounds = [(number, r) for number, r in enumerate(records) if r["units"]]
            units[unit] = {
                "count": sum(r["units"] for _, r in rounds),
                "cpu_ms": statistics.median(_per_unit(r) for _, r in rounds),
                "by_process": {p: statistics.median(_per_unit(r, p) for _, r in rounds) for p in PROCESSES},
                "per_second": statistics.median(r["units"] / r["seconds"] for _, r in rounds),
                # Against the same round's floors (the rounds of a unit and of the floors are numbered alike).
                "per_floor_request": statistics.median(_per_unit(r) / _per_unit(floor[n]) for n, r in rounds),
                "postgres_per_floor_commit": statistics.median(
                    _per_unit(r, "PostgreSQL") / _per_unit(pg_floor[n], "PostgreSQL") for n, r in rounds),
            }
        summary["games"][slug] = {"units": units}
        counted = game.get("PostgreSQL per move", [])
        if counted:
            summary["games"][slug]["PostgreSQL per move"] = {key: statistics.median(r[key] for r in counted)
                                                             for key in counted[0]}
    summary["idle processes"] = idle_rates(figures["idle processes"])
    if "idle streams" in figures:
        measured = figures["idle streams"]
        summary["idle stream"] = idle_stream(measured, idle_rates([measured["none open"]]))
    figures["summary"] = summary


def idle_rates(windows: list[dict]) -> dict[str, float]:
    """Each process's CPU seconds per second while nothing is asked of it (the quiet waits)."""
    seconds = sum(w["seconds"] for w in windows)
    return {p: sum(w["cpu_seconds"].get(p, 0.0) for w in windows) / seconds for p in PROCESSES} if seconds else {}


def idle_stream(measured: dict, idle: dict[str, float]) -> dict:
    """What one idle stream costs a minute, by process, over what the processes spend with none open."""
    streams, seconds = measured["streams"], measured["seconds"]
    by_process = {p: max(0.0, measured["cpu_seconds"].get(p, 0.0) / seconds - idle.get(p, 0.0)) * 60_000 / streams
                  for p in PROCESSES}
    return {"streams": streams, "seconds": seconds, "cpu_ms_per_minute": sum(by_process.values()),
            "by_process": by_process,
            "rss_kib": (measured["rss_kib_after"] - measured["rss_kib_before"]) / streams}


def outbox_row_bytes(slug: str) -> dict[str, dict[str, float]]:
    """The mean bytes of an email's outbox row and of a webhook delivery's row, of this game's: as stored, and on
    disk (times its table's factor, ``capacity_storage.disk_factors``)."""
    from benchmarks.capacity_storage import disk_factors, row_bytes_of
    from turnbased.events.models import Event
    from turnbased.mail.models import OutgoingEmail
    from turnbased.notifications.models import Notification
    from turnbased.play.models import Game
    from turnbased.webhooks.models import WebhookDelivery

    games, factors = f"SELECT id FROM {Game._meta.db_table} WHERE engine = %s", disk_factors()
    chosen = {
        "email": (OutgoingEmail, f"t.notification_id IN (SELECT id FROM {Notification._meta.db_table} "
                                 f"WHERE game_id IN ({games}))"),
        "webhook delivery": (WebhookDelivery, f"t.event_id IN (SELECT id FROM {Event._meta.db_table} "
                                              f"WHERE game_id IN ({games}))"),
    }
    sizes = {}
    for unit, (model, where) in chosen.items():
        row = row_bytes_of(model, where, [slug])
        sizes[unit] = {"row_bytes": row, "disk_bytes": row * factors[model._meta.db_table]}
    return sizes


# -- printing -----------------------------------------------------------------------------------------------


def print_figures(figures: dict) -> None:
    meta, summary = figures["meta"], figures["summary"]
    print()
    for line in meta["machine"]:
        print(line)
    print(f"{meta['mode']} run: {meta['rounds']} rounds of {meta['seconds']:g} s windows, {meta['clients']} clients, "
          f"gunicorn {meta['gunicorn']}; medians of rounds; ratios within a round")
    floor, pg_floor = summary["baselines"][FLOOR], summary["baselines"][PG_FLOOR]
    print(f"baselines: framework floor request {floor['cpu_ms']:.2f} ms CPU ({_split(floor['by_process'])}); "
          f"PostgreSQL floor commit {pg_floor['postgres_cpu_ms']:.3f} ms of PostgreSQL's CPU")
    header = (f"  {'unit':<27}{'per s':>7}{'CPU ms':>8}{'/ floor':>8}{'PG / floor commit':>18}  "
              + "".join(f"{p:>11}" for p in PROCESSES))
    for slug, game in summary["games"].items():
        print(f"\n{slug}: CPU per unit of work, in ms (by process on the right)")
        print(header)
        print("  " + "-" * (len(header) - 2))
        for unit in UNITS:
            if unit not in game["units"]:
                continue
            u = game["units"][unit]
            split = "".join(f"{u['by_process'][p]:11.2f}" for p in PROCESSES)
            print(f"  {unit:<27}{u['per_second']:7.1f}{u['cpu_ms']:8.2f}{u['per_floor_request']:7.2f}x"
                  f"{u['postgres_per_floor_commit']:17.2f}x  {split}")
        stats = game.get("PostgreSQL per move")
        if stats and meta["counters settle seconds"] < STATS_SETTLE:
            print(f"  (PostgreSQL's counters had {meta['counters settle seconds']:g} s to come in, not "
                  f"{STATS_SETTLE:g}: they may fall short)")
        if stats:
            print(f"  PostgreSQL per move: {stats['transactions']:.2f} transactions, rows {stats['rows_inserted']:.1f} "
                  f"inserted, {stats['rows_updated']:.1f} updated, {stats['rows_deleted']:.2f} deleted; "
                  f"{stats['wal_bytes'] / 1024:.1f} KiB of WAL")
    print_storage(figures)
    idle = summary.get("idle stream")
    if idle:
        print(f"\nidle game-page streams ({idle['streams']} over {idle['seconds']:.0f} s): "
              f"{idle['cpu_ms_per_minute']:.3f} ms CPU per stream per minute ({_split(idle['by_process'], 3)}); "
              f"the stream process's memory {idle['rss_kib']:.1f} KiB per stream")
    print(f"processes idle (CPU % of a core): "
          f"{', '.join(f'{p} {v * 100:.2f}' for p, v in summary['idle processes'].items())}")


def print_storage(figures: dict) -> None:
    parts = ["log", "snapshot", "events", "outbox", "records"]
    print("\nStorage per finished game, in KB: rows' bytes (pg_column_size); on disk (x the table's size over its "
          "rows' bytes)")
    print(f"  {'game':<18}{'games':>6}{'moves':>7}" + "".join(f"{p:>10}" for p in parts) + f"{'rows':>9}{'disk':>9}"
          + f"{'email row':>11}{'delivery row':>14}")
    for slug, game in figures["games"].items():
        storage, rows = game.get("storage per finished game") or {}, game.get("outbox row bytes", {})
        if not storage:
            print(f"  {slug:<18} no game finished")
            continue
        print(f"  {slug:<18}{storage['games']:6d}{storage['moves']:7.1f}"
              + "".join(f"{storage['row_bytes'][p] / 1000:10.2f}" for p in parts)
              + f"{sum(storage['row_bytes'].values()) / 1000:9.1f}{sum(storage['disk_bytes'].values()) / 1000:9.1f}"
              + f"{rows['email']['row_bytes'] / 1000:11.2f}{rows['webhook delivery']['row_bytes'] / 1000:14.2f}")


def _split(by_process: dict[str, float], digits: int = 2) -> str:
    return ", ".join(f"{p} {v:.{digits}f}" for p, v in by_process.items() if v >= 10 ** -digits / 2)
