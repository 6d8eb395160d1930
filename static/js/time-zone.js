/* The browser's time zone, offered to the person (Intl.DateTimeFormat().resolvedOptions().timeZone):
 *   <select data-browser-time-zone="preselect">  picks the browser's zone (the sign-up form);
 *   <select data-browser-time-zone="offer" data-use-zone-label="...{zone}...">
 *                                                adds a button to pick it (the settings page), worded by the
 *                                                page in the reader's language ({zone}: the zone's name);
 * and on every page it leaves the browser's zone in a cookie (browser_time_zone), from which the next page is drawn
 * with an offer of that zone while the person has not chosen one (accounts/_time_zone_offer.html): an offer shown
 * by this script would push a page down after it was drawn. The account changes only when the person confirms. */
(function () {
  "use strict";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  var COOKIE = "browser_time_zone";
  var YEAR = 365 * 24 * 60 * 60;

  function rememberZone(zone) {
    if (document.cookie.split("; ").indexOf(COOKIE + "=" + zone) >= 0) return;
    document.cookie = COOKIE + "=" + zone + "; path=/; max-age=" + YEAR + "; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
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
    if (!zone || !/^[A-Za-z0-9_+\/-]+$/.test(zone)) return;
    rememberZone(zone);
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
  });
})();
