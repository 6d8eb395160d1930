/* The new-table form: one seat picker per player. The page holds a picker for every possible seat,
 * those past the chosen count hidden and disabled (so they are not sent); this shows exactly the
 * count's pickers whenever the count changes. */
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

  document.addEventListener("change", function (event) {
    var countSelect = event.target.closest && event.target.closest("[data-seat-count]");
    if (countSelect) showSeats(countSelect);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-seat-count]").forEach(showSeats);
  });
})();
