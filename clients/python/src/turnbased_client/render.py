"""How turnbased-cli words what the API answers: plain lines for a terminal."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from turnbased_client.stream import StreamEvent
from turnbased_client.types import Game, GameType, HistoryEvent, PositionText, Turn


def when(moment: str | None) -> str:
    """Return an API time (ISO 8601) in the local time zone, to the minute."""
    if not moment:
        return ""
    try:
        return datetime.fromisoformat(moment).astimezone().strftime("%Y-%m-%d %H:%M %Z")
    except ValueError:
        return moment


def seat_name(game: Game, index: int) -> str:
    return next((seat["name"] for seat in game["seats"] if seat["index"] == index), f"seat {index}")


def standing(game: Game) -> str:
    """Say where a game stands for me: whose turn, how many are seated, or how it ended."""
    status = game["status"]
    if status == "active":
        if game["my_seat"] is not None and game["my_seat"] in game["to_move"]:
            return f"your turn (seq {game['seq']})"
        return "waiting for " + ", ".join(seat_name(game, index) for index in game["to_move"])
    if status == "open":
        return f"open, {len(game['seats'])} of {game['seat_count']} seated"
    if status == "finished":
        summary = (game.get("result") or {}).get("summary")
        return f"over: {summary}" if summary else "over"
    return status


def game_line(game: Game) -> str:
    line = f"#{game['id']} {game['name']}: {standing(game)}"
    if game.get("last_move"):
        line += f". Last: {game['last_move']}"
    return line


def game_list(mine: Iterable[Game], open_tables: Iterable[Game]) -> list[str]:
    mine, open_tables = list(mine), list(open_tables)
    lines = ["Your games:"] + ([f"  {game_line(game)}" for game in mine] or ["  none yet"])
    if open_tables:
        lines += ["", "Open tables you may join:"]
        for game in open_tables:
            players = ", ".join(seat["name"] for seat in game["seats"]) or "nobody"
            lines.append(f"  #{game['id']} {game['name']}: {len(game['seats'])} of {game['seat_count']} "
                         f"seated ({players}); {game['time_control']['description']}")
    return lines


def turn_line(turn: Turn) -> str:
    line = f"#{turn['game']} {turn['name']}: seq {turn['seq']}"
    if turn["deadline"]:
        line += f", move by {when(turn['deadline'])}"
    if turn["last_move"]:
        line += f". Last: {turn['last_move']}"
    return line


def seats_line(game: Game) -> str:
    parts = []
    for seat in game["seats"]:
        marks = []
        if seat["index"] == game["my_seat"]:
            marks.append("you")
        if game["status"] == "active" and seat["index"] in game["to_move"]:
            marks.append("to move")
        if seat["bot"]:
            marks.append(f"bot {seat['bot']}")
        parts.append(f"{seat['index']} {seat['name']}" + (f" ({', '.join(marks)})" if marks else ""))
    return "Seats: " + "; ".join(parts)


def show(game: Game, text: PositionText, latest: list[HistoryEvent]) -> list[str]:
    """Return the game as a person reads it: who sits where, the position, what just happened, my moves."""
    lines = [f"{game['name']} #{game['id']}: {standing(game)}", seats_line(game)]
    for clock in game["clocks"]:
        if clock["running"] and clock["deadline"]:
            lines.append(f"Clock: {seat_name(game, clock['seat'])} must move by {when(clock['deadline'])}")
    if text["position"]:
        lines += ["", text["position"].rstrip("\n")]
    if latest:
        lines += ["", "Latest:"] + [f"  {entry['seq']}: {entry['text']}" for entry in latest]
    ending = game.get("ending")
    if game["status"] == "finished":
        lines += ["", f"Result: {(game.get('result') or {}).get('summary', 'over')}"]
        if ending:
            lines.append(ending["text"])
    if text["moves"]:
        count = text["move_count"]
        lines += ["", f"Your move ({count} legal move{'s' if count != 1 else ''}); "
                      f"play one with: turnbased-cli play {game['id']} \"...\""]
        lines += [f"  {line}" for line in text["moves"]]
        if count > len(text["moves"]):
            lines.append(f"(summed up: every move one by one with turnbased-cli moves {game['id']})")
    return lines


def notation(game_type: GameType | None) -> list[str]:
    if game_type is None:
        return []
    return ["", f"How to write a move in {game_type['name']}:"] + [
        f"  {line}" for line in game_type["notation"].splitlines()]


def event_line(event: StreamEvent) -> str:
    """Return one line for an event of the stream (or of polling): its kind, its game, what it says."""
    data: Any = event.data
    if not isinstance(data, dict):
        return f"[{event.kind}] {data}"
    # The stream's events carry the kind's payload under "data", beside the game and seq.
    payload = data["data"] if isinstance(data.get("data"), dict) else data
    parts = [f"[{event.kind}]"]
    game = data.get("game")
    if isinstance(game, dict):
        game = game.get("id")
    if game is not None:
        parts.append(f"#{game}")
    if payload.get("name"):
        parts.append(str(payload["name"]))
    if isinstance(data.get("seq"), int):
        parts.append(f"seq {data['seq']}")
    result = payload.get("result")
    summary = result.get("summary") if isinstance(result, dict) else None
    said = next((payload[key] for key in ("text", "last_move", "summary", "detail") if payload.get(key)), summary)
    if said and payload.get("author"):
        said = f"{payload['author']}: {said}"
    if said:
        parts.append(f"- {said}")
    elif payload.get("deadline"):
        parts.append(f"- move by {when(payload['deadline'])}")
    elif len(parts) == 1:
        parts.append(json.dumps(data, ensure_ascii=False))
    return " ".join(parts)
