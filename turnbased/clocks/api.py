"""REST API for absences and the clock-related account settings."""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.models import profile_of, validate_language, validate_time_zone
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import BodySerializer, UnprocessableInput
from turnbased.kit.api.pagination import cursor_parameters, page_of, paginate
from turnbased.kit.api.schema import created_location, error
from turnbased.clocks.models import Absence
from turnbased.clocks.selectors import absence_of
from turnbased.clocks.services import (
    absence_cancel,
    absence_days_used,
    absence_declare,
    absence_end,
    away_until,
    local_today,
    refresh_deadlines,
)
from turnbased.idempotency.once import idempotent
from turnbased.play.services import forced_moves


# The example of a new absence is one the server takes (issue 42: a fixed date went by and was refused as past): a
# day a month from when the process started, one day, so that it never crosses New Year.
A_DAY_AHEAD = (date.today() + timedelta(days=30)).isoformat()


class AbsenceOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Absence
        fields = ("id", "starts_on", "ends_on", "ended_at")
        ref_name = "Absence"


class AbsenceListApi(APIView):
    """My current and coming absences, the allowance left; declare a new one."""

    class InputSerializer(BodySerializer):
        starts_on = serializers.DateField(help_text="The first day away, in my time zone (today or later).")
        ends_on = serializers.DateField(help_text="The last day away, in the same year.")

        class Meta:
            ref_name = "AbsenceRequest"

    OutputSerializer = page_of(
        "Absences", AbsenceOutputSerializer, description="Current and coming absences, the soonest first.",
        away_until=serializers.DateField(allow_null=True, help_text="The last day of my current absence, if I am away."),
        allowance_days=serializers.IntegerField(help_text="Days of absence per year."),
        used_days=serializers.IntegerField(help_text="Days declared this year."),
    )

    @extend_schema(operation_id="absences_list", tags=["absences"], summary="My absences and allowance",
                   parameters=cursor_parameters(), responses={200: OutputSerializer})
    @conditional_read
    def get(self, request):
        today = local_today(request.user)
        profile = profile_of(request.user)
        # By first day: absences of one person never overlap, so this is the order they come in.
        page = paginate(request, Absence.objects.filter(user=request.user, ends_on__gte=today, ended_at=None),
                        ordering=("starts_on", "pk"))
        return Response(page.body(
            AbsenceOutputSerializer(page.items, many=True).data,
            away_until=away_until(request.user),
            allowance_days=profile.absence_allowance_days,
            used_days=absence_days_used(request.user, today.year),
        ))

    @extend_schema(
        operation_id="absences_create", tags=["absences"], summary="Declare an absence",
        description="My clocks stop on these days in every game that allows absences; the days come from a yearly "
                    "allowance.",
        request=InputSerializer, parameters=[created_location("the new absence (GET /api/absences/{id}/)")],
        responses={
            201: AbsenceOutputSerializer,
            400: error("Invalid dates, an overlap, or over the allowance."),
        },
        examples=[OpenApiExample("A day off", request_only=True,
                                 value={"starts_on": A_DAY_AHEAD, "ends_on": A_DAY_AHEAD})],
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        absence = absence_declare(user=request.user, **data.validated_data)
        return Response(AbsenceOutputSerializer(absence).data, status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-absence", args=[absence.pk])})


class AbsenceEndApi(APIView):
    """I am back: end my current absence now."""

    @extend_schema(operation_id="absences_end", tags=["absences"], summary="End my current absence", request=None,
                   responses={204: OpenApiResponse(description="I am back (also when I was not away).")})
    def post(self, request):
        absence_end(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


ABSENCE_ID = OpenApiParameter("absence_id", int, OpenApiParameter.PATH, description="The absence's id.")


class AbsenceDetailApi(APIView):
    """One of my absences (an ended one too: ``ended_at`` says when I came back); withdraw one not started."""

    @extend_schema(operation_id="absences_retrieve", tags=["absences"], summary="One of my absences",
                   parameters=[ABSENCE_ID],
                   responses={200: AbsenceOutputSerializer, 404: error("No such absence of mine.")})
    @conditional_read
    def get(self, request, absence_id: int):
        absence = absence_of(request.user, absence_id)
        if absence is None:
            raise NotFound(gettext("No such absence."))
        return Response(AbsenceOutputSerializer(absence).data)

    @extend_schema(
        operation_id="absences_destroy", tags=["absences"], summary="Withdraw an absence",
        parameters=[ABSENCE_ID],
        responses={
            204: OpenApiResponse(description="Withdrawn."),
            400: error("The absence has started (come back instead)."),
            404: error("No such absence of mine (or it is over)."),
        },
    )
    def delete(self, request, absence_id: int):
        absence_cancel(user=request.user, absence_id=absence_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_field({"type": "string", "enum": ["", *(code for code, _name in settings.LANGUAGES)]})
class LanguageField(serializers.CharField):
    """A language code of the site's, or "" (the schema lists them: a request with another breaks it)."""


class ProfileApi(APIView):
    """My language, time zone (weekends and dates are counted in it), reminder lead time, and whether my forced
    moves are played for me."""

    class ProfileSerializer(BodySerializer):
        language = LanguageField(
            max_length=16, allow_blank=True, validators=[validate_language],
            help_text="The language of my pages and emails, and of the API's texts when a request sends no "
                      "Accept-Language: a code of one of the site's languages (" + ", ".join(
                          code for code, _ in settings.LANGUAGES) + "), or \"\" to follow the browser (emails then "
                      "come in English).",
        )
        # Checked after the shape (a 422): the zones are the installed tz database's, not a list the schema keeps.
        time_zone = serializers.CharField(max_length=64, help_text="An IANA name, e.g. Europe/London.")
        reminder_lead_hours = serializers.IntegerField(
            min_value=0, max_value=168, help_text="Email a reminder this many hours before a deadline (0: none)."
        )
        play_forced_moves = serializers.BooleanField(
            help_text="Play my only legal move for me whenever I have exactly one, when I would have played it "
                      "myself: after a time drawn from my own recent moves, in the hours I play, never while I am "
                      "away, before my deadline (a move with the source \"auto\"; my history says \"played "
                      "automatically: the only legal move\"; to the others it is any move of mine, counted as mine "
                      "on time). On by default for a bot account, off for a person."
        )

        class Meta:
            ref_name = "Profile"

    @staticmethod
    def answer(profile) -> dict:
        return {"language": profile.language, "time_zone": profile.time_zone,
                "reminder_lead_hours": profile.reminder_lead_hours, "play_forced_moves": profile.plays_forced_moves}

    @extend_schema(operation_id="me_retrieve", tags=["me"], summary="My settings", responses={200: ProfileSerializer})
    @conditional_read
    def get(self, request):
        profile = profile_of(request.user)
        return Response(self.answer(profile))

    @extend_schema(operation_id="me_partial_update", tags=["me"], summary="Change my settings",
                   request=ProfileSerializer, responses={200: ProfileSerializer},
                   examples=[OpenApiExample("Move to Berlin", request_only=True, value={"time_zone": "Europe/Berlin"})])
    def patch(self, request):
        data = self.ProfileSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        if "time_zone" in data.validated_data:
            try:
                validate_time_zone(data.validated_data["time_zone"])
            except DjangoValidationError as refusal:
                raise UnprocessableInput({"time_zone": refusal.messages}) from None
        profile = profile_of(request.user)
        for field, value in data.validated_data.items():
            if field == "play_forced_moves":
                profile.choose_play_forced_moves(value)  # the default of the account's kind is kept as no choice
            else:
                setattr(profile, field, value)
        profile.time_zone_chosen = profile.time_zone_chosen or "time_zone" in data.validated_data
        profile.save()
        refresh_deadlines(user=request.user)
        forced_moves.setting_changed(request.user)
        return Response(self.answer(profile))
