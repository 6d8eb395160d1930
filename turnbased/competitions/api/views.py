"""REST API of competitions: thin adapters over ``turnbased.competitions.services`` and ``selectors``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound as ApiNotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.competitions import presenters, selectors
from turnbased.competitions.api.serializers import (
    ChallengeSerializer, CompetitionDetailSerializer, CompetitionInputSerializer, CompetitionListSerializer,
    EntrantListSerializer, EntrySerializer, PersonSerializer, RoundsSerializer, StandingsSerializer, TableSerializer,
)
from turnbased.competitions.models import Format
from turnbased.competitions.services import entries, ladders
from turnbased.idempotency.once import idempotent
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import game_slugs
from turnbased.kit.api.pagination import cursor_parameters, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.kit.errors import Unprocessable

COMPETITION_ID = OpenApiParameter("competition_id", int, OpenApiParameter.PATH, description="The competition's id.")
USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH, description="The player's username (any case).")
NO_COMPETITION = error("No competition has that id (or it is one I may not see: a group's I am not in, an "
                       "invitation-only one I was not invited to).")
ORGANISER_ONLY = error("Only the competition's organiser may do this.")
FILTERS = [
    OpenApiParameter("game", str, enum=[slug for slug, _ in game_slugs()],
                     description="Only competitions of this game (its slug)."),
    OpenApiParameter("stage_format", str, enum=Format.values, description="Only those with a stage of this format."),
    OpenApiParameter("status", str, enum=["entry", "running", "finished", "cancelled"],
                     description="Only those in this state (all when left out)."),
    OpenApiParameter("group", int, description="Only this group's."),
    OpenApiParameter("days_per_move", int, description="Only those whose clock gives this many days a move."),
    OpenApiParameter("no_absence", bool, description="true: only those whose clock stops for no absence."),
    OpenApiParameter("league", bool, description="true: only a league's seasons; false: only the other competitions."),
]


class CompetitionListApi(APIView):
    """The competitions I may see; make one."""

    throttle_scope = "competitions"

    @extend_schema(operation_id="competitions_list", tags=["competitions"], summary="Competitions",
                   parameters=[*FILTERS, *cursor_parameters()], responses={200: CompetitionListSerializer})
    @conditional_read
    def get(self, request):
        rows = selectors.listed(request.user, request.query_params)
        page = paginate(request, rows, ordering=("-pk",))
        return Response(page.body(presenters.many(page.items, request.user)))

    @extend_schema(operation_id="competitions_create", tags=["competitions"], summary="Make a competition",
                   description="I become its organiser (I do not play in it unless I enter). Everything that "
                               "cannot be run is refused here, before it exists: a format that does not fit the "
                               "game's table size, a clock missing without no_clock, a start in the past.",
                   request=CompetitionInputSerializer, parameters=[created_location("the competition")],
                   responses={201: CompetitionDetailSerializer,
                              403: error("A group's competition, and I may not make the group's tables."),
                              404: error("No group has that id."),
                              409: error("I organise as many unfinished competitions as one account may."),
                              422: error("Settings that do not fit together, in words that say what to change.")})
    @idempotent
    def post(self, request):
        data = CompetitionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = entries.competition_create(user=request.user, settings=presenters.settings_from(
            data.validated_data))
        return Response(presenters.detail(competition, request.user), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-competition", args=[competition.pk])})


class MyCompetitionsApi(APIView):
    @extend_schema(operation_id="my_competitions_list", tags=["competitions"], summary="My competitions",
                   description="The competitions I entered and did not withdraw from, the newest first.",
                   parameters=cursor_parameters(), responses={200: CompetitionListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.competitions_of(request.user), ordering=("-pk",))
        return Response(page.body(presenters.many(page.items, request.user)))


class CompetitionApi(APIView):
    @extend_schema(operation_id="competitions_retrieve", tags=["competitions"], summary="A competition",
                   description="Its rules as they are printed on its page: format, points, tie-breaks, clock, "
                               "the round's length and what becomes of a game at its round's deadline.",
                   parameters=[COMPETITION_ID], responses={200: CompetitionDetailSerializer, 404: NO_COMPETITION})
    @conditional_read
    def get(self, request, competition_id: int):
        return Response(presenters.detail(selectors.competition_for(competition_id, request.user), request.user))


class CancelApi(APIView):
    @extend_schema(operation_id="competitions_cancel", tags=["competitions"], summary="Call a competition off",
                   description="Its organiser, before it starts; its entrants are told.", parameters=[COMPETITION_ID],
                   request=None, responses={200: CompetitionDetailSerializer, 403: ORGANISER_ONLY, 404: NO_COMPETITION,
                                            409: error("It has started or ended.")})
    def post(self, request, competition_id: int):
        competition = entries.competition_cancel(user=request.user, competition_id=competition_id)
        return Response(presenters.detail(competition, request.user))


class EntryApi(APIView):
    """My entry: enter, or withdraw."""

    throttle_scope = "competitions"

    @extend_schema(operation_id="competition_entry_create", tags=["competitions"], summary="Enter a competition",
                   description="Refused, with the reason in my language, when it is full, started (past its late "
                               "entries), for a group I am not in, by invitation I do not hold, when I miss its "
                               "requirements or ran out of time in competitions' games too often lately.",
                   parameters=[COMPETITION_ID, created_location("my entry (this same path)")], request=None,
                   responses={201: EntrySerializer, 404: NO_COMPETITION, 409: error("Why I may not enter now.")})
    @idempotent
    def post(self, request, competition_id: int):
        entrant = entries.competition_enter(user=request.user, competition_id=competition_id)
        return Response({"status": entrant.status}, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-competition-entry", args=[entrant.competition_id])})

    @extend_schema(operation_id="competition_entry_destroy", tags=["competitions"], summary="Withdraw",
                   description="Before the start my place is freed; once it has started I am paired no more (my "
                               "games in play go on: resign them to end them).",
                   parameters=[COMPETITION_ID], responses={204: None, 404: NO_COMPETITION,
                                                           409: error("I am not playing in it, or it is over.")})
    def delete(self, request, competition_id: int):
        entries.competition_withdraw(user=request.user, competition_id=competition_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntrantsApi(APIView):
    @extend_schema(operation_id="competition_entrants_list", tags=["competitions"], summary="A competition's entrants",
                   parameters=[COMPETITION_ID, *cursor_parameters()],
                   responses={200: EntrantListSerializer, 404: NO_COMPETITION})
    @conditional_read
    def get(self, request, competition_id: int):
        competition = selectors.competition_for(competition_id, request.user)
        page = paginate(request, competition.entrants.select_related("user"), ordering=("pk",))
        return Response(page.body([presenters.entrant(entrant) for entrant in page.items]))


class EntrantApi(APIView):
    @extend_schema(operation_id="competition_entrants_destroy", tags=["competitions"], summary="Remove an entrant",
                   description="The organiser: as if they withdrew; they are told.",
                   parameters=[COMPETITION_ID, USERNAME],
                   responses={204: None, 403: ORGANISER_ONLY,
                              404: error("No competition has that id (or one I may not see), or no player that name "
                                         "(or my own)."),
                              409: error("They are not playing in it, or it is over.")})
    def delete(self, request, competition_id: int, username: str):
        selectors.competition_for(competition_id, request.user)
        try:
            entries.entrant_remove(user=request.user, competition_id=competition_id, username=username)
        except Unprocessable:  # a name that names nobody (or my own): a path that names nothing
            raise ApiNotFound(gettext("No such player.")) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationsApi(APIView):
    throttle_scope = "competitions"

    @extend_schema(operation_id="competition_invitations_create", tags=["competitions"],
                   summary="Invite a person to enter",
                   description="The organiser of an invitation-only competition, before it starts. Inviting again "
                               "changes nothing (200).",
                   parameters=[COMPETITION_ID, created_location("the competition the invitation is to")],
                   request=PersonSerializer,
                   responses={201: PersonSerializer, 200: PersonSerializer, 403: ORGANISER_ONLY, 404: NO_COMPETITION,
                              409: error("It has started, or has as many invitations as it may."),
                              422: error("No player by that name, my own name, or one who cannot be invited.")})
    @idempotent
    def post(self, request, competition_id: int):
        data = PersonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation, new = entries.competition_invite(user=request.user, competition_id=competition_id,
                                                     username=data.validated_data["username"])
        return Response({"username": invitation.user.get_username()},
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK,
                        headers={"Location": reverse("api-competition", args=[competition_id])} if new else None)


class StandingsApi(APIView):
    @extend_schema(operation_id="competition_standings", tags=["competitions"], summary="Standings",
                   description="Each stage's standings, best first: points, then the tie-breaks in the "
                               "competition's order. Moved on as each game ends.",
                   parameters=[COMPETITION_ID], responses={200: StandingsSerializer, 404: NO_COMPETITION})
    @conditional_read
    def get(self, request, competition_id: int):
        competition = selectors.competition_for(competition_id, request.user)
        return Response({"stages": presenters.standings(competition)})


class RoundsApi(APIView):
    @extend_schema(operation_id="competition_rounds", tags=["competitions"], summary="Rounds and their tables",
                   description="Every round of every stage: its deadline, its tables (who sits where, the game, "
                               "how it ended and the places it gave) and its byes.",
                   parameters=[COMPETITION_ID], responses={200: RoundsSerializer, 404: NO_COMPETITION})
    @conditional_read
    def get(self, request, competition_id: int):
        competition = selectors.competition_for(competition_id, request.user)
        return Response({"rounds": presenters.rounds(competition)})


class ChallengesApi(APIView):
    """A ladder's challenges: challenge a player above me."""

    throttle_scope = "competitions"

    @extend_schema(operation_id="competition_challenges_create", tags=["competitions"],
                   summary="Challenge a player on a ladder",
                   description="One of the places above mine, as far up as the ladder reaches; our game is made at "
                               "once on the ladder's clock (accepted automatically) and the player is told. If I win "
                               "I take their place. Refused, with the reason in my language, when they are out of "
                               "reach, either of us has as many challenges in play as the ladder allows, we have one "
                               "in play already, or we met too recently.",
                   parameters=[COMPETITION_ID, created_location("the challenge's game")], request=ChallengeSerializer,
                   responses={201: TableSerializer, 404: NO_COMPETITION,
                              409: error("Why I may not challenge that player now (or the competition is no "
                                         "ladder, or not running)."),
                              422: error("No player by that name is on the ladder.")})
    @idempotent
    def post(self, request, competition_id: int):
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = ladders.ladder_challenge(user=request.user, competition_id=competition_id,
                                         username=data.validated_data["username"])
        names = dict(table.round.stage.competition.entrants.filter(pk__in=table.players)
                     .values_list("pk", "user__username"))
        return Response(presenters.table_shown(table, names, []), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game", args=[table.game_id])})
