package render

import (
	"image"
	"math"
	"strconv"
	"sync"

	"github.com/reversibot/reversi/engine"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// MaxMoveLabels is the number of legal moves that get a label (MoveLabel): the labels have
// at most two digits. A position with more legal moves, which no real 16×16 game reaches, marks
// the rest as it did before labels: a dot in the picture, the square's name alone on its
// button.
const MaxMoveLabels = 99

// MoveLabel returns the label of the legal move at index i of Position.LegalMoves (in that
// order): "1" for the first, "2" for the second, … up to "99"; "" for an index outside
// 0…MaxMoveLabels−1. The picture (Image, unless ImageOptions.HideHints) writes each legal
// move's label in its cell and the move picker (MovePicker) puts it on the move's button, so
// a player finds a move on the board and taps the button with the same number without reading
// coordinates.
func MoveLabel(i int) string {
	if i < 0 || i >= MaxMoveLabels {
		return ""
	}
	return strconv.Itoa(i + 1)
}

// MoveLabels returns the labels of the legal moves of p in the order of p.LegalMoves, "" for
// those past MaxMoveLabels (see MoveLabel).
func MoveLabels(p engine.Position) []string {
	out := make([]string, p.MoveCount())
	for i := range out {
		out[i] = MoveLabel(i)
	}
	return out
}

// The look of a label in the picture: its digits on a rounded badge in the cell, dark with
// light digits when black is to move, light with dark digits when white is (as the dots of
// the legal moves were in the colour of the player to move); the suggested move's badge has a
// light yellow border, the ring of its dot before labels.
const (
	badgeInset  = 0.04 // the gap between the badge and the cell's edge, of the cell interior
	badgeHeight = 0.74 // the badge's height, of the cell interior
	badgeCorner = 0.22 // the radius of its corners, of the cell interior
	badgeBorder = 0.07 // the suggested move's border, of the cell interior
	digitsWidth = 0.72 // the widest label's ink at most, of the cell interior
	digitsCap   = 0.52 // the digits' height at most, of the cell interior
)

// Colours of the labels.
var (
	badgeBlack = mix(toRGB(boardColor), toRGB(blackDark), 0.72) // badge of black's moves
	badgeWhite = mix(toRGB(boardColor), toRGB(whiteLight), 0.78)
	digitBlack = toRGB(whiteLight) // digits on black's badges
	digitWhite = toRGB(blackDark)
)

// labelColors are the colours the labels add to the palette, at its end (labelEntries): the
// badges, and ramps from each badge to its digits, to the board and to the yellow border of
// the suggested move, so that anti-aliased edges find a close match.
func labelColors() []rgb {
	var out []rgb
	ramp := func(a, b rgb, steps int) { // steps−1 colours between a and b, and b
		for i := 1; i <= steps; i++ {
			out = append(out, mix(a, b, float64(i)/float64(steps)))
		}
	}
	board, hint := toRGB(boardColor), toRGB(hintColor)
	for _, b := range []struct{ badge, digit rgb }{{badgeBlack, digitBlack}, {badgeWhite, digitWhite}} {
		out = append(out, b.badge)
		ramp(b.badge, b.digit, 10)
		ramp(board, b.badge, 4)
		ramp(hint, b.badge, 5)
	}
	return out
}

// labelEntries is the number of colours at the end of the palette that only the labels use
// (labelColors), so that every other picture, and every frame of a replay, looks exactly as
// before labels and uses the same palette.
const labelEntries = 40

// labelSet holds the label sprites of one kind of hint cell, each drawn on first use, and the
// badge they are drawn on.
type labelSet struct {
	badgeOnce sync.Once
	badge     badgeArt
	once      [MaxMoveLabels]sync.Once
	pix       [MaxMoveLabels][]uint8
}

// badgeArt is the cell picture of a legal move without its digits, in colours and as palette
// indexes.
type badgeArt struct {
	rgb []rgb
	pix []uint8
}

// hintKinds is the number of kinds of hint cell: a legal move of black or of white, the
// suggested move of black or of white (spriteHintBlack…spriteSuggestWhite).
const hintKinds = 4

// isHint reports whether k is the picture of a legal move, which a label replaces.
func isHint(k spriteKind) bool { return k >= spriteHintBlack && k <= spriteSuggestWhite }

// labelSprite returns the cell picture of the legal move with label MoveLabel(i) in a cell of
// kind k (isHint(k), 0 ≤ i < MaxMoveLabels), drawing it on first use.
func (a *assets) labelSprite(k spriteKind, i int) []uint8 {
	set := &a.labels[k-spriteHintBlack]
	set.once[i].Do(func() {
		drawn.Add(1)
		set.badgeOnce.Do(func() { set.badge = drawBadge(a.l, k) })
		set.pix[i] = drawLabel(a.l, a.labelFont, k, set.badge, MoveLabel(i))
	})
	return set.pix[i]
}

// labelFont is the size of the labels' font in a layout.
type labelFont struct {
	px       float64 // font size in pixels
	top, bot int     // the digits' ink above and below the baseline (top < 0)
}

// labelFontFor finds the largest whole font size in which every label fits the cell:
// the widest label no wider than digitsWidth of the cell, the digits no taller than digitsCap.
// The zero labelFont, which draws no digits, when the font does not load.
func labelFontFor(l layout) labelFont {
	bold, _ := plotFonts()
	if bold == nil {
		return labelFont{}
	}
	maxW := fixed.I(int(digitsWidth * float64(l.inner)))
	maxH := fixed.I(int(digitsCap * float64(l.inner)))
	for px := l.inner; px > 4; px-- {
		f, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return labelFont{}
		}
		digits, _ := font.BoundString(f, "0123456789")
		fits := digits.Max.Y-digits.Min.Y <= maxH
		for i := 0; fits && i < MaxMoveLabels; i++ {
			b, _ := font.BoundString(f, MoveLabel(i))
			fits = b.Max.X-b.Min.X <= maxW
		}
		f.Close()
		if fits {
			return labelFont{px: float64(px), top: digits.Min.Y.Floor(), bot: digits.Max.Y.Ceil()}
		}
	}
	return labelFont{}
}

// labelQuantizer returns a quantizer over the whole palette, the labels' colours too.
func labelQuantizer() *quantizer { return &quantizer{seen: make(map[uint32]uint8), n: len(palette)} }

// drawBadge draws the badge of a legal move's cell of kind k, 4×4 supersampled where it has an
// edge.
func drawBadge(l layout, k spriteKind) badgeArt {
	n := l.inner
	badge := badgeBlack
	if k == spriteHintWhite || k == spriteSuggestWhite {
		badge = badgeWhite
	}
	suggested := k == spriteSuggestBlack || k == spriteSuggestWhite
	c := float64(n) / 2
	halfW := c - badgeInset*float64(n)
	halfH := badgeHeight * float64(n) / 2
	corner := badgeCorner * float64(n)
	border := badgeBorder * float64(n)
	colour := func(x, y float64) rgb {
		switch d := roundedRect(x, y, halfW, halfH, corner); {
		case d > 0:
			return toRGB(boardColor)
		case suggested && d > -border:
			return toRGB(hintColor)
		}
		return badge
	}
	art := badgeArt{rgb: make([]rgb, n*n), pix: make([]uint8, n*n)}
	q := labelQuantizer()
	const ss = 4
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			px, py := float64(x)+0.5-c, float64(y)+0.5-c
			// A pixel whose centre lies more than a pixel from every edge has one colour.
			d := roundedRect(px, py, halfW, halfH, corner)
			col := colour(px, py)
			if math.Abs(d) < 1 || suggested && math.Abs(d+border) < 1 {
				var sum rgb
				for sy := 0; sy < ss; sy++ {
					for sx := 0; sx < ss; sx++ {
						s := colour(float64(x)+(float64(sx)+0.5)/ss-c, float64(y)+(float64(sy)+0.5)/ss-c)
						sum = rgb{sum[0] + s[0], sum[1] + s[1], sum[2] + s[2]}
					}
				}
				const m = ss * ss
				col = rgb{sum[0] / m, sum[1] / m, sum[2] / m}
			}
			art.rgb[y*n+x] = col
			art.pix[y*n+x] = q.index(uint8(col[0]+0.5), uint8(col[1]+0.5), uint8(col[2]+0.5))
		}
	}
	return art
}

// drawLabel draws the cell picture of a legal move (kind k) with the label text: its digits,
// centred on the cell, over its badge.
func drawLabel(l layout, lf labelFont, k spriteKind, badge badgeArt, text string) []uint8 {
	n := l.inner
	out := append([]uint8(nil), badge.pix...)
	bold, _ := plotFonts()
	if bold == nil || lf.px <= 0 {
		return out
	}
	// A face of its own: faces are not safe for concurrent use.
	f, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: lf.px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return out
	}
	defer f.Close()
	mask := image.NewAlpha(image.Rect(0, 0, n, n))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: f}
	b, _ := d.BoundString(text)
	x := (fixed.I(n) - b.Min.X - b.Max.X) / 2
	d.Dot = fixed.P(x.Round(), (n-lf.top-lf.bot)/2)
	d.DrawString(text)
	digit := digitBlack
	if k == spriteHintWhite || k == spriteSuggestWhite {
		digit = digitWhite
	}
	q := labelQuantizer()
	for i, a := range mask.Pix {
		if a != 0 {
			col := mix(badge.rgb[i], digit, float64(a)/0xff)
			out[i] = q.index(uint8(col[0]+0.5), uint8(col[1]+0.5), uint8(col[2]+0.5))
		}
	}
	return out
}

// roundedRect is the signed distance of (x, y) from the outline of a rectangle centred on the
// origin, halfW by halfH from the centre to its sides, with corners rounded to radius r:
// negative inside.
func roundedRect(x, y, halfW, halfH, r float64) float64 {
	qx := math.Abs(x) - (halfW - r)
	qy := math.Abs(y) - (halfH - r)
	out := math.Hypot(math.Max(qx, 0), math.Max(qy, 0))
	return out + math.Min(math.Max(qx, qy), 0) - r
}
