// The spectator page. The server pushes changes over one event stream
// (/events): a "state" event with the whole view when the served match
// changes, and a "clock" event with both clocks read afresh every few
// seconds. Between them the page ticks the running clock from the last
// reading, never further than two heartbeats past it: what it shows is
// only what the served instant holds (with a transmission delay, the
// match as it stood then), and a stream that went silent freezes the
// clocks instead of letting a flag fall that nobody saw.
(function () {
  "use strict";
  var body = document.body, lang = body.dataset.lang || "en";
  var clocks = null, got = 0, heard = 0, seq = -1;
  var STALE = 12000; // ms without a word from the server: the clocks stop, the page reconnects
  var $ = function (id) { return document.getElementById(id); };

  function fmt(ms) {
    if (ms < 0) ms = 0;
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (x < 10 ? "0" : "") + x;
  }
  var glyph = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

  function text(id, s) { var e = $(id); if (e && e.textContent !== s) e.textContent = s; }

  function drawBoard(fen, last) {
    var rows = (fen || "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").split(" ")[0].split("/");
    var sqs = $("board").children, i = 0;
    for (var r = 0; r < rows.length; r++) {
      for (var k = 0; k < rows[r].length; k++) {
        var c = rows[r][k], n = c >= "1" && c <= "8" ? +c : 1;
        for (var j = 0; j < n && i < sqs.length; j++, i++) {
          var sq = sqs[i];
          var p = c >= "1" && c <= "8" ? "" : (glyph[c] || "");
          if (sq.textContent !== p) sq.textContent = p;
          sq.classList.toggle("last", last.indexOf(sq.dataset.sq) >= 0);
        }
      }
    }
  }

  function drawMoves(s) {
    var ol = $("moves");
    ol.textContent = "";
    if (!s.moves.length) {
      var e = document.createElement("li");
      e.className = "empty";
      e.textContent = ol.dataset.empty || s.labels.no_moves;
      ol.appendChild(e);
      return;
    }
    for (var i = 0; i < s.moves.length; i++) {
      var m = s.moves[i], li = document.createElement("li");
      var cells = [[m.no + ".", "no"], [m.white, "mv"], [m.white_clock, "ck"], [m.black, "mv"], [m.black_clock, "ck"]];
      for (var j = 0; j < cells.length; j++) {
        var span = document.createElement("span");
        span.className = cells[j][1];
        span.textContent = cells[j][0] || "";
        li.appendChild(span);
      }
      ol.appendChild(li);
    }
    var lis = ol.children, last = lis[lis.length - 1];
    last.children[m.black ? 3 : 1].classList.add("cur");
    latest();
  }

  // latest scrolls the move list to its last move.
  function latest() { var ol = $("moves"); ol.scrollTop = ol.scrollHeight; }

  // shown is a clock's reading ticked by the time since it was read
  // (tick.js).
  function shown(side) { return arbiterShown(clocks, side, Date.now() - got, STALE); }

  function render() {
    if (!clocks) return;
    var stale = Date.now() - heard > STALE;
    $("live").classList.toggle("off", stale);
    text("live", "● " + (stale ? body.dataset.offline : body.dataset.live));
    text("white-clock", fmt(shown("white")));
    text("black-clock", fmt(shown("black")));
    $("white-clock").classList.toggle("running", clocks.running === "white");
    $("black-clock").classList.toggle("running", clocks.running === "black");
  }

  function setClocks(c) { clocks = c; got = heard = Date.now(); render(); }

  function apply(s) {
    setClocks(s);
    if (s.seq === seq) return;
    seq = s.seq;
    text("title", s.title); text("site", s.site); text("status", s.status);
    text("white", s.white); text("black", s.black); text("score", s.score);
    text("game", s.game ? s.labels.game + " " + s.game + (s.games ? "/" + s.games : "") : "");
    text("incident", s.incident || s.labels.no_incident);
    $("delay").hidden = !s.delay; text("delay", s.delay);
    document.title = s.title + (s.game ? " — " + s.labels.game + " " + s.game : "");
    drawBoard(s.fen, s.last || []);
    drawMoves(s);
  }

  var es = null;
  function connect() {
    if (es) es.close();
    heard = Date.now();
    es = new EventSource("/events?lang=" + encodeURIComponent(lang));
    es.onopen = function () { body.dataset.stream = "open"; };
    es.addEventListener("state", function (e) { apply(JSON.parse(e.data)); body.dataset.seq = seq; });
    es.addEventListener("clock", function (e) { setClocks(JSON.parse(e.data)); });
    es.onerror = function () { render(); };
  }

  function poll() { // browsers without EventSource
    fetch("/state.json?lang=" + encodeURIComponent(lang), { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(apply, render);
  }

  var d = body.dataset;
  seq = +d.seq;
  clocks = { running: d.running, white_ms: +d.whiteMs, black_ms: +d.blackMs, hold_ms: +d.holdMs, count_up: d.countUp === "true" };
  got = heard = Date.now();
  latest();
  window.addEventListener("load", latest); // the font changes the rows' height
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(latest);
  if (window.EventSource) {
    connect();
    setInterval(function () { if (Date.now() - heard > STALE) connect(); }, STALE / 2);
  } else {
    poll();
    setInterval(poll, 2000);
  }
  setInterval(render, 200);
})();
