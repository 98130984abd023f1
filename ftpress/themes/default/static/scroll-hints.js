// Says so above a box too wide for the screen: the box scrolls sideways, and on a
// phone nothing else shows that columns or half a map lie off-screen (the edge
// shadow is subtle). Wide tables and star maps (maps.js) alike.
(function () {
  "use strict";
  var boxes = [[".table-wrap", "Scroll the table sideways for more \u2192"],
               [".starmap-figure", "Scroll the map sideways for the rest \u2192"]];
  function mark() {
    boxes.forEach(function (box) {
      document.querySelectorAll(box[0]).forEach(function (wrap) {
        var hint = wrap.previousElementSibling;
        var has = hint && hint.classList.contains("scroll-hint");
        var wide = wrap.scrollWidth > wrap.clientWidth + 1;
        if (wide && !has) {
          hint = document.createElement("p");
          hint.className = "scroll-hint";
          hint.setAttribute("aria-hidden", "true");
          hint.textContent = box[1];
          wrap.parentNode.insertBefore(hint, wrap);
        } else if (!wide && has) {
          hint.remove();
        }
      });
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();
