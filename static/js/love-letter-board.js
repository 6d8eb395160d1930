/* Love Letter board: play with the cards. Click a card in your hand, then a player, then (Guard)
 * the card you name; the board says in words what will happen, and Confirm sends the move (Cancel
 * or Esc drops it). In the 2019 Chancellor's choice, click the card to keep, then the card to put
 * at the very bottom. Every move posted is one of the legal moves embedded by the template
 * (#ll-moves), verbatim. The account setting "Confirm moves on the board" (data-confirm="off")
 * sends a move as soon as it is complete, except the Princess, which always asks (rules, ruling
 * 19). The panel's move buttons fold away under "Play by text". htmx swaps the panel in after each
 * move, so everything is set up again on each htmx:load; nothing survives a swap. */
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

  function title(card) {
    return card ? card.charAt(0).toUpperCase() + card.slice(1) : "";
  }

  function setup(board) {
    if (board.llReady) return;
    board.llReady = true;
    board.classList.add("ll-js");
    var data = board.querySelector("#ll-moves");
    var hand = Array.prototype.slice.call(board.querySelectorAll(".ll-hand .ll-big"));
    var moves = data ? JSON.parse(data.textContent) : [];
    if (!moves.length) {
      hand.forEach(function (button) { button.setAttribute("aria-disabled", "true"); });
      return;
    }
    var confirming = board.getAttribute("data-confirm") !== "off";
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
      if (!playable && !chancellor) button.title = "You must play the Countess: she is in your hand with the King or a Prince.";
    });

    function candidates(card) {
      return moves.filter(function (m) {
        return chancellor ? m.move.keep === card : m.move.card === card;
      });
    }

    function nameOf(seat) {
      var box = board.querySelector('.player[data-seat="' + seat + '"]');
      return box ? box.getAttribute("data-name") : "player " + (Number(seat) + 1);
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
      var card = button.getAttribute("data-card");
      var index = Number(button.getAttribute("data-index"));
      if (button.getAttribute("aria-disabled") === "true") {
        ask(button.title || "You cannot play the " + title(card) + " now.");
        return;
      }
      if (chancellor && chosen.keep && index !== chosen.keepIndex) return pickBottom(button);
      if (index === (chancellor ? chosen.keepIndex : chosen.index)) return cancel();
      reset();
      button.classList.add(chancellor ? "ll-kept" : "ll-selected");
      button.setAttribute("aria-pressed", "true");
      var options = candidates(card);
      if (chancellor) {
        chosen = { keep: card, keepIndex: index };
        if (options.length === 1) return complete(options[0]);
        return ask("You keep the " + title(card) + ". Now click the card to put at the very bottom of the deck.");
      }
      chosen = { card: card, index: index };
      var aimed = options.filter(function (m) { return m.move.target !== undefined && m.move.target !== null; });
      if (!aimed.length) return complete(options[0]);
      var seats = [];
      aimed.forEach(function (m) { if (seats.indexOf(m.move.target) < 0) seats.push(m.move.target); });
      targets.forEach(function (target) {
        var on = seats.indexOf(Number(target.getAttribute("data-seat"))) >= 0;
        target.hidden = !on;
        target.closest(".player").classList.toggle("ll-choosable", on);
      });
      ask("Choose the player for your " + title(card) + ".");
      var first = targets.filter(function (target) { return !target.hidden; })[0];
      if (first && button.matches(":focus-visible")) first.focus();
    }

    function pickBottom(button) {
      var card = button.getAttribute("data-card");
      var match = candidates(chosen.keep).filter(function (m) { return m.move.bottom[m.move.bottom.length - 1] === card; })[0];
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
      ask("Name a card: if " + nameOf(seat) + " holds it, " + nameOf(seat) + " is out of the round.");
      var first = guesses.querySelector(".ll-guess:not([hidden])");
      if (first && target.matches(":focus-visible")) first.focus();
    }

    function pickGuess(guess) {
      var card = guess.getAttribute("data-card");
      var match = candidates(chosen.card).filter(function (m) {
        return m.move.target === chosen.target && m.move.guess === card;
      })[0];
      if (match) complete(match);
    }

    function complete(m) {
      ready = m;
      input.value = m.json;
      input.disabled = false;
      if (!confirming && m.move.card !== "princess") return send();
      guesses.hidden = true;
      ask("Confirm your move?");
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
      summary.textContent = "Sending your move…";
      confirm.hidden = true;
      step.hidden = false;
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    }

    function describe(m) {
      var move = m.move;
      if (chancellor) {
        var bottom = move.bottom.map(title);
        if (!bottom.length) return "You keep the " + title(move.keep) + ".";
        if (bottom.length === 1) return "You keep the " + title(move.keep) + " and put the " + bottom[0] + " on the bottom of the deck.";
        return "You keep the " + title(move.keep) + " and put the " + bottom.slice(0, -1).join(", the ") + " and then the " +
          bottom[bottom.length - 1] + " on the bottom of the deck (the " + bottom[bottom.length - 1] + " lowest).";
      }
      var card = move.card;
      var other = otherCards(chosen.index)[0];
      var on = move.target === undefined || move.target === null ? null : nameOf(move.target);
      var you = "You play the " + title(card);
      if (on === null && TARGETED.indexOf(card) >= 0) {
        return you + ": every other player is protected or out, so it has no effect.";
      }
      switch (card) {
        case "guard":
          return you + " on " + on + " and name the " + title(move.guess) + ": if " + on + " holds the " +
            title(move.guess) + ", " + on + " is out of the round.";
        case "priest":
          return you + " on " + on + " and see " + on + "'s card.";
        case "baron":
          return you + " on " + on + ": your " + title(other) + " against " + on + "'s card; the lower value is out " +
            "of the round, and a tie does nothing.";
        case "handmaid":
          return you + ": until your next turn, other players' cards cannot choose you.";
        case "prince":
          if (on === "yourself") {
            return other === "princess" ? you + " on yourself: you discard the Princess and are out of the round."
              : you + " on yourself: you discard your " + title(other) + " and draw a new card.";
          }
          return you + " on " + on + ": " + on + " discards their card and draws a new one (discarding the Princess puts " +
            on + " out of the round).";
        case "king":
          return you + " on " + on + ": you give " + on + " your " + title(other) + " and take " + on + "'s card.";
        case "countess":
          return you + ": she has no effect.";
        case "princess":
          return you + ": you are out of the round.";
        case "spy":
          return you + ": no effect now; it may win you a token at the end of the round.";
        case "chancellor":
          return you + ": you draw up to two cards, then keep one card and put the others on the bottom of the deck.";
      }
      return you + ".";
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
    if (button && button.textContent.trim() === "princess" &&
        !window.confirm("Playing the Princess knocks you out of the round. Play her?")) {
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
