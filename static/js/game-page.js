/* The game page (templates/play/game_detail.html). Each panel update brings the table's header again
 * out of band (play/_header.html); a fold-out the player opened there stays open across the swap. */
(function () {
  "use strict";
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target;
    var fresh = event.detail.fragment;
    if (!old || old.id !== "game-header" || !fresh || !fresh.querySelectorAll) return;
    old.querySelectorAll("details[data-fold]").forEach(function (fold) {
      var again = fresh.querySelector('details[data-fold="' + fold.getAttribute("data-fold") + '"]');
      if (again) again.open = fold.open;
    });
  });
})();
