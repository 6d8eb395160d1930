/* Carcassonne: Hunters and Gatherers board (templates/games/carcassonne-hg/board.html).
 * Build the board from the compact picture the page embeds (#cb-picture: the placed tiles, pieces and
 * covered meadows as short arrays, the latest tile, the seats' names): each tile with its title, the
 * pieces in seat colours, the covered meadows, the latest tile framed, and a spot for each legal
 * (square, rotation) of the embedded moves (#cb-moves). Draw every tile from the engine's tile
 * drawings, fetched once from the board's data-art URL (a versioned asset the browser caches; kept
 * here across panel swaps, so a swap draws at once).
 * Pan (drag; two fingers on a touch screen) and zoom (wheel, buttons, a pinch) the board; turn the drawn tile; the squares where it fits
 * in that rotation light up; click one to lay the tile there as a preview, then pick a piece for one
 * of its regions (or none) and confirm. The move posted is always one of the legal moves' JSON,
 * taken verbatim from the embedded list. The panel is swapped by htmx after every change, so all
 * set-up runs again on htmx:load. The view fits the whole board (and the squares around it where
 * tiles may go) as it grows, until the player pans or zooms: from then on their view is kept, in
 * sessionStorage per game, until they press Fit.
 * Every word it shows comes from the page (#cb-words, the engine's board_data in the reader's
 * language): titles, prompts and labels are templates with {placeholders} filled in here. */
(function () {
  "use strict";
  if (window.CarcassonneBoard) return;
  window.CarcassonneBoard = { init: init };
  var SVGNS = "http://www.w3.org/2000/svg";
  var PICTURED = ["deer", "aurochs", "mammoth", "tiger", "fish", "menhir", "nugget", "mushrooms"];
  var drawings = {}; // asset URL -> {tile id: drawing}, or null when it could not be loaded
  var loading = {}; // asset URL -> callbacks waiting for it

  // Call back with the drawings at url: at once when already loaded, else after one fetch for all.
  function withDrawings(url, callback) {
    if (!url) { callback(null); return; }
    if (url in drawings) { callback(drawings[url]); return; }
    if (loading[url]) { loading[url].push(callback); return; }
    loading[url] = [callback];
    fetch(url, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(function (found) {
        drawings[url] = found;
        var waiting = loading[url];
        delete loading[url];
        waiting.forEach(function (fn) { fn(found); });
      });
  }

  // Fill a template's {placeholders} from values (a word the page gave, in the reader's language).
  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  function svgEl(name, attrs) {
    var node = document.createElementNS(SVGNS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  // Fill a tile's cb-art group: rivers, forests and lakes, then icons (upright when rot is given).
  function paint(group, drawing, rot, words) {
    group.textContent = "";
    if (!drawing) return;
    drawing.rivers.forEach(function (r) {
      group.appendChild(svgEl("path", { "class": "cb-river-bank", d: r.d }));
      group.appendChild(svgEl("path", { "class": "cb-river", d: r.d }));
      if (r.spring) group.appendChild(svgEl("circle", { "class": "cb-spring", cx: r.spring[0], cy: r.spring[1], r: 4.5 }));
    });
    drawing.shapes.forEach(function (shape) {
      group.appendChild(svgEl("path", { "class": "cb-" + shape.kind, d: shape.d }));
    });
    drawing.icons.forEach(function (icon) {
      var at = "translate(" + icon.x + " " + icon.y + ")" + (rot === null ? "" : " rotate(-" + rot + ")");
      var g = svgEl("g", { "class": "cb-icon", transform: at });
      if (PICTURED.indexOf(icon.icon) >= 0) {
        g.appendChild(svgEl("use", { href: "#cb-i-" + icon.icon, x: -11, y: -11, width: 22, height: 22 }));
      } else {
        g.appendChild(svgEl("use", { href: "#cb-power", x: -10, y: -10, width: 20, height: 20 }));
        var letter = svgEl("text", { "class": "cb-power-letter", y: 4.2 });
        letter.textContent = (words.power_letters || {})[icon.icon] || "+";
        g.appendChild(letter);
        var title = svgEl("title");
        title.textContent = (words.powers || {})[icon.icon] || icon.icon;
        g.appendChild(title);
      }
      group.appendChild(g);
    });
  }

  function titled(node, text) {
    var title = svgEl("title");
    title.textContent = text;
    node.appendChild(title);
    return node;
  }

  // A tile's name in the reader's language (the page's words name every tile of the edition once).
  function tileName(words, id) {
    var found = words.tiles && words.tiles.of ? words.tiles.of[id] : undefined;
    return found === undefined ? id : words.tiles.names[found];
  }

  // A tribe member (a figure in its seat's colour carrying its tool) or a hut, centred on 0 0 in a 32-wide box.
  function pieceShape(group, kind) {
    if (kind === "hut") {
      group.appendChild(svgEl("use", { href: "#cb-hut", x: -12, y: -12, width: 24, height: 24 }));
      return group;
    }
    group.appendChild(svgEl("use", { href: "#cb-meeple", x: -12, y: -14, width: 24, height: 26 }));
    group.appendChild(svgEl("use", { href: "#cb-tool-" + kind, x: -16, y: -17, width: 32, height: 32 }));
    return group;
  }

  // Build the placed tiles from the picture: [x, y, tile id, rot, placed by] each, in placement order,
  // turned by rot around the tile's centre; pieces [x, y, seat, kind, ax, ay] and covered meadows
  // [x, y, ax, ay] stand on their region's spot in the tile's box, upright; the latest tile is framed
  // in its player's colour. Each tile is an image named by its title: what it shows, where, who placed
  // it, the pieces on it and whose they are (its drawing inside says nothing to a screen reader).
  function drawTiles(layer, picture, art, words) {
    var names = picture.names || [];
    var squares = {};
    var tiles = document.createDocumentFragment();
    picture.tiles.forEach(function (t) {
      var x = t[0], y = t[1], id = t[2], rot = t[3], by = t[4];
      var g = svgEl("g", { "class": "cb-tile", transform: "translate(" + x * 100 + " " + -y * 100 + ")",
        "data-x": x, "data-y": y, "data-tile": id, "data-rot": rot, "data-spot": "tile:" + x + "," + y, role: "img" });
      var label = fill(by === null ? words.tile_start : words.tile_by,
        { tile: tileName(words, id), x: x, y: y, rot: rot, player: names[by] });
      var turned = svgEl("g", { transform: "rotate(" + rot + " 50 50)" });
      turned.appendChild(svgEl("rect", { "class": "cb-meadow", width: 100, height: 100 }));
      var group = svgEl("g", { "class": "cb-art" });
      paint(group, art && art[id], rot, words);
      turned.appendChild(group);
      g.appendChild(turned);
      squares[x + "," + y] = { g: g, turned: turned, rot: rot, by: by, label: label, on: [] };
      tiles.appendChild(g);
    });
    picture.pieces.forEach(function (p) {
      var square = squares[p[0] + "," + p[1]];
      if (!square) return;
      var seat = p[2], kind = p[3];
      var g = svgEl("g", { "class": "cb-piece cb-seat-" + seat, "data-kind": kind, "data-seat": seat,
        transform: "translate(" + p[4] + " " + p[5] + ") rotate(-" + square.rot + ") scale(1.4)" });
      var said = fill((words.piece || {})[kind], { player: names[seat], x: p[0], y: p[1] });
      square.on.push(said);
      square.turned.appendChild(titled(pieceShape(g, kind), said));
    });
    picture.covered.forEach(function (c) {
      var square = squares[c[0] + "," + c[1]];
      if (!square) return;
      var cross = svgEl("path", { "class": "cb-covered", transform: "translate(" + c[2] + " " + c[3] + ")",
        d: "M-9 -9 L9 9 M-9 9 L9 -9" });
      square.on.push(words.covered || "");
      square.turned.appendChild(titled(cross, words.covered || ""));
    });
    var last = picture.last && squares[picture.last[0] + "," + picture.last[1]];
    if (last) {
      last.g.appendChild(svgEl("rect", { "class": "cb-last cb-seat-" + last.by, x: 2.5, y: 2.5, width: 95, height: 95,
        rx: 3 }));
      last.label += ", " + (words.latest || "");
    }
    Object.keys(squares).forEach(function (key) {
      var square = squares[key];
      var text = square.on.length ? fill(words.pieces_here, { tile: square.label, pieces: square.on.join("; ") })
        : square.label;
      var title = svgEl("title");
      title.textContent = text;
      square.g.insertBefore(title, square.g.firstChild);
    });
    layer.textContent = "";
    layer.appendChild(tiles);
  }

  // One spot per legal (square, rotation): the moves that place the tile without a piece name them all.
  function drawSpots(layer, moves, words) {
    var spots = document.createDocumentFragment();
    moves.forEach(function (entry) {
      var m = entry.move;
      if (m.piece || m.recall) return;
      spots.appendChild(svgEl("rect", { "class": "cb-spot", x: m.x * 100, y: -m.y * 100, width: 100, height: 100, rx: 6,
        "data-x": m.x, "data-y": m.y, "data-rot": m.rot, role: "button", tabindex: "-1",
        "aria-label": fill(words.spot, { x: m.x, y: m.y, rot: m.rot }) }));
    });
    layer.textContent = "";
    layer.appendChild(spots);
  }

  function drawBoard(board, art, moves, words) {
    var picture = readJSON(board, "cb-picture");
    var tiles = board.querySelector(".cb-tiles");
    if (picture && tiles) drawTiles(tiles, picture, art, words);
    var spots = board.querySelector(".cb-spots");
    if (spots) drawSpots(spots, moves || [], words);
    var drawn = board.querySelector(".cb-drawn");
    var group = drawn && drawn.querySelector(".cb-art");
    if (group) paint(group, art && art[drawn.getAttribute("data-tile")], null, words);
  }

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches(".cb-board")) setup(scope);
    scope.querySelectorAll(".cb-board").forEach(setup);
  }

  function readJSON(board, id) {
    var el = board.querySelector("#" + id);
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }

  function setup(board) {
    if (board.cbReady) return;
    board.cbReady = true;
    // htmx parses a swapped-in panel without scripting, so the <noscript> line that stands in for the
    // drawing became elements there (and the CSS would hide the drawing): this browser runs the script.
    board.querySelectorAll("noscript").forEach(function (node) { node.parentNode.removeChild(node); });
    withDrawings(board.getAttribute("data-art"), function (art) { ready(board, art); });
  }

  function ready(board, art) {
    var moves = readJSON(board, "cb-moves");
    var words = readJSON(board, "cb-words") || {};
    drawBoard(board, art, moves, words);
    board.classList.add("cb-js");
    var svg = board.querySelector(".cb-svg");
    if (!svg) return;
    var hint = board.querySelector(".cb-hint");
    var idle = hint ? hint.getAttribute("data-idle") || "" : "";
    var key = "cb-view-" + board.getAttribute("data-game");
    var home = board.getAttribute("data-viewbox").split(" ").map(Number);
    // Whether the player has panned or zoomed since the board was last fitted: only then is their view kept.
    var manual = false;
    var box = restore() || fitted(home);
    apply();

    function say(text) { if (hint) hint.textContent = text; }

    // -- pan and zoom ------------------------------------------------------------------
    function fitted(b) { return b.slice(); }
    function restore() {
      try {
        var saved = JSON.parse(sessionStorage.getItem(key) || "null");
        if (saved && saved.manual && saved.box && saved.box.length === 4 && saved.box.every(isFinite)) {
          manual = true;
          return saved.box;
        }
      } catch (e) { /* private mode */ }
      return null;
    }
    function apply(byPlayer) {
      if (byPlayer !== undefined) manual = byPlayer;
      svg.setAttribute("viewBox", box.map(function (v) { return Math.round(v * 10) / 10; }).join(" "));
      board.setAttribute("data-view", manual ? "kept" : "fitted");
      try { sessionStorage.setItem(key, JSON.stringify({ box: box, manual: manual })); } catch (e) { /* ignore */ }
    }
    function zoom(factor, cx, cy) {
      var w = Math.min(Math.max(box[2] * factor, 250), Math.max(home[2], home[3]) * 2.5);
      var f = w / box[2];
      if (cx === undefined) { cx = box[0] + box[2] / 2; cy = box[1] + box[3] / 2; }
      box = [cx - (cx - box[0]) * f, cy - (cy - box[1]) * f, box[2] * f, box[3] * f];
      apply(true);
    }
    function centreOn(px, py, size) {
      var ratio = box[3] / box[2];
      var w = size || box[2];
      box = [px - w / 2, py - (w * ratio) / 2, w, w * ratio];
      apply(true);
    }
    function toBoard(event) {
      var rect = svg.getBoundingClientRect();
      return [box[0] + (event.clientX - rect.left) / rect.width * box[2],
              box[1] + (event.clientY - rect.top) / rect.height * box[3]];
    }
    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      var p = toBoard(event);
      zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, p[0], p[1]);
    }, { passive: false });
    // A mouse or a pen drags the board. A finger does not: one finger's swipe scrolls the page (touch-action:
    // pan-x pan-y in the style sheet) and its tap places; two fingers pinch to zoom and move together to pan.
    var drag = null;
    var moved = false;
    var touches = {};  // pointer id -> [x, y] of each finger on the board
    var pinch = null;  // {distance, middle, box}: where two fingers started
    function fingers() { return Object.keys(touches).map(function (id) { return touches[id]; }); }
    function startPinch() {
      var f = fingers();
      if (f.length !== 2) { pinch = null; return; }
      pinch = { distance: Math.max(1, Math.hypot(f[0][0] - f[1][0], f[0][1] - f[1][1])),
                middle: [(f[0][0] + f[1][0]) / 2, (f[0][1] + f[1][1]) / 2], box: box.slice() };
    }
    // Two fingers are the board's: the browser would take their common move as a scroll of the page.
    svg.addEventListener("touchmove", function (event) {
      if (event.touches.length > 1 && event.cancelable) event.preventDefault();
    }, { passive: false });
    svg.addEventListener("pointerdown", function (event) {
      if (event.pointerType === "touch") {
        touches[event.pointerId] = [event.clientX, event.clientY];
        startPinch();
        return;
      }
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, box: box.slice(), id: event.pointerId };
      moved = false;
    });
    svg.addEventListener("pointermove", function (event) {
      if (event.pointerType === "touch") {
        if (!(event.pointerId in touches)) return;
        touches[event.pointerId] = [event.clientX, event.clientY];
        if (!pinch) return;
        var f = fingers(), rect = svg.getBoundingClientRect();
        var distance = Math.max(1, Math.hypot(f[0][0] - f[1][0], f[0][1] - f[1][1]));
        var middle = [(f[0][0] + f[1][0]) / 2, (f[0][1] + f[1][1]) / 2];
        var start = pinch.box, scale = pinch.distance / distance;
        var w = Math.min(Math.max(start[2] * scale, 250), Math.max(home[2], home[3]) * 2.5), k = w / start[2];
        // The board point under the fingers' first middle stays under their middle now.
        var bx = start[0] + (pinch.middle[0] - rect.left) / rect.width * start[2];
        var by = start[1] + (pinch.middle[1] - rect.top) / rect.height * start[3];
        box = [bx - (middle[0] - rect.left) / rect.width * start[2] * k,
               by - (middle[1] - rect.top) / rect.height * start[3] * k, start[2] * k, start[3] * k];
        apply(true);
        return;
      }
      if (!drag || event.pointerId !== drag.id) return;
      var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 6) return;
      if (!moved) { moved = true; svg.setPointerCapture(event.pointerId); svg.classList.add("cb-dragging"); }
      var rect = svg.getBoundingClientRect();
      box = [drag.box[0] - dx / rect.width * box[2], drag.box[1] - dy / rect.height * box[3], box[2], box[3]];
      apply(true);
    });
    function endDrag(event) {
      if (event && event.pointerType === "touch") {
        delete touches[event.pointerId];
        startPinch();
        return;
      }
      drag = null;
      svg.classList.remove("cb-dragging");
    }
    svg.addEventListener("pointerup", endDrag);
    svg.addEventListener("pointercancel", endDrag);
    function on(selector, handler) {
      var el = board.querySelector(selector);
      if (el) el.addEventListener("click", handler);
    }
    on(".cb-zoom-in", function () { zoom(1 / 1.3); });
    on(".cb-zoom-out", function () { zoom(1.3); });
    on(".cb-zoom-fit", function () { box = fitted(home); apply(false); });
    on(".cb-zoom-last", function () {
      var last = svg.querySelector(".cb-last");
      var tile = last && last.closest(".cb-tile");
      if (tile) centreOn(Number(tile.getAttribute("data-x")) * 100 + 50, -Number(tile.getAttribute("data-y")) * 100 + 50, 700);
    });
    board.querySelectorAll(".cb-feature").forEach(function (row) {
      row.addEventListener("click", function () {
        centreOn(Number(row.getAttribute("data-x")) * 100 + 50, -Number(row.getAttribute("data-y")) * 100 + 50, 700);
        flash(row.getAttribute("data-x"), row.getAttribute("data-y"));
      });
    });
    function flash(x, y) {
      var tile = svg.querySelector('.cb-tile[data-x="' + x + '"][data-y="' + y + '"]');
      if (!tile) return;
      tile.classList.remove("cb-flash");
      void tile.getBoundingClientRect();
      tile.classList.add("cb-flash");
    }

    // -- playing -----------------------------------------------------------------------
    var drawnSvg = board.querySelector(".cb-drawn");
    var drawn = drawnSvg && art ? art[drawnSvg.getAttribute("data-tile")] : null;
    var form = board.querySelector("form.cb-form");
    if (!moves || !moves.length || !form) { say(idle); return; }
    var input = form.querySelector("input[name=move]");
    var turnEl = board.querySelector(".cb-drawn-turn");
    var rotLabel = board.querySelector(".cb-rot-label");
    var rotCount = board.querySelector(".cb-rot-count");
    var deploy = board.querySelector(".cb-deploy");
    var choicesEl = board.querySelector(".cb-choices");
    var whereEl = board.querySelector(".cb-deploy-where");
    var confirmText = board.querySelector(".cb-confirm-text");
    var ghostLayer = svg.querySelector(".cb-ghost-layer");
    var spots = Array.prototype.slice.call(svg.querySelectorAll(".cb-spot"));
    var rotations = [0, 90, 180, 270].filter(function (r) {
      return spots.some(function (s) { return Number(s.getAttribute("data-rot")) === r; });
    });
    var rot = rotations.length ? rotations[0] : 0;
    var placed = null; // {x, y}
    var chosen = null; // the move entry picked for confirmation

    function showRotation() {
      if (turnEl) turnEl.setAttribute("transform", "rotate(" + rot + " 50 50)");
      var count = 0;
      spots.forEach(function (spot) {
        var fits = Number(spot.getAttribute("data-rot")) === rot;
        var lit = fits && !placed;
        spot.classList.toggle("cb-on", lit);
        spot.setAttribute("tabindex", lit ? "0" : "-1");
        if (fits) count += 1;
      });
      if (rotLabel) rotLabel.textContent = fill(words.turned, { rot: rot });
      if (rotCount) rotCount.textContent = (words.fits || {})[rot] || String(count);
      if (!placed) say(fill(count ? words.click : words.nowhere, { rot: rot }));
    }

    function turn(by) {
      if (placed) cancel();
      rot = ((rot + by) % 360 + 360) % 360;
      showRotation();
    }
    board.querySelectorAll(".cb-rotate").forEach(function (button) {
      button.addEventListener("click", function () { turn(Number(button.getAttribute("data-turn"))); });
    });

    // What a move adds to the placement: its text after the verb, the square and the rotation.
    function optionLabel(entry) {
      var rest = entry.text.replace(/^\S+\s+\S+\s+\S+\s*/, "");
      return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : words.no_piece || "";
    }

    function place(x, y) {
      placed = { x: x, y: y };
      showRotation();
      var options = moves.filter(function (m) { return m.move.x === x && m.move.y === y && m.move.rot === rot; });
      // The tile laid as a preview, with a marker on each region that can take a piece.
      ghostLayer.innerHTML = "";
      var g = svgEl("g", { "class": "cb-ghost", transform: "translate(" + x * 100 + " " + -y * 100 + ")" });
      var turned = svgEl("g", { transform: "rotate(" + rot + " 50 50)" });
      turned.appendChild(board.querySelector(".cb-drawn-art").cloneNode(true));
      g.appendChild(turned);
      g.appendChild(svgEl("rect", { "class": "cb-ghost-frame", x: 1.5, y: 1.5, width: 97, height: 97, rx: 3 }));
      var byRegion = {};
      options.forEach(function (m) {
        if (m.move.piece && !m.move.recall) (byRegion[m.move.region] = byRegion[m.move.region] || []).push(m);
      });
      Object.keys(byRegion).forEach(function (region) {
        var at = drawn && drawn.anchors[region]; // without the drawings, the buttons below still choose
        if (!at) return;
        byRegion[region].forEach(function (m, k) {
          var n = byRegion[region].length;
          var marker = svgEl("g", {
            "class": "cb-region-marker", role: "button", tabindex: "0", "data-json": m.json,
            transform: "translate(" + at[0] + " " + at[1] + ") rotate(" + -rot + ") translate(" + (k - (n - 1) / 2) * 28 + " 0)",
            "aria-label": optionLabel(m)
          });
          marker.appendChild(svgEl("circle", { r: 13 }));
          var icon = svgEl("g", { transform: "scale(.72)" });
          marker.appendChild(pieceShape(icon, m.move.piece));
          var title = svgEl("title");
          title.textContent = optionLabel(m);
          marker.appendChild(title);
          turned.appendChild(marker);
        });
      });
      ghostLayer.appendChild(g);
      // The same choices as buttons, "No piece" first and picked.
      choicesEl.innerHTML = "";
      options.forEach(function (m) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "cb-choice";
        b.setAttribute("role", "radio");
        b.setAttribute("data-json", m.json);
        b.textContent = optionLabel(m);
        b.addEventListener("click", function () { choose(m); });
        choicesEl.appendChild(b);
      });
      whereEl.textContent = fill(words.where, { x: x, y: y, rot: rot });
      deploy.hidden = false;
      choose(options[0]);
      say(words.choose || "");
    }

    function choose(entry) {
      chosen = entry;
      choicesEl.querySelectorAll(".cb-choice").forEach(function (b) {
        var on = b.getAttribute("data-json") === entry.json;
        b.classList.toggle("cb-picked", on);
        b.setAttribute("aria-checked", on ? "true" : "false");
      });
      ghostLayer.querySelectorAll(".cb-region-marker").forEach(function (m) {
        m.classList.toggle("cb-picked", m.getAttribute("data-json") === entry.json);
      });
      confirmText.textContent = fill(words.will_play, { move: entry.text });
    }

    function cancel() {
      placed = null;
      chosen = null;
      ghostLayer.innerHTML = "";
      deploy.hidden = true;
      showRotation();
    }

    function submit() {
      if (!chosen || board.classList.contains("cb-busy")) return;
      board.classList.add("cb-busy");
      input.value = chosen.json;
      input.disabled = false;
      say(words.sending || "");
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
    on(".cb-confirm", submit);
    on(".cb-cancel", cancel);

    function act(target) {
      var marker = target.closest(".cb-region-marker");
      if (marker) {
        var json = marker.getAttribute("data-json");
        var entry = moves.filter(function (m) { return m.json === json; })[0];
        if (entry) choose(entry);
        return;
      }
      var spot = target.closest(".cb-spot.cb-on");
      if (spot) place(Number(spot.getAttribute("data-x")), Number(spot.getAttribute("data-y")));
    }
    svg.addEventListener("click", function (event) {
      if (moved) { moved = false; return; }
      act(event.target);
    });
    svg.addEventListener("keydown", function (event) {
      if ((event.key === "Enter" || event.key === " ") && event.target.closest(".cb-spot, .cb-region-marker")) {
        event.preventDefault();
        act(event.target);
      }
    });
    board.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && placed) { cancel(); event.preventDefault(); }
      else if ((event.key === "r" || event.key === "R") && !event.target.closest("input, textarea")) {
        turn(event.key === "r" ? 90 : -90);
      }
    });
    board.addEventListener("htmx:responseError", function () { board.classList.remove("cb-busy"); });
    showRotation();
  }

  document.addEventListener("htmx:load", function (event) { init(event.detail && event.detail.elt); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
