/* Halali! board: click a face-down tile to flip it; click one of your tiles to light up its
 * destinations, click one to move. Every move posted is a legal move's JSON taken verbatim from
 * the board's data-move attributes. The panel is replaced by htmx after each move, so the board
 * is set up again from scratch on every htmx:load; nothing survives a swap. */
(function () {
  "use strict";
  if (window.HalaliBoard) return; // htmx re-runs this script when it swaps the panel in
  window.HalaliBoard = { init: init };

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches(".hb-board")) setup(scope);
    scope.querySelectorAll(".hb-board").forEach(setup);
  }

  function setup(board) {
    if (board.hbReady) return;
    board.hbReady = true;
    board.classList.add("hb-js");
    var svg = board.querySelector(".hb-svg");
    var form = board.querySelector("form.hb-form");
    var input = form && form.querySelector("input[name=move]");
    var hint = board.querySelector(".hb-hint");
    var idle = hint ? hint.getAttribute("data-idle") || "" : "";
    var selected = null;
    if (!svg) return;

    svg.querySelectorAll(".hb-tile").forEach(function (tile) {
      var can = !!(form && (tile.getAttribute("data-move") || dests(tile).length));
      tile.classList.toggle("hb-can", can);
      tile.setAttribute("aria-disabled", can ? "false" : "true");
    });
    say(idle);

    function dests(tile) {
      return (tile.getAttribute("data-dests") || "").split(/\s+/).filter(Boolean);
    }

    function say(text) {
      if (hint) hint.textContent = text;
    }

    function markers(square) {
      return Array.prototype.filter.call(svg.querySelectorAll(".hb-dest"), function (el) {
        return el.getAttribute("data-from") === square;
      });
    }

    function deselect() {
      if (!selected) return;
      selected.classList.remove("hb-selected");
      selected.setAttribute("aria-pressed", "false");
      svg.querySelectorAll(".hb-dest.hb-on").forEach(function (el) {
        el.classList.remove("hb-on");
        el.setAttribute("tabindex", "-1");
      });
      svg.classList.remove("hb-choosing");
      selected = null;
      say(idle);
    }

    function select(tile, byKeyboard) {
      deselect();
      selected = tile;
      tile.classList.add("hb-selected");
      tile.setAttribute("aria-pressed", "true");
      svg.classList.add("hb-choosing");
      var shown = markers(tile.getAttribute("data-square"));
      shown.forEach(function (el) {
        el.classList.add("hb-on");
        el.setAttribute("tabindex", "0");
      });
      var kind = tile.getAttribute("data-kind") || "tile";
      say("The " + kind + " on " + tile.getAttribute("data-square") + " can go to " + shown.length +
          (shown.length === 1 ? " place" : " places") + ": click a highlighted square" +
          (shown.some(function (el) { return el.getAttribute("data-to") === "out"; }) ? " or exit" : "") +
          " (Esc or click it again to cancel).");
      if (byKeyboard && shown.length) shown[0].focus();
    }

    function submit(json) {
      if (!form || !input || board.classList.contains("hb-busy")) return;
      board.classList.add("hb-busy");
      input.value = json;
      input.disabled = false;
      say("Sending your move…");
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    }

    function act(target, byKeyboard) {
      var dest = target.closest(".hb-dest");
      if (dest && svg.contains(dest)) {
        submit(dest.getAttribute("data-move"));
        return true;
      }
      var tile = target.closest(".hb-tile");
      if (!tile || !svg.contains(tile) || !tile.classList.contains("hb-can")) {
        deselect();
        return false;
      }
      if (tile.getAttribute("data-move")) {
        deselect();
        submit(tile.getAttribute("data-move"));
      } else if (tile === selected) {
        deselect();
      } else {
        select(tile, byKeyboard);
      }
      return true;
    }

    svg.addEventListener("click", function (event) {
      act(event.target, false);
    });
    svg.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        if (selected) {
          var back = selected;
          deselect();
          back.focus();
        }
        event.preventDefault();
      } else if (event.key === "Enter" || event.key === " ") {
        if (event.target.closest(".hb-tile, .hb-dest")) {
          event.preventDefault();
          act(event.target, true);
        }
      }
    });
    board.addEventListener("htmx:responseError", function () {
      board.classList.remove("hb-busy");
    });
  }

  document.addEventListener("htmx:load", function (event) {
    init(event.detail && event.detail.elt);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
