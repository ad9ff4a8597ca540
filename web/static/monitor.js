// The build monitor's live update: every few seconds ask /projects/<p>/monitor/table (same
// filters) for the matrix, sending the results version shown; the server answers 204 while it
// is current, else the new matrix, which replaces the old. Without this script the page is the
// matrix as it was when loaded.
(function () {
  "use strict";
  var every = 5000;
  var status = document.getElementById("monitor-live");
  function url() {
    var m = document.getElementById("monitor");
    var q = new URLSearchParams(location.search);
    if (m && m.dataset.version) { q.set("v", m.dataset.version); }
    return location.pathname.replace(/\/$/, "") + "/table?" + q.toString();
  }
  function poll() {
    if (document.hidden) { setTimeout(poll, every); return; }
    fetch(url(), { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.status === 200) {
        return r.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("monitor");
          var old = document.getElementById("monitor");
          if (fresh && old) {
            old.replaceWith(document.importNode(fresh, true));
            if (status) { status.textContent = "Updated " + new Date().toLocaleTimeString() + "."; }
          }
        });
      }
    }).catch(function () {
      if (status) { status.textContent = "Live update paused: the server did not answer."; }
    }).finally(function () { setTimeout(poll, every); });
  }
  if (document.getElementById("monitor")) { setTimeout(poll, every); }
})();
