package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"sync"

	"github.com/reversibot/reversi/engine"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// ErrSize is returned for a View whose board size is not one the engine supports (such as
// the zero View).
var ErrSize = errors.New("render: unsupported board size")

// ImageOptions chooses what the PNG shows beyond the discs, the grid, the labels and the last
// move, which it always shows.
type ImageOptions struct {
	// Flipped rings the discs that the last move flipped (View.Flipped).
	Flipped bool
	// HideHints leaves out the labels of the legal moves and the border of the suggested
	// move (View.Hint), for example under a finished game's board or when the viewer is not
	// the player to move.
	HideHints bool
}

// Geometry of the picture: every size is about 880 pixels square, so a 16×16 board still has
// 50-pixel cells, large enough to tap-read on a phone, and an 8×8 one is not oversized.
const (
	boardPixels = 800 // cells × cell size, rounded down
	gridWidth   = 2   // the lines between cells
	margin      = 40  // the frame around the board, which holds the coordinate labels
	labelSize   = 22  // label font size in pixels
)

// Colours of the picture.
var (
	frameColor = color.RGBA{0x17, 0x32, 0x22, 0xff}
	labelColor = color.RGBA{0xec, 0xe6, 0xcf, 0xff}
	boardColor = color.RGBA{0x2f, 0x8a, 0x4c, 0xff}
	gridColor  = color.RGBA{0x16, 0x4a, 0x29, 0xff}
	shadowTone = color.RGBA{0x0d, 0x2e, 0x18, 0xff} // blended over the board under a disc
	blackLight = color.RGBA{0x6c, 0x6c, 0x6c, 0xff} // a black disc's highlight
	blackDark  = color.RGBA{0x0c, 0x0c, 0x0c, 0xff} // … and its far edge
	whiteLight = color.RGBA{0xff, 0xff, 0xff, 0xff}
	whiteDark  = color.RGBA{0xb0, 0xb0, 0xb0, 0xff}
	lastColor  = color.RGBA{0xe5, 0x39, 0x35, 0xff} // the dot on the last disc placed
	flipColor  = color.RGBA{0xff, 0xb3, 0x00, 0xff} // the ring on flipped discs
	hintColor  = color.RGBA{0xff, 0xf1, 0x76, 0xff} // the ring around the suggested move's dot
)

// Layout is where a board of some size lies in its picture, in pixels.
type layout struct {
	size   int // cells across
	cell   int // distance between grid lines
	inner  int // cell interior (cell − gridWidth)
	origin int // x and y of the first grid line
	width  int // the whole picture's width and height
}

func layoutFor(size int) layout {
	cell := boardPixels / size
	return layout{
		size:   size,
		cell:   cell,
		inner:  cell - gridWidth,
		origin: margin,
		width:  2*margin + size*cell + gridWidth,
	}
}

// cellOrigin is the top-left pixel of the interior of the cell in column c, row r.
func (l layout) cellOrigin(c, r int) image.Point {
	return image.Pt(l.origin+c*l.cell+gridWidth, l.origin+r*l.cell+gridWidth)
}

// cellCenter is the centre pixel of a square's cell.
func (l layout) cellCenter(sq engine.Square) image.Point {
	o := l.cellOrigin(sq.Col(), sq.Row())
	return o.Add(image.Pt(l.inner/2, l.inner/2))
}

// discRadius is the radius of a disc in pixels.
func (l layout) discRadius() float64 { return 0.42 * float64(l.inner) }

// The pictures a cell can hold besides the empty board.
type spriteKind int

const (
	spriteNone spriteKind = iota
	spriteBlack
	spriteWhite
	spriteLastBlack
	spriteLastWhite
	spriteFlipBlack
	spriteFlipWhite
	spriteHintBlack    // a legal move of black: a dot, under its label (labelSprite)
	spriteHintWhite    // a legal move of white
	spriteSuggestBlack // the suggested move (View.Hint) of black: its dot in a ring
	spriteSuggestWhite // … of white
	numSprites
)

// assets are what is constant for one board size: the empty board with frame, grid and
// coordinates, and the cell pictures, all in the shared palette.
type assets struct {
	l       layout
	board   *image.Paletted
	sprites [numSprites][]uint8 // inner×inner palette indexes, row by row
	// labels are the cells of the labelled legal moves, by kind (isHint) and label;
	// labelFont is the size of their digits.
	labels    [hintKinds]labelSet
	labelFont labelFont
}

var (
	assetsOnce [engine.MaxSize + 1]sync.Once
	assetsOf   [engine.MaxSize + 1]*assets
)

// assetsFor returns the assets of a valid size, drawing them on first use.
func assetsFor(size int) *assets {
	assetsOnce[size].Do(func() {
		drawn.Add(1)
		assetsOf[size] = makeAssets(size)
	})
	return assetsOf[size]
}

// Image draws the board of v as a paletted picture: a dark frame with coordinate labels on all
// four edges (letters a… across, numbers 1… down, row 1 at the top), a green board with grid
// lines, shaded black and white discs, a red dot on the last disc placed (and on the discs its
// colour placed in a row before it while the opponent passed: View.Run), the label of each
// legal move of the player to move (MoveLabel: "1", "2", … in the order of
// Position.LegalMoves) in bold digits on a rounded badge in its cell, dark with white digits
// when black is to move and light with black digits when white is, the suggested move's
// (View.Hint) with a light yellow border (none of them when opt.HideHints; a legal move past
// MaxMoveLabels shows a small dot), and amber rings on the discs the last move flipped (when
// opt.Flipped). Every size is about 880 pixels square; a 16×16 picture shown 360 pixels wide,
// as on a phone, has labels about 9 pixels tall.
func Image(v View, opt ImageOptions) (*image.Paletted, error) {
	n := v.Position.Size()
	if !engine.ValidSize(n) {
		return nil, fmt.Errorf("%w: %d", ErrSize, n)
	}
	a := assetsFor(n)
	img := image.NewPaletted(a.board.Rect, palette)
	a.draw(img, v, opt)
	return img, nil
}

// ImageInto is Image drawn into dst when dst has the bounds of v's picture (as a previous
// Image or ImageInto of the same board size returned), so that drawing many pictures
// allocates none; otherwise, or for a nil dst, into a new picture. It returns the picture
// drawn, dst or the new one.
func ImageInto(dst *image.Paletted, v View, opt ImageOptions) (*image.Paletted, error) {
	n := v.Position.Size()
	if !engine.ValidSize(n) {
		return nil, fmt.Errorf("%w: %d", ErrSize, n)
	}
	a := assetsFor(n)
	if dst == nil || dst.Rect != a.board.Rect || len(dst.Pix) != len(a.board.Pix) {
		dst = image.NewPaletted(a.board.Rect, palette)
	}
	dst.Palette = palette
	a.draw(dst, v, opt)
	return dst, nil
}

// imagePool recycles pictures between EncodePNG calls; one per size is typical.
var imagePool sync.Pool

// pngEncoder favours speed: the pictures are large flat areas, which compress well anyway.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}

type encoderPool struct{ p sync.Pool }

func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// EncodePNG writes the picture of v (see Image) to w as a PNG of 30…85 KB (the more legal
// moves, the more labels and bytes), safe for concurrent use. Only the first picture of each
// board size pays for drawing the board and discs (about 40 ms), and the first to show a label
// for drawing it (well under a millisecond); after that a picture takes about 2–3 ms of CPU.
func EncodePNG(w io.Writer, v View, opt ImageOptions) error {
	n := v.Position.Size()
	if !engine.ValidSize(n) {
		return fmt.Errorf("%w: %d", ErrSize, n)
	}
	a := assetsFor(n)
	img, _ := imagePool.Get().(*image.Paletted)
	if img == nil || img.Rect != a.board.Rect {
		img = image.NewPaletted(a.board.Rect, palette)
	}
	a.draw(img, v, opt)
	err := pngEncoder.Encode(w, img)
	imagePool.Put(img)
	return err
}

// PNG returns the picture of v (see Image) encoded as a PNG.
func PNG(v View, opt ImageOptions) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(32 << 10)
	if err := EncodePNG(&buf, v, opt); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// draw paints v over a copy of the empty board into img, which has the board's bounds.
func (a *assets) draw(img *image.Paletted, v View, opt ImageOptions) {
	copy(img.Pix, a.board.Pix)
	cells := newCellKinds(v, opt)
	for r := 0; r < a.l.size; r++ {
		for c := 0; c < a.l.size; c++ {
			sq := engine.SquareAt(c, r)
			kind := cells.at(sq)
			if kind == spriteNone {
				continue
			}
			sprite := a.sprites[kind]
			if i := cells.label[sq]; isHint(kind) && i > 0 {
				sprite = a.labelSprite(kind, int(i)-1)
			}
			a.blit(img, sprite, a.l.cellOrigin(c, r))
		}
	}
}

// cellKinds tells which cell picture each square of a View shows.
type cellKinds struct {
	p             engine.Position
	v             View
	flipped       bool
	last          engine.Square
	hint, suggest spriteKind
	legal         engine.Set
	suggested     engine.Square
	hinted        bool
	// label is 1 + the index of each legal move in Position.LegalMoves while that has a
	// label (MoveLabel), 0 for every other square and when the hints are hidden.
	label [256]uint8
}

func newCellKinds(v View, opt ImageOptions) cellKinds {
	k := cellKinds{p: v.Position, v: v, flipped: opt.Flipped, last: engine.Pass}
	if v.lastOK() {
		k.last = v.Last
	}
	k.hint, k.suggest = spriteHintBlack, spriteSuggestBlack
	if k.p.Side() == engine.White {
		k.hint, k.suggest = spriteHintWhite, spriteSuggestWhite
	}
	k.suggested, k.hinted = v.Hint()
	if opt.HideHints {
		k.hinted = false
	} else {
		k.legal = k.p.Moves()
		for i, sq := range k.p.LegalMoves() {
			if MoveLabel(i) != "" && sq.Valid() {
				k.label[sq] = uint8(i + 1)
			}
		}
	}
	return k
}

// at is the cell picture of sq, spriteNone for the empty board.
func (k *cellKinds) at(sq engine.Square) spriteKind {
	if col, ok := k.p.At(sq); ok {
		kind := spriteBlack
		switch {
		case sq == k.last || k.last != engine.Pass && k.v.Run.Has(sq) && col == k.v.LastBy:
			kind = spriteLastBlack
		case k.flipped && k.v.Flipped.Has(sq):
			kind = spriteFlipBlack
		}
		if col == engine.White {
			kind++
		}
		return kind
	}
	switch {
	case k.hinted && sq == k.suggested:
		return k.suggest
	case k.legal.Has(sq):
		return k.hint
	}
	return spriteNone
}

func (a *assets) blit(img *image.Paletted, sprite []uint8, at image.Point) {
	n := a.l.inner
	for y := 0; y < n; y++ {
		i := img.PixOffset(at.X, at.Y+y)
		copy(img.Pix[i:i+n], sprite[y*n:(y+1)*n])
	}
}

// makeAssets draws the empty board and the cell pictures of one size.
func makeAssets(size int) *assets {
	l := layoutFor(size)
	a := &assets{l: l}
	q := newQuantizer()

	// The empty board: frame, board, grid lines, labels.
	w := l.width
	rgba := image.NewRGBA(image.Rect(0, 0, w, w))
	fill(rgba, rgba.Rect, frameColor)
	span := size*l.cell + gridWidth
	fill(rgba, image.Rect(l.origin, l.origin, l.origin+span, l.origin+span), gridColor)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			o := l.cellOrigin(c, r)
			fill(rgba, image.Rect(o.X, o.Y, o.X+l.inner, o.Y+l.inner), boardColor)
		}
	}
	drawLabels(rgba, l)
	a.board = image.NewPaletted(rgba.Rect, palette)
	for i, j := 0, 0; i < len(a.board.Pix); i, j = i+1, j+4 {
		a.board.Pix[i] = q.index(rgba.Pix[j], rgba.Pix[j+1], rgba.Pix[j+2])
	}

	for k := spriteKind(1); k < numSprites; k++ {
		a.sprites[k] = drawSprite(l, k, q.quantizerFor(k))
	}
	a.labelFont = labelFontFor(l)
	return a
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
}

var (
	labelFaceOnce sync.Once
	labelFace     font.Face
)

// face returns the label font (Go Bold, embedded); nil only if the embedded font fails to
// load, which a test rules out.
func face() font.Face {
	labelFaceOnce.Do(func() {
		f, err := opentype.Parse(gobold.TTF)
		if err != nil {
			return
		}
		labelFace, _ = opentype.NewFace(f, &opentype.FaceOptions{Size: labelSize, DPI: 72, Hinting: font.HintingFull})
	})
	return labelFace
}

// drawLabels writes the column letters above and below the board and the row numbers left
// and right of it, each centred on its cell.
func drawLabels(img *image.RGBA, l layout) {
	f := face()
	if f == nil {
		return
	}
	d := &font.Drawer{Dst: img, Src: image.NewUniform(labelColor), Face: f}
	capHeight := f.Metrics().CapHeight.Round()
	if capHeight <= 0 {
		capHeight = labelSize * 7 / 10
	}
	put := func(text string, cx, cy int) {
		w := d.MeasureString(text).Round()
		d.Dot = fixed.P(cx-w/2, cy+capHeight/2)
		d.DrawString(text)
	}
	far := l.origin + l.size*l.cell + gridWidth + margin/2
	for i := 0; i < l.size; i++ {
		centre := l.origin + i*l.cell + gridWidth + l.inner/2
		letter := string(rune('a' + i))
		put(letter, centre, margin/2)
		put(letter, centre, far)
		number := fmt.Sprint(i + 1)
		put(number, margin/2, centre)
		put(number, far, centre)
	}
}

// drawSprite draws one cell picture over the board colour, 4×4 supersampled.
func drawSprite(l layout, k spriteKind, q *quantizer) []uint8 {
	n := l.inner
	out := make([]uint8, n*n)
	r := l.discRadius()
	c := float64(n) / 2
	const ss = 4
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var sr, sg, sb float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := float64(x) + (float64(sx)+0.5)/ss - c
					py := float64(y) + (float64(sy)+0.5)/ss - c
					col := spriteSample(k, px, py, r)
					sr += col[0]
					sg += col[1]
					sb += col[2]
				}
			}
			const m = ss * ss
			out[y*n+x] = q.index(uint8(sr/m+0.5), uint8(sg/m+0.5), uint8(sb/m+0.5))
		}
	}
	return out
}

type rgb [3]float64

func toRGB(c color.RGBA) rgb { return rgb{float64(c.R), float64(c.G), float64(c.B)} }

func mix(a, b rgb, t float64) rgb {
	return rgb{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

// spriteSample is the colour of a cell picture at (x, y) from the cell's centre, for a disc of
// radius r.
func spriteSample(k spriteKind, x, y, r float64) rgb {
	col := toRGB(boardColor)
	switch k {
	case spriteHintBlack, spriteHintWhite, spriteSuggestBlack, spriteSuggestWhite:
		tone := toRGB(blackDark)
		if k == spriteHintWhite || k == spriteSuggestWhite {
			tone = toRGB(whiteLight)
		}
		d := math.Hypot(x, y)
		switch {
		case d <= 0.28*r:
			col = mix(col, tone, 0.55)
		case (k == spriteSuggestBlack || k == spriteSuggestWhite) && d >= 0.52*r && d <= 0.74*r:
			col = toRGB(hintColor)
		}
		return col
	}
	// The shadow falls down and to the right.
	if math.Hypot(x-0.08*r, y-0.12*r) <= r {
		col = mix(col, toRGB(shadowTone), 0.45)
	}
	d := math.Hypot(x, y)
	if d > r {
		return col
	}
	light, dark := toRGB(blackLight), toRGB(blackDark)
	white := k == spriteWhite || k == spriteLastWhite || k == spriteFlipWhite
	if white {
		light, dark = toRGB(whiteLight), toRGB(whiteDark)
	}
	// Lit from the upper left: brightest at the highlight, darkest at the far rim.
	t := math.Hypot(x+0.35*r, y+0.4*r) / (1.75 * r)
	col = mix(light, dark, math.Min(1, math.Pow(t, 0.9)))
	switch k {
	case spriteLastBlack, spriteLastWhite:
		if d <= 0.3*r {
			col = toRGB(lastColor)
		}
	case spriteFlipBlack, spriteFlipWhite:
		if d >= 0.55*r && d <= 0.72*r {
			col = toRGB(flipColor)
		}
	}
	return col
}

// palette holds every colour of the pictures: the flat colours and ramps between the colours
// that meet at anti-aliased edges, so that each edge pixel finds a close match. Its entries are
// color.NRGBA, which the PNG encoder writes without converting (and allocating).
var palette = makePalette()

func makePalette() color.Palette {
	var p color.Palette
	add := func(c rgb) {
		p = append(p, color.NRGBA{uint8(c[0] + 0.5), uint8(c[1] + 0.5), uint8(c[2] + 0.5), 0xff})
	}
	ramp := func(a, b rgb, steps int) { // a, steps−1 colours between, not b
		for i := 0; i < steps; i++ {
			add(mix(a, b, float64(i)/float64(steps)))
		}
	}
	board, frame := toRGB(boardColor), toRGB(frameColor)
	shadow := mix(board, toRGB(shadowTone), 0.45)
	ramp(frame, toRGB(labelColor), 16)
	add(toRGB(labelColor))
	add(toRGB(gridColor))
	ramp(toRGB(blackDark), toRGB(blackLight), 24)
	add(toRGB(blackLight))
	ramp(toRGB(whiteDark), toRGB(whiteLight), 24)
	add(toRGB(whiteLight))
	ramp(board, shadow, 6)
	blackRim, whiteRim := mix(toRGB(blackLight), toRGB(blackDark), 0.6), mix(toRGB(whiteLight), toRGB(whiteDark), 0.6)
	for _, bg := range []rgb{board, shadow} {
		ramp(bg, blackRim, 10)
		ramp(bg, whiteRim, 10)
	}
	ramp(shadow, toRGB(blackDark), 6)
	ramp(shadow, toRGB(whiteDark), 6)
	for _, special := range []color.RGBA{lastColor, flipColor} {
		s := toRGB(special)
		ramp(s, toRGB(blackLight), 6)
		ramp(s, toRGB(blackDark), 6)
		ramp(s, toRGB(whiteLight), 6)
		ramp(s, toRGB(whiteDark), 6)
	}
	ramp(board, mix(board, toRGB(blackDark), 0.55), 6)
	add(mix(board, toRGB(blackDark), 0.55))
	ramp(board, mix(board, toRGB(whiteLight), 0.55), 6)
	add(mix(board, toRGB(whiteLight), 0.55))
	// Then the colours that only the suggested move's sprites use (see quantizerFor), and
	// those that only the labels use.
	ramp(board, toRGB(hintColor), hintEntries-1)
	add(toRGB(hintColor))
	for _, c := range labelColors() {
		add(c)
	}
	// 255 at most, so that a replay has room for its transparent colour; a test checks that
	// nothing is cut.
	return p[:min(len(p), 255)]
}

// hintEntries is the number of colours before the labels' (labelEntries) at the end of the
// palette for the ring of the suggested move. The other pictures never use them, so they look
// exactly as they did before the ring was added.
const hintEntries = 7

// basicEntries is the number of colours of the palette before those of the suggested move and
// the labels: those of every other picture.
var basicEntries = len(palette) - hintEntries - labelEntries

// quantizer maps colours to the nearest entry of the first n colours of the palette,
// remembering the answers.
type quantizer struct {
	seen map[uint32]uint8
	n    int
}

// newQuantizer returns a quantizer for every picture but the suggested move's and the labels'.
func newQuantizer() *quantizer {
	return &quantizer{seen: make(map[uint32]uint8), n: basicEntries}
}

// quantizerFor returns q, or for the suggested move's sprites one over the palette up to the
// labels' colours.
func (q *quantizer) quantizerFor(k spriteKind) *quantizer {
	if k == spriteSuggestBlack || k == spriteSuggestWhite {
		return &quantizer{seen: make(map[uint32]uint8), n: basicEntries + hintEntries}
	}
	return q
}

func (q *quantizer) index(r, g, b uint8) uint8 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	if i, ok := q.seen[key]; ok {
		return i
	}
	best, bestD := 0, math.MaxInt
	for i, c := range palette[:q.n] {
		pc := c.(color.NRGBA)
		dr, dg, db := int(r)-int(pc.R), int(g)-int(pc.G), int(b)-int(pc.B)
		// Weighted for the eye's sensitivity.
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	q.seen[key] = uint8(best)
	return uint8(best)
}
