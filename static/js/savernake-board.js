/* Savernake Forest board: pick a market card, a cell of your forest and a rotation, see the card
 * there and what every animal would score if the game ended after the move; then choose the
 * survivor of a shared path and where the helper's token goes, and confirm. The move posted is
 * always one of the legal moves' JSON, taken verbatim from the board's data script, which also
 * holds the score each move leaves (computed by the engine's scoring from public data).
 * Every word it writes is the reader's language's, read from the page (the engine's script words,
 * a json_script block with {placeholders} filled in here): this file holds none of its own.
 * htmx replaces the whole panel after a move, so the board is set up again from scratch on every
 * htmx:load; nothing survives a swap. */
(function () {
  "use strict";
  if (window.SavernakeBoard) return; // htmx re-runs this script when it swaps the panel in
  window.SavernakeBoard = { init: init };

  var SVGNS = "http://www.w3.org/2000/svg";
  // Food corners of an animal card, as the template draws them (top-left corner of each chip).
  var CHIP = { B: [3, 23], W: [87, 23], E: [3, 75], N: [87, 75] };

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches(".sf-board")) setup(scope);
    scope.querySelectorAll(".sf-board").forEach(setup);
  }

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVGNS, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  // Fill a text's {placeholders} with values.
  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  // Append a text to a node, with a node put where its {placeholder} stands.
  function appendAround(parent, text, key, node) {
    var parts = String(text || "").split("{" + key + "}");
    parent.appendChild(document.createTextNode(parts[0]));
    parent.appendChild(node);
    if (parts.length > 1) parent.appendChild(document.createTextNode(parts.slice(1).join("")));
  }

  function signed(n) {
    return n === 0 ? "\u00b10" : (n > 0 ? "+" : "\u2212") + Math.abs(n);
  }

  function setup(board) {
    if (board.sfReady) return;
    board.sfReady = true;
    board.classList.add("sf-js");
    var script = board.querySelector("script.sf-data");
    var mine = board.querySelector(".sf-forest.sf-mine");
    if (!script || !mine) return;
    var data, words;
    try {
      data = JSON.parse(script.textContent);
      words = JSON.parse(board.querySelector("script#savernake-forest-words").textContent);
    } catch (err) { return; }
    if (!data || !data.moves || !data.moves.length || !words) return;

    var svg = mine.querySelector(".sf-forest-svg");
    var ghostLayer = svg.querySelector(".sf-ghost-layer");
    var controls = mine.querySelector(".sf-controls");
    var hint = controls.querySelector(".sf-hint");
    var rotNow = controls.querySelector(".sf-rot-now");
    var rotButtons = controls.querySelectorAll(".sf-rot");
    var keepBox = controls.querySelector(".sf-keep");
    var keepGroups = controls.querySelector(".sf-keep-groups");
    var tokenBox = controls.querySelector(".sf-token");
    var tokenLegend = controls.querySelector(".sf-token-legend");
    var tokenOptions = controls.querySelector(".sf-token-options");
    var moveText = controls.querySelector(".sf-move-text");
    var moveScore = controls.querySelector(".sf-move-score");
    var form = controls.querySelector("form.sf-form");
    var input = form.querySelector("input[name=move]");
    var confirmButton = form.querySelector(".sf-confirm");
    var slotButtons = Array.prototype.slice.call(board.querySelectorAll(".sf-slot"));
    var openCells = Array.prototype.slice.call(svg.querySelectorAll(".sf-open"));
    var sheetRows = Array.prototype.slice.call(mine.querySelectorAll(".sf-sheet tbody tr[data-card]"));
    var sheetBody = mine.querySelector(".sf-sheet tbody");
    var totalCell = mine.querySelector(".sf-sheet-total");
    var totalDelta = mine.querySelector(".sf-total-delta");
    var captionTotal = mine.querySelector(".sf-total");
    controls.hidden = false;

    var P = data.placements, M = data.moves, before = data.before;
    var movesOf = P.map(function () { return []; });
    M.forEach(function (move, i) { movesOf[move.p].push(i); });
    var market = {};
    P.forEach(function (p) { market[p.slot] = p.card; });
    // The best score change per slot and per slot+cell, over every move.
    var bestCell = {};
    M.forEach(function (move) {
      var p = P[move.p], key = p.slot + "|" + p.x + "," + p.y, gain = move.t - before.t;
      if (!(key in bestCell) || gain > bestCell[key]) bestCell[key] = gain;
    });

    var state = fresh();
    var keepKey = null, tokenKey = null;

    function fresh() {
      return { slot: null, x: null, y: null, rot: 0, keep: {}, token: null, hover: null };
    }

    function cellOf(node) {
      return { x: Number(node.getAttribute("data-x")), y: Number(node.getAttribute("data-y")) };
    }

    function offset(node) {
      var match = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(node.getAttribute("transform") || "");
      return match ? [Number(match[1]), Number(match[2])] : [0, 0];
    }

    function canPlace(slot, x, y) {
      return (slot + "|" + x + "," + y) in bestCell;
    }

    function spotOf(slot, x, y, rot) {
      var found = [];
      P.forEach(function (p, i) {
        if (p.slot === slot && p.x === x && p.y === y && p.rot === rot) found.push(i);
      });
      return found;
    }

    function rotationsAt(slot, x, y) {
      var rots = [];
      P.forEach(function (p) {
        if (p.slot === slot && p.x === x && p.y === y && rots.indexOf(p.rot) < 0) rots.push(p.rot);
      });
      return rots.sort();
    }

    function sameToken(a, b) {
      return !!a && !!b && a.animal === b.animal && (a.food || null) === (b.food || null);
    }

    function name(card) {
      return (data.names && data.names[card]) || card;
    }

    // Everything the current choices determine: the cell shown, the placement, the move.
    function resolve() {
      var out = { cell: null, hovering: false, spot: [], shared: [], placement: null, options: [], move: null, needKeep: false, needToken: false };
      if (!state.slot) return out;
      var picked = state.x === null ? null : { x: state.x, y: state.y };
      var cell = state.hover || picked;
      if (!cell) return out;
      out.cell = cell;
      out.hovering = !!state.hover && !(picked && picked.x === state.hover.x && picked.y === state.hover.y);
      var rots = rotationsAt(state.slot, cell.x, cell.y);
      if (rots.indexOf(state.rot) < 0 && rots.length) state.rot = rots[0];
      out.spot = spotOf(state.slot, cell.x, cell.y, state.rot);
      if (!out.spot.length) return out;
      out.shared = P[out.spot[0]].shared || [];
      if (out.shared.length) {
        if (out.hovering) return out;
        var chosen = [];
        out.shared.forEach(function (group, g) {
          if (group.indexOf(state.keep[g]) < 0) delete state.keep[g];
          else chosen.push(state.keep[g]);
        });
        if (chosen.length < out.shared.length) {
          out.needKeep = true;
          return out;
        }
        var want = chosen.slice().sort().join(",");
        out.placement = out.spot.filter(function (i) { return (P[i].keep || []).join(",") === want; })[0];
        if (out.placement === undefined) { out.placement = null; out.needKeep = true; return out; }
      } else {
        out.placement = out.spot[0];
      }
      out.options = movesOf[out.placement];
      if (out.options.length === 1 && !M[out.options[0]].token) {
        out.move = out.options[0];
      } else if (!out.hovering) {
        out.move = out.options.filter(function (i) { return sameToken(M[i].token, state.token); })[0];
        if (out.move === undefined) { out.move = null; state.token = null; out.needToken = true; }
      }
      return out;
    }

    function render() {
      var r = resolve();
      var sheet = r.move !== null ? M[r.move] : r.placement !== null ? P[r.placement] : null;
      var card = state.slot ? market[state.slot] : null;

      slotButtons.forEach(function (button) {
        var on = button.getAttribute("data-slot") === state.slot;
        button.setAttribute("aria-pressed", on ? "true" : "false");
        var use = button.querySelector(".sf-market-use");
        if (use) use.setAttribute("href", "#sf-c-" + button.getAttribute("data-card") + "-r" + (on ? state.rot : 0));
      });

      openCells.forEach(function (node) {
        var c = cellOf(node);
        var can = !!state.slot && canPlace(state.slot, c.x, c.y);
        node.classList.toggle("sf-can", can);
        node.classList.toggle("sf-picked", can && state.x === c.x && state.y === c.y);
        node.setAttribute("tabindex", can ? "0" : "-1");
        node.setAttribute("aria-disabled", can ? "false" : "true");
        var gain = node.querySelector(".sf-open-gain");
        if (gain) {
          var best = can ? bestCell[state.slot + "|" + c.x + "," + c.y] : null;
          gain.textContent = best === null ? "" : fill(words.best, { change: signed(best) });
        }
        // The name starts with what the cell shows ("-1,-2 best +3"), then says what it does: a screen reader and
        // a voice command read the same words the eye does.
        if (!node.hasAttribute("data-label")) node.setAttribute("data-label", node.getAttribute("aria-label") || "");
        var shown = c.x + "," + c.y + (gain && gain.textContent ? " " + gain.textContent : "");
        if (node.getAttribute("data-label")) node.setAttribute("aria-label", shown + ": " + node.getAttribute("data-label"));
      });

      drawGhost(r, sheet, card);
      showScores(r, sheet, card);

      // Controls
      rotNow.textContent = state.rot * 90 + "\u00b0";
      rotButtons.forEach(function (b) { b.disabled = !state.slot; });
      renderKeep(r);
      renderToken(r);

      if (!state.slot) {
        say(words.pick);
      } else if (!r.cell) {
        say(fill(words.place, { card: describeCard(card) }));
      } else if (r.hovering) {
        say(words.here);
      } else if (r.needKeep) {
        say(words.keep);
      } else if (r.needToken) {
        say(state.slot === "goat" ? words.drop : words.burrow);
      } else if (r.move !== null) {
        say(words.check);
      } else {
        say("");
      }

      if (r.move !== null) {
        var move = M[r.move];
        moveText.innerHTML = "";
        var code = document.createElement("code");
        code.textContent = move.text;
        appendAround(moveText, words.move, "move", code);
        input.value = move.json;
        input.disabled = false;
        confirmButton.disabled = false;
      } else {
        moveText.textContent = "";
        input.value = "";
        input.disabled = true;
        confirmButton.disabled = true;
      }
      if (sheet) {
        var change = sheet.t - before.t;
        moveScore.innerHTML = "";
        var both = document.createElement("span");
        var strong = document.createElement("strong");
        strong.textContent = before.t + " \u2192 " + sheet.t;
        both.appendChild(strong);
        var span = document.createElement("span");
        span.className = change > 0 ? "sf-up" : change < 0 ? "sf-down-text" : "";
        span.textContent = " (" + signed(change) + ")";
        both.appendChild(span);
        appendAround(moveScore, r.move !== null ? words.after_move : words.card_here, "change", both);
      } else {
        moveScore.textContent = "";
      }
    }

    function describeCard(card) {
      return (data.labels && data.labels[card]) || card || "";
    }

    function say(text) {
      if (hint.textContent !== text) hint.textContent = text;
    }

    function drawGhost(r, sheet, card) {
      while (ghostLayer.firstChild) ghostLayer.removeChild(ghostLayer.firstChild);
      if (!r.cell || !card) return;
      var target = openCells.filter(function (node) {
        var c = cellOf(node);
        return c.x === r.cell.x && c.y === r.cell.y;
      })[0];
      if (!target) return;
      var at = offset(target);
      var g = el("g", { "class": "sf-ghost" + (r.hovering ? " sf-hovering" : ""), transform: "translate(" + at[0] + " " + at[1] + ")" }, ghostLayer);
      el("use", { href: "#sf-c-" + card + "-r" + state.rot }, g);
      if (sheet && data.names[card]) {
        var score = sheet.a[card];
        if (score) {
          var badge = el("g", { "class": "sf-score sf-changed" }, g);
          el("circle", { cx: 60, cy: 60, r: 16 }, badge);
          el("text", { "class": "sf-score-num", x: 60, y: 66 }, badge).textContent = score[0];
        } else if (sheet.d.indexOf(card) >= 0) {
          var mark = el("g", { "class": "sf-flip-mark", style: "display:inline" }, g);
          el("rect", { x: 2, y: 2, width: 116, height: 116, rx: 9 }, mark);
          el("text", { x: 60, y: 40 }, mark).textContent = words.flip[0] || "";
          el("text", { x: 60, y: 56 }, mark).textContent = words.flip[1] || "";
        }
      }
      el("rect", { "class": "sf-ghost-ring", x: 2.5, y: 2.5, width: 115, height: 115, rx: 9 }, g);
      drawToken(r);
    }

    // The drop or burrow being placed, drawn where it goes.
    function drawToken(r) {
      var token = state.token;
      if (!token || r.move === null || r.hovering) return;
      var cell = svg.querySelector('.sf-cell[data-card="' + token.animal + '"]');
      if (!cell) return;
      var at = offset(cell);
      if (token.food) {
        var chip = CHIP[token.food];
        var dx = chip[0] < 60 ? chip[0] + 31 : chip[0] - 13;
        el("use", { "class": "sf-ghost-drop", href: "#sf-drop", x: at[0] + dx, y: at[1] + chip[1] + 3, width: 12, height: 16 }, ghostLayer);
      } else {
        var x = cell.querySelector(".sf-burrows") ? 20 : 76;
        el("use", { "class": "sf-ghost-burrow", href: "#sf-burrow", x: at[0] + x, y: at[1] + 63, width: 22, height: 15 }, ghostLayer);
      }
    }

    function showScores(r, sheet, card) {
      var shared = {};
      r.shared.forEach(function (group) { group.forEach(function (a) { shared[a] = true; }); });
      svg.querySelectorAll(".sf-cell").forEach(function (cell) {
        var id = cell.getAttribute("data-card");
        var flips = !!sheet && sheet.d.indexOf(id) >= 0 && before.d.indexOf(id) < 0;
        cell.classList.toggle("sf-will-flip", flips);
        cell.classList.toggle("sf-shared", !!shared[id]);
        var badge = cell.querySelector(".sf-score");
        if (!badge) return;
        var num = badge.querySelector(".sf-score-num");
        var now = Number(num.getAttribute("data-now"));
        var next = sheet ? (sheet.a[id] ? sheet.a[id][0] : 0) : now;
        num.textContent = next;
        badge.classList.toggle("sf-changed", next !== now);
        badge.classList.toggle("sf-worse", next < now);
        badge.querySelector(".sf-delta-text").textContent = next !== now ? signed(next - now) : "";
      });
      // The token being chosen, drawn where it goes.
      svg.querySelectorAll(".sf-target, .sf-target-card").forEach(function (t) {
        var token = state.token;
        var on = !!token && !r.hovering && t.getAttribute("data-card") === token.animal &&
          (t.classList.contains("sf-target") ? token.food === t.getAttribute("data-food") : !token.food);
        t.classList.toggle("sf-chosen", on && r.move !== null);
      });

      sheetRows.forEach(function (row) {
        var id = row.getAttribute("data-card");
        var delta = row.querySelector(".sf-sheet-delta");
        var now = Number(row.querySelector(".sf-sheet-now").textContent);
        var next = sheet ? (sheet.a[id] ? sheet.a[id][0] : 0) : now;
        var flips = !!sheet && sheet.d.indexOf(id) >= 0 && before.d.indexOf(id) < 0;
        delta.textContent = sheet && (next !== now || flips) ? "\u2192 " + next + (flips ? " " + words.face_down : "") : "";
        delta.className = "sf-sheet-delta" + (next > now ? " sf-up" : next < now ? " sf-down-text" : "");
      });
      mine.querySelectorAll(".sf-sheet-new").forEach(function (row) { row.parentNode.removeChild(row); });
      if (sheet && card && data.names[card] && sheet.a[card]) {
        var row = document.createElement("tr");
        row.className = "sf-sheet-new";
        var th = document.createElement("th");
        th.scope = "row";
        th.textContent = fill(words.new_animal, { animal: data.names[card] });
        var food = document.createElement("td");
        food.className = "sf-small";
        food.textContent = sheet.a[card][1]
          ? fill(words.stores, { foods: sheet.a[card][1].split("").map(function (f) { return data.letters[f] || f; }).join(" ") })
          : words.no_food;
        var score = document.createElement("td");
        score.className = "sf-sheet-score sf-up";
        score.textContent = "\u2192 " + sheet.a[card][0];
        row.appendChild(th); row.appendChild(food); row.appendChild(score);
        sheetBody.appendChild(row);
      }
      var change = sheet ? sheet.t - before.t : 0;
      totalDelta.textContent = sheet ? "\u2192 " + sheet.t + " (" + signed(change) + ")" : "";
      totalDelta.className = "sf-sheet-delta sf-total-delta" + (change > 0 ? " sf-up" : change < 0 ? " sf-down-text" : "");
      if (captionTotal) captionTotal.textContent = fill(words.points, { points: sheet ? before.t + " \u2192 " + sheet.t : before.t });
      if (totalCell) totalCell.textContent = before.t;
    }

    function renderKeep(r) {
      var show = r.shared.length > 0 && !r.hovering;
      keepBox.hidden = !show;
      if (!show) { keepKey = null; return; }
      var key = JSON.stringify(r.spot) + "|" + JSON.stringify(r.shared);
      if (key !== keepKey) {
        keepKey = key;
        keepGroups.innerHTML = "";
        r.shared.forEach(function (group, g) {
          var div = document.createElement("div");
          div.className = "sf-keep-group";
          div.setAttribute("role", "radiogroup");
          div.setAttribute("aria-label", fill(words.keep_one_of, { animals: group.map(name).join(", ") }));
          group.forEach(function (animal) {
            var best = null;
            r.spot.forEach(function (i) {
              if ((P[i].keep || []).indexOf(animal) >= 0 && (best === null || P[i].t > best)) best = P[i].t;
            });
            var label = document.createElement("label");
            var radio = document.createElement("input");
            radio.type = "radio";
            radio.name = "sf-keep-" + g;
            radio.value = animal;
            radio.setAttribute("data-group", g);
            label.appendChild(radio);
            label.appendChild(document.createTextNode(" " + fill(words.keep_the, { animal: name(animal) }) + " "));
            var small = document.createElement("span");
            small.className = "sf-small";
            small.textContent = best === null ? "" : fill(words.total_change, { total: best, change: signed(best - before.t) });
            label.appendChild(small);
            div.appendChild(label);
          });
          keepGroups.appendChild(div);
        });
      }
      keepGroups.querySelectorAll("input[type=radio]").forEach(function (radio) {
        radio.checked = state.keep[radio.getAttribute("data-group")] === radio.value;
      });
    }

    function renderToken(r) {
      var options = r.placement !== null && !r.hovering ? r.options.filter(function (i) { return !!M[i].token; }) : [];
      tokenBox.hidden = options.length === 0;
      svg.querySelectorAll(".sf-target, .sf-target-card").forEach(function (t) {
        var id = t.getAttribute("data-card"), food = t.getAttribute("data-food");
        var can = options.some(function (i) {
          var tok = M[i].token;
          return tok.animal === id && (t.classList.contains("sf-target") ? tok.food === food : !tok.food);
        });
        t.classList.toggle("sf-can", can);
        t.setAttribute("tabindex", can ? "0" : "-1");
      });
      if (!options.length) { tokenKey = null; return; }
      var goat = !!M[options[0]].token.food;
      tokenLegend.textContent = goat ? words.drop_legend : words.burrow_legend;
      var key = options.join(",");
      if (key !== tokenKey) {
        tokenKey = key;
        tokenOptions.innerHTML = "";
        options.forEach(function (i) {
          var tok = M[i].token;
          var button = document.createElement("button");
          button.type = "button";
          button.setAttribute("data-move-index", i);
          button.appendChild(document.createTextNode(name(tok.animal) + (tok.food ? " \u00b7 " + data.foods[tok.food] : "") + " "));
          var gain = document.createElement("span");
          gain.className = "sf-opt-gain";
          gain.textContent = signed(M[i].t - P[r.placement].t);
          button.appendChild(gain);
          tokenOptions.appendChild(button);
        });
      }
      tokenOptions.querySelectorAll("button").forEach(function (button) {
        var i = Number(button.getAttribute("data-move-index"));
        button.setAttribute("aria-pressed", r.move === i ? "true" : "false");
      });
    }

    // -- input ------------------------------------------------------------------------

    function pickSlot(slot) {
      if (state.slot === slot) {
        var keepRot = state.rot;
        state = fresh();
        state.rot = keepRot;
      } else {
        state.slot = slot;
        state.keep = {};
        state.token = null;
        if (state.x !== null && !canPlace(slot, state.x, state.y)) { state.x = null; state.y = null; }
      }
      render();
    }

    function pickCell(node) {
      if (!node.classList.contains("sf-can")) return;
      var c = cellOf(node);
      if (state.x !== c.x || state.y !== c.y) { state.keep = {}; state.token = null; }
      state.x = c.x;
      state.y = c.y;
      state.hover = null;
      render();
    }

    function turn(by) {
      if (!state.slot) return;
      var cell = state.hover || (state.x === null ? null : { x: state.x, y: state.y });
      var rots = cell ? rotationsAt(state.slot, cell.x, cell.y) : [0, 1, 2, 3];
      if (!rots.length) return;
      var at = rots.indexOf(state.rot);
      state.rot = rots[((at < 0 ? 0 : at) + by + rots.length) % rots.length];
      render();
    }

    function pickToken(animal, food) {
      state.token = food ? { animal: animal, food: food } : { animal: animal };
      render();
    }

    slotButtons.forEach(function (button) {
      button.addEventListener("click", function () {
        if (!button.disabled) pickSlot(button.getAttribute("data-slot"));
      });
    });
    rotButtons.forEach(function (button) {
      button.addEventListener("click", function () { turn(Number(button.getAttribute("data-turn"))); });
    });
    controls.querySelector(".sf-cancel").addEventListener("click", function () {
      state = fresh();
      render();
    });
    keepGroups.addEventListener("change", function (event) {
      var radio = event.target;
      if (radio && radio.name && radio.name.indexOf("sf-keep-") === 0) {
        state.keep[radio.getAttribute("data-group")] = radio.value;
        render();
      }
    });
    tokenOptions.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-move-index]");
      if (!button) return;
      var tok = M[Number(button.getAttribute("data-move-index"))].token;
      pickToken(tok.animal, tok.food);
    });

    function act(target) {
      var cell = target.closest(".sf-open");
      if (cell && svg.contains(cell)) { pickCell(cell); return true; }
      var t = target.closest(".sf-target.sf-can, .sf-target-card.sf-can");
      if (t && svg.contains(t)) { pickToken(t.getAttribute("data-card"), t.getAttribute("data-food")); return true; }
      return false;
    }

    svg.addEventListener("click", function (event) { act(event.target); });
    svg.addEventListener("pointerover", function (event) {
      var cell = event.target.closest(".sf-open.sf-can");
      // Hovering previews a cell only until one is picked; then the picked cell stays shown.
      if (!cell || event.pointerType === "touch" || state.x !== null) return;
      var c = cellOf(cell);
      if (!state.hover || state.hover.x !== c.x || state.hover.y !== c.y) {
        state.hover = c;
        render();
      }
    });
    svg.addEventListener("pointerleave", function () {
      if (state.hover) { state.hover = null; render(); }
    });
    svg.addEventListener("pointerout", function (event) {
      if (!state.hover) return;
      var to = event.relatedTarget;
      var cell = to && to.closest ? to.closest(".sf-open.sf-can") : null;
      if (!cell) { state.hover = null; render(); }
    });
    svg.addEventListener("keydown", function (event) {
      if ((event.key === "Enter" || event.key === " ") && act(event.target)) event.preventDefault();
    });
    board.addEventListener("keydown", function (event) {
      var tag = event.target.tagName;
      if (tag === "INPUT" && event.target.type === "text" || tag === "TEXTAREA") return;
      if (event.key === "r" || event.key === "R") {
        if (!state.slot || event.ctrlKey || event.metaKey || event.altKey) return;
        turn(event.shiftKey ? -1 : 1);
        event.preventDefault();
      } else if (event.key === "Escape" && state.slot) {
        state = fresh();
        render();
        event.preventDefault();
      }
    });
    form.addEventListener("submit", function () {
      board.classList.add("sf-busy");
      say(words.sending);
    });
    board.addEventListener("htmx:responseError", function () { board.classList.remove("sf-busy"); });

    render();
  }

  document.addEventListener("htmx:load", function (event) { init(event.detail && event.detail.elt); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
