"""Account settings (time zone, reminders, confirming moves, forced moves, links to the rest), the offered time zone,
and absences."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from turnbased.accounts.models import Profile, profile_of
from turnbased.accounts.selectors import tokens_of, verified_email
from turnbased.accounts.time_zones import zone_names
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
from turnbased.clocks.time_zone_choice import zone_choose
from turnbased.kit.errors import InvalidRequest, PlayError
from turnbased.play.services import forced_moves


class LanguageSelect(forms.Select):
    """Each language named in itself and marked as written in it (``lang``), so a screen reader says it right."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        if value:
            option["attrs"]["lang"] = value
        return option


def language_choices() -> list[tuple[str, str]]:
    """Each language the site speaks, named in itself, after "the browser's" (no choice)."""
    return [("", _("The browser's language")), *settings.LANGUAGES]


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"), required=False, widget=LanguageSelect,
        help_text=_("Pages, emails and answers by email are written in this language."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Pages and emails show times in this zone; weekends and dates are counted in it."),
        # The zones' IANA names are names, the same in every language: not for translating (translate="no").
        widget=forms.Select(attrs={"data-browser-time-zone": "offer", "translate": "no"}),
    )

    # Ticked as the account's setting reads now (its kind's default until chosen); the model's field keeps "no
    # choice" apart (``Profile.choose_play_forced_moves``), so it is filled in ``save``, not by the form.
    play_forced_moves = forms.BooleanField(
        label=_("Play my forced moves"), required=False,
        help_text=_("When you have exactly one legal move, it is played for you when you would have played it "
                    "yourself (after a time like your own, never while you are away), and your history says so. "
                    "To the others it is any move of yours."),
    )

    class Meta:
        model = Profile
        fields = ("language", "time_zone", "reminder_lead_hours", "confirm_moves")
        labels = {"reminder_lead_hours": _("Reminder lead time (hours)")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        names = zone_names()
        if self.instance.time_zone not in names:  # a legacy alias set through the API stays selectable
            names = (*names, self.instance.time_zone)
        self.fields["time_zone"].choices = [(name, name.replace("_", " ")) for name in names]
        self.fields["language"].choices = language_choices()
        self.fields["play_forced_moves"].initial = self.instance.plays_forced_moves
        # js/time-zone.js reads its button's words from the page: {zone} is where the zone's name goes.
        self.fields["time_zone"].widget.attrs["data-use-zone-label"] = gettext("Use my browser's zone ({zone})")

    def save(self, commit: bool = True) -> Profile:
        self.instance.time_zone_chosen = True
        self.instance.choose_play_forced_moves(self.cleaned_data["play_forced_moves"])
        return super().save(commit)


@login_required
@require_POST
def time_zone_choose(request):
    """Take the zone the page offered (the browser's) or keep the current one; either way stop offering."""
    try:
        zone_choose(user=request.user, zone=request.POST.get("time_zone", ""))
    except InvalidRequest as error:
        messages.error(request, error.detail)
    else:
        zone = profile_of(request.user).time_zone.replace("_", " ")
        messages.success(request, gettext("Times are shown in %(zone)s.") % {"zone": zone})
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    return redirect(back)


class AbsenceForm(forms.Form):
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("From"))
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Until (inclusive)"))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_settings(request):
    """Time zone (for weekends and dates), the reminder lead time, move confirmation and forced moves; links to the
    other pages."""
    form = ProfileForm(request.POST or None, instance=profile_of(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        refresh_deadlines(user=request.user)
        forced_moves.setting_changed(request.user)
        if form.cleaned_data["language"]:  # the message below, and the page it leads to, in the new language
            translation.activate(form.cleaned_data["language"])
        messages.success(request, gettext("Settings saved."))
        return redirect("account-settings")
    return render(request, "accounts/settings.html", {
        "form": form,
        "verified_email": verified_email(request.user),
        "token_count": tokens_of(request.user).count(),
    })


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def absences(request):
    """Declare, end or withdraw absences; clocks stop during them in games that allow it."""
    form = AbsenceForm(request.POST if request.POST.get("action") == "declare" else None)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "declare" and form.is_valid():
                absence_declare(user=request.user, **form.cleaned_data)
                messages.success(request, gettext("Absence declared: your clocks stop for those days."))
                return redirect("absences")
            if action == "back":
                absence_end(user=request.user)
                messages.success(request, gettext("Welcome back: your clocks run again."))
                return redirect("absences")
            if action == "cancel":
                absence_cancel(user=request.user, absence_id=int(request.POST.get("absence", "0")))
                messages.success(request, gettext("Absence withdrawn."))
                return redirect("absences")
        except (PlayError, ValueError) as error:  # refused (400, 409, 422) or not found: the reason, nothing changed
            messages.error(request, getattr(error, "detail", str(error)))
    today = local_today(request.user)
    profile = profile_of(request.user)
    return render(request, "accounts/absences.html", {
        "form": form,
        "away_until": away_until(request.user),
        "absences": Absence.objects.filter(user=request.user, ends_on__gte=today, ended_at=None),
        "used": absence_days_used(request.user, today.year),
        "allowance": profile.absence_allowance_days,
        "year": today.year,
    })
