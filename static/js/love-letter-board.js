/* Love Letter board. Rules file, ruling 19: playing the Princess knocks you out of the round, so
 * ask first. htmx runs this file again each time it swaps the panel in; the guard is added once. */
(function () {
  "use strict";
  if (window.loveLetterPrincessGuard) return;
  window.loveLetterPrincessGuard = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.move");
    if (button && button.textContent.trim() === "princess" &&
        !window.confirm("Playing the Princess knocks you out of the round. Play her?")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
})();
