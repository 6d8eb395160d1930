/* Push notifications and the installable site (issue 25), on every page:
 *   - installs the service worker (/service-worker.js: the offline page, and the pushes of "your turn");
 *   - for a signed-in player, window.turnbasedPush subscribes this browser to pushes, with the site's VAPID
 *     key, and sends the subscription to the API (data-push-key and data-push-subscriptions on this script's
 *     tag); static/js/table-talk.js calls it from the "Tell me when it is my turn" button;
 *   - on the settings page, marks this device in the list of devices, and forgetting it unsubscribes this
 *     browser too;
 *   - once a day, a browser whose subscription the site no longer knows (forgotten from another device)
 *     unsubscribes, so the button offers it again.
 * Its words come from the page. No inline script: the Content-Security-Policy allows only this site's files. */
(function () {
  "use strict";
  if (window.turnbasedPush) return;
  var script = document.currentScript;
  var workerUrl = script && script.getAttribute("data-service-worker");
  var key = script && script.getAttribute("data-push-key");
  var apiUrl = script && script.getAttribute("data-push-subscriptions");
  // This browser's latest subscription failed (the push service did not answer, or the site refused it): kept only
  // to say so; the player may try again whenever they like, on this page or another.
  var FAILED = "turnbased-push-failed";
  var CHECKED = "turnbased-push-checked";   // when the site last said it knows this browser's subscription
  var DAY = 24 * 3600 * 1000;

  function stored(name) { try { return window.localStorage.getItem(name); } catch (e) { return null; } }
  function store(name, value) { try { window.localStorage.setItem(name, value); } catch (e) { /* private mode */ } }

  var registration = null;
  if (workerUrl && "serviceWorker" in navigator) {
    registration = navigator.serviceWorker.register(workerUrl, { scope: "/" }).catch(function () { return null; });
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function keyBytes() {
    var base64 = key.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((key.length + 3) % 4);
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function sameKey(subscription) {
    var theirs = subscription.options && subscription.options.applicationServerKey;
    if (!theirs) return true;  // the browser does not tell: take it as ours
    var a = new Uint8Array(theirs), b = keyBytes();
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // The worker's registration, or null: never waits more than a few seconds.
  function ready() {
    if (!registration) return Promise.resolve(null);
    return Promise.race([
      registration.then(function (found) { return found ? navigator.serviceWorker.ready : null; }),
      new Promise(function (resolve) { window.setTimeout(function () { resolve(null); }, 10000); }),
    ]);
  }

  function current() {
    return ready().then(function (found) { return found ? found.pushManager.getSubscription() : null; });
  }

  function available() {
    return Boolean(key && apiUrl && registration && "PushManager" in window && "Notification" in window);
  }

  function send(subscription) {
    var json = subscription.toJSON();
    return fetch(apiUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ endpoint: json.endpoint, keys: json.keys }),
    }).then(function (answer) {
      if (!answer.ok) throw new Error("the site refused the subscription: " + answer.status);
      store(CHECKED, String(Date.now()));
    });
  }

  // Ask for permission, subscribe, tell the site: "subscribed", "denied", "dismissed" or "failed".
  function subscribe() {
    if (!available()) return Promise.resolve("failed");
    return Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") return answer === "denied" ? "denied" : "dismissed";
      return ready().then(function (found) {
        if (!found) throw new Error("no service worker");
        return found.pushManager.getSubscription().then(function (existing) {
          if (existing && sameKey(existing)) return existing;
          return (existing ? existing.unsubscribe() : Promise.resolve()).then(function () {
            return found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes() });
          });
        });
      }).then(send).then(function () {
        try { window.localStorage.removeItem(FAILED); } catch (e) { /* private mode */ }
        return "subscribed";
      });
    }).catch(function () {
      store(FAILED, String(Date.now()));  // the in-page notifications stand in for it until a try succeeds
      return "failed";
    });
  }

  // Whether this browser is subscribed with the site's key (the site then knows it: checked once a day).
  function subscribed() {
    if (!available()) return Promise.resolve(false);
    return current().then(function (subscription) {
      if (!subscription || !sameKey(subscription)) return false;
      if (Date.now() - parseInt(stored(CHECKED) || "0", 10) < DAY) return true;
      return known(subscription).then(function (yes) {
        if (yes) { store(CHECKED, String(Date.now())); return true; }
        return subscription.unsubscribe().then(function () { return false; });
      });
    }).catch(function () { return false; });
  }

  // Whether the site still has this subscription among the account's devices (every page of the list).
  function known(subscription, url) {
    return fetch(url || apiUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (answer) {
        if (!answer.ok) throw new Error("cannot read the devices");
        return answer.json();
      }).then(function (page) {
        var found = page.results.some(function (device) { return device.endpoint === subscription.endpoint; });
        return found || (page.next ? known(subscription, page.next) : false);
      }).catch(function () { return true; });  // cannot tell: leave it as it is
  }

  function failedBefore() { return Boolean(stored(FAILED)); }

  window.turnbasedPush = { available: available, subscribe: subscribe, subscribed: subscribed,
                           failedBefore: failedBefore };

  // The settings page: this device in the list, and forgetting it unsubscribes this browser first.
  document.addEventListener("DOMContentLoaded", function () {
    var list = document.querySelector("[data-push-devices]");
    if (!list || !available()) return;
    current().then(function (subscription) {
      if (!subscription) return;
      list.querySelectorAll("[data-push-endpoint]").forEach(function (item) {
        if (item.getAttribute("data-push-endpoint") !== subscription.endpoint) return;
        var mark = item.querySelector("[data-this-device]");
        if (mark) mark.hidden = false;
        var form = item.querySelector("form");
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          subscription.unsubscribe().catch(function () { return false; }).then(function () { form.submit(); });
        }, { once: true });
      });
    });
  });
})();
