// The log popup's tail: while the build runs, ask for the log from the offset shown
// (?raw=1&offset=N) every two seconds and append what came; stop when the server says the job
// ended (X-Log-Running: 0). The size beside the log and the state pill follow each answer
// (X-Log-Size, X-Log-Code), so the header shows the result once the build ends. Without this
// script the page shows the log as it was when loaded.
(function () {
  "use strict";
  var pre = document.getElementById("log");
  if (!pre || pre.dataset.running !== "true") { return; }
  var offset = parseInt(pre.dataset.offset, 10) || 0;
  var every = 2000;
  function poll() {
    fetch("?raw=1&offset=" + offset, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (!r.ok) { return false; }
      var size = parseInt(r.headers.get("X-Log-Size"), 10);
      var running = r.headers.get("X-Log-Running") === "1";
      var code = r.headers.get("X-Log-Code");
      return r.text().then(function (text) {
        if (text) {
          var atEnd = window.innerHeight + window.scrollY >= document.body.scrollHeight - 20;
          pre.appendChild(document.createTextNode(text));
          if (atEnd) { window.scrollTo(0, document.body.scrollHeight); }
        }
        if (!isNaN(size)) { offset = size; }
        pre.dataset.offset = String(offset);
        var sizeNote = document.getElementById("log-size");
        if (sizeNote) { sizeNote.textContent = offset + " bytes"; }
        var pill = document.getElementById("log-code");
        if (pill && code && /^[a-z]+$/.test(code)) {
          pill.className = "status s-" + code;
          pill.textContent = code;
          pill.hidden = false;
        }
        return running || (!isNaN(size) && text.length > 0);
      });
    }).then(function (again) {
      if (again) { setTimeout(poll, every); return; }
      pre.dataset.running = "false";
      var note = document.getElementById("log-running");
      if (note) { note.textContent = "The build has ended."; }
    }).catch(function () { setTimeout(poll, every * 3); });
  }
  setTimeout(poll, every);
})();
