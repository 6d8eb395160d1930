/* The game page (templates/play/game_detail.html).
 *
 * Each panel update brings the table's header again out of band (play/_header.html); a fold-out the player
 * opened there stays open across the swap.
 *
 * A screen reader is told what changed: when the panel comes in at a newer position (a poll, the live stream,
 * or the player's own move), the lines of the moves the others made since (the history's new entries, already
 * worded for this viewer) and then "Your turn." are written once each into #announcer, a polite live region
 * outside the panel that survives every swap. The words are the page's own, in its language.
 *
 * The keyboard keeps its place: when the focus was inside the panel, it goes back to the same control in the new
 * panel (the same square, card, tile or button), or, when that control is gone (the Confirm of the move just
 * sent), to the first control of the board on the player's turn, else to the board itself (one Tab from its
 * controls), never to the top of the page. */
(function () {
  "use strict";
  if (window.turnbasedGamePage) return;
  window.turnbasedGamePage = true;

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target;
    var fresh = event.detail.fragment;
    if (!old || old.id !== "game-header" || !fresh || !fresh.querySelectorAll) return;
    old.querySelectorAll("details[data-fold]").forEach(function (fold) {
      var again = fresh.querySelector('details[data-fold="' + fold.getAttribute("data-fold") + '"]');
      if (again) again.open = fold.open;
    });
  });

  // What names a control across a swap: the attributes the boards and forms give their controls.
  var KEYS = ["data-square", "data-spot", "data-card", "data-seat", "data-x", "data-y", "data-rot", "data-json",
              "data-move-index", "data-to", "data-exit", "data-group", "data-slot", "name", "value"];
  var CONTROLS = '[tabindex="0"], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, a[href]';

  function quoted(value) { return '"' + String(value).replace(/["\\]/g, "\\$&") + '"'; }

  // Selectors for an element, the most exact first.
  function selectorsFor(element) {
    var found = [];
    if (element.id) found.push("#" + CSS.escape(element.id));
    var base = element.tagName.toLowerCase() + (element.classList[0] ? "." + CSS.escape(element.classList[0]) : "");
    var exact = base;
    KEYS.forEach(function (key) {
      if (element.hasAttribute(key)) exact += "[" + key + "=" + quoted(element.getAttribute(key)) + "]";
    });
    if (exact !== base) found.push(exact);
    return found;
  }

  function visible(element) {
    return !!(element.offsetWidth || element.offsetHeight || element.getClientRects().length);
  }

  var kept = null; // the selectors of the focused control, taken just before the panel is swapped

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target, active = document.activeElement;
    kept = null;
    if (!target || target.id !== "panel") return;
    if (active && active !== document.body) {
      if (target.contains(active)) kept = selectorsFor(active);
      return;
    }
    // A move sent from a control the board hid as it sent it (a confirmation box): the focus fell to the page;
    // it goes to the board. A poll's swap leaves a page nobody was using with the keyboard alone.
    var config = event.detail.requestConfig;
    if (config && String(config.verb).toLowerCase() === "post") kept = [];
  });

  function placeFocus(panel) {
    var wanted = kept;
    kept = null;
    if (!wanted || (document.activeElement && document.activeElement !== document.body
                    && !panel.contains(document.activeElement) && document.contains(document.activeElement))) return;
    for (var i = 0; i < wanted.length; i++) {
      var again = panel.querySelector(wanted[i]);
      if (again && visible(again) && !again.disabled) { again.focus(); return; }
    }
    var board = panel.querySelector("#board");
    if (panel.querySelector(".your-turn") && board) {
      var first = Array.prototype.filter.call(board.querySelectorAll(CONTROLS), function (control) {
        return visible(control) && !control.classList.contains("skip-link");
      })[0];
      if (first) { first.focus(); return; }
    }
    var fallback = board || panel.querySelector(".turn") || panel;
    if (!fallback.hasAttribute("tabindex")) fallback.setAttribute("tabindex", "-1");
    fallback.focus();
  }

  var announcedSeq = null; // the newest position announced (or shown when the page loaded)

  function lineOf(entry) {
    var copy = entry.cloneNode(true);
    copy.querySelectorAll(".seq").forEach(function (seq) { seq.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function announce(panel) {
    var seq = parseInt(panel.getAttribute("data-seq"), 10);
    if (isNaN(seq)) return;
    if (announcedSeq === null || seq <= announcedSeq) { announcedSeq = Math.max(seq, announcedSeq || 0); return; }
    var mine = panel.getAttribute("data-seat");
    var lines = [];
    document.querySelectorAll("#history-entries > li[data-seq]").forEach(function (entry) {
      var at = parseInt(entry.getAttribute("data-seq"), 10);
      if (at > announcedSeq && at <= seq && entry.getAttribute("data-seat") !== mine) lines.unshift(lineOf(entry));
    });
    announcedSeq = seq;
    if (lines.length > 6) lines = lines.slice(-6); // the newest: a long absence is read in the history
    var turn = panel.querySelector(".your-turn");
    if (turn) lines.push(turn.textContent.trim());
    var region = document.getElementById("announcer");
    if (!region || !lines.length) return;
    region.textContent = "";
    // Written a moment after it is emptied, so the same words said twice in a row are read twice.
    window.setTimeout(function () { region.textContent = lines.join(" "); }, 50);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var panel = event.detail && event.detail.target;
    if (!panel || panel.id !== "panel") return;
    // After the boards' own set-up (htmx:load), which draws the controls the focus goes back to.
    window.setTimeout(function () {
      var now = document.getElementById("panel");
      if (!now) return;
      placeFocus(now);
      announce(now);
    }, 0);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.getElementById("panel");
    var seq = panel ? parseInt(panel.getAttribute("data-seq"), 10) : NaN;
    if (!isNaN(seq)) announcedSeq = seq;
  });
})();
