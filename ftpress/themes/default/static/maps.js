// Progressive enhancement for the star maps. Without it every map still shows,
// each world's <title> is its tooltip, and the tables and links say it all.
(function () {
  "use strict";

  // Hovering over or focusing a world shows its details in a live region.
  document.querySelectorAll(".map-details[data-map]").forEach(function (out) {
    var map = document.getElementById(out.getAttribute("data-map"));
    if (!map) { return; }
    out.hidden = false;
    out.textContent = "Hover over a world, or move to it with the Tab key, for its details.";
    function show(event) {
      var world = event.target.closest ? event.target.closest(".world") : null;
      var title = world ? world.querySelector("title") : null;
      if (title) { out.textContent = title.textContent; }
    }
    map.addEventListener("mouseover", show);
    map.addEventListener("focusin", show);
  });

  // The replay on /turns/: a slider steps through every turn's map.
  var form = document.getElementById("replay-form");
  if (!form) { return; }
  var frames = JSON.parse(form.getAttribute("data-frames"));
  var slider = document.getElementById("replay-turn");
  var img = document.getElementById("replay-map");
  var caption = document.getElementById("replay-caption");
  form.hidden = false;
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  slider.addEventListener("input", function () {
    var frame = frames[Number(slider.value)];
    img.src = frame.url;
    img.alt = frame.alt;
    caption.textContent = frame.title;
    slider.setAttribute("aria-valuetext", frame.title);
  });
})();
