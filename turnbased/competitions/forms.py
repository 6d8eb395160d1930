"""The new-competition form: what it starts with, what a post of it holds, and the settings it asks for (as
``rules.read`` takes them, so that the page and the API refuse the same things in the same words)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import engines
from turnbased.clocks.models import ClockKind, ExpiryPolicy, StandIn
from turnbased.clocks.services import DAYS_PER_MOVE
from turnbased.competitions.models import AGREEMENT_KINDS, ByePolicy, DeadlinePolicy, EntryKind, Format, TakebackPolicy

STAGES = 3
TEXT_FIELDS = ("name", "description", "game", "table_size", "clock_kind", "days_per_move", "bank_days",
               "increment_days", "expiry", "stand_in", "entry", "group", "min_finished", "min_reliability", "rating_min",
               "rating_max", "min_entrants", "max_entrants", "starts_at", "late_entry_rounds", "bye_policy",
               "bye_points", "deadline_policy", "takebacks", "round_days", "division_size", "movers", "break_days",
               "cycles", *[f"stage{number}_{field}" for number in range(1, STAGES + 1)
                 for field in ("format", "rounds", "pool_size", "advance")])
# The agreements by vote its tables allow, one box each (``models.AGREEMENT_KINDS``).
AGREEMENT_FLAGS = {kind: f"allow_{kind}" for kind in AGREEMENT_KINDS}
FLAGS = ("weekends_off", "allow_absence", "no_clock", "start_when_full", "rated", "league", *AGREEMENT_FLAGS.values(),
         *[f"stage{number}_{flag}" for number in range(1, STAGES + 1) for flag in ("sequential", "duplicate")])


def initial() -> dict:
    """The form as it opens: a Love Letter Swiss of five rounds, three days a move, starting in a week."""
    start = timezone.localtime() + timedelta(days=7)
    form = dict.fromkeys(TEXT_FIELDS, "")
    form.update(dict.fromkeys(FLAGS, False))
    form.update(dict.fromkeys(AGREEMENT_FLAGS.values(), True))
    form.update(game="love-letter", table_size="2", clock_kind=ClockKind.PER_MOVE, days_per_move="3",
                bank_days="14", increment_days="1", expiry=ExpiryPolicy.BOT_TURN, stand_in=StandIn.STRONG,
                allow_absence=True,
                entry=EntryKind.OPEN, min_entrants="4", starts_at=start.strftime("%Y-%m-%dT%H:00"),
                late_entry_rounds="0", rated=True, bye_policy=ByePolicy.FIXED, bye_points="1",
                deadline_policy=DeadlinePolicy.PLAY_OUT, takebacks=TakebackPolicy.PEOPLE, stage1_format=Format.SWISS,
                stage1_rounds="5")
    return form


def from_post(post) -> dict:
    form = {field: post.get(field, "").strip()[:4000] for field in TEXT_FIELDS}
    form.update({flag: post.get(flag) == "on" for flag in FLAGS})
    return form


def _number(value: str):
    """A whole number as given, a blank as None, anything else as it is (``rules.read`` words the refusal)."""
    if value == "":
        return None
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def _when(value: str):
    if not value:
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        return value
    if isinstance(moment, datetime) and moment.tzinfo is None:
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
    return moment or value


def settings(form: dict) -> dict:
    """Return the competition's settings the form asks for."""
    clock = {"kind": form["clock_kind"], "weekends_off": form["weekends_off"],
             "allow_absence": form["allow_absence"], "expiry": form["expiry"]}
    if form["stand_in"]:  # else the competition's games stand in the strong bot (services.tables.table_game)
        clock["stand_in"] = form["stand_in"]
    if form["clock_kind"] == ClockKind.PER_MOVE:
        clock["days_per_move"] = _number(form["days_per_move"])
    elif form["clock_kind"] == ClockKind.BANK:
        clock.update(bank_days=_number(form["bank_days"]), increment_days=_number(form["increment_days"]))
    requirements = {name: _number(form[name]) for name in ("min_finished", "min_reliability", "rating_min",
                                                          "rating_max") if form[name] != ""}
    stages = []
    for number in range(1, STAGES + 1):
        chosen = form[f"stage{number}_format"]
        if not chosen:
            break
        stage = {"format": chosen}
        for field in ("rounds", "pool_size", "advance"):
            if form[f"stage{number}_{field}"] != "":
                stage[field] = _number(form[f"stage{number}_{field}"])
        if chosen == Format.ROUND_ROBIN:
            stage["sequential"] = form[f"stage{number}_sequential"]
        if form[f"stage{number}_duplicate"]:
            stage["duplicate"] = True
        stages.append(stage)
    chosen = {
        "name": form["name"], "description": form["description"], "game": form["game"],
        "table_size": _number(form["table_size"]), "time_control": clock, "no_clock": form["no_clock"],
        "entry": form["entry"], "requirements": requirements, "min_entrants": _number(form["min_entrants"]),
        "max_entrants": _number(form["max_entrants"]), "starts_at": _when(form["starts_at"]),
        "start_when_full": form["start_when_full"], "late_entry_rounds": _number(form["late_entry_rounds"]) or 0,
        "rated": form["rated"], "takebacks": form["takebacks"] or TakebackPolicy.PEOPLE,
        "agreements": [kind for kind, flag in AGREEMENT_FLAGS.items() if form[flag]],
        "bye_policy": form["bye_policy"], "bye_points": _number(form["bye_points"]),
        "deadline_policy": form["deadline_policy"], "round_days": _number(form["round_days"]), "stages": stages,
    }
    if form["league"]:  # one stage, a round robin in each division, played ``cycles`` times
        chosen["league"] = {name: _number(form[name]) for name in ("division_size", "movers", "break_days")
                            if form[name] != ""}
        chosen["stages"] = [{"format": Format.ROUND_ROBIN, **({"rounds": _number(form["cycles"])}
                                                              if form["cycles"] != "" else {})}]
    if form["entry"] == EntryKind.GROUP:
        chosen["group"] = _number(form["group"])
    if chosen["min_entrants"] is None:
        del chosen["min_entrants"]
    if chosen["bye_points"] is None:
        del chosen["bye_points"]
    return chosen


def choices() -> dict:
    """What the form's selects offer."""
    return {
        "games": sorted(((slug, engine.display_name(), engine.min_players, engine.max_players)
                         for slug, engine in engines().items()), key=lambda row: row[1]),
        "formats": Format.choices, "entries": EntryKind.choices, "clock_kinds": ClockKind.choices,
        "days_per_move": DAYS_PER_MOVE, "expiries": ExpiryPolicy.choices, "stand_ins": StandIn.choices, "bye_policies": ByePolicy.choices,
        "deadline_policies": DeadlinePolicy.choices, "takeback_policies": TakebackPolicy.choices,
    }


def stage_rows(form: dict) -> list[dict]:
    """Each stage's fields of the form, for the page to draw."""
    return [{"number": number, **{name: form[f"stage{number}_{name}"] for name in ("format", "rounds", "pool_size",
                                                                                  "advance", "sequential",
                                                                                  "duplicate")}}
            for number in range(1, STAGES + 1)]
