"""REST API of agreements at the table (the players of a game only): ``GET /api/games/{id}/proposals/`` (the
latest), ``POST /api/games/{id}/proposals/`` (propose a pause, extra time, a draw or a cancel), ``POST
/api/games/{id}/takebacks/`` (ask for my last move back), ``POST
/api/games/{id}/proposals/{pid}/answer/`` (accept or decline) and ``DELETE /api/games/{id}/proposals/{pid}/``
(withdraw mine), thin adapters over the agreements services."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.agreements import selectors, services
from turnbased.agreements.checks import proposals_offered
from turnbased.clocks.agreed import EXTRA_DAYS_MOST, PAUSE_DAYS_MOST
from turnbased.kit.api.input import MOST_SEATS
from turnbased.agreements.models import VOTES, ProposalKind, ProposalStatus
from turnbased.idempotency.once import idempotent
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.schema import created_location, error

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
PROPOSAL_ID = OpenApiParameter("proposal_id", int, OpenApiParameter.PATH, description="The proposal's id.")
NOT_A_PLAYER = error("I do not sit at this game: only its players make and answer proposals.")
NO_GAME = error("No game has that id (or it is a private one I may not see).")
NO_PROPOSAL = error("No game has that id, or no proposal at it has that one.")
SETTLED = error("The proposal is settled or lapsed (someone moved, or its time ran out), or the move may no longer "
                "be taken back: `detail` says which.")


class AnswerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    accepted = serializers.BooleanField()
    by_bot = serializers.BooleanField(help_text="A bot answered for the seat, by the rule in the players' guide.")

    class Meta:
        ref_name = "ProposalAnswer"


class ProposalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ProposalKind.choices, help_text="What is proposed: `take_back` (the "
                                   "proposer's last move), `pause` (every clock at the table, for `days`), "
                                   "`extra_time` (`days` more for the seat `for_seat`'s current or next turn), `draw` "
                                   "(end the game now as a draw), `cancel` (end it now with no result, unrated).")
    status = serializers.ChoiceField(choices=ProposalStatus.choices, help_text="As it stands now: an `open` one "
                                     "lapses once anyone moves or its window closes.")
    seat = serializers.IntegerField(help_text="The proposer's seat.")
    player = serializers.CharField(help_text="The proposer's name at the table.")
    move = serializers.IntegerField(allow_null=True, help_text="The move (its seq) a takeback would take back.")
    days = serializers.IntegerField(allow_null=True, help_text="The days of a pause, or of extra time.")
    for_seat = serializers.IntegerField(allow_null=True, help_text="The seat extra time is for.")
    for_player = serializers.CharField(allow_null=True, help_text="The name at the table of the seat extra time is "
                                                                  "for.")
    made_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="When it lapses unless everyone has answered.")
    decided_at = serializers.DateTimeField(allow_null=True)
    answers = AnswerSerializer(many=True)
    waiting_for = serializers.ListField(child=serializers.IntegerField(), help_text="The seats whose answer it "
                                                                                    "waits for (empty once settled).")

    class Meta:
        ref_name = "Proposal"


class ProposalListSerializer(serializers.Serializer):
    waiting = ProposalSerializer(allow_null=True, help_text="The proposal waiting for answers, if any.")
    takeback_offered = serializers.BooleanField(help_text="Whether I may ask for my last move back now, as far as "
                                                "can be told without replaying the game (asking says why not).")
    offered = serializers.ListField(
        child=serializers.ChoiceField(choices=[str(kind) for kind in VOTES]),
        help_text="The proposals put to a vote I may make now, as far as the table, the game and its clock tell "
                  "(proposing says why not).")
    proposals = ProposalSerializer(many=True, help_text="The latest proposals at the table, the newest first.")

    class Meta:
        ref_name = "ProposalList"


class ProposalInputSerializer(BodySerializer):
    kind = serializers.ChoiceField(choices=[str(kind) for kind in VOTES],
                                   help_text="What I propose (a takeback has its own request: POST .../takebacks/).")
    days = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    max_value=max(PAUSE_DAYS_MOST, EXTRA_DAYS_MOST), help_text=f"For `pause`: 1 to {PAUSE_DAYS_MOST} days. For `extra_time`: 1 to "
                                              f"{EXTRA_DAYS_MOST} days.")
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MOST_SEATS - 1,
                                    help_text="For `extra_time`: the seat given the time (mine, or another person's).")

    class Meta:
        ref_name = "ProposalRequest"


class AnswerInputSerializer(BodySerializer):
    accept = serializers.BooleanField(help_text="true to agree, false to decline (a decline settles it for all).")

    class Meta:
        ref_name = "ProposalAnswerRequest"


def _listed(game_id: int, user) -> dict:
    viewer = selectors.proposal_viewer(game_id, user)
    game = viewer.game
    shown = [selectors.proposal_shown(proposal, game) for proposal in selectors.proposals_of(game)]
    # The one waiting is the newest: no proposal is made while another waits.
    waiting = shown[0] if shown and shown[0]["status"] == ProposalStatus.OPEN else None
    return {
        "waiting": waiting,
        "takeback_offered": waiting is None and selectors.takeback_offered(viewer),
        "offered": proposals_offered(viewer) if waiting is None else [],
        "proposals": shown,
    }


def _shown(game_id: int, user, proposal) -> dict:
    return selectors.proposal_shown(proposal, selectors.proposal_viewer(game_id, user).game)


class ProposalsApi(APIView):
    """The proposals at a game I play; propose one."""

    @extend_schema(operation_id="proposals_list", tags=["agreements"], summary="Proposals at my table",
                   description="The proposal waiting for answers, if any, and the latest ones. Only the game's "
                               "players read them; a takeback carried is in everyone's history as its own entry.",
                   parameters=[GAME_ID], responses={200: ProposalListSerializer, 403: NOT_A_PLAYER, 404: NO_GAME})
    @conditional_read
    def get(self, request, game_id: int):
        return Response(_listed(game_id, request.user))

    @extend_schema(
        operation_id="proposal_make", tags=["agreements"], summary="Propose a pause, extra time, a draw or a cancel",
        request=ProposalInputSerializer,
        parameters=[GAME_ID, created_location("the table's proposals (GET /api/games/{id}/proposals/)")],
        description="Every other person at the table is asked (their stream, webhooks and email: `proposal_made`); "
                    "it is carried when all accept within two days (a draw lapses sooner, when anyone moves). I agree "
                    "by proposing. Bots accept a pause and extra time always; a draw or a cancel at an unrated table, "
                    "never at a rated one, and at a competition's table as its organiser chose. A pause needs a clock "
                    "that lets time stop (absences allowed); extra time a clock; a draw a game whose rules know a "
                    "shared result; a competition's game is never cancelled. With no other person at the table it is "
                    "carried at once (`status` `accepted`). docs/players.md, \"Agreements at the table\".",
        responses={201: ProposalSerializer, 400: error("`kind` is unknown, or `days` or `seat` is no whole number."),
                   422: error("`days` or `seat` is missing, out of range, or not taken by that kind."),
                   403: error("Not a player of this game, or the table's competition forbids that kind."),
                   404: NO_GAME,
                   409: error("The game is not in play, my seat is a bot's or I left, the game or its clock does not "
                              "allow it (`detail` says why), a bot at the table will not agree, a proposal is "
                              "waiting, or I proposed too often lately.")},
    )
    @idempotent
    def post(self, request, game_id: int):
        data = ProposalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        proposal = services.proposal_make(game_id=game_id, user=request.user, kind=fields["kind"],
                                          terms={"days": fields.get("days"), "seat": fields.get("seat")})
        return Response(_shown(game_id, request.user, proposal), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game-proposals", args=[game_id])})


class TakebackApi(APIView):
    """Ask the others at my table to let me take back my last move."""

    @extend_schema(
        operation_id="takeback_ask", tags=["agreements"], summary="Ask to take back my last move", request=None,
        parameters=[GAME_ID, created_location("the table's proposals (GET /api/games/{id}/proposals/)")],
        description="Every other person at the table is asked (their stream, webhooks and email: "
                    "`proposal_made`); it happens only if all accept within two days and before anyone moves. Bots "
                    "accept at an unrated table, never at a rated one, and at a competition's table as its organiser "
                    "chose. With no other person at the table it happens at once (`status` `accepted`). Only a move "
                    "that drew, showed or passed on nothing hidden may be taken back, and only before anyone else "
                    "moves: the game decides (docs/players.md).",
        responses={201: ProposalSerializer, 403: error("Not a player of this game, or the table's competition forbids "
                                                       "takebacks."), 404: NO_GAME,
                   409: error("The game is not in play, the last move is not mine or may not be taken back (`detail` "
                              "says why), a bot at the table will not agree, a proposal is waiting, or I asked too "
                              "often lately.")},
    )
    @idempotent
    def post(self, request, game_id: int):
        proposal = services.takeback_ask(game_id=game_id, user=request.user)
        return Response(_shown(game_id, request.user, proposal), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-game-proposals", args=[game_id])})


class ProposalApi(APIView):
    """My proposal, while it waits: withdraw it."""

    @extend_schema(operation_id="proposal_withdraw", tags=["agreements"], summary="Withdraw my proposal",
                   parameters=[GAME_ID, PROPOSAL_ID],
                   responses={200: ProposalSerializer, 403: error("Not my proposal, or not a player of this game."),
                              404: NO_PROPOSAL, 409: SETTLED})
    def delete(self, request, game_id: int, proposal_id: int):
        proposal = services.proposal_withdraw(game_id=game_id, proposal_id=proposal_id, user=request.user)
        return Response(_shown(game_id, request.user, proposal))


class ProposalAnswerApi(APIView):
    """Accept or decline a proposal waiting at my table."""

    @extend_schema(operation_id="proposal_answer", tags=["agreements"], summary="Answer a proposal",
                   description="A decline settles it for everyone; the last acceptance carries it (a takeback is "
                               "logged at once and the game goes on from the position before the move).",
                   parameters=[GAME_ID, PROPOSAL_ID], request=AnswerInputSerializer,
                   responses={200: ProposalSerializer, 400: error("`accept` is not true or false."),
                              403: error("My own proposal, or not a player of this game."), 404: NO_PROPOSAL,
                              409: SETTLED})
    @idempotent
    def post(self, request, game_id: int, proposal_id: int):
        data = AnswerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        proposal = services.proposal_answer(game_id=game_id, proposal_id=proposal_id, user=request.user,
                                            accept=data.validated_data["accept"])
        return Response(_shown(game_id, request.user, proposal))
