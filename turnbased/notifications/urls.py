from django.urls import path

from turnbased.notifications import views

# At the site's root (issue 25): the service worker's scope is the folder it is served from.
urlpatterns = [
    path("service-worker.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    path("offline/", views.offline, name="offline"),
    path("notifications/devices/<int:subscription_id>/forget/", views.push_subscription_remove,
         name="push-subscription-forget"),
]
