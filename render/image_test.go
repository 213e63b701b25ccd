package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/enginetest"
	"github.com/reversibot/reversi/render/rendertest"
	xdraw "golang.org/x/image/draw"
)

func TestPaletteFits(t *testing.T) {
	if n := len(makePaletteUncut()); n > 256 {
		t.Fatalf("the palette has %d colours; a PNG palette holds 256", n)
	}
	if face() == nil {
		t.Fatal("the embedded label font did not load")
	}
}

// makePaletteUncut is makePalette without its cut to 256 colours.
func makePaletteUncut() color.Palette {
	p := makePalette()
	return p[:len(p):len(p)]
}

func rgbOf(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func luma(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// checkPicture checks every cell of img against v: disc bodies dark or light, a red centre on
// the last move, amber rings on flipped discs, on the legal moves their labels (checkLabelCell)
// or past MaxMoveLabels a dot, the badge colours nowhere else, the plain board colour
// elsewhere, grid lines between cells, coordinates in the frame.
func checkPicture(t *testing.T, img image.Image, v View, opt ImageOptions) {
	t.Helper()
	p := v.Position
	l := layoutFor(p.Size())
	if b := img.Bounds(); b.Dx() != l.width || b.Dy() != l.width || l.width < 800 || l.width > 1000 {
		t.Fatalf("picture is %v, want %d pixels square, 800…1000", b, l.width)
	}
	r := l.discRadius()
	at := func(x, y int) color.RGBA { return rgbOf(img.At(x, y)) }
	legal := p.Moves()
	hint, hinted := v.Hint()
	hinted = hinted && !opt.HideHints
	labels := map[engine.Square]string{}
	for i, sq := range p.LegalMoves() {
		labels[sq] = MoveLabel(i)
	}
	badge := badgeBlack
	if p.Side() == engine.White {
		badge = badgeWhite
	}
	badges, inCells := 0, 0 // cells with badge pixels, and those pixels
	read := 0               // the labelled cells met
	for row := 0; row < l.size; row++ {
		for col := 0; col < l.size; col++ {
			sq := engine.SquareAt(col, row)
			c := l.cellCenter(sq)
			o := l.cellOrigin(col, row)
			body := at(c.X-int(0.4*r), c.Y)
			centre := at(c.X, c.Y)
			ring := at(c.X+int(0.63*r), c.Y)
			if got := at(o.X+1, o.Y+1); got != boardColor {
				t.Errorf("%v: cell corner %s, want the board %s", sq, hex(got), hex(boardColor))
			}
			if got := at(o.X-1, c.Y); got != gridColor {
				t.Errorf("%v: grid left of the cell %s, want %s", sq, hex(got), hex(gridColor))
			}
			disc, occupied := p.At(sq)
			labelled := !occupied && !opt.HideHints && labels[sq] != ""
			if n := countColor(img, image.Rectangle{o, o.Add(image.Pt(l.inner, l.inner))}, badge); n > 0 {
				badges, inCells = badges+1, inCells+n
				if !labelled {
					t.Errorf("%v: %d pixels of the badge colour in a cell without a label", sq, n)
				}
			}
			switch {
			case occupied && disc == engine.Black && luma(body) > 0x70,
				occupied && disc == engine.White && luma(body) < 0xb0:
				t.Errorf("%v: %v disc body %s", sq, disc, hex(body))
			case labelled:
				read++
				// Reading a label is slow under the race detector: there every third is read,
				// and the suggested move's.
				if !raceEnabled || read%3 == 1 || hinted && sq == hint {
					checkLabelCell(t, img, l, sq, labels[sq], p.Side(), hinted && sq == hint)
				}
			case !occupied && legal.Has(sq) && !opt.HideHints:
				want := mix(toRGB(boardColor), toRGB(blackDark), 0.55)
				if p.Side() == engine.White {
					want = mix(toRGB(boardColor), toRGB(whiteLight), 0.55)
				}
				if d := dist(centre, want); d > 6 {
					t.Errorf("%v: hint %s, want about %v", sq, hex(centre), want)
				}
				if body != boardColor {
					t.Errorf("%v: the hint dot is too big: %s beside it", sq, hex(body))
				}
			case !occupied && (centre != boardColor || body != boardColor || ring != boardColor && !(hinted && sq == hint)):
				t.Errorf("%v: empty cell shows %s, %s", sq, hex(centre), hex(body))
			}
			isRed := centre.R > 0xc0 && centre.G < 0x60 && centre.B < 0x60
			marked := occupied && (sq == v.Last || v.lastOK() && v.Run.Has(sq) && disc == v.LastBy)
			if isRed != marked {
				t.Errorf("%v: centre %s, red %v, want %v (last move %v, run %v)", sq, hex(centre), isRed, marked, v.Last, v.Run.Squares())
			}
			if occupied && !marked && luma(centre) > 0x70 == (disc == engine.Black) {
				t.Errorf("%v: centre of the %v disc %s", sq, disc, hex(centre))
			}
			if want := !occupied && hinted && sq == hint; !labelled && (ring == hintColor) != want {
				t.Errorf("%v: ring %s, hint ring %v, want %v (hint %v)", sq, hex(ring), ring == hintColor, want, hint)
			}
			isAmber := ring.R > 0xe0 && ring.G > 0x90 && ring.B < 0x40
			if want := occupied && opt.Flipped && v.Flipped.Has(sq) && sq != v.Last; isAmber != want {
				t.Errorf("%v: ring %s, amber %v, want %v", sq, hex(ring), isAmber, want)
			}
		}
	}
	want := 0
	for _, label := range labels {
		if label != "" && !opt.HideHints {
			want++
		}
	}
	if badges != want {
		t.Errorf("%d cells show a badge, want %d", badges, want)
	}
	if n := countColor(img, img.Bounds(), badge); n != inCells {
		t.Errorf("%d pixels of the badge colour outside the cells", n-inCells)
	}
	other := badgeWhite
	if badge == badgeWhite {
		other = badgeBlack
	}
	if n := countColor(img, img.Bounds(), other); n > 0 {
		t.Errorf("%d pixels of the other side's badge colour %v", n, other)
	}
	// Coordinates: some bright pixels in the frame above, below, left and right of each line.
	far := l.origin + l.size*l.cell + gridWidth
	for i := 0; i < l.size; i++ {
		centre := l.origin + i*l.cell + gridWidth + l.inner/2
		for _, box := range []image.Rectangle{
			image.Rect(centre-12, 0, centre+12, margin),
			image.Rect(centre-12, far, centre+12, l.width),
			image.Rect(0, centre-12, margin, centre+12),
			image.Rect(far, centre-12, l.width, centre+12),
		} {
			bright := 0
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					if luma(at(x, y)) > 0x90 {
						bright++
					}
				}
			}
			if bright < 15 {
				t.Errorf("label of line %d: only %d bright pixels in %v", i+1, bright, box)
			}
		}
	}
}

func dist(c color.RGBA, want rgb) float64 {
	d := 0.0
	for i, v := range [3]uint8{c.R, c.G, c.B} {
		d += (float64(v) - want[i]) * (float64(v) - want[i])
	}
	return d
}

// scenes are the positions the picture tests draw.
func scenes(t testing.TB) []struct {
	name string
	v    View
	opt  ImageOptions
} {
	type scene = struct {
		name string
		v    View
		opt  ImageOptions
	}
	out := []scene{
		{"8x8 start", NewView(engine.MustStart(8)), ImageOptions{}},
		{"8x8 ply 23 flipped", ViewOf(rendertest.RandomGame(t, 8, 5, 23)), ImageOptions{Flipped: true}},
		{"10x10 ply 40 flipped", ViewOf(rendertest.RandomGame(t, 10, 1, 40)), ImageOptions{Flipped: true}},
		{"12x12 ply 70", ViewOf(rendertest.RandomGame(t, 12, 2, 70)), ImageOptions{}},
		{"16x16 ply 150 flipped", ViewOf(rendertest.RandomGame(t, 16, 3, 150)), ImageOptions{Flipped: true}},
		{"16x16 no hints", ViewOf(rendertest.RandomGame(t, 16, 4, 31)), ImageOptions{HideHints: true, Flipped: true}},
		{"16x16 finished", ViewOf(rendertest.RandomGame(t, 16, 5, 1000)), ImageOptions{Flipped: true}},
		{"4x4 finished", ViewOf(rendertest.RandomGame(t, 4, 1, 100)), ImageOptions{}},
		{"6x6 white to move", ViewOf(rendertest.RandomGame(t, 6, 3, 5)), ImageOptions{}},
		{"14x14 fullest", NewView(rendertest.Fullest(t, 14)), ImageOptions{}},
	}
	// The suggested move, shown and hidden.
	for _, h := range []struct {
		name string
		g    *engine.Game
		opt  ImageOptions
	}{
		{"8x8 hint", rendertest.RandomGame(t, 8, 5, 22), ImageOptions{Flipped: true}},
		{"16x16 hint", rendertest.RandomGame(t, 16, 3, 151), ImageOptions{Flipped: true}},
		{"12x12 hint hidden", rendertest.RandomGame(t, 12, 2, 70), ImageOptions{HideHints: true}},
	} {
		v := ViewOf(h.g)
		moves := v.Position.LegalMoves()
		out = append(out, scene{h.name, v.WithHint(moves[len(moves)/2]), h.opt})
	}
	// Moves in a row: the first moment of a random game where one side placed two or more
	// discs in a row while the other passed; on 8×8 and on 10×10.
	for _, size := range []int{8, 10} {
		found := false
		for seed := uint64(0); seed < 500 && !found; seed++ {
			full := rendertest.RandomGame(t, size, seed, 1000)
			g, err := engine.NewGame(size)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range full.Moves() {
				if _, err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				if v := ViewOf(g); !v.Run.Empty() && m != engine.Pass {
					out = append(out, scene{fmt.Sprintf("%dx%d moves in a row", size, size), v, ImageOptions{Flipped: true}})
					found = true
					break
				}
			}
		}
		if !found {
			t.Fatalf("no %d×%d game with moves in a row", size, size)
		}
	}
	// A pass: replay until the side to move has no move, then pass.
	for seed := uint64(0); ; seed++ {
		g := rendertest.RandomGame(t, 8, seed, 200)
		for g.Len() > 0 && !g.Position().MustPass() {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		if g.Len() > 0 {
			if _, err := g.Play(engine.Pass); err != nil {
				t.Fatal(err)
			}
			out = append(out, scene{"8x8 after a pass", ViewOf(g), ImageOptions{Flipped: true}})
			break
		}
	}
	return out
}

func TestImage(t *testing.T) {
	samples := map[string][]string{}
	for _, sc := range scenes(t) {
		img, err := Image(sc.v, sc.opt)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		checkPicture(t, img, sc.v, sc.opt)
		// The golden samples: the centre and the body of a few cells, and a label.
		l := layoutFor(sc.v.Position.Size())
		var pts []string
		sample := func(what string, pt image.Point) {
			pts = append(pts, fmt.Sprintf("%s (%d,%d) %s", what, pt.X, pt.Y, hex(rgbOf(img.At(pt.X, pt.Y)))))
		}
		n := sc.v.Position.Size()
		for _, sq := range append([]engine.Square{0, engine.SquareAt(n/2-1, n/2-1), engine.SquareAt(n/2, n/2-1), engine.SquareAt(n-1, n-1), sc.v.Last}, sc.v.Run.Squares()...) {
			if !sq.OnBoard(n) {
				continue
			}
			c := l.cellCenter(sq)
			sample(sq.String()+" centre", c)
			sample(sq.String()+" body", c.Add(image.Pt(-int(0.4*l.discRadius()), 0)))
			sample(sq.String()+" ring", c.Add(image.Pt(int(0.63*l.discRadius()), 0)))
		}
		for _, sq := range sc.v.Position.LegalMoves()[:min(2, sc.v.Position.MoveCount())] {
			sample(sq.String()+" hint", l.cellCenter(sq))
		}
		if sq, ok := sc.v.Hint(); ok {
			c := l.cellCenter(sq)
			sample(sq.String()+" suggested centre", c)
			sample(sq.String()+" suggested ring", c.Add(image.Pt(int(0.63*l.discRadius()), 0)))
		}
		samples[sc.name] = pts
	}
	golden(t, "pixels.golden.json", samples)
}

func TestPNGMatchesImage(t *testing.T) {
	for _, sc := range scenes(t) {
		data, err := PNG(sc.v, sc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 100<<10 {
			t.Errorf("%s: PNG of %d bytes, want under 100 KB", sc.name, len(data))
		}
		decoded, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		want, _ := Image(sc.v, sc.opt)
		b := want.Bounds()
		if decoded.Bounds() != b {
			t.Fatalf("%s: decoded %v, want %v", sc.name, decoded.Bounds(), b)
		}
		pal, ok := decoded.(*image.Paletted)
		if !ok {
			t.Fatalf("%s: decoded a %T, want a paletted image", sc.name, decoded)
		}
		for i := range want.Pix {
			if g, w := rgbOf(pal.Palette[pal.Pix[i]]), rgbOf(want.Palette[want.Pix[i]]); g != w {
				t.Fatalf("%s: pixel %d is %s, want %s", sc.name, i, hex(g), hex(w))
			}
		}
	}
}

// TestPNGSizeWorstCase draws the busiest pictures: full boards with every disc flipped, and
// the positions with the most hints.
func TestPNGSizeWorstCase(t *testing.T) {
	for _, size := range []int{8, 10, 12, 16} {
		g := rendertest.RandomGame(t, size, 11, 10000)
		full := ViewOf(g)
		full.Flipped = full.Position.Discs(engine.Black)
		hints := NewView(rendertest.Fullest(t, size))
		for _, v := range []View{full, hints} {
			data, err := PNG(v, ImageOptions{Flipped: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d×%d, %d discs, %d hints: %d bytes", size, size, size*size-v.Position.Empties(), v.Position.MoveCount(), len(data))
			if len(data) > 100<<10 {
				t.Errorf("%d×%d: PNG of %d bytes, want under 100 KB", size, size, len(data))
			}
		}
	}
}

func TestImageErrors(t *testing.T) {
	if _, err := Image(View{}, ImageOptions{}); !errors.Is(err, ErrSize) {
		t.Errorf("Image of the zero View = %v, want ErrSize", err)
	}
	if err := EncodePNG(io.Discard, View{}, ImageOptions{}); !errors.Is(err, ErrSize) {
		t.Errorf("EncodePNG of the zero View = %v, want ErrSize", err)
	}
	// A Last that holds no disc, or lies off the board, marks nothing.
	v := NewView(engine.MustStart(8))
	for _, last := range []engine.Square{0, 255, 300, -7} {
		v.Last = last
		img, err := Image(v, ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		v.Last = engine.Pass
		checkPicture(t, img, v, ImageOptions{})
	}
}

type failWriter struct{}

var errWrite = errors.New("write failed")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestEncodePNGWriteError(t *testing.T) {
	if err := EncodePNG(failWriter{}, NewView(engine.MustStart(8)), ImageOptions{}); !errors.Is(err, errWrite) {
		t.Errorf("EncodePNG to a failing writer = %v, want its error", err)
	}
}

// TestPNGConcurrent draws every size from several goroutines at once (run with -race).
func TestPNGConcurrent(t *testing.T) {
	views := map[int][]byte{}
	for _, size := range sizes {
		data, err := PNG(ViewOf(rendertest.RandomGame(t, size, 1, 20)), ImageOptions{Flipped: true})
		if err != nil {
			t.Fatal(err)
		}
		views[size] = data
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(sizes))
	for w := 0; w < 4; w++ {
		for _, size := range sizes {
			wg.Go(func() {
				var buf bytes.Buffer
				if err := EncodePNG(&buf, ViewOf(rendertest.RandomGame(t, size, 1, 20)), ImageOptions{Flipped: true}); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(buf.Bytes(), views[size]) {
					errs <- fmt.Errorf("%d×%d: concurrent PNG differs", size, size)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDocsBoards keeps the example pictures in docs/boards current: -update rewrites them,
// otherwise they must decode to what the renderer draws now. board-16-labelled-360.png is a
// busy 16×16 position as a phone shows it, 360 pixels wide, to judge the labels by.
func TestDocsBoards(t *testing.T) {
	dir := filepath.Join("..", "docs", "boards")
	for _, ex := range []struct {
		size, plies int
		seed        uint64
	}{{8, 25, 2}, {10, 44, 3}, {12, 70, 4}, {16, 150, 3}} {
		v := ViewOf(rendertest.RandomGame(t, ex.size, ex.seed, ex.plies))
		opt := ImageOptions{Flipped: true}
		data, err := PNG(v, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Image(v, opt)
		docPicture(t, filepath.Join(dir, fmt.Sprintf("board-%d.png", ex.size)), data, want, 0)
	}
	busy := ViewOf(rendertest.RandomGame(t, 16, 64, 120))
	moves := busy.Position.LegalMoves()
	busy = busy.WithHint(moves[len(moves)/2])
	full, err := Image(busy, ImageOptions{Flipped: true})
	if err != nil {
		t.Fatal(err)
	}
	phone := phoneWidth(full, 360)
	var buf bytes.Buffer
	if err := png.Encode(&buf, phone); err != nil {
		t.Fatal(err)
	}
	// Scaling is floating point: allow a step of rounding.
	docPicture(t, filepath.Join(dir, "board-16-labelled-360.png"), buf.Bytes(), phone, 2)
}

// phoneWidth scales img down to width pixels across, as a phone shows a picture.
func phoneWidth(img image.Image, width int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, width, b.Dy()*width/b.Dx()))
	xdraw.CatmullRom.Scale(out, out.Rect, img, b, xdraw.Src, nil)
	return out
}

// docPicture writes data to path under -update, and otherwise checks that the picture in path
// shows want, every channel of every third pixel within tol.
func docPicture(t *testing.T, path string, data []byte, want image.Image, tol int) {
	t.Helper()
	if enginetest.Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	got, err := png.Decode(bytes.NewReader(old))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s is %v, the renderer draws %v (run go test -update)", path, got.Bounds(), want.Bounds())
	}
	for y := 0; y < want.Bounds().Dy(); y += 3 {
		for x := 0; x < want.Bounds().Dx(); x += 3 {
			g, w := rgbOf(got.At(x, y)), rgbOf(want.At(x, y))
			if abs(int(g.R)-int(w.R)) > tol || abs(int(g.G)-int(w.G)) > tol || abs(int(g.B)-int(w.B)) > tol {
				t.Fatalf("%s: pixel (%d,%d) %s, the renderer draws %s (run go test -update)", path, x, y, hex(g), hex(w))
			}
		}
	}
}

func benchmarkPNG(b *testing.B, v View) {
	var buf bytes.Buffer
	if err := EncodePNG(&buf, v, ImageOptions{Flipped: true}); err != nil { // draws the assets
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := EncodePNG(&buf, v, ImageOptions{Flipped: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes") // after the loop, which resets metrics
}

func BenchmarkPNG8(b *testing.B)     { benchmarkPNG(b, ViewOf(rendertest.RandomGame(b, 8, 5, 23))) }
func BenchmarkPNG8Full(b *testing.B) { benchmarkPNG(b, ViewOf(rendertest.RandomGame(b, 8, 11, 1000))) }
func BenchmarkPNG16(b *testing.B)    { benchmarkPNG(b, ViewOf(rendertest.RandomGame(b, 16, 3, 150))) }
func BenchmarkPNG16Full(b *testing.B) {
	benchmarkPNG(b, ViewOf(rendertest.RandomGame(b, 16, 11, 10000)))
}

// BenchmarkPNG16Busy draws the busiest moment of a few hundred random 16×16 games: 55 legal
// moves to mark.
func BenchmarkPNG16Busy(b *testing.B) { benchmarkPNG(b, ViewOf(rendertest.RandomGame(b, 16, 64, 120))) }

// BenchmarkPNG16Fullest draws the 16×16 position with the most legal moves the tests know (119).
func BenchmarkPNG16Fullest(b *testing.B) { benchmarkPNG(b, NewView(rendertest.Fullest(b, 16))) }

// BenchmarkAssets16 measures the one-time drawing of a size's board and cell pictures.
func BenchmarkAssets16(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		makeAssets(16)
	}
}
