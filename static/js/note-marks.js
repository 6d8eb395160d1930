/* A player's marks on the board's cards and tiles (issue 46): drawn over each element of the board whose data-spot
   names a marked card or tile, from the notes panel's JSON (#note-marks-data: the player's own marks, never anyone
   else's). The board is drawn again as the game moves on (a live update, a board's own script drawing its tiles): the
   marks follow it. The marks are also listed, with words, in the notes panel: this picture is for the eye alone. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var data = document.getElementById("note-marks-data");
  if (!data) return;
  var marks = JSON.parse(data.textContent || "[]");
  if (!marks.length) return;

  function badgeFor(element, mark) {
    if (element instanceof SVGGraphicsElement) {
      var box = element.getBBox();
      var g = document.createElementNS(SVG, "g");
      g.setAttribute("class", "note-mark");
      g.setAttribute("aria-hidden", "true");
      var size = Math.max(10, Math.min(box.width, box.height) * 0.18);
      g.setAttribute("transform", "translate(" + (box.x + box.width - size) + " " + (box.y + size) + ")");
      var circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("r", String(size));
      var text = document.createElementNS(SVG, "text");
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("dominant-baseline", "central");
      text.setAttribute("font-size", String(size * 1.3));
      text.textContent = mark.glyph;
      var title = document.createElementNS(SVG, "title");
      title.textContent = mark.title;
      g.appendChild(title);
      g.appendChild(circle);
      g.appendChild(text);
      return g;
    }
    var span = document.createElement("span");
    span.className = "note-mark";
    span.setAttribute("aria-hidden", "true");
    span.title = mark.title;
    span.textContent = mark.glyph;
    if (getComputedStyle(element).position === "static") element.style.position = "relative";
    return span;
  }

  var drawing = false;
  function draw() {
    drawing = true;
    document.querySelectorAll(".note-mark").forEach(function (old) { old.remove(); });
    marks.forEach(function (mark) {
      document.querySelectorAll('[data-spot="' + CSS.escape(mark.spot) + '"]').forEach(function (element) {
        if (element.closest("#note-marks-data, .note-marks")) return;
        element.appendChild(badgeFor(element, mark));
      });
    });
    drawing = false;
  }

  var queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; draw(); });
  }

  new MutationObserver(function (changes) {
    if (drawing) return;
    var boardChanged = changes.some(function (change) {
      return Array.prototype.some.call(change.addedNodes, function (node) {
        return node.nodeType === 1 && !(node.classList && node.classList.contains("note-mark"));
      });
    });
    if (boardChanged) soon();
  }).observe(document.body, { childList: true, subtree: true });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", soon);
  else soon();
})();
