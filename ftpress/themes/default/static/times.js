// The open turn's deadline in the reader's own time, and, when that time has passed
// by the reader's clock since the site was built, a sentence that says so. Without
// this script the deadline reads in UTC, as the site was built. Either way it is
// written in the site's one style, '18 May 2026, 05:00 UTC+9', whatever the
// browser's locale: the month spelled out in English, the day before it, a 24-hour
// clock, and the zone as its offset from UTC.
(function () {
  "use strict";
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July",
                "August", "September", "October", "November", "December"];
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function zone(when) {
    var east = -when.getTimezoneOffset();  // minutes east of UTC
    if (east === 0) { return "UTC"; }
    var size = Math.abs(east);
    return "UTC" + (east > 0 ? "+" : "\u2212") + Math.floor(size / 60) +
      (size % 60 ? ":" + two(size % 60) : "");
  }
  document.querySelectorAll("time.local-time[datetime]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    el.textContent = when.getDate() + " " + MONTHS[when.getMonth()] + " " +
      when.getFullYear() + ", " + two(when.getHours()) + ":" + two(when.getMinutes());
    var label = el.nextElementSibling;
    if (label && label.classList.contains("utc")) { label.textContent = " " + zone(when); }
    el.title = el.getAttribute("datetime");
  });
  document.querySelectorAll(".open-turn-due[data-deadline]").forEach(function (due) {
    if (new Date(due.getAttribute("data-deadline")) <= new Date()) {
      due.querySelector(".open-turn-late").hidden = false;
    }
  });
})();
