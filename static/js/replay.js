/* The replay page (templates/play/game_replay.html): the arrow keys step back and forth, Home and End
 * go to the first and last positions, and the slider goes where it is let go. Every control is also a
 * plain link or form, so the page works without this script. */
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };

  function go(step) {
    var link = document.querySelector('.replay-controls a[data-step="' + step + '"]');
    if (link) window.location.assign(link.href);
  }

  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    // Typing in a field (or moving the slider, which has keys of its own) is not stepping.
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    event.preventDefault();
    go(step);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var slider = document.getElementById("replay-seq");
    var shown = document.getElementById("replay-seq-shown");
    if (!slider) return;
    slider.addEventListener("input", function () {
      if (shown) shown.textContent = slider.value;
    });
    slider.addEventListener("change", function () {
      slider.form.submit();
    });
  });
})();
