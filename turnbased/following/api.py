"""REST API of following: ``GET/POST /api/watches/`` (what I follow; follow a game, a group's games or a competition's
games), ``GET/PATCH/DELETE /api/watches/{id}/`` (one of them: what it tells me, stop), and ``GET /api/watches/games/``
(the games they cover, as any spectator sees them): thin adapters over the following services."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.following import selectors, services
from turnbased.following.models import Notify
from turnbased.idempotency.once import idempotent
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.play.models import GameStatus

WATCH_ID = OpenApiParameter("watch_id", int, OpenApiParameter.PATH, description="The watch's id.")
NO_WATCH = error("I follow nothing with that id.")
NOTIFY_HELP = ("What it tells me besides the feed, as a turn is told (email, as my email settings say; stream and "
               "webhooks: `followed_move`, `followed_end`): `off` nothing, `ends` each game's end, `moves` every move "
               "and the end.")


class WatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=[(kind, kind) for kind in selectors.KINDS],
                                   help_text="What I follow: one game, a group's games, a competition's games.")
    target = serializers.IntegerField(help_text="The game's, group's or competition's id.")
    name = serializers.CharField(help_text="Its name: the game's title, the group's or the competition's name.")
    notify = serializers.ChoiceField(choices=Notify.choices, help_text=NOTIFY_HELP)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Watch"


class WatchListSerializer(serializers.Serializer):
    watches = WatchSerializer(many=True, help_text=f"The newest first; at most {selectors.MOST_WATCHES}.")

    class Meta:
        ref_name = "WatchList"


class WatchInputSerializer(BodySerializer):
    kind = serializers.ChoiceField(choices=[(kind, kind) for kind in selectors.KINDS],
                                   help_text="`game`: one game I may see and do not play (open or in play); "
                                             "`group`: the games of a group I am a member of; `competition`: the "
                                             "games of a competition I may see, not over.")
    target = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The game's, group's or "
                                                                                  "competition's id.")
    notify = serializers.ChoiceField(choices=Notify.choices, required=False,
                                     help_text=NOTIFY_HELP + " Left out: `moves` for a game, `ends` for a group or "
                                                             "a competition (what I follow already keeps its own).")

    class Meta:
        ref_name = "WatchRequest"


class WatchChangeSerializer(BodySerializer):
    notify = serializers.ChoiceField(choices=Notify.choices, required=False,
                                     help_text=NOTIFY_HELP + " Left out, nothing changes.")

    class Meta:
        ref_name = "WatchChange"


class FollowedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The game's title.")
    engine = serializers.CharField(help_text="The game's slug.")
    status = serializers.ChoiceField(choices=[(GameStatus.ACTIVE, GameStatus.ACTIVE),
                                              (GameStatus.FINISHED, GameStatus.FINISHED)])
    players = serializers.ListField(child=serializers.CharField(), help_text="The seats' names, in seat order.")
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="The seats to move (none once over).")
    last_move = serializers.CharField(allow_blank=True, help_text="The latest move as any spectator reads it, in my "
                                                                  "language.")
    last_move_at = serializers.DateTimeField(allow_null=True)
    result = serializers.CharField(allow_blank=True, help_text="How it ended, in my language; empty while it goes on.")
    started_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "FollowedGame"


FollowedGameListSerializer = page_of("FollowedGameList", FollowedGameSerializer,
                                     description="The games my watches cover, in play or ended this past week, none "
                                                 "I play: the latest started first.")


def _game_rows(games) -> list[dict]:
    rows = selectors.feed_rows(games)
    return [{"id": row["game"].pk, "name": row["game"].title, "engine": row["game"].engine,
             "status": row["game"].status, "players": list(row["game"].player_names),
             "to_move": list(row["game"].to_move) if row["game"].status == GameStatus.ACTIVE else [],
             "last_move": row["line"], "last_move_at": row["game"].last_move_at,
             "result": row["game"].result_line, "started_at": row["game"].started_at} for row in rows]


class WatchesApi(APIView):
    """What I follow; follow something more."""

    throttle_scope = "contacts"

    @extend_schema(operation_id="watches_list", tags=["following"], summary="What I follow",
                   responses={200: WatchListSerializer})
    @conditional_read
    def get(self, request):
        return Response({"watches": [selectors.watch_shown(watch) for watch in selectors.watches_of(request.user)]})

    @extend_schema(
        operation_id="watch_make", tags=["following"], summary="Follow a game, a group's or a competition's games",
        request=WatchInputSerializer, parameters=[created_location("the watch")],
        description="Its games show in my feed (`GET /api/watches/games/`) as any spectator sees them, and tell me of "
                    "their moves or ends as `notify` says. Following what I follow already changes only `notify` "
                    "(given) and answers 200 (docs/players.md, \"Following games\").",
        responses={201: WatchSerializer, 200: WatchSerializer, 400: error("A field is missing or not one of its "
                                                                          "choices."),
                   403: error("A group I am not a member of: its games are its members' to see."),
                   404: error("No game (that I may see), group or competition has that id."),
                   409: error(f"A game I play at, or one that is over; a competition that is over; or I follow "
                              f"{selectors.MOST_WATCHES} already.")},
    )
    @idempotent
    def post(self, request):
        data = WatchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        watch, created = services.watch_make(user=request.user, kind=data.validated_data["kind"],
                                             target_id=data.validated_data["target"],
                                             notify=data.validated_data.get("notify"))
        return Response(selectors.watch_shown(watch), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
                        headers={"Location": reverse("api-watch", args=[watch.pk])})


class WatchApi(APIView):
    """One of my watches: read it, change what it tells me, stop following."""

    throttle_scope = "contacts"

    @extend_schema(operation_id="watch_retrieve", tags=["following"], summary="A watch of mine",
                   parameters=[WATCH_ID], responses={200: WatchSerializer, 404: NO_WATCH})
    @conditional_read
    def get(self, request, watch_id: int):
        return Response(selectors.watch_shown(selectors.watch_for(watch_id, request.user)))

    @extend_schema(operation_id="watch_change", tags=["following"], summary="Change what a watch tells me",
                   request=WatchChangeSerializer, parameters=[WATCH_ID],
                   responses={200: WatchSerializer, 400: error("`notify` is missing or not one of its choices."),
                              404: NO_WATCH})
    def patch(self, request, watch_id: int):
        data = WatchChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "notify" not in data.validated_data:  # a PATCH of nothing changes nothing
            return Response(selectors.watch_shown(selectors.watch_for(watch_id, request.user)))
        watch = services.watch_change(watch_id=watch_id, user=request.user, notify=data.validated_data["notify"])
        return Response(selectors.watch_shown(watch))

    @extend_schema(operation_id="watch_remove", tags=["following"], summary="Stop following", parameters=[WATCH_ID],
                   responses={204: None, 404: NO_WATCH})
    def delete(self, request, watch_id: int):
        services.watch_remove(watch_id=watch_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FollowedGamesApi(APIView):
    """The games I follow (my feed), as any spectator sees them."""

    @extend_schema(operation_id="followed_games_list", tags=["following"], summary="The games I follow",
                   description="Every game my watches cover (each followed game, a followed group's and competition's "
                               "games) in play or ended this past week, none I play at: no hand, no hidden tile, "
                               "whoever asks.", parameters=cursor_parameters(),
                   responses={200: FollowedGameListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.feed(request.user), ordering=("-started_at", "-pk"))
        return Response(page.body(_game_rows(list(page.items))))
