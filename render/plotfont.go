package render

import (
	"image"
	"image/color"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts cover Latin, Greek and Cyrillic (the WGL4 set), so the chart's texts may be in
// Russian as well as English.
var plotFonts = sync.OnceValues(func() (bold, regular *opentype.Font) {
	bold, _ = opentype.Parse(gobold.TTF)
	regular, _ = opentype.Parse(goregular.TTF)
	return bold, regular
})

// plotFace is a font at one size; a chart makes its own, as faces are not safe for
// concurrent use.
type plotFace struct {
	face font.Face // nil when the embedded font failed to load: the text is left out
	size int       // pixels
	cap  int       // the height of a capital letter, for centring text on a line
}

func newPlotFace(f *opentype.Font, size int) plotFace {
	pf := plotFace{size: size, cap: size * 7 / 10}
	if f == nil {
		return pf
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return pf
	}
	pf.face = face
	if c := face.Metrics().CapHeight.Round(); c > 0 {
		pf.cap = c
	}
	return pf
}

// plotFaces are the sizes of text in a chart.
type plotFaces struct {
	title, label, small, badge plotFace
}

func newPlotFaces() *plotFaces {
	bold, regular := plotFonts()
	return &plotFaces{
		title: newPlotFace(bold, 24),
		label: newPlotFace(bold, 16),
		small: newPlotFace(regular, 14),
		badge: newPlotFace(bold, 13),
	}
}

// width is the advance of text in pixels.
func (f plotFace) width(text string) int {
	if f.face == nil {
		return 0
	}
	return font.MeasureString(f.face, text).Round()
}

// draw writes text with its left end at x and capitals centred on y.
func (f plotFace) draw(img *image.RGBA, text string, x, y int, col color.RGBA) {
	if f.face == nil || text == "" {
		return
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: f.face, Dot: fixed.P(x, y+f.cap/2)}
	d.DrawString(text)
}

func (f plotFace) left(img *image.RGBA, text string, x, y int, col color.RGBA) {
	f.draw(img, text, x, y, col)
}

func (f plotFace) right(img *image.RGBA, text string, x, y int, col color.RGBA) {
	f.draw(img, text, x-f.width(text), y, col)
}

func (f plotFace) centre(img *image.RGBA, text string, x, y int, col color.RGBA) {
	f.draw(img, text, x-f.width(text)/2, y, col)
}

// maxLabelRunes bounds how much of a label the chart looks at.
const maxLabelRunes = 200

// fit returns text cleaned for drawing (control characters and invalid bytes as spaces, ends
// trimmed), cut with "…" to fit width pixels in face f.
func (p *plotFaces) fit(f plotFace, text string, width int) string {
	var b strings.Builder
	for i, r := range text {
		if i >= 4*maxLabelRunes {
			break
		}
		if r == utf8.RuneError || unicode.IsControl(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	runes := []rune(strings.TrimSpace(b.String()))
	if len(runes) > maxLabelRunes {
		runes = runes[:maxLabelRunes]
	}
	s := string(runes)
	if f.width(s) <= width {
		return s
	}
	for len(runes) > 0 {
		runes = runes[:len(runes)-1]
		s = strings.TrimSpace(string(runes)) + "…"
		if f.width(s) <= width {
			return s
		}
	}
	return ""
}
