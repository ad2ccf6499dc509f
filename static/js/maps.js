// System maps: choose an object (click, or Tab to it and press Enter) to list its
// distances; with one chosen, point at another to read the distance; as GM, drag a ship
// to move it. Everything works without this script too: the forms beside the map do it.
(function () {
  "use strict";
  var AU_KM = 149597870.7;
  var chosen = null; // data-code of the chosen object
  var drag = null;

  function panel() { return document.getElementById("map-panel"); }
  function svgOf(node) { return node.closest("svg.system-map"); }
  function plain(au) {
    if (au >= 100) return Math.round(au).toLocaleString("en");
    if (au >= 1) return String(Math.round(au * 100) / 100);
    return String(Math.round(au * 10000) / 10000);
  }
  function at(node) { return [parseFloat(node.dataset.x), parseFloat(node.dataset.y)]; }
  function say(text) {
    var out = document.getElementById("map-hover");
    if (out) out.textContent = text;
  }

  function choose(node) {
    chosen = node.dataset.code;
    var select = document.getElementById("distance-from");
    if (select) {
      select.value = chosen;
      var form = select.form;
      if (window.htmx) {
        window.htmx.ajax("GET", panel().getAttribute("hx-get").replace(/([?&])v=[^&]*/, "$1v=").replace(/([?&])from=[^&]*/, "$1from=" + encodeURIComponent(chosen)), { target: "#map-panel", swap: "outerHTML" });
      } else if (form) {
        form.submit();
      }
    }
    var ship = document.querySelector("#move-form select[name=ship]");
    if (ship && node.dataset.ship) ship.value = node.dataset.ship;
  }

  function markChosen(root) {
    if (!root) return;
    var select = document.getElementById("distance-from");
    if (select && select.value) chosen = select.value;
    root.querySelectorAll(".selected").forEach(function (n) { n.classList.remove("selected"); });
    if (!chosen) return;
    var node = root.querySelector('[data-code="' + CSS.escape(chosen) + '"]');
    if (node) node.classList.add("selected");
  }

  function hover(node) {
    if (!chosen || node.dataset.code === chosen) return;
    var origin = document.querySelector('svg.system-map [data-code="' + CSS.escape(chosen) + '"]');
    if (!origin) return;
    var a = at(origin), b = at(node);
    var au = Math.hypot(a[0] - b[0], a[1] - b[1]);
    say(origin.dataset.label + " to " + node.dataset.label + ": " + plain(au) + " AU (" +
        Math.round(au * AU_KM).toLocaleString("en") + " km)");
  }

  // Pixels on the drawing back to AU: the inverse of the server's projection.
  function toAU(svg, px, py) {
    var cx = parseFloat(svg.dataset.cx), cy = parseFloat(svg.dataset.cy), k = parseFloat(svg.dataset.scale);
    var dx = px - cx, dy = cy - py;
    if (svg.dataset.mode === "log") {
      var r = Math.hypot(dx, dy);
      if (r === 0) return [0, 0];
      var au = parseFloat(svg.dataset.unit) * (Math.pow(10, r / k) - 1);
      return [dx / r * au, dy / r * au];
    }
    return [dx / k, dy / k];
  }
  function pointer(svg, event) {
    var p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  document.addEventListener("pointerdown", function (event) {
    var node = event.target.closest && event.target.closest("svg.system-map .ship");
    var url = panel() && panel().dataset.moveUrl;
    if (!node || !url || event.button !== 0) return;
    var svg = svgOf(node), start = pointer(svg, event);
    drag = { node: node, svg: svg, start: start, moved: false, url: url };
    window.mapBusy = true;
    node.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var p = pointer(drag.svg, event);
    if (!drag.moved && Math.hypot(p.x - drag.start.x, p.y - drag.start.y) < 4) return;
    drag.moved = true;
    drag.node.classList.add("dragging");
    drag.node.setAttribute("transform", "translate(" + p.x.toFixed(1) + " " + p.y.toFixed(1) + ")");
    var au = toAU(drag.svg, p.x, p.y);
    say(drag.node.dataset.label + ": x " + plain(au[0]) + ", y " + plain(au[1]) + " AU");
  });
  // The map follows the page's "campaign-changed"; one that came while a ship was being
  // dragged is caught up with when the drag ends without a move.
  var missed = false;
  document.body.addEventListener("campaign-changed", function () { if (window.mapBusy) missed = true; });
  function idle() {
    window.mapBusy = false;
    if (missed && window.htmx) { missed = false; window.htmx.trigger(document.body, "campaign-changed"); }
  }

  document.addEventListener("pointerup", function (event) {
    if (!drag) return;
    var d = drag;
    drag = null;
    if (!d.moved) { idle(); choose(d.node); return; }
    var p = pointer(d.svg, event), au = toAU(d.svg, p.x, p.y);
    var body = new URLSearchParams();
    body.set("ship", d.node.dataset.ship);
    body.set("anchor", "xy");
    body.set("x_au", au[0].toFixed(4));
    body.set("y_au", au[1].toFixed(4));
    body.set("mode", d.svg.dataset.mode);
    say("Moving " + d.node.dataset.label + "…");
    fetch(d.url, { method: "POST", body: body, headers: { "X-CSRFToken": csrf(), "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) { return response.text().then(function (html) { return [response, html]; }); })
      .then(function (pair) {
        window.mapBusy = false;
        var old = panel();
        if (!old) return;
        old.outerHTML = pair[1];
        var fresh = panel();
        if (window.htmx) window.htmx.process(fresh);
        markChosen(fresh);
        if (!pair[0].ok) say("The move was refused: see the form beside the map.");
      })
      .catch(function () { idle(); say("The move did not reach the server; try again."); });
  });

  document.addEventListener("click", function (event) {
    var node = event.target.closest && event.target.closest("svg.system-map .obj");
    if (node) choose(node);
  });
  document.addEventListener("keydown", function (event) {
    var node = event.target.closest && event.target.closest("svg.system-map [data-code]");
    if (!node || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    choose(node);
  });
  document.addEventListener("pointerover", function (event) {
    var node = event.target.closest && event.target.closest("svg.system-map [data-code]");
    if (node && !drag) hover(node);
  });
  document.addEventListener("focusin", function (event) {
    var node = event.target.closest && event.target.closest("svg.system-map [data-code]");
    if (node) hover(node);
  });
  document.addEventListener("htmx:afterSwap", function () { markChosen(panel()); });
  document.addEventListener("DOMContentLoaded", function () { markChosen(panel()); });
})();
