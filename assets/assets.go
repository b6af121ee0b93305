// Package assets embeds the files Arbiter ships inside its binary: the
// application icon and the DejaVu Sans fonts (which carry the chess
// figurines ♔♕♖♗♘♙♚♛♜♝♞♟ used by the board, the scoresheet and the PDF report).
package assets

import _ "embed"

// Icon is the application icon (512×512 PNG).
//
//go:embed icon.png
var Icon []byte

// DejaVuSans is the regular text face.
//
//go:embed fonts/DejaVuSans.ttf
var DejaVuSans []byte

// DejaVuSansBold is the bold text face.
//
//go:embed fonts/DejaVuSans-Bold.ttf
var DejaVuSansBold []byte
