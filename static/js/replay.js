/* The replay page (templates/play/game_replay.html): steps through the game without reloading the page.
 * The arrow keys step back and forth, Home and End go to the first and last positions, the slider goes
 * where it is let go, and the buttons and the history's links go where they point. Each step asks for
 * the position's content alone (the same address with HX-Request: replay_views.game_replay), swaps
 * #replay and #history in with htmx (so a board's script sets itself up again on htmx:load), and puts
 * the position in the address (history.pushState); Back and Forward step back to it.
 * No key press is lost: a press while a position loads moves the destination on from the last one
 * asked for (six quick presses of → from the start reach move 6), and the page goes there as soon as
 * the position on its way has come. A position that cannot be fetched is loaded as a page instead.
 * Every control is a plain link or form, so the page works without this script. */
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  var shown = null; // the seq on the page
  var wanted = null; // the seq the page is going to: the same as shown unless a step is on its way
  var loading = false;
  var pushing = true; // false while going back or forward through the browser's history
  var announcer = null;

  function replay() { return document.getElementById("replay"); }

  function lastSeq() { return parseInt(replay().getAttribute("data-last"), 10); }

  function addressOf(seq) { return window.location.pathname + "?seq=" + seq; }

  function seqOf(search) {
    var match = /[?&]seq=(\d+)(&|$)/.exec(search);
    return match ? parseInt(match[1], 10) : null;
  }

  function clamp(seq) { return Math.max(0, Math.min(lastSeq(), seq)); }

  // Where a step goes from the position the page is going to, so quick presses add up.
  function destination(step) {
    if (step === "first") return 0;
    if (step === "last") return lastSeq();
    return clamp(wanted + (step === "next" ? 1 : -1));
  }

  function go(seq, fromHistory) {
    if (!replay() || !window.htmx || !window.fetch) {
      window.location.assign(addressOf(seq));
      return;
    }
    wanted = clamp(seq);
    pushing = !fromHistory;
    var output = document.getElementById("replay-seq-shown");
    if (output) output.textContent = String(wanted);
    if (!loading) load();
  }

  function load() {
    if (wanted === shown) return;
    var seq = wanted;
    loading = true;
    replay().setAttribute("aria-busy", "true");
    fetch(addressOf(seq), { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        var focus = focusBefore();
        window.htmx.swap(replay(), html, { swapStyle: "outerHTML" }, { select: "#replay", selectOOB: "#history" });
        shown = parseInt(replay().getAttribute("data-seq"), 10);
        if (pushing) window.history.pushState({ seq: shown }, "", addressOf(shown));
        settle(focus);
        loading = false;
        if (wanted !== shown) load(); // presses that came while this position was on its way
      })
      .catch(function () {
        window.location.assign(addressOf(seq));
      });
  }

  // What had the keyboard's focus in the part about to be swapped: a step button, the slider or a history link.
  function focusBefore() {
    var active = document.activeElement;
    if (!active || active === document.body) return null;
    if (active.getAttribute("data-step")) return { step: active.getAttribute("data-step") };
    if (active.id === "replay-seq") return { id: active.id };
    if (active.closest && active.closest("#history") && active.tagName === "A") return { history: true };
    return null;
  }

  // After a swap: the history shows the current step, the focus is back where it was (or on the nearest
  // step button that is still a link), and a screen reader hears where the replay is now.
  function settle(focus) {
    showCurrentStep();
    if (focus) {
      var next = null;
      if (focus.step) {
        var fallback = { first: "next", previous: "next", next: "previous", last: "previous" }[focus.step];
        next = document.querySelector('.replay-controls a[data-step="' + focus.step + '"]')
          || document.querySelector('.replay-controls a[data-step="' + fallback + '"]');
      } else if (focus.id) {
        next = document.getElementById(focus.id);
      } else if (focus.history) {
        next = document.querySelector(".replay-history li.current a");
      }
      if (next) next.focus({ preventScroll: true });
    }
    var where = document.getElementById("replay-where");
    if (announcer && where) announcer.textContent = where.textContent.replace(/\s+/g, " ").trim();
  }

  // The history's box scrolls: keep the current step in view inside it without moving the page.
  function showCurrentStep() {
    var current = document.querySelector(".replay-history li.current");
    var list = current && current.parentNode;
    if (!list || list.scrollHeight <= list.clientHeight) return;
    var top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - (list.clientHeight - current.offsetHeight) / 2;
    }
  }

  function plainClick(event) {
    return event.button === 0 && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
  }

  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    if (!step || !replay() || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    // Typing in a field (or moving the slider, which has keys of its own) is not stepping.
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    event.preventDefault();
    go(destination(step));
  });

  document.addEventListener("click", function (event) {
    if (!replay() || !plainClick(event) || !event.target.closest) return;
    var link = event.target.closest(".replay-controls a[data-step], .replay-history a[href]");
    if (!link) return;
    var step = link.getAttribute("data-step");
    var seq = step ? destination(step) : seqOf(link.search);
    if (seq === null) return;
    event.preventDefault();
    go(seq);
  });

  document.addEventListener("input", function (event) {
    if (event.target.id !== "replay-seq") return;
    var output = document.getElementById("replay-seq-shown");
    if (output) output.textContent = event.target.value;
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "replay-seq") go(parseInt(event.target.value, 10));
  });

  document.addEventListener("submit", function (event) {
    var slider = event.target.querySelector && event.target.querySelector("#replay-seq");
    if (!slider || !replay()) return;
    event.preventDefault();
    go(parseInt(slider.value, 10));
  });

  window.addEventListener("popstate", function () {
    if (!replay()) return;
    var seq = seqOf(window.location.search);
    go(seq === null ? lastSeq() : seq, true);
  });

  function setUp() {
    if (!replay()) return;
    shown = wanted = parseInt(replay().getAttribute("data-seq"), 10);
    window.history.replaceState({ seq: shown }, "");
    // Said aloud after each step: the line that says where the replay is, from the page.
    announcer = document.createElement("p");
    announcer.className = "replay-announcer";
    announcer.setAttribute("aria-live", "polite");
    replay().parentNode.insertBefore(announcer, replay());
    showCurrentStep();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
