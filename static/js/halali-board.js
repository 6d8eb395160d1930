/* Halali! board: click a face-down tile to flip it; click one of your tiles to light up its
 * destinations, click one to move. Either way the board first says in words what the move will do
 * and waits for Confirm (Cancel or Esc drops it); the account setting "Confirm moves on the board"
 * (data-confirm="off") sends it on the click instead. Every move posted is a legal move's JSON
 * taken verbatim from the board's data-move attributes. The panel is replaced by htmx after each
 * move, so the board is set up again from scratch on every htmx:load; nothing survives a swap. */
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
    var confirming = board.getAttribute("data-confirm") !== "off";
    var ask = board.querySelector(".hb-confirm");
    var askText = ask && ask.querySelector(".hb-confirm-text");
    var proposed = null; // the tile or destination whose move waits for Confirm
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

    var DIRECTIONS = { N: "north", E: "east", S: "south", W: "west" };

    function kindAt(square) {
      var tile = svg.querySelector('.hb-tile.hb-up[data-square="' + square + '"]');
      return tile ? tile.getAttribute("data-kind") : null;
    }

    function describe(el) {
      if (el.classList.contains("hb-tile")) {
        return "Turn over the face-down tile on " + el.getAttribute("data-square") + ": this cannot be undone.";
      }
      var from = el.getAttribute("data-from");
      var kind = kindAt(from) || "tile";
      var to = el.getAttribute("data-to");
      if (to === "out") {
        return "The " + kind + " on " + from + " leaves the forest through the " + DIRECTIONS[el.getAttribute("data-exit")] +
          " exit, and you keep it.";
      }
      var taken = kindAt(to);
      return taken ? "The " + kind + " on " + from + " takes the " + taken + " on " + to + "."
        : "Move the " + kind + " from " + from + " to " + to + ".";
    }

    function unpropose() {
      if (!proposed) return;
      proposed.classList.remove("hb-picked");
      proposed = null;
      if (ask) ask.hidden = true;
    }

    /* Show what the move of ``el`` (a face-down tile or a destination) will do; send it when not confirming. */
    function propose(el) {
      if (!confirming || !ask) {
        submit(el.getAttribute("data-move"));
        return;
      }
      unpropose();
      proposed = el;
      el.classList.add("hb-picked");
      askText.textContent = describe(el) + " Confirm?";
      ask.hidden = false;
      say("Confirm or cancel your move.");
      ask.querySelector(".hb-confirm-go").focus();
    }

    function cancelProposal() {
      var back = proposed;
      unpropose();
      if (back && back.classList.contains("hb-dest") && selected) {
        say("Pick another destination, or Esc to choose another tile.");
        back.focus();
      } else {
        deselect();
        if (back) back.focus();
      }
    }

    function deselect() {
      unpropose();
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
      if (ask) ask.hidden = true;
      say("Sending your move…");
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    }

    function act(target, byKeyboard) {
      var dest = target.closest(".hb-dest");
      if (dest && svg.contains(dest)) {
        if (dest.classList.contains("hb-on")) propose(dest);
        return true;
      }
      var tile = target.closest(".hb-tile");
      if (!tile || !svg.contains(tile) || !tile.classList.contains("hb-can")) {
        deselect();
        return false;
      }
      if (tile.getAttribute("data-move")) {
        deselect();
        propose(tile);
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
        if (proposed) {
          cancelProposal();
        } else if (selected) {
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
    if (ask) {
      ask.querySelector(".hb-confirm-go").addEventListener("click", function () {
        if (proposed) submit(proposed.getAttribute("data-move"));
      });
      ask.querySelector(".hb-confirm-cancel").addEventListener("click", cancelProposal);
      ask.addEventListener("keydown", function (event) {
        if (event.key === "Escape") {
          event.preventDefault();
          cancelProposal();
        }
      });
    }
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
