/* Love Letter board: play with the cards. Click a card in your hand, then a player, then (Guard)
 * the card you name; the board says in words what will happen, and Confirm sends the move (Cancel
 * or Esc drops it). In the 2019 Chancellor's choice, click the card to keep, then the card to put
 * at the very bottom. Every move posted is one of the legal moves embedded by the template
 * (#ll-moves), verbatim. The account setting "Confirm moves on the board" (data-confirm="off")
 * sends a move as soon as it is complete, except the Princess, which always asks (rules, ruling
 * 19). The panel's move buttons fold away under "Play by text". htmx swaps the panel in after each
 * move, so everything is set up again on each htmx:load; nothing survives a swap.
 * Every word comes from the page (#love-letter-words, the engine's board_data in the reader's
 * language): sentences with {placeholders} this script fills in with card and player names. */
(function () {
  "use strict";
  if (window.LoveLetterBoard) return; // htmx re-runs this script when it swaps the panel in
  window.LoveLetterBoard = { init: init };

  var TARGETED = ["guard", "priest", "baron", "king"];

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches(".ll-board")) setup(scope);
    scope.querySelectorAll(".ll-board").forEach(setup);
  }

  function wordsIn(scope) {
    var block = scope.querySelector("#love-letter-words");
    return block ? JSON.parse(block.textContent) : null;
  }

  /* Put the values into a sentence's {placeholders}. */
  function fill(sentence, values) {
    return sentence.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : whole;
    });
  }

  function setup(board) {
    if (board.llReady) return;
    board.llReady = true;
    board.classList.add("ll-js");
    var data = board.querySelector("#ll-moves");
    var hand = Array.prototype.slice.call(board.querySelectorAll(".ll-hand .ll-big"));
    var moves = data ? JSON.parse(data.textContent) : [];
    var words = wordsIn(board);
    if (!moves.length || !words) {
      hand.forEach(function (button) { button.setAttribute("aria-disabled", "true"); });
      return;
    }
    var confirming = board.getAttribute("data-confirm") !== "off";
    var you = board.hasAttribute("data-you") ? Number(board.getAttribute("data-you")) : null;
    var chancellor = board.getAttribute("data-phase") === "await_chancellor";
    var step = board.querySelector(".ll-step");
    var prompt = board.querySelector(".ll-prompt");
    var guesses = board.querySelector(".ll-guesses");
    var form = board.querySelector("form.ll-form");
    var input = form.querySelector("input[name=move]");
    var summary = board.querySelector(".ll-summary");
    var confirm = board.querySelector(".ll-confirm");
    var targets = Array.prototype.slice.call(board.querySelectorAll(".ll-target"));
    var chosen = {}; // card, index (in the hand), target, keep, keepIndex
    var ready = null; // the complete move waiting for Confirm

    foldTextMoves(board);

    hand.forEach(function (button) {
      var playable = candidates(button.getAttribute("data-card")).length > 0;
      button.setAttribute("aria-disabled", playable ? "false" : "true");
      if (!playable && !chancellor) button.title = words.countess_forced;
    });

    function candidates(code) {
      return moves.filter(function (m) {
        return chancellor ? m.move.keep === code : m.move.card === code;
      });
    }

    function nameOf(seat) {
      var box = board.querySelector('.player[data-seat="' + seat + '"]');
      return box ? box.getAttribute("data-name") : fill(words.player_n, { number: Number(seat) + 1 });
    }

    /* A card's name in the form a sentence needs: "name" alone, "subject" or "object" with its article. */
    function card(code, shape) {
      return code && words.cards[code] ? words.cards[code][shape] : "";
    }

    function otherCards(index) {
      return hand.filter(function (button) { return Number(button.getAttribute("data-index")) !== index; })
        .map(function (button) { return button.getAttribute("data-card"); });
    }

    function ask(text) {
      step.hidden = false;
      prompt.textContent = text;
    }

    function reset() {
      chosen = {};
      ready = null;
      input.value = "";
      input.disabled = true;
      confirm.hidden = true;
      summary.textContent = "";
      guesses.hidden = true;
      step.hidden = true;
      hand.forEach(function (button) {
        button.classList.remove("ll-selected", "ll-kept");
        button.setAttribute("aria-pressed", "false");
      });
      targets.forEach(function (button) { button.hidden = true; });
      board.querySelectorAll(".player.ll-choosable, .player.ll-chosen").forEach(function (box) {
        box.classList.remove("ll-choosable", "ll-chosen");
      });
    }

    function cancel() {
      var back = hand[chosen.keepIndex !== undefined ? chosen.keepIndex : chosen.index];
      reset();
      if (back) back.focus();
    }

    function pick(button) {
      var code = button.getAttribute("data-card");
      var index = Number(button.getAttribute("data-index"));
      if (button.getAttribute("aria-disabled") === "true") {
        ask(button.title || fill(words.cannot_play, { card: card(code, "object") }));
        return;
      }
      if (chancellor && chosen.keep && index !== chosen.keepIndex) return pickBottom(button);
      if (index === (chancellor ? chosen.keepIndex : chosen.index)) return cancel();
      reset();
      button.classList.add(chancellor ? "ll-kept" : "ll-selected");
      button.setAttribute("aria-pressed", "true");
      var options = candidates(code);
      if (chancellor) {
        chosen = { keep: code, keepIndex: index };
        if (options.length === 1) return complete(options[0]);
        return ask(fill(words.keep_then_bottom, { card: card(code, "object") }));
      }
      chosen = { card: code, index: index };
      var aimed = options.filter(function (m) { return m.move.target !== undefined && m.move.target !== null; });
      if (!aimed.length) return complete(options[0]);
      var seats = [];
      aimed.forEach(function (m) { if (seats.indexOf(m.move.target) < 0) seats.push(m.move.target); });
      targets.forEach(function (target) {
        var on = seats.indexOf(Number(target.getAttribute("data-seat"))) >= 0;
        target.hidden = !on;
        target.closest(".player").classList.toggle("ll-choosable", on);
      });
      ask(fill(words.choose_player, { name: card(code, "name") }));
      var first = targets.filter(function (target) { return !target.hidden; })[0];
      if (first && button.matches(":focus-visible")) first.focus();
    }

    function pickBottom(button) {
      var code = button.getAttribute("data-card");
      var match = candidates(chosen.keep).filter(function (m) { return m.move.bottom[m.move.bottom.length - 1] === code; })[0];
      if (match) complete(match);
    }

    function pickTarget(target) {
      var seat = Number(target.getAttribute("data-seat"));
      var options = candidates(chosen.card).filter(function (m) { return m.move.target === seat; });
      if (!options.length) return;
      chosen.target = seat;
      targets.forEach(function (other) {
        other.closest(".player").classList.toggle("ll-chosen", other === target);
        other.closest(".player").classList.remove("ll-choosable");
        other.hidden = other !== target;
      });
      if (options.length === 1) return complete(options[0]);
      var named = options.map(function (m) { return m.move.guess; });
      guesses.hidden = false;
      guesses.querySelectorAll(".ll-guess").forEach(function (guess) {
        guess.hidden = named.indexOf(guess.getAttribute("data-card")) < 0;
      });
      ask(fill(words.name_a_card, { player: nameOf(seat) }));
      var first = guesses.querySelector(".ll-guess:not([hidden])");
      if (first && target.matches(":focus-visible")) first.focus();
    }

    function pickGuess(guess) {
      var code = guess.getAttribute("data-card");
      var match = candidates(chosen.card).filter(function (m) {
        return m.move.target === chosen.target && m.move.guess === code;
      })[0];
      if (match) complete(match);
    }

    function complete(m) {
      ready = m;
      input.value = m.json;
      input.disabled = false;
      if (!confirming && m.move.card !== "princess") return send();
      guesses.hidden = true;
      ask(words.confirm_move);
      summary.textContent = describe(m) + " ";
      var notation = document.createElement("span");
      notation.className = "ll-notation";
      notation.textContent = "(" + m.text + ")";
      summary.appendChild(notation);
      confirm.hidden = false;
      confirm.focus();
    }

    function send() {
      if (!ready || board.classList.contains("ll-busy")) return;
      board.classList.add("ll-busy");
      summary.textContent = words.sending;
      confirm.hidden = true;
      step.hidden = false;
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    }

    /* What the move will do, in a sentence: words[...] with its {placeholders} filled in. */
    function describe(m) {
      var move = m.move;
      if (chancellor) {
        var bottom = move.bottom;
        var kept = { keep: card(move.keep, "object") };
        if (!bottom.length) return fill(words.keep_only, kept);
        kept.first = card(bottom[0], "object");
        if (bottom.length === 1) return fill(words.keep_one_bottom, kept);
        kept.last = card(bottom[bottom.length - 1], "object");
        kept.lowest = card(bottom[bottom.length - 1], "subject");
        return fill(words.keep_two_bottom, kept);  // the Chancellor draws two cards: two go back at most
      }
      var code = move.card;
      var other = otherCards(chosen.index)[0];
      var aimed = move.target !== undefined && move.target !== null;
      var values = {
        card: card(code, "object"),
        player: aimed ? nameOf(move.target) : "",
        guess: card(move.guess, "object"),
        mine: card(other, "name"),
        other: card(other, "name")
      };
      if (!aimed && TARGETED.indexOf(code) >= 0) return fill(words.no_target, values);
      if (code === "prince" && move.target === you) {
        return fill(other === "princess" ? words.prince_self_princess : words.prince_self, values);
      }
      var sentence = Object.prototype.hasOwnProperty.call(words, code) && typeof words[code] === "string"
        ? words[code] : words.other;
      return fill(sentence, values);
    }

    board.addEventListener("click", function (event) {
      var el = event.target.closest && event.target.closest(".ll-big, .ll-target, .ll-guess, .ll-cancel");
      if (!el || !board.contains(el) || board.classList.contains("ll-busy")) return;
      if (el.classList.contains("ll-big")) pick(el);
      else if (el.classList.contains("ll-target")) pickTarget(el);
      else if (el.classList.contains("ll-guess")) pickGuess(el);
      else cancel();
    });
    board.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !step.hidden && !board.classList.contains("ll-busy")) {
        event.preventDefault();
        cancel();
      }
    });
    form.addEventListener("submit", function () {
      board.classList.add("ll-busy");
    });
    board.addEventListener("htmx:responseError", function () {
      board.classList.remove("ll-busy");
    });
  }

  /* The panel's move buttons and text box stay, folded under "Play by text". */
  function foldTextMoves(board) {
    var fold = board.querySelector(".ll-fallback");
    var panel = board.closest("#panel");
    var section = panel && panel.querySelector("section.moves");
    if (!fold || !section) return;
    fold.appendChild(section);
    fold.hidden = false;
  }

  /* Rules, ruling 19: playing the Princess knocks you out of the round, so the text buttons ask too. */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.move");
    var words = button && wordsIn(document);
    if (words && button.textContent.trim() === words.princess_word && !window.confirm(words.princess_question)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  document.addEventListener("htmx:load", function (event) {
    init(event.detail && event.detail.elt);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
