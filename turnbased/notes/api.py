"""REST API of private notes: ``GET/PUT/DELETE /api/games/{id}/notes/`` (mine on a game I play) and
``GET /api/me/notes/`` (all of mine: my export), thin adapters over the notes services."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import error
from turnbased.kit.errors import Unprocessable
from turnbased.notes import selectors, services
from turnbased.notes.models import MARK_SYMBOLS, MAX_MARK_LABEL_CHARS, MAX_MARKS, MAX_NOTE_CHARS

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
NOT_A_PLAYER = error("I do not sit at this game: only its players keep notes on it.")
NO_GAME = error("No game has that id (or it is a private one I may not see).")


SYMBOLS_HELP = ("`question`, `attention`, `yes`, `no` or `star` (the pages draw ?, !, ✓, ✗ and ★).")


class MarkSerializer(serializers.Serializer):
    spot = serializers.CharField(help_text="The card or tile it is on, as the game names it (`spots`).")
    symbol = serializers.ChoiceField(choices=[(symbol, symbol) for symbol in MARK_SYMBOLS], help_text=SYMBOLS_HELP)
    label = serializers.CharField(allow_blank=True, help_text="A few words beside it (may be empty).")

    class Meta:
        ref_name = "NoteMark"


class NamedMarkSerializer(MarkSerializer):
    name = serializers.CharField(allow_blank=True, help_text="Which card or tile it is on, in my language; empty once "
                                                             "it is no longer on the board.")

    class Meta:
        ref_name = "NoteMarkNamed"


class SpotSerializer(serializers.Serializer):
    spot = serializers.CharField()
    name = serializers.CharField(help_text="Which card or tile it is, in my language.")

    class Meta:
        ref_name = "NoteSpot"


class NoteSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True, help_text="As written (plain text, line breaks kept): escape it "
                                                             "to show it. Empty before any is written.")
    marks = MarkSerializer(many=True, help_text="My marks on the board's cards and tiles, in the order I made them.")
    updated_at = serializers.DateTimeField(allow_null=True, help_text="When last changed; null before any.")

    class Meta:
        ref_name = "GameNote"


class GameNoteSerializer(NoteSerializer):
    marks = NamedMarkSerializer(many=True, help_text="My marks on the board's cards and tiles, in the order I made "
                                                     "them, each named by the card or tile it is on.")
    spots = SpotSerializer(many=True, help_text="The cards and tiles I may mark now, as the board shows them (what "
                                                "my seat sees; the game decides which help: none in a game that "
                                                "offers none).")

    class Meta:
        ref_name = "GameNoteOfGame"


NoteListSerializer = page_of("GameNoteList", NoteSerializer, description="The latest begun first.")


class MarkInputSerializer(serializers.Serializer):
    spot = serializers.CharField(max_length=60, help_text="A card or tile I may mark (`spots`), or one of my marks "
                                                          "kept as it was.")
    symbol = serializers.ChoiceField(choices=[(symbol, symbol) for symbol in MARK_SYMBOLS], help_text=SYMBOLS_HELP)
    label = serializers.CharField(required=False, allow_blank=True, max_length=MAX_MARK_LABEL_CHARS,
                                  help_text=f"A few words beside it, at most {MAX_MARK_LABEL_CHARS} characters.")

    class Meta:
        ref_name = "NoteMarkRequest"


class NoteInputSerializer(BodySerializer):
    text = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, max_length=MAX_NOTE_CHARS,
                                 help_text=f"The whole of my notes (they replace what was kept), plain text, at most "
                                           f"{MAX_NOTE_CHARS} characters (blanks around and control characters are "
                                           "dropped). Left out, the text stays as it was.")
    marks = MarkInputSerializer(many=True, required=False, max_length=MAX_MARKS,
                                help_text=f"All my marks (they replace what was kept), one per card or tile, at most "
                                          f"{MAX_MARKS}. Left out, the marks stay as they were. Notes with no text "
                                          "and no mark are deleted.")

    class Meta:
        ref_name = "GameNoteRequest"


class GameNoteApi(APIView):
    """My private notes on a game I play: read by nobody else, during the game and after it."""

    @extend_schema(operation_id="game_notes_read", tags=["notes"], summary="My notes on a game",
                   description="What I wrote about this game (empty before I wrote anything). Only a player of the "
                               "game has notes on it; nobody else ever reads them, nor are they in its record.",
                   parameters=[GAME_ID], responses={200: GameNoteSerializer, 403: NOT_A_PLAYER, 404: NO_GAME})
    @conditional_read
    def get(self, request, game_id: int):
        viewer = selectors.note_viewer(game_id, request.user)
        return Response(selectors.note_shown(viewer.game, selectors.note_of(viewer.game, request.user),
                                             selectors.spots_of(viewer)))

    @extend_schema(operation_id="game_notes_write", tags=["notes"], summary="Keep my notes on a game",
                   description="Replace my notes on this game: their `text`, their `marks` on the board's cards and "
                               "tiles, or both (what is left out stays; notes with neither are deleted). My own "
                               "stream and webhooks are told (`game_note`).",
                   parameters=[GAME_ID], request=NoteInputSerializer,
                   responses={200: GameNoteSerializer, 400: error("Not text, longer than notes may be, a mark of no "
                                                                  "symbol or too many marks."),
                              422: error("A mark on no card or tile I may mark (`spots`), or neither `text` nor "
                                         "`marks`."),
                              403: NOT_A_PLAYER, 404: NO_GAME})
    def put(self, request, game_id: int):
        data = NoteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        selectors.note_viewer(game_id, request.user)  # a game I may not see, or do not play, first
        if not data.validated_data:
            raise Unprocessable(_("Send the notes' text, their marks, or both."))
        note = services.note_save(game_id=game_id, user=request.user, text=data.validated_data.get("text"),
                                  marks=data.validated_data.get("marks"))
        viewer = selectors.note_viewer(game_id, request.user)
        return Response(selectors.note_shown(viewer.game, note, selectors.spots_of(viewer)))

    @extend_schema(operation_id="game_notes_delete", tags=["notes"], summary="Delete my notes on a game",
                   parameters=[GAME_ID], responses={204: None, 403: NOT_A_PLAYER, 404: NO_GAME})
    def delete(self, request, game_id: int):
        services.note_save(game_id=game_id, user=request.user, text="", marks=[])
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
