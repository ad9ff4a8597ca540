// The API docs page's filter and sections. Each API is a collapsed <details>; a link to one (or to
// anything inside one) opens it. Typing in the filter box shows only the operations whose row —
// method, path, summary — holds the text (case does not matter), hides the groups and APIs left
// without one, opens those with matches, and says how many match. Without this script the page
// is the whole list, each API opened by a click on its title.
(function () {
  "use strict";
  var input = document.getElementById("docs-filter");
  var count = document.getElementById("docs-filter-count");
  var apis = Array.prototype.slice.call(document.querySelectorAll("details.api"));
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    var api = el && el.closest("details.api");
    if (api) { api.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  if (!input) { return; }
  function apply() {
    var q = input.value.trim().toLowerCase();
    var matched = 0;
    apis.forEach(function (api) {
      var inApi = 0;
      api.querySelectorAll(".docs-group").forEach(function (group) {
        var inGroup = 0;
        group.querySelectorAll("tbody tr").forEach(function (tr) {
          var hit = q === "" || tr.textContent.toLowerCase().indexOf(q) >= 0;
          tr.hidden = !hit;
          if (hit) { inGroup++; }
        });
        group.hidden = inGroup === 0;
        inApi += inGroup;
      });
      api.hidden = inApi === 0;
      if (q !== "" && inApi > 0) { api.open = true; }
      matched += inApi;
    });
    count.textContent = q === "" ? "" : matched + (matched === 1 ? " operation matches" : " operations match");
  }
  input.addEventListener("input", apply);
  apply();
})();
