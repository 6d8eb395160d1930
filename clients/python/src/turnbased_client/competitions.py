"""The competitions' operations of the API (tournaments: made, entered, invited to; their standings and rounds),
mixed into ``Client``."""

from __future__ import annotations

from typing import Any, Literal

from turnbased_client.core import UNSET, ApiCore, Unset, operation
from turnbased_client.types import (
    Competition, CompetitionDetail, CompetitionEntrant, CompetitionEntry, CompetitionPerson, CompetitionRounds,
    CompetitionStandings, CompetitionTable, LadderRequest, LeagueRequest, TableRequirements, TimeControlRequest,
)

Status = Literal["entry", "running", "finished", "cancelled"]
StageFormat = Literal["round_robin", "swiss", "elimination", "double_elimination", "ladder"]
SETTINGS = ("name", "description", "game", "table_size", "options", "time_control", "no_clock", "entry", "group",
            "requirements", "min_entrants", "max_entrants", "starts_at", "start_when_full", "late_entry_rounds",
            "rated", "takebacks", "agreements", "points", "bye_policy", "bye_points", "tiebreaks", "deadline_policy",
            "round_days", "stages", "league", "ladder")


class CompetitionsApi(ApiCore):
    @operation("competitions_list", "GET", "/api/competitions/",
               query=("game", "stage_format", "status", "group", "days_per_move", "no_absence", "league",
                      "page_size"),
               conditional=True, listed="")
    def competitions(self, *, game: str | Unset = UNSET, stage_format: StageFormat | Unset = UNSET,
                     status: Status | Unset = UNSET, group: int | Unset = UNSET, days_per_move: int | Unset = UNSET,
                     no_absence: bool | Unset = UNSET, league: bool | Unset = UNSET,
                     page_size: int | Unset = UNSET) -> list[Competition]:
        """The competitions I may see, the newest first, kept by the filters given."""
        return self._call("competitions_list", query={
            "game": game, "stage_format": stage_format, "status": status, "group": group,
            "days_per_move": days_per_move,
            "no_absence": UNSET if isinstance(no_absence, Unset) else ("true" if no_absence else "false"),
            "league": UNSET if isinstance(league, Unset) else ("true" if league else "false"),
            "page_size": page_size})

    @operation("my_competitions_list", "GET", "/api/me/competitions/", query=("page_size",), conditional=True,
               listed="")
    def my_competitions(self, *, page_size: int | Unset = UNSET) -> list[Competition]:
        """The competitions I entered and did not withdraw from."""
        return self._call("my_competitions_list", query={"page_size": page_size})

    @operation("competitions_create", "POST", "/api/competitions/", body=SETTINGS, idempotent=True)
    def create_competition(self, name: str, game: str, time_control: TimeControlRequest, *,
                           description: str | Unset = UNSET, table_size: int | Unset = UNSET,
                           options: dict[str, Any] | Unset = UNSET, no_clock: bool | Unset = UNSET,
                           entry: Literal["open", "group", "invitation"] | Unset = UNSET,
                           group: int | None | Unset = UNSET, requirements: TableRequirements | Unset = UNSET,
                           min_entrants: int | Unset = UNSET, max_entrants: int | None | Unset = UNSET,
                           starts_at: str | None | Unset = UNSET, start_when_full: bool | Unset = UNSET,
                           late_entry_rounds: int | Unset = UNSET, rated: bool | Unset = UNSET,
                           takebacks: Literal["people", "everyone", "forbidden"] | Unset = UNSET,
                           agreements: list[Literal["pause", "extra_time", "draw"]] | Unset = UNSET,
                           points: dict[str, list[float]] | Unset = UNSET,
                           bye_policy: Literal["fixed", "average"] | Unset = UNSET,
                           bye_points: float | Unset = UNSET, tiebreaks: list[str] | Unset = UNSET,
                           deadline_policy: Literal["play_out", "adjudicate", "all_lose"] | Unset = UNSET,
                           round_days: int | None | Unset = UNSET,
                           stages: list[dict[str, Any]] | Unset = UNSET,
                           league: LeagueRequest | None | Unset = UNSET,
                           ladder: LadderRequest | None | Unset = UNSET) -> CompetitionDetail:
        """Make a competition, me its organiser (I play in it only if I enter it too); with ``league``, the first
        season of a league; with ``ladder``, a ladder."""
        settings = {"name": name, "description": description, "game": game, "table_size": table_size,
                    "options": options, "time_control": time_control, "no_clock": no_clock, "entry": entry,
                    "group": group, "requirements": requirements, "min_entrants": min_entrants,
                    "max_entrants": max_entrants, "starts_at": starts_at, "start_when_full": start_when_full,
                    "late_entry_rounds": late_entry_rounds, "rated": rated, "takebacks": takebacks,
                    "agreements": agreements, "points": points,
                    "bye_policy": bye_policy, "bye_points": bye_points, "tiebreaks": tiebreaks,
                    "deadline_policy": deadline_policy, "round_days": round_days, "stages": stages, "league": league,
                    "ladder": ladder}
        return self._call("competitions_create", body=settings)

    @operation("competitions_retrieve", "GET", "/api/competitions/{competition_id}/", conditional=True)
    def competition(self, competition_id: int) -> CompetitionDetail:
        """One competition: its rules, and whether I may enter it now (and if not, why)."""
        return self._call("competitions_retrieve", {"competition_id": competition_id})

    @operation("competitions_cancel", "POST", "/api/competitions/{competition_id}/cancel/")
    def cancel_competition(self, competition_id: int) -> CompetitionDetail:
        """Call a competition off before it starts (its organiser)."""
        return self._call("competitions_cancel", {"competition_id": competition_id})

    @operation("competition_entry_create", "POST", "/api/competitions/{competition_id}/entry/", idempotent=True)
    def enter_competition(self, competition_id: int) -> CompetitionEntry:
        """Enter a competition (refused, with the reason, when I may not)."""
        return self._call("competition_entry_create", {"competition_id": competition_id})

    @operation("competition_entry_destroy", "DELETE", "/api/competitions/{competition_id}/entry/")
    def withdraw_from_competition(self, competition_id: int) -> None:
        """Withdraw: before the start my place is freed; after it I am paired no more."""
        return self._call("competition_entry_destroy", {"competition_id": competition_id})

    @operation("competition_entrants_list", "GET", "/api/competitions/{competition_id}/entrants/",
               query=("page_size",), conditional=True, listed="")
    def competition_entrants(self, competition_id: int, *,
                             page_size: int | Unset = UNSET) -> list[CompetitionEntrant]:
        """A competition's entrants."""
        return self._call("competition_entrants_list", {"competition_id": competition_id},
                          query={"page_size": page_size})

    @operation("competition_entrants_destroy", "DELETE", "/api/competitions/{competition_id}/entrants/{username}/")
    def remove_competition_entrant(self, competition_id: int, username: str) -> None:
        """Withdraw an entrant (the organiser); they are told."""
        return self._call("competition_entrants_destroy", {"competition_id": competition_id, "username": username})

    @operation("competition_invitations_create", "POST", "/api/competitions/{competition_id}/invitations/",
               body=("username",), idempotent=True)
    def invite_to_competition(self, competition_id: int, username: str) -> CompetitionPerson:
        """Invite a player to enter (the organiser)."""
        return self._call("competition_invitations_create", {"competition_id": competition_id},
                          body={"username": username})

    @operation("competition_challenges_create", "POST", "/api/competitions/{competition_id}/challenges/",
               body=("username",), idempotent=True)
    def challenge(self, competition_id: int, username: str) -> CompetitionTable:
        """Challenge a player above me on a ladder: our game starts at once."""
        return self._call("competition_challenges_create", {"competition_id": competition_id},
                          body={"username": username})

    @operation("competition_standings", "GET", "/api/competitions/{competition_id}/standings/", conditional=True)
    def competition_standings(self, competition_id: int) -> CompetitionStandings:
        """Each stage's standings, best first."""
        return self._call("competition_standings", {"competition_id": competition_id})

    @operation("competition_rounds", "GET", "/api/competitions/{competition_id}/rounds/", conditional=True)
    def competition_rounds(self, competition_id: int) -> CompetitionRounds:
        """Every round with its tables (their games) and byes."""
        return self._call("competition_rounds", {"competition_id": competition_id})
