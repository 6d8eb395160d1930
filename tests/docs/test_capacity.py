"""docs/capacity.md shows what benchmarks/capacity_model.py makes of docs/capacity.json, and the model adds up.

The benchmark itself (benchmarks/capacity.py, minutes of servers under load) is never run here: these tests read
the figures file it wrote and check the model's arithmetic on figures made up to be easy to follow by hand.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from benchmarks import capacity_model as model

PAGE = model.PAGE
PROCESSES = ["web", "stream", "dispatch", "mailer", "hooks", "PostgreSQL", "Redis"]


def block(page: str, name: str) -> str:
    found = re.search(model.block_pattern(name), page, re.S)
    assert found, f"docs/capacity.md has no {name} block"
    return found.group(2)


def test_the_pages_tables_are_what_the_model_makes_of_the_figures_file():
    """After a new run: benchmarks/capacity_model.py --update-page, then reread the prose that quotes the tables."""
    figures = json.loads(model.FIGURES.read_text())
    page = PAGE.read_text()
    assert block(page, "measured") == model.figures_markdown(figures)
    assert block(page, "model") == model.markdown(figures)


def test_the_figures_file_is_a_full_run_whose_counters_had_time_to_come_in():
    meta = json.loads(model.FIGURES.read_text())["meta"]
    assert meta["mode"] == "full" and meta["rounds"] >= 3
    assert meta["counters settle seconds"] >= 10.5
    assert meta["date"] in PAGE.read_text()


def made_up(web_per_unit: float = 1.0) -> dict:
    """Figures where every unit of every game costs ``web_per_unit`` ms of the web and 1 ms of each other process,
    an idle stream 6 ms a minute of the stream process (and 60 of PostgreSQL, which the model must not count), and a
    finished game of 100 moves keeps 100 kB of each part."""
    def costs(web: float) -> dict:
        return {p: web if p == "web" else 1.0 for p in PROCESSES}

    unit = {"cpu_ms": web_per_unit + 6, "by_process": costs(web_per_unit), "per_floor_request": 1.0,
            "postgres_per_floor_commit": 1.0}
    games = {slug: {"units": {name: dict(unit) for name in model.UNITS}} for slug in model.GAMES}
    parts = {part: 100_000.0 for part in ("log", "snapshot", "events", "outbox", "records")}
    stored = {"storage per finished game": {"moves": 100, "row_bytes": parts, "disk_bytes": parts},
              "outbox row bytes": {"email": {"row_bytes": 4000.0, "disk_bytes": 4000.0},
                                   "webhook delivery": {"row_bytes": 100.0, "disk_bytes": 100.0}}}
    return {"summary": {"games": games, "idle stream": {"by_process": {**costs(0.0), "stream": 6.0,
                                                                       "PostgreSQL": 60.0}}},
            "games": {slug: dict(stored) for slug in model.GAMES}}


QUIET = model.Behaviour(online_share=0.0)  # nobody holds a page open: the moves alone


def test_a_players_web_demand_is_the_rate_of_moves_times_what_comes_with_each():
    behaviour = QUIET
    per_move = 1 + behaviour.views_per_move + behaviour.refreshes_per_move + behaviour.emails_per_move \
        + behaviour.deliveries_per_move
    rate = behaviour.moves_per_day * behaviour.peak_factor / 86_400
    found = model.capacity(made_up(2.0), behaviour)
    assert found["demand"]["web"] == pytest.approx(rate * 2.0 * per_move)
    assert found["players"]["web core"] == pytest.approx(behaviour.utilization * 1000 / (rate * 2.0 * per_move))


def test_each_resource_holds_its_share_of_a_core_over_what_a_player_asks_of_it():
    found = model.capacity(made_up(), model.Behaviour())
    for resource, processes in model.RESOURCES.items():
        assert found["players"][resource] * sum(found["demand"][p] for p in processes) == pytest.approx(600)


def test_twice_the_moves_hold_half_the_players_and_twice_the_web_cost_fewer_web_players():
    once, twice = (model.capacity(made_up(), replace(QUIET, moves_per_day=n)) for n in (20, 40))
    for resource in model.RESOURCES:
        assert twice["players"][resource] == pytest.approx(once["players"][resource] / 2)
    assert twice["players per GB-year"] == pytest.approx(once["players per GB-year"] / 2)
    dearer = model.capacity(made_up(3.0), QUIET)
    assert dearer["players"]["web core"] == pytest.approx(once["players"]["web core"] / 3)
    assert dearer["players"]["PostgreSQL core"] == pytest.approx(once["players"]["PostgreSQL core"])


def test_an_idle_stream_costs_the_stream_process_and_redis_never_the_database():
    behaviour = model.Behaviour(online_share=0.1, streams_per_online=2.0)
    found, quiet = model.capacity(made_up(), behaviour), model.capacity(made_up(), replace(behaviour, online_share=0))
    assert found["demand"]["stream"] - quiet["demand"]["stream"] == pytest.approx(0.1 * 2.0 * 6.0 / 60)
    assert found["demand"]["PostgreSQL"] == pytest.approx(quiet["demand"]["PostgreSQL"])
    # Pages that poll instead hold no stream: each asks for a page poll (1 ms of every process here) every 4 s.
    polling = model.capacity(made_up(), replace(behaviour, polling_share=1.0))
    for process in PROCESSES:
        assert polling["demand"][process] - quiet["demand"][process] == pytest.approx(0.1 * 2.0 / model.POLL_SECONDS)


def test_a_year_of_storage_keeps_the_log_and_the_rest_and_only_a_week_of_events():
    behaviour = replace(QUIET, emails_per_move=1.0, deliveries_per_move=1.0)
    found = model.capacity(made_up(), behaviour)
    kept, events = 4 * 1000 + 4000, 1000  # a move's log, snapshot, records and outbox, its email; its events
    expected = 20 * (365 * kept + model.EVENTS_KEEP_DAYS * events + model.DELIVERIES_KEEP_DAYS * 100)
    assert found["bytes per player-year"] == pytest.approx(expected)
    assert found["players per GB-year"] == pytest.approx(1e9 / expected)


def test_a_mix_of_one_game_is_that_games_column_and_the_steps_come_in_order():
    figures = json.loads(model.FIGURES.read_text())
    alone = model.capacity(figures, replace(model.Behaviour(), mix=(("halali", 1.0),)))
    weighted = model.capacity(figures, replace(model.Behaviour(), mix=(("halali", 3.0), ("love-letter", 0.0))))
    assert alone["players"] == pytest.approx(weighted["players"])
    counts = [players for players, _, _ in model.steps(figures, model.Behaviour())]
    assert counts == sorted(counts)


def test_rescaling_to_another_floor_scales_every_cpu_figure_alike():
    figures = json.loads(model.FIGURES.read_text())
    measured = figures["summary"]["baselines"][model.FLOOR]["cpu_ms"]
    halved = model.capacity(model.rescaled(figures, measured / 2), model.Behaviour())
    for resource, players in model.capacity(figures, model.Behaviour())["players"].items():
        assert halved["players"][resource] == pytest.approx(2 * players)
