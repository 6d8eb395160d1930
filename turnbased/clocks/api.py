"""REST API for absences and the clock-related account settings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.accounts.models import profile_of, validate_time_zone
from turnbased.clocks.models import Absence
from turnbased.clocks.services import (
    absence_cancel,
    absence_days_used,
    absence_declare,
    absence_end,
    away_until,
    local_today,
    refresh_deadlines,
)


class AbsenceOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Absence
        fields = ("id", "starts_on", "ends_on", "ended_at")


class AbsenceListApi(APIView):
    """My current and coming absences, the allowance left; declare a new one."""

    class InputSerializer(serializers.Serializer):
        starts_on = serializers.DateField()
        ends_on = serializers.DateField()

    def get(self, request):
        today = local_today(request.user)
        profile = profile_of(request.user)
        absences = Absence.objects.filter(user=request.user, ends_on__gte=today, ended_at=None)
        return Response({
            "away_until": away_until(request.user),
            "allowance_days": profile.absence_allowance_days,
            "used_days": absence_days_used(request.user, today.year),
            "absences": AbsenceOutputSerializer(absences, many=True).data,
        })

    @extend_schema(request=InputSerializer, responses={201: AbsenceOutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        absence = absence_declare(user=request.user, **data.validated_data)
        return Response(AbsenceOutputSerializer(absence).data, status=status.HTTP_201_CREATED)


class AbsenceEndApi(APIView):
    """I am back: end my current absence now."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        absence_end(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AbsenceDetailApi(APIView):
    """Withdraw an absence that has not started."""

    def delete(self, request, absence_id: int):
        absence_cancel(user=request.user, absence_id=absence_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProfileApi(APIView):
    """My time zone (weekends and dates are counted in it) and reminder lead time."""

    class ProfileSerializer(serializers.Serializer):
        time_zone = serializers.CharField(validators=[validate_time_zone])
        reminder_lead_hours = serializers.IntegerField(min_value=0, max_value=168)

    @extend_schema(responses=ProfileSerializer)
    def get(self, request):
        profile = profile_of(request.user)
        return Response({"time_zone": profile.time_zone, "reminder_lead_hours": profile.reminder_lead_hours})

    @extend_schema(request=ProfileSerializer, responses=ProfileSerializer)
    def patch(self, request):
        data = self.ProfileSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        profile = profile_of(request.user)
        for field, value in data.validated_data.items():
            setattr(profile, field, value)
        profile.save()
        refresh_deadlines(user=request.user)
        return self.get(request)
