/* Live pages: the game page, the lobby and the replay follow the event stream (GET /api/stream/, the
 * browser's session) and ask for what changed only when an event says something did.
 *
 * The page's hook ([data-live-stream], events/_live_stream.html) says where the stream is (this
 * origin's /api/stream/ in production, the stream's own port under `make run`), which page this is
 * and which game it shows. While the stream is open:
 *   - the game page's polls (#panel, #chat-poll) send nothing; an event of this game (a move, my turn,
 *     the start, the end) asks the panel for what changed (it answers only the changes since the
 *     version the page shows, or 204), and once the panel is swapped the chat's poller for the turn
 *     (the tab title) and the agreements panel; a message asks the chat's poller; a proposal made or
 *     settled at the table asks the agreements panel;
 *   - the lobby's watch (#lobby-watch) sends nothing; any event asks it (204 while nothing changed;
 *     else the lobby's list of games comes again);
 *   - the replay, when it shows the latest position, follows the game to the new one.
 * When the stream opens (and again after a reconnection) the page asks once, for what happened before.
 * When it cannot connect, or is closed, the polls go on as before (they are the fallback), and a new
 * stream is tried later. Tables still waiting for players poll all along: a seat taken tells no one.
 * Every request is one the page could make by polling: no words here, no inline script. */
(function () {
  "use strict";
  if (window.turnbasedLive) return;
  window.turnbasedLive = true;

  var GAME_KINDS = ["game_started", "your_turn", "move_played", "game_finished"];
  var PROPOSAL_KINDS = ["proposal_made", "proposal_decided"];
  var KINDS = GAME_KINDS.concat(["message_posted", "deadline_near"], PROPOSAL_KINDS);
  var GATHER_MS = 30;            // the events of one change (a move, then my turn) come together: one request
  var FIRST_RETRY_MS = 15000;    // a stream refused or closed is tried again after this, then twice as long...
  var LAST_RETRY_MS = 300000;    // ... up to this

  var source = null;
  var retryMs = FIRST_RETRY_MS;
  var pending = {};              // element id -> timer of a request about to be made
  var asking = {};               // element id -> {busy, again}: one request at a time, one more if news came meanwhile

  function hook() { return document.querySelector("[data-live-stream]"); }
  function page() { var h = hook(); return h ? h.getAttribute("data-live-page") : ""; }
  function gameId() { var h = hook(); return h ? h.getAttribute("data-live-game") : null; }
  function open() { return !!source && source.readyState === 1; }

  // The panel says which version it shows in its poll's address; a table still waiting for players polls.
  function panelFollows() {
    var panel = document.getElementById("panel");
    if (!panel || !panel.getAttribute("hx-get")) return false;
    var status = new URL(panel.getAttribute("hx-get"), window.location.href).searchParams.get("status");
    return status !== "open";
  }

  // The pollers this page stops while the stream is open.
  function followed(element) {
    if (!open() || !element || !element.id) return false;
    if (page() === "game") return (element.id === "panel" || element.id === "chat-poll") && panelFollows();
    if (page() === "lobby") {
      var h = hook();
      return element.id === "lobby-watch" && !(h && h.hasAttribute("data-live-polls"));
    }
    return false;
  }

  // A poll is a request with no triggering event (the "every" trigger); this script's carry one.
  document.addEventListener("htmx:confirm", function (event) {
    if (!event.detail.triggeringEvent && followed(event.detail.elt)) event.preventDefault();
  });

  function ask(id) {
    var state = asking[id] || (asking[id] = { busy: false, again: false });
    if (state.busy) { state.again = true; return; }
    var element = document.getElementById(id);
    if (!element || !element.getAttribute("hx-get") || !window.htmx) return;
    state.busy = true;
    var done = function () {
      state.busy = false;
      if (state.again) { state.again = false; ask(id); }
    };
    window.htmx.ajax("GET", element.getAttribute("hx-get"), {
      source: element, target: element, swap: "outerHTML", event: new CustomEvent("live-stream")
    }).then(done, done);
  }

  function soon(id) {
    if (pending[id]) return;
    pending[id] = window.setTimeout(function () { delete pending[id]; ask(id); }, GATHER_MS);
  }

  // The replay at its latest position follows the game; replay.js may take the step in place (preventDefault).
  function followReplay(seq) {
    var replay = document.getElementById("replay");
    if (!replay) return;
    var shown = parseInt(replay.getAttribute("data-seq"), 10), last = parseInt(replay.getAttribute("data-last"), 10);
    if (shown !== last || !(seq > last)) return;
    var step = new CustomEvent("replay-latest", { cancelable: true, detail: { seq: seq } });
    if (!document.dispatchEvent(step)) return;
    var url = new URL(window.location.href);
    url.searchParams.set("seq", String(seq));
    window.location.replace(url.toString());
  }

  function received(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var here = page(), game = gameId();
    if (here === "lobby") { soon("lobby-watch"); return; }
    if (!game || String(data.game) !== game) return;
    if (here === "game") {
      if (event.type === "message_posted") soon("chat-poll");
      else if (GAME_KINDS.indexOf(event.type) >= 0) { soon("panel"); soon("agreements"); }
      else if (PROPOSAL_KINDS.indexOf(event.type) >= 0) soon("agreements");
    } else if (here === "replay" && GAME_KINDS.indexOf(event.type) >= 0) {
      followReplay(data.seq);
    }
  }

  // What happened before the stream opened (or while it was away) is asked for once.
  function caughtUp() {
    retryMs = FIRST_RETRY_MS;
    var here = page();
    if (here === "game" && panelFollows()) { soon("panel"); soon("chat-poll"); }
    if (here === "lobby") soon("lobby-watch");
  }

  function connect() {
    var h = hook();
    if (!h || !window.EventSource) return;
    source = new EventSource(h.getAttribute("data-live-stream"), { withCredentials: true });
    source.addEventListener("open", caughtUp);
    KINDS.forEach(function (kind) { source.addEventListener(kind, received); });
    source.addEventListener("error", function () {
      // While it reconnects by itself (readyState 0) the polls go on; refused or closed (2): try again later.
      if (source.readyState !== 2) return;
      source = null;
      window.setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    });
  }

  // The panel swapped (an event's answer or my own move): the chat's poller says whose turn it is now.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "panel" && page() === "game" && followed(target)) soon("chat-poll");
    // A move of mine may offer its takeback; one of theirs lapses a proposal: the agreements panel says so.
    if (target && target.id === "panel" && page() === "game" && document.getElementById("agreements")) soon("agreements");
  });

  document.addEventListener("DOMContentLoaded", connect);
})();
