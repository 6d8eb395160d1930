/* The new-table form (templates/play/game_new.html).
 * One seat picker per player: the page holds a picker for every possible seat, those past the chosen
 * count hidden and disabled (so they are not sent); this shows exactly the count's pickers whenever
 * the count changes.
 * The clock: each field says which time controls it belongs to (data-clock="per_move bank"); this
 * shows only the chosen control's, none for "No clock". Without this script every field shows, and
 * the server reads only the chosen control's. */
(function () {
  "use strict";

  function showSeats(countSelect) {
    var count = parseInt(countSelect.value, 10);
    var form = countSelect.form;
    form.querySelectorAll("[data-seat]").forEach(function (label) {
      var shown = parseInt(label.getAttribute("data-seat"), 10) < count;
      label.hidden = !shown;
      label.querySelector("select").disabled = !shown;
    });
  }

  function showClockFields(clockSelect) {
    clockSelect.form.querySelectorAll("[data-clock]").forEach(function (field) {
      field.hidden = field.getAttribute("data-clock").split(" ").indexOf(clockSelect.value) < 0;
    });
  }

  document.addEventListener("change", function (event) {
    if (!event.target.closest) return;
    var countSelect = event.target.closest("[data-seat-count]");
    if (countSelect) showSeats(countSelect);
    var clockSelect = event.target.closest("[data-clock-choice]");
    if (clockSelect) showClockFields(clockSelect);
  });

  function setUp() {
    document.querySelectorAll("[data-seat-count]").forEach(showSeats);
    document.querySelectorAll("[data-clock-choice]").forEach(showClockFields);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
