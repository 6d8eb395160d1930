/* Table talk and turns, for the game page and the lobby (turnbased/chat):
 *   - the tab title says how many messages are unread and whether it is my turn:
 *     "(2) Your turn — Lobby · turnbased", from the [data-tab-title] element (data-unread, data-your-turn);
 *   - on the game page, messages that arrive while the tab is visible are read at once (POST to
 *     data-read-url); while it is hidden they count as unread until it is shown again;
 *   - the chat form's refusals (400, 403) are shown in place, like a rate limit's 429;
 *   - "Tell me when it is my turn" ([data-notify-turn], beside the turn: notifications/_turn_offer.html)
 *     subscribes this device to pushes (static/js/push.js, issue 25); where the browser cannot, a browser
 *     notification from this page says it became my turn. Permission is asked for only on that click, and
 *     the button shows only while there is something to offer.
 * Its words come from the page, in the page's language ([data-table-talk-words], chat/_words.html, and the
 * button's own data attributes).
 * No inline script: the Content-Security-Policy allows scripts only from this site's files. */
(function () {
  "use strict";
  if (window.turnbasedTableTalk) return;
  window.turnbasedTableTalk = true;

  var SEPARATOR = " — ";  // between "Your turn" and the page's own title
  var unread = null;      // unread messages the title counts (null: not read from the page yet)
  var yourTurn = null;    // what the title says of the turn (a count of games in the lobby)

  function marker() { return document.querySelector("[data-tab-title]"); }

  function word(name) {
    var words = document.querySelector("[data-table-talk-words]");
    return (words && words.getAttribute("data-" + name)) || "";
  }

  function escaped(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // What this script put before the page's title: "(2) ", then "Your turn — " in the page's language.
  function prefix() {
    return new RegExp("^(\\(\\d+\\) )?(" + escaped(word("your-turn") + SEPARATOR) + ")?");
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function markRead(element) {
    var url = element.getAttribute("data-read-url");
    var latest = element.getAttribute("data-latest");
    if (!url || !latest || latest === "0") return;
    var body = new URLSearchParams({ last: latest });
    // keepalive: a read noted just before the player leaves the page still arrives.
    fetch(url, { method: "POST", body: body, credentials: "same-origin", keepalive: true,
                 headers: { "X-CSRFToken": csrfToken() } });
  }

  function notifyTurn(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try { new Notification("turnbased", { body: text, tag: "turnbased-turn" }); } catch (e) { /* not allowed here */ }
  }

  function showTitle() {
    var base = document.title.replace(prefix(), "");
    var before = (unread ? "(" + unread + ") " : "") + (yourTurn && yourTurn !== 0 ? word("your-turn") + SEPARATOR : "");
    document.title = before + base;
  }

  // Read the marker after the page loads or an update swaps a new one in.
  function update(initial) {
    var element = marker();
    if (!element) return;
    var turn = parseInt(element.getAttribute("data-your-turn") || "0", 10);
    var readable = element.hasAttribute("data-read-url");
    if (initial || !readable) {
      unread = parseInt(element.getAttribute("data-unread") || "0", 10);
    } else {
      unread += parseInt(element.getAttribute("data-arrived") || "0", 10);
    }
    if (readable && document.visibilityState === "visible" && unread) {
      unread = 0;
      markRead(element);
    }
    if (!initial && yourTurn !== null && turn > yourTurn) {
      notifyTurn(readable ? word("turn-in").replace("{title}", document.title.replace(prefix(), ""))
                          : word("game-waits"));
    }
    yourTurn = turn;
    showTitle();
  }

  // Whether "Tell me when it is my turn" has something to offer here (null: not known yet).
  var offering = null;

  function push() {
    var found = window.turnbasedPush;
    return found && found.available() ? found : null;
  }

  function decideOffer() {
    if (!("Notification" in window) || Notification.permission === "denied") return Promise.resolve(false);
    if (push()) return push().subscribed().then(function (yes) { return !yes; });
    return Promise.resolve(Notification.permission === "default");
  }

  // After the page loads, and after a swap that may bring a new button (the panel, the lobby's list).
  function showOffers() {
    if (offering === null) return;
    document.querySelectorAll("[data-notify-turn]").forEach(function (button) { button.hidden = !offering; });
  }

  function offered(button, outcome) {
    offering = false;
    showOffers();
    var status = button.parentNode.querySelector("[data-notify-status]");
    if (status) status.textContent = button.getAttribute("data-" + outcome) || "";
  }

  function notifyInPage(button, pushFailed) {
    // After a push subscription failed, permission may be granted already: not asked for twice.
    var asked = Notification.permission === "granted" ? Promise.resolve("granted") : Notification.requestPermission();
    asked.then(function (answer) {
      if (answer === "granted" && pushFailed) {
        // Said, and offered again: the push service may answer on another try (a network that was down).
        var status = button.parentNode.querySelector("[data-notify-status]");
        if (status) status.textContent = button.getAttribute("data-push-failed") || "";
        button.textContent = button.getAttribute("data-try-again") || button.textContent;
        notifyTurn(word("will-tell"));
      } else if (answer === "granted") {
        offered(button, "in-page");
        notifyTurn(word("will-tell"));
      } else if (answer === "denied") {
        offered(button, "blocked");
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    shown = marker();
    update(true);
    decideOffer().then(function (offer) {
      offering = offer;
      showOffers();
    });
  });

  document.addEventListener("visibilitychange", function () {
    var element = marker();
    if (document.visibilityState === "visible" && element && element.hasAttribute("data-read-url") && unread) {
      unread = 0;
      markRead(element);
      showTitle();
    }
  });

  // A poll that found news swapped in a new marker (the chat's poller, the lobby's list of games).
  var shown = null;
  document.addEventListener("htmx:afterSettle", function () {
    showOffers();
    var element = marker();
    if (element && element !== shown) {
      shown = element;
      update(false);
    }
  });

  // The chat form's refusals carry the form back with the reason: show it rather than drop it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (detail.elt && detail.elt.id === "chat-form" && [400, 403, 422].indexOf(detail.xhr.status) !== -1) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-notify-turn]");
    if (!button || !("Notification" in window)) return;
    var pusher = push();
    if (!pusher) {
      notifyInPage(button);
      return;
    }
    button.disabled = true;
    pusher.subscribe().then(function (outcome) {
      button.disabled = false;
      if (outcome === "subscribed") offered(button, "subscribed");
      else if (outcome === "denied") offered(button, "blocked");
      else if (outcome === "failed") notifyInPage(button, true);  // said; this page tells meanwhile; try again
    });
  });
})();
