// Says so above a table too wide for its box: the box scrolls sideways, and on a
// phone nothing else shows that columns lie off-screen (the edge shadow is subtle).
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var hint = wrap.previousElementSibling;
      var has = hint && hint.classList.contains("scroll-hint");
      var wide = wrap.scrollWidth > wrap.clientWidth + 1;
      if (wide && !has) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.setAttribute("aria-hidden", "true");
        hint.textContent = "Scroll the table sideways for more \u2192";
        wrap.parentNode.insertBefore(hint, wrap);
      } else if (!wide && has) {
        hint.remove();
      }
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();
