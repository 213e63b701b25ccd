package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render/rendertest"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

func TestMoveLabel(t *testing.T) {
	for _, tc := range []struct {
		i    int
		want string
	}{{-1, ""}, {0, "1"}, {1, "2"}, {8, "9"}, {9, "10"}, {41, "42"}, {98, "99"}, {99, ""}, {1000, ""}, {math.MinInt, ""}, {math.MaxInt, ""}} {
		if got := MoveLabel(tc.i); got != tc.want {
			t.Errorf("MoveLabel(%d) = %q, want %q", tc.i, got, tc.want)
		}
	}
	start := engine.MustStart(8)
	if got, want := fmt.Sprint(MoveLabels(start)), "[1 2 3 4]"; got != want {
		t.Errorf("MoveLabels(8×8 start) = %s, want %s", got, want)
	}
	// The fullest 16×16 position has more moves than labels: the rest have none.
	p := rendertest.Fullest(t, 16)
	labels := MoveLabels(p)
	if len(labels) != p.MoveCount() || p.MoveCount() <= MaxMoveLabels {
		t.Fatalf("%d labels for %d moves; the test wants more than %d moves", len(labels), p.MoveCount(), MaxMoveLabels)
	}
	for i, l := range labels {
		if want := fmt.Sprint(i + 1); i < MaxMoveLabels && l != want || i >= MaxMoveLabels && l != "" {
			t.Errorf("label %d of %d = %q", i, len(labels), l)
		}
	}
	if got := MoveLabels(rendertest.RandomGame(t, 10, 3, 1000).Position()); len(got) != 0 {
		t.Errorf("MoveLabels of a finished game = %v, want none", got)
	}
}

// TestLabelPalette checks the labels' colours: as many as labelEntries, last in the palette, the
// badges readable (a contrast of 7:1 or more between digits and badge, WCAG's AAA level) and
// unlike any colour of the other pictures, so that a test can find the badges by colour.
func TestLabelPalette(t *testing.T) {
	colours := labelColors()
	if len(colours) != labelEntries {
		t.Fatalf("labelColors has %d colours, labelEntries says %d", len(colours), labelEntries)
	}
	uncut := makePaletteUncut()
	if len(uncut) > 255 {
		t.Fatalf("the palette has %d colours; a replay needs room for one more in 256", len(uncut))
	}
	for i, c := range colours {
		if got, want := rgbOf(palette[basicEntries+hintEntries+i]), rgbOf(color.NRGBA{uint8(c[0] + 0.5), uint8(c[1] + 0.5), uint8(c[2] + 0.5), 0xff}); got != want {
			t.Errorf("palette entry %d is %s, label colour %d %s", basicEntries+hintEntries+i, hex(got), i, hex(want))
		}
	}
	// A replay shows no hints: its palette, one GIF colour table for every frame, stays as
	// it was before labels.
	if len(replayPalette) != basicEntries+hintEntries+1 {
		t.Errorf("the replay's palette has %d colours, want %d", len(replayPalette), basicEntries+hintEntries+1)
	}
	for _, b := range []struct{ badge, digit rgb }{{badgeBlack, digitBlack}, {badgeWhite, digitWhite}} {
		if r := contrast(b.badge, b.digit); r < 7 {
			t.Errorf("digits %v on badge %v: contrast %.1f:1, want 7:1", b.digit, b.badge, r)
		}
		for i, c := range palette[:basicEntries+hintEntries] {
			if rgbOf(c) == rgbOf(nrgb(b.badge)) {
				t.Errorf("badge colour %v is palette entry %d of the other pictures", b.badge, i)
			}
		}
	}
}

func nrgb(c rgb) color.NRGBA {
	return color.NRGBA{uint8(c[0] + 0.5), uint8(c[1] + 0.5), uint8(c[2] + 0.5), 0xff}
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b rgb) float64 {
	lum := func(c rgb) float64 {
		var l [3]float64
		for i, v := range c {
			v /= 255
			if v <= 0.03928 {
				l[i] = v / 12.92
			} else {
				l[i] = math.Pow((v+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// countColor counts the pixels of r in img that show c.
func countColor(img image.Image, r image.Rectangle, c rgb) int {
	want := rgbOf(nrgb(c))
	r = r.Intersect(img.Bounds())
	n := 0
	if p, ok := img.(*image.Paletted); ok {
		var is [256]bool
		for i, pc := range p.Palette {
			is[i] = rgbOf(pc) == want
		}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for _, i := range p.Pix[p.PixOffset(r.Min.X, y):p.PixOffset(r.Max.X, y)] {
				if is[i] {
					n++
				}
			}
		}
		return n
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgbOf(img.At(x, y)) == want {
				n++
			}
		}
	}
	return n
}

// mask is a black-and-white picture cut to its ink: on[y*w+x].
type mask struct {
	w, h int
	on   []bool
	at   image.Point // where its top-left pixel lay
}

// cutMask cuts the pixels of r for which on holds to their bounding box.
func cutMask(r image.Rectangle, on func(x, y int) bool) mask {
	var box image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if on(x, y) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	m := mask{w: box.Dx(), h: box.Dy(), on: make([]bool, box.Dx()*box.Dy()), at: box.Min}
	for y := 0; y < m.h; y++ {
		for x := 0; x < m.w; x++ {
			m.on[y*m.w+x] = on(box.Min.X+x, box.Min.Y+y)
		}
	}
	return m
}

// diff counts the pixels where a and b differ, laid on each other by their top-left corners
// and then shifted by up to two pixels either way, the best of those: a pixel that just
// passes the threshold in one and not the other moves a corner.
func (a mask) diff(b mask) int {
	best := math.MaxInt
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			n := 0
			for y := min(0, dy); y < max(a.h, b.h+dy); y++ {
				for x := min(0, dx); x < max(a.w, b.w+dx); x++ {
					if a.get(x, y) != b.get(x-dx, y-dy) {
						n++
					}
				}
			}
			best = min(best, n)
		}
	}
	return best
}

func (a mask) get(x, y int) bool { return x >= 0 && y >= 0 && x < a.w && y < a.h && a.on[y*a.w+x] }

// labelReader reads the label in a cell of a picture: it knows every label's digits as the
// font alone draws them at the labels' size (a second implementation of the label sprites,
// without badge and palette) and finds the one that best matches the digit-coloured pixels.
type labelReader struct {
	refs [MaxMoveLabels]mask
}

var (
	readersMu sync.Mutex
	readers   = map[int]*labelReader{}
)

// readerFor returns the reader of a board size's labels.
func readerFor(t testing.TB, size int) *labelReader {
	t.Helper()
	readersMu.Lock()
	defer readersMu.Unlock()
	if r := readers[size]; r != nil {
		return r
	}
	bold, _ := plotFonts()
	lf := assetsFor(size).labelFont
	f, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: lf.px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := &labelReader{}
	n := 2 * layoutFor(size).inner
	for i := range r.refs {
		alpha := image.NewAlpha(image.Rect(0, 0, n, n))
		d := font.Drawer{Dst: alpha, Src: image.Opaque, Face: f, Dot: fixed.P(n/8, n*3/4)}
		d.DrawString(MoveLabel(i))
		r.refs[i] = cutMask(alpha.Rect, func(x, y int) bool { return alpha.AlphaAt(x, y).A >= 0x80 })
	}
	readers[size] = r
	return r
}

// read returns the label that best matches the digits of the cell at o (the pixels inside the
// badge and its border nearer the digits' colour than the badge's), how many pixels it misses
// by and how many the next best does, and the digits' mask.
func (r *labelReader) read(img image.Image, l layout, o image.Point, side engine.Color) (label string, miss, next int, m mask) {
	badge, digit := badgeBlack, digitBlack
	if side == engine.White {
		badge, digit = badgeWhite, digitWhite
	}
	n := float64(l.inner)
	halfW, halfH := n/2-(badgeInset+badgeBorder)*n-0.5, (badgeHeight/2-badgeBorder)*n-0.5
	corner := (badgeCorner - badgeBorder) * n
	m = cutMask(image.Rectangle{o, o.Add(image.Pt(l.inner, l.inner))}, func(x, y int) bool {
		if roundedRect(float64(x-o.X)+0.5-n/2, float64(y-o.Y)+0.5-n/2, halfW, halfH, corner) > 0 {
			return false
		}
		// Where the colour lies between the badge's (0) and the digits' (1).
		c := rgbOf(img.At(x, y))
		var dot, norm float64
		for i, v := range [3]uint8{c.R, c.G, c.B} {
			dot += (float64(v) - badge[i]) * (digit[i] - badge[i])
			norm += (digit[i] - badge[i]) * (digit[i] - badge[i])
		}
		return dot/norm >= 0.5
	})
	miss, next = math.MaxInt, math.MaxInt
	for i, ref := range r.refs {
		if abs(m.w-ref.w) > 4 || abs(m.h-ref.h) > 4 {
			continue // not a close call
		}
		switch d := m.diff(ref); {
		case d < miss:
			label, miss, next = MoveLabel(i), d, miss
		case d < next:
			next = d
		}
	}
	return label, miss, next, m
}

// checkLabelCell checks that the cell of sq shows label: the digits read as label and no other,
// centred on the cell, on a badge of the side to move's colour with a light yellow border when
// suggested and none otherwise.
func checkLabelCell(t *testing.T, img image.Image, l layout, sq engine.Square, label string, side engine.Color, suggested bool) {
	t.Helper()
	got, miss, next, m := readerFor(t, l.size).read(img, l, l.cellOrigin(sq.Col(), sq.Row()), side)
	if got != label || miss > m.w*m.h/20 || next < 2*miss+10 {
		t.Errorf("%v: label reads %q (%d pixels off, the next best %d), want %q", sq, got, miss, next, label)
	}
	c := l.cellCenter(sq)
	// The digits' box: centred across, and on their height (the round digits reach a pixel
	// lower than the others).
	if dx := 2*m.at.X + m.w - 2*c.X; dx < -2 || dx > 2 {
		t.Errorf("%v: label %q lies %.1f pixels off the centre across", sq, label, float64(dx)/2)
	}
	if dy := 2*m.at.Y + m.h - 2*c.Y; dy < -3 || dy > 3 {
		t.Errorf("%v: label %q lies %.1f pixels off the centre down", sq, label, float64(dy)/2)
	}
	badge := badgeBlack
	if side == engine.White {
		badge = badgeWhite
	}
	o := l.cellOrigin(sq.Col(), sq.Row())
	if n := countColor(img, image.Rectangle{o, o.Add(image.Pt(l.inner, l.inner))}, badge); n < l.inner*l.inner/8 {
		t.Errorf("%v: %d pixels of the badge, want an eighth of the cell", sq, n)
	}
	edge := int((badgeInset + badgeBorder/2) * float64(l.inner))
	for _, x := range []int{o.X + edge, o.X + l.inner - 1 - edge} {
		got := rgbOf(img.At(x, c.Y))
		want := rgbOf(nrgb(badge))
		if suggested {
			want = hintColor
		}
		if got != want {
			t.Errorf("%v: the edge of the badge is %s, want %s (suggested %v)", sq, hex(got), hex(want), suggested)
		}
	}
}

// TestLabelsReadable checks the labels' size on every size drawn as a picture: shown 360
// pixels wide, as on a phone, the digits stand 9 pixels tall or more.
func TestLabelsReadable(t *testing.T) {
	for _, size := range []int{8, 10, 12, 14, 16} {
		v := NewView(rendertest.Fullest(t, size))
		img, err := Image(v, ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		l := layoutFor(size)
		// "1" is as tall as a capital and stands on the baseline.
		first := v.Position.LegalMoves()[0]
		_, _, _, m := readerFor(t, size).read(img, l, l.cellOrigin(first.Col(), first.Row()), v.Position.Side())
		phone := float64(m.h) * 360 / float64(l.width)
		t.Logf("%d×%d: digits %d pixels tall in a %d-pixel cell, %.1f at 360 pixels wide (font %.0f px)", size, size, m.h, l.inner, phone, assetsFor(size).labelFont.px)
		if phone < 9 {
			t.Errorf("%d×%d: digits %.1f pixels tall at 360 pixels wide, want 9", size, size, phone)
		}
		if m.h < 10 {
			t.Errorf("%d×%d: the label %q is %d pixels tall", size, size, "1", m.h)
		}
	}
}

// TestLabelsMatchPicture reads the picture's label on every legal move: the i-th legal move (in
// the order of LegalMoves) shows MoveLabel(i), the label its button in the move picker carries
// (bot/present checks the buttons against MoveLabel), and the suggested move its badge.
func TestLabelsMatchPicture(t *testing.T) {
	busy := ViewOf(rendertest.RandomGame(t, 16, 64, 120))
	moves := busy.Position.LegalMoves()
	for _, tc := range []struct {
		name string
		v    View
	}{
		{"10x10 start", NewView(engine.MustStart(10))},
		{"12x12 ply 70", ViewOf(rendertest.RandomGame(t, 12, 2, 70))},
		{"16x16 busy, hint", busy.WithHint(moves[len(moves)/2])},
		{"16x16 busy", busy},
		{"16x16 fullest", NewView(rendertest.Fullest(t, 16))},
		{"16x16 white to move", ViewOf(rendertest.RandomGame(t, 16, 64, 121))},
		{"8x8 image style", ViewOf(rendertest.RandomGame(t, 8, 5, 23))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Image(tc.v, ImageOptions{Flipped: true})
			if err != nil {
				t.Fatal(err)
			}
			if !raceEnabled { // TestImage checks the picture under the race detector too
				checkPicture(t, img, tc.v, ImageOptions{Flipped: true})
			}
			p := tc.v.Position
			l := layoutFor(p.Size())
			hint, _ := tc.v.Hint()
			for i, sq := range p.LegalMoves() {
				label := MoveLabel(i)
				if label == "" {
					continue
				}
				got, _, _, _ := readerFor(t, p.Size()).read(img, l, l.cellOrigin(sq.Col(), sq.Row()), p.Side())
				if got != label {
					t.Errorf("move %d (%v): the picture shows %q, want %q", i, sq, got, label)
				}
				if sq == hint {
					checkLabelCell(t, img, l, hint, label, p.Side(), true)
				}
			}
		})
	}
}

// TestLabelSpritesConcurrent draws the label sprites of a fresh set of assets from several
// goroutines at once (run with -race): each comes out as when drawn alone.
func TestLabelSpritesConcurrent(t *testing.T) {
	alone := makeAssets(16)
	fresh := makeAssets(16)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range MaxMoveLabels {
				fresh.labelSprite(spriteHintBlack+spriteKind((i+w)%hintKinds), (i*7+w)%MaxMoveLabels)
			}
		})
	}
	wg.Wait()
	for k := spriteHintBlack; k <= spriteSuggestWhite; k++ {
		for i := range MaxMoveLabels {
			if got, want := fresh.labelSprite(k, i), alone.labelSprite(k, i); !bytes.Equal(got, want) {
				t.Fatalf("kind %d, label %q: drawn concurrently differs", k, MoveLabel(i))
			}
		}
	}
}

// FuzzLabels draws the picture of any board, with its labels and a hint anywhere: nothing
// panics and the PNG decodes (bot/present fuzzes the move picker of the same boards).
func FuzzLabels(f *testing.F) {
	f.Add(uint8(16), []byte(rendertest.Fullest(f, 16).BoardText()), false, uint8(3), uint8(0), uint8(0))
	f.Add(uint8(10), []byte(engine.MustStart(10).BoardText()), true, uint8(0), uint8(1), uint8(44))
	f.Add(uint8(8), []byte{}, false, uint8(200), uint8(7), uint8(0x33))
	f.Fuzz(func(t *testing.T, size uint8, cells []byte, white bool, _, _, hint uint8) {
		p, err := rendertest.FuzzedBoard(size, cells, white)
		if err != nil {
			t.Skip(err)
		}
		v := NewView(p).WithHint(engine.Square(hint))
		img, err := Image(v, ImageOptions{Flipped: true})
		if err != nil || img == nil {
			t.Fatalf("Image: %v", err)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, v, ImageOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(&buf); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLabelsHidden: with HideHints the picture shows no label, no badge and no dot, even with
// more legal moves than labels, and its legal cells look like any empty cell.
func TestLabelsHidden(t *testing.T) {
	v := NewView(rendertest.Fullest(t, 16))
	moves := v.Position.LegalMoves()
	v = v.WithHint(moves[3])
	img, err := Image(v, ImageOptions{HideHints: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPicture(t, img, v, ImageOptions{HideHints: true})
	a := assetsFor(16)
	empty := a.board
	for _, c := range []rgb{badgeBlack, badgeWhite, toRGB(hintColor)} {
		if n := countColor(img, img.Bounds(), c); n > 0 {
			t.Errorf("%d pixels of %v with the hints hidden", n, c)
		}
	}
	for _, sq := range moves {
		o := a.l.cellOrigin(sq.Col(), sq.Row())
		for y := o.Y; y < o.Y+a.l.inner; y++ {
			i := img.PixOffset(o.X, y)
			if !bytes.Equal(img.Pix[i:i+a.l.inner], empty.Pix[i:i+a.l.inner]) {
				t.Fatalf("%v: the cell of a legal move differs from the empty board with the hints hidden", sq)
			}
		}
	}
}

// BenchmarkLabelSprite measures drawing one label's cell picture, which each size pays once
// per label and kind, the first time a picture shows it.
func BenchmarkLabelSprite(b *testing.B) {
	for _, size := range []int{8, 16} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			a := assetsFor(size)
			badge := drawBadge(a.l, spriteSuggestBlack)
			b.ReportAllocs()
			for b.Loop() {
				drawLabel(a.l, a.labelFont, spriteSuggestBlack, badge, "88")
			}
		})
	}
}
