/* Small behaviours the pages ask for with data- attributes, so no page needs an inline script or
 * an on...= handler (the Content-Security-Policy allows scripts only from this site's files):
 *   <input data-select-on-click>         selects its text when clicked (the invite link);
 *   <form data-confirm="Question?">      asks before submitting;
 *   <select data-submit-on-change>       submits its form when the choice changes.
 * Listeners sit on the document, so content htmx swaps in later behaves the same. */
(function () {
  "use strict";
  if (window.turnbasedPageActions) return;
  window.turnbasedPageActions = true;

  document.addEventListener("click", function (event) {
    var input = event.target.closest && event.target.closest("[data-select-on-click]");
    if (input) input.select();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  document.addEventListener("change", function (event) {
    var select = event.target.closest && event.target.closest("[data-submit-on-change]");
    if (select && select.form) select.form.submit();
  });
})();
