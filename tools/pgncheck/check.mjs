// check.mjs FILE — load every game of a PGN file with chess.js and print one
// line per game: the final position as FEN without the en-passant field.
// Exits non-zero with a message on the first game chess.js refuses.
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: node check.mjs FILE.pgn');
  process.exit(2);
}

let text;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  console.error(`check.mjs: cannot read ${file}: ${e.message}`);
  process.exit(2);
}

// Split into games: a game starts at a tag line that follows movetext (or the
// start of the file). Our writer always separates games by a blank line and
// starts each with tags, so split on a blank line followed by '['.
const games = text.replace(/\r\n/g, '\n').split(/\n\s*\n(?=\[)/).map((g) => g.trim()).filter((g) => g !== '');

function noEP(fen) {
  const f = fen.split(' ');
  f.splice(3, 1);
  return f.join(' ');
}

games.forEach((pgn, i) => {
  const chess = new Chess();
  try {
    chess.loadPgn(pgn, { strict: true });
  } catch (e) {
    console.error(`check.mjs: ${file}: game ${i + 1}: chess.js refused it: ${e.message}`);
    process.exit(1);
  }
  console.log(noEP(chess.fen()));
});
