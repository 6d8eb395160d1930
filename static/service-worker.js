/* The service worker (issue 25), served at /service-worker.js so its scope is the whole site:
 *   - push: "your turn" from the server (turnbased/notifications/push.py), encrypted for this browser and
 *     decrypted by it; shown as a notification, one per game (its tag), the newest replacing the older;
 *   - notificationclick: opens that game's page, or brings an open one to the front;
 *   - fetch: a page that cannot be fetched (no network) shows the offline page, kept at install. Nothing
 *     else is cached: every page the network gives is the game as it stands.
 * It holds no words: the push brings its own, in the player's language, and the offline page is the site's. */
"use strict";

var CACHE = "turnbased-offline-1";
var OFFLINE_URL = "/offline/";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.add(new Request(OFFLINE_URL, { cache: "reload" }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(Promise.all([
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; })
                              .map(function (name) { return caches.delete(name); }));
    }),
    // The page's request starts while the worker wakes up, rather than after.
    self.registration.navigationPreload ? self.registration.navigationPreload.enable() : null,
  ]).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(Promise.resolve(event.preloadResponse).then(function (preloaded) {
    return preloaded || fetch(request);
  }).catch(function () {
    return caches.match(OFFLINE_URL).then(function (page) { return page || Response.error(); });
  }));
});

self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = {}; }
  var title = message.title || "turnbased";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || "turnbased",
    renotify: Boolean(message.tag),  // a new turn in the same game still rings
    icon: message.icon,
    badge: message.icon,
    data: { url: message.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (new URL(windows[i].url).pathname === target.pathname && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
