"""The final score of a Love Letter game, round by round (the engine contract's ``score_breakdown``).

Each round that gave out a token of affection is one row: who won it and how
(the last player standing, or the showdown of §6), and the 2019 Spy bonus as a
row of its own. The rounds' records are public (every ``round_ended`` event
says the same), so the breakdown hides nothing. The labels are in the reader's language.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of

_ = catalog_of(__name__)


def score_breakdown(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one row of tokens per round won and per Spy bonus; empty while the game goes on."""
    if state["phase"] != "over":
        return []
    seats = len(state["players"])
    rows = []
    for record in state["rounds"]:
        if record["winners"]:
            points = [1 if seat in record["winners"] else 0 for seat in range(seats)]
            if record["reason"] == "last_standing":
                label = _("Round {round}: last player standing")
            else:
                label = _("Round {round}: showdown")
            rows.append({"label": label.format(round=record["round"]), "points": points, "counts": True})
        if record.get("spy_bonus") is not None:
            points = [1 if seat == record["spy_bonus"] else 0 for seat in range(seats)]
            rows.append({"label": _("Round {round}: Spy bonus").format(round=record["round"]), "points": points,
                         "counts": True})
    counted = [sum(row["points"][seat] for row in rows) for seat in range(seats)]
    unrecorded = [tokens - got for tokens, got in zip(state["tokens"], counted)]
    if any(unrecorded):  # a state older than the round records: its tokens still count
        rows.append({"label": _("Earlier rounds"), "points": unrecorded, "counts": True})
    return rows
