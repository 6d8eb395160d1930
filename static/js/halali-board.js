/* Halali! board: click a face-down tile to flip it; click one of your tiles to light up its
 * destinations, click one to move. Either way the board first says in words what the move will do
 * and waits for Confirm (Cancel or Esc drops it); the account setting "Confirm moves on the board"
 * (data-confirm="off") sends it on the click instead. Every move posted is a legal move's JSON
 * taken verbatim from the board's data-move attributes. The panel is replaced by htmx after each
 * move, so the board is set up again from scratch on every htmx:load; nothing survives a swap.
 * The tiles are one Tab stop; the arrow keys, Home and End move between them.
 * Every word it writes is the reader's language, from the page: the board's JSON block
 * (#halali-words: sentences with {placeholders} and the tiles' and exits' phrases) and each
 * movable tile's data-hint. */
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
    var words = readWords(board);
    if (!svg) return;

    svg.querySelectorAll(".hb-tile").forEach(function (tile) {
      var can = !!(form && (tile.getAttribute("data-move") || dests(tile).length));
      tile.classList.toggle("hb-can", can);
      tile.setAttribute("aria-disabled", can ? "false" : "true");
    });
    say(idle);

    /* The tiles are one stop of the Tab key (a roving tabindex, as in WAI-ARIA's grid pattern): Tab reaches the
     * first tile that can move (or the last one used), the arrow keys go from tile to tile (Left and Right in
     * reading order, Up and Down along the column, over empty squares), Home and End to the first and last. */
    var tiles = Array.prototype.slice.call(svg.querySelectorAll(".hb-tile"));
    function rove(tile, focus) {
      tiles.forEach(function (each) { each.setAttribute("tabindex", each === tile ? "0" : "-1"); });
      if (focus) tile.focus();
    }
    if (tiles.length) rove(tiles.filter(function (tile) { return tile.classList.contains("hb-can"); })[0] || tiles[0]);
    svg.addEventListener("focusin", function (event) {
      var tile = event.target.closest && event.target.closest(".hb-tile");
      if (tile && tiles.indexOf(tile) >= 0) rove(tile, false);
    });
    function along(tile, step) {
      // Squares are a1..g7; the same file, ``step`` ranks up (+1) or down (-1), the nearest tile there.
      var square = tile.getAttribute("data-square"), file = square.charAt(0), rank = Number(square.slice(1));
      for (var r = rank + step; r >= 1 && r <= 7; r += step) {
        var there = svg.querySelector('.hb-tile[data-square="' + file + r + '"]');
        if (there) return there;
      }
      return null;
    }
    function neighbour(tile, key) {
      var at = tiles.indexOf(tile);
      if (key === "ArrowRight") return tiles[at + 1] || null;
      if (key === "ArrowLeft") return at > 0 ? tiles[at - 1] : null;
      if (key === "ArrowUp") return along(tile, 1);
      if (key === "ArrowDown") return along(tile, -1);
      if (key === "Home") return tiles[0];
      if (key === "End") return tiles[tiles.length - 1];
      return null;
    }

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

    function kindAt(square) {
      var tile = svg.querySelector('.hb-tile.hb-up[data-square="' + square + '"]');
      return tile ? tile.getAttribute("data-kind") : null;
    }

    function phrase(table, kind) {
      return (words[table] || {})[kind] || "";
    }

    function describe(el) {
      if (el.classList.contains("hb-tile")) {
        return fill(words.flip, { square: el.getAttribute("data-square") });
      }
      var from = el.getAttribute("data-from");
      var kind = kindAt(from);
      var to = el.getAttribute("data-to");
      if (to === "out") {
        return fill(words.leave, { tile: phrase("subject", kind), start: from,
                                   exit: (words.exits || {})[el.getAttribute("data-exit")] || "" });
      }
      var taken = kindAt(to);
      return taken ? fill(words.take, { tile: phrase("subject", kind), start: from, prey: phrase("object", taken), end: to })
        : fill(words.move, { tile: phrase("moved", kind), start: from, end: to });
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
      askText.textContent = fill(words.ask, { what: describe(el) });
      ask.hidden = false;
      say(words.confirm_or_cancel || "");
      ask.querySelector(".hb-confirm-go").focus();
    }

    function cancelProposal() {
      var back = proposed;
      unpropose();
      if (back && back.classList.contains("hb-dest") && selected) {
        say(words.pick_another || "");
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
      say(tile.getAttribute("data-hint") || "");
      if (byKeyboard && shown.length) shown[0].focus();
    }

    function submit(json) {
      if (!form || !input || board.classList.contains("hb-busy")) return;
      board.classList.add("hb-busy");
      input.value = json;
      input.disabled = false;
      if (ask) ask.hidden = true;
      say(words.sending || "");
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
      } else if (/^(Arrow(Left|Right|Up|Down)|Home|End)$/.test(event.key)) {
        var from = event.target.closest(".hb-tile");
        var to = from && neighbour(from, event.key);
        if (from) event.preventDefault();  // the page does not scroll under a player moving between tiles
        if (to) rove(to, true);
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

  /* The board's words: the JSON block the template prints inside it (an empty object without one). */
  function readWords(board) {
    var block = board.querySelector("#halali-words");
    try {
      return (block && JSON.parse(block.textContent)) || {};
    } catch (error) {
      return {};
    }
  }

  /* Put values into a sentence's {placeholders}; the sentence comes whole from the page, in the reader's language. */
  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : whole;
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
