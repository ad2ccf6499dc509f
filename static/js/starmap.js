// The star map: choose a system or a ship (click it, or Tab to it and press Enter) to list
// its distances and draw its jump radius; with a route being planned, a chosen system is
// offered as the next jump. Without this script the forms beside the map do the same.
(function () {
  "use strict";

  function choose(node) {
    var code = node.dataset.code;
    var select = document.getElementById("starmap-from");
    if (!select) return;
    select.value = code;
    var params = new URLSearchParams(window.location.search);
    params.set("from", code);
    params.delete("add");
    if (code.indexOf("ship-") === 0 && document.getElementById("route-form")) {
      params.set("ship", code.slice(5));
    }
    window.location.search = params.toString();
  }

  document.addEventListener("click", function (event) {
    var node = event.target.closest && event.target.closest("svg.star-map .obj");
    if (node) choose(node);
  });
  document.addEventListener("keydown", function (event) {
    var node = event.target.closest && event.target.closest("svg.star-map .obj");
    if (!node || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    choose(node);
  });
})();
