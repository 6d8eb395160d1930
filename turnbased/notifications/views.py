"""The installable site (issue 25): the service worker at the root scope, the web app manifest, the offline
page it shows without a network; and the settings page's "forget this device"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe

from turnbased.notifications import services

SERVICE_WORKER = "service-worker.js"


@require_safe
@cache_control(no_cache=True)  # a browser looks for a new worker on each visit: it must ask us, not its cache
def service_worker(request):
    """The service worker, from the static folder, served at the root so its scope is the whole site."""
    found = finders.find(SERVICE_WORKER)
    if not found:
        raise Http404(SERVICE_WORKER)
    with open(found, "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request):
    """The web app manifest: the site installs as an app, its name and icons, starting at the lobby."""
    icons = [{"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in (192, 512)]
    icons.append({"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
                  "purpose": "maskable"})
    icons.append({"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"})
    body = {
        "id": "/", "name": "turnbased", "short_name": "turnbased",
        "description": _("Board games, played slowly with friends"),
        "lang": request.LANGUAGE_CODE, "start_url": reverse("lobby"), "scope": "/", "display": "standalone",
        "background_color": "#f6f4ef", "theme_color": "#8a2b3b", "icons": icons,
    }
    return JsonResponse(body, content_type="application/manifest+json",
                        json_dumps_params={"ensure_ascii": False, "indent": 1})


@require_safe
def offline(request):
    """What the service worker shows for a page it cannot fetch: no network. The same page for everyone."""
    return render(request, "notifications/offline.html")


@login_required
@require_POST
def push_subscription_remove(request, subscription_id: int):
    """The settings page's "Forget": no more pushes to that device."""
    if services.push_subscription_remove(user=request.user, subscription_id=subscription_id):
        messages.success(request, _("That device will no longer be told when it is your turn."))
    else:
        messages.error(request, _("No such device: it was forgotten already, or it is not yours."))
    return redirect("account-settings")
