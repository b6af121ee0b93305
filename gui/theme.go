package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"arbiter/assets"
)

// Fonts embedded in the binary: DejaVu Sans carries the chess figurines.
var (
	fontRegular = fyne.NewStaticResource("DejaVuSans.ttf", assets.DejaVuSans)
	fontBold    = fyne.NewStaticResource("DejaVuSans-Bold.ttf", assets.DejaVuSansBold)
)

// consoleTheme is the default Fyne theme (so light and dark follow the
// system) with DejaVu Sans as the text face and the text sizes multiplied by
// the text-size setting, for projection.
type consoleTheme struct {
	scale float32
}

func (t *consoleTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return theme.DefaultTheme().Color(n, v)
}

func (t *consoleTheme) Font(s fyne.TextStyle) fyne.Resource {
	if s.Monospace || s.Symbol {
		return theme.DefaultTheme().Font(s)
	}
	if s.Bold {
		return fontBold
	}
	return fontRegular
}

func (t *consoleTheme) Icon(n fyne.ThemeIconName) fyne.Resource {
	return theme.DefaultTheme().Icon(n)
}

// Size is the default theme's size, text sizes (and the icons set in a
// line of text) times the text-size setting: the gaps between things keep
// their size, so a larger text takes room for its letters only, and the
// clocks and the board keep theirs (consoleLayout).
func (t *consoleTheme) Size(n fyne.ThemeSizeName) float32 {
	s := t.scale
	if s <= 0 {
		s = 1
	}
	switch n {
	case theme.SizeNameText, theme.SizeNameCaptionText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText, theme.SizeNameInlineIcon:
		return theme.DefaultTheme().Size(n) * s
	}
	return theme.DefaultTheme().Size(n)
}

// Colours of the console that do not depend on the variant.
var (
	colLight    = color.NRGBA{0xf0, 0xd9, 0xb5, 0xff}
	colDark     = color.NRGBA{0xb5, 0x88, 0x63, 0xff}
	colLastMove = color.NRGBA{0xcd, 0xd2, 0x6a, 0xff}
	colSelected = color.NRGBA{0x7f, 0xb0, 0xe0, 0xff}
	colCheck    = color.NRGBA{0xe0, 0x4f, 0x4f, 0xff}
	colRunning  = color.NRGBA{0xf5, 0xc5, 0x18, 0xff}
	// colRunningOnLight is the running game's text on the light theme.
	colRunningOnLight = color.NRGBA{0x9a, 0x6a, 0x00, 0xff}
	colFlag           = color.NRGBA{0xe5, 0x39, 0x35, 0xff}
	// colStopped marks clocks stopped by a pause or a call (6.12).
	colStopped    = color.NRGBA{0x42, 0x8b, 0xf5, 0xff}
	colPieceWhite = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	colPieceBlack = color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}
	colOutline    = color.NRGBA{0x10, 0x10, 0x10, 0xff}
)

func themeColor(n fyne.ThemeColorName) color.Color {
	return fyne.CurrentApp().Settings().Theme().Color(n, fyne.CurrentApp().Settings().ThemeVariant())
}
