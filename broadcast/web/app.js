// The spectator page: polls /state.json every second and ticks the running
// clock in between from the last reading (the server derives the readings
// from the record at the instant it answers; nothing is sampled here but
// the browser's own elapsed time).
(function () {
  "use strict";
  var lang = document.body.dataset.lang || "en";
  var state = null, got = 0;
  var $ = function (id) { return document.getElementById(id); };

  function fmt(ms) {
    if (ms < 0) ms = 0;
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (x < 10 ? "0" : "") + x;
  }
  var glyph = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

  function drawBoard(fen) {
    var rows = (fen || "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").split(" ")[0].split("/");
    var b = $("board"), html = "";
    for (var r = 0; r < rows.length; r++) {
      var f = 0;
      for (var i = 0; i < rows[r].length; i++) {
        var c = rows[r][i];
        if (c >= "1" && c <= "8") {
          for (var k = 0; k < +c; k++, f++) html += '<div class="sq' + ((r + f) % 2 ? " dark" : "") + '"></div>';
        } else {
          html += '<div class="sq' + ((r + f) % 2 ? " dark" : "") + '">' + (glyph[c] || "") + "</div>";
          f++;
        }
      }
    }
    b.innerHTML = html;
  }

  function text(id, s) { var e = $(id); if (e && e.textContent !== s) e.textContent = s; }

  function render() {
    if (!state) return;
    var el = Date.now() - got;
    var w = state.white_ms - (state.running === "white" ? el : 0);
    var b = state.black_ms - (state.running === "black" ? el : 0);
    text("white-clock", fmt(w));
    text("black-clock", fmt(b));
    $("white-clock").classList.toggle("running", state.running === "white");
    $("black-clock").classList.toggle("running", state.running === "black");
  }

  function apply(s) {
    var fresh = !state || state.seq !== s.seq;
    state = s; got = Date.now();
    if (!fresh) { render(); return; }
    text("title", s.title); text("site", s.site); text("status", s.status);
    text("white", s.white); text("black", s.black); text("score", s.score);
    text("game", s.game ? s.labels.game + " " + s.game + (s.games ? "/" + s.games : "") : "");
    text("incident", s.incident || s.labels.no_incident);
    drawBoard(s.fen);
    var ol = $("moves"), html = "";
    for (var i = 0; i < s.moves.length; i++) {
      var m = s.moves[i];
      html += '<li><span class="no">' + m.no + '.</span><span class="mv"></span><span class="mv"></span></li>';
    }
    ol.innerHTML = html;
    var lis = ol.children;
    for (var j = 0; j < s.moves.length; j++) {
      lis[j].children[1].textContent = s.moves[j].white;
      lis[j].children[2].textContent = s.moves[j].black;
    }
    render();
  }

  function poll() {
    fetch("/state.json?lang=" + encodeURIComponent(lang), { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (s) { $("live").classList.remove("off"); text("live", "● " + s.labels.live); apply(s); })
      .catch(function () { $("live").classList.add("off"); });
  }

  state = null;
  var b0 = document.body.dataset;
  state = { seq: +b0.seq, running: b0.running, white_ms: +b0.whiteMs, black_ms: +b0.blackMs };
  got = Date.now();
  poll();
  setInterval(poll, 1000);
  setInterval(render, 200);
})();
