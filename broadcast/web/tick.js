// arbiterShown is what the page shows on side's clock ("white" or
// "black") el ms after the reading c (the server's clocks at one instant:
// white_ms, black_ms, running, hold_ms, count_up). A clock that is not
// running shows its reading; the running one counts down once the rest of
// a simple delay (hold_ms) is over, or up in an untimed game, never below
// zero, and never further than stale ms past the reading: a page that has
// heard nothing for that long shows no time that nobody has seen pass.
function arbiterShown(c, side, el, stale) {
  var ms = c[side + "_ms"];
  if (c.running !== side) return ms;
  el = Math.max(0, Math.min(el, stale));
  if (c.count_up) return ms + el;
  return Math.max(0, ms - Math.max(0, el - (c.hold_ms || 0)));
}
