"""Sign-up page; log in and out use Django's own views."""

from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from turnbased.accounts.forms import SignupForm
from turnbased.accounts.services import AccountError, create_account


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = create_account(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except AccountError as error:
            for field, messages in error.errors.items():
                for message in messages:
                    form.add_error(field if field != "password" else "password1", message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(request.GET.get("next") or "lobby")
    return render(request, "registration/signup.html", {"form": form})
