"""REST API of private notes: ``GET/PUT/DELETE /api/games/{id}/notes/`` (mine on a game I play) and
``GET /api/me/notes/`` (all of mine: my export), thin adapters over the notes services."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import error
from turnbased.notes import selectors, services
from turnbased.notes.models import MAX_NOTE_CHARS

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
NOT_A_PLAYER = error("I do not sit at this game: only its players keep notes on it.")
NO_GAME = error("No game has that id (or it is a private one I may not see).")


class NoteSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True, help_text="As written (plain text, line breaks kept): escape it "
                                                             "to show it. Empty before any is written.")
    updated_at = serializers.DateTimeField(allow_null=True, help_text="When last changed; null before any.")

    class Meta:
        ref_name = "GameNote"


NoteListSerializer = page_of("GameNoteList", NoteSerializer, description="The latest begun first.")


class NoteInputSerializer(BodySerializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_NOTE_CHARS,
                                 help_text=f"The whole of my notes (they replace what was kept), plain text, at most "
                                           f"{MAX_NOTE_CHARS} characters (blanks around and control characters are "
                                           "dropped); empty deletes them.")

    class Meta:
        ref_name = "GameNoteRequest"


class GameNoteApi(APIView):
    """My private notes on a game I play: read by nobody else, during the game and after it."""

    @extend_schema(operation_id="game_notes_read", tags=["notes"], summary="My notes on a game",
                   description="What I wrote about this game (empty before I wrote anything). Only a player of the "
                               "game has notes on it; nobody else ever reads them, nor are they in its record.",
                   parameters=[GAME_ID], responses={200: NoteSerializer, 403: NOT_A_PLAYER, 404: NO_GAME})
    @conditional_read
    def get(self, request, game_id: int):
        game = selectors.note_game(game_id, request.user)
        return Response(selectors.note_shown(game, selectors.note_of(game, request.user)))

    @extend_schema(operation_id="game_notes_write", tags=["notes"], summary="Keep my notes on a game",
                   description="Replace my notes on this game with `text` (empty deletes them). My own stream and "
                               "webhooks are told (`game_note`).",
                   parameters=[GAME_ID], request=NoteInputSerializer,
                   responses={200: NoteSerializer, 400: error("Not text, or longer than notes may be."),
                              403: NOT_A_PLAYER, 404: NO_GAME})
    def put(self, request, game_id: int):
        data = NoteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        note = services.note_save(game_id=game_id, user=request.user, text=data.validated_data["text"])
        return Response(selectors.note_shown(selectors.note_game(game_id, request.user), note))

    @extend_schema(operation_id="game_notes_delete", tags=["notes"], summary="Delete my notes on a game",
                   parameters=[GAME_ID], responses={204: None, 403: NOT_A_PLAYER, 404: NO_GAME})
    def delete(self, request, game_id: int):
        services.note_save(game_id=game_id, user=request.user, text="")
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyNotesApi(APIView):
    """Every note I keep, on every game: my export."""

    @extend_schema(operation_id="my_notes_list", tags=["notes"], summary="All my notes",
                   description="Every game I keep notes on, with them, the latest begun first, a page at a time.",
                   parameters=cursor_parameters(), responses={200: NoteListSerializer})
    @conditional_read
    def get(self, request):
        page = paginate(request, selectors.notes_of(request.user), ordering=("-pk",))
        return Response(page.body([selectors.note_shown(note.game, note) for note in page.items]))
