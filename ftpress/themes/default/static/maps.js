// Progressive enhancement for the star maps. Without it every map still shows,
// each world's <title> is its tooltip, and the tables and links say it all.
(function () {
  "use strict";

  // Hovering over or focusing a world highlights it and shows its details beside
  // it, inside the map's frame (a live region, so a screen reader hears them too).
  document.querySelectorAll(".map-details[data-map]").forEach(function (out) {
    var map = document.getElementById(out.getAttribute("data-map"));
    if (!map) { return; }
    var frame = map.parentNode;
    var hint = "Hover over a world, or move to it with the Tab key, for its details.";
    out.hidden = false;
    out.textContent = hint;
    var current = null;
    function show(event) {
      var world = event.target.closest ? event.target.closest(".world") : null;
      var title = world ? world.querySelector("title") : null;
      if (!title) { return; }
      if (current) { current.classList.remove("current"); }
      current = world;
      world.classList.add("current");
      out.textContent = title.textContent;
      if (out.parentNode !== frame) { frame.appendChild(out); }
      out.classList.add("beside");
      var box = world.getBoundingClientRect();
      var at = frame.getBoundingClientRect();
      var left = box.right - at.left + frame.scrollLeft + 8;
      // Beside the world on the right, or on its left where the frame ends.
      if (left + out.offsetWidth > frame.scrollLeft + frame.clientWidth) {
        left = Math.max(frame.scrollLeft, box.left - at.left + frame.scrollLeft - out.offsetWidth - 8);
      }
      out.style.left = left + "px";
      out.style.top = Math.max(0, box.top - at.top + frame.scrollTop) + "px";
    }
    // Leaving the map puts the hint back under it, so nothing is left covering the map.
    function hide() {
      if (current) { current.classList.remove("current"); }
      current = null;
      out.classList.remove("beside");
      out.style.left = out.style.top = "";
      out.textContent = hint;
      frame.parentNode.insertBefore(out, frame.nextSibling);
    }
    map.addEventListener("mouseover", show);
    map.addEventListener("focusin", show);
    map.addEventListener("mouseleave", function () {
      if (!map.contains(document.activeElement)) { hide(); }
    });
    map.addEventListener("focusout", function (event) {
      if (!map.contains(event.relatedTarget)) { hide(); }
    });
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
