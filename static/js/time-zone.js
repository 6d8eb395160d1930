/* The browser's time zone, offered to the person (Intl.DateTimeFormat().resolvedOptions().timeZone):
 *   <select data-browser-time-zone="preselect">  picks the browser's zone (the sign-up form);
 *   <select data-browser-time-zone="offer" data-use-zone-label="...{zone}...">
 *                                                adds a button to pick it (the settings page), worded by the
 *                                                page in the reader's language ({zone}: the zone's name);
 *   <form data-time-zone-offer hidden>           shown, its "Use it" button given the zone, when the browser's zone
 *                                                differs from the person's (they have not chosen one yet).
 * Nothing is sent by itself: the person confirms with a button. */
(function () {
  "use strict";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  // The names a browser may give UTC by ("Etc/UTC" on many Linux machines).
  var UTC_NAMES = ["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu",
                   "GMT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Greenwich", "Greenwich"];

  function sameZone(one, other) {
    return one === other || (UTC_NAMES.indexOf(one) >= 0 && UTC_NAMES.indexOf(other) >= 0);
  }

  function hasOption(select, value) {
    return Array.prototype.some.call(select.options, function (option) { return option.value === value; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var zone = browserZone();
    if (!zone) return;
    document.querySelectorAll("select[data-browser-time-zone]").forEach(function (select) {
      if (!hasOption(select, zone)) return;
      if (select.getAttribute("data-browser-time-zone") === "preselect") {
        select.value = zone;
        return;
      }
      if (sameZone(select.value, zone)) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary use-browser-zone";
      button.textContent = (select.getAttribute("data-use-zone-label") || "{zone}")
        .replace("{zone}", zone.replace(/_/g, " "));
      button.addEventListener("click", function () { select.value = zone; });
      select.insertAdjacentElement("afterend", button);
    });
    document.querySelectorAll("form[data-time-zone-offer]").forEach(function (form) {
      if (sameZone(form.getAttribute("data-current"), zone)) return;
      form.querySelector("[data-use-zone]").value = zone;
      form.querySelector("[data-zone-name]").textContent = zone.replace(/_/g, " ");
      form.hidden = false;
    });
  });
})();
