// The open turn's deadline in the reader's own time, and, when that time has passed
// by the reader's clock since the site was built, a sentence that says so. Without
// this script the deadline reads in UTC, as the site was built.
(function () {
  "use strict";
  document.querySelectorAll("time.local-time[datetime]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    var zone = el.nextElementSibling;
    if (zone && zone.classList.contains("utc")) { zone.remove(); }
    el.textContent = when.toLocaleString(undefined, {
      day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit",
      timeZoneName: "short"
    });
    el.title = el.getAttribute("datetime");
  });
  document.querySelectorAll(".open-turn-due[data-deadline]").forEach(function (due) {
    if (new Date(due.getAttribute("data-deadline")) <= new Date()) {
      due.querySelector(".open-turn-late").hidden = false;
    }
  });
})();
