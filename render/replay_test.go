package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render/rendertest"
)

// fullGame returns the first seeded random game of the given size, from seed on, that fills
// the board (every square, so 8×8 gives 60 plies).
func fullGame(t testing.TB, size int, seed uint64) *engine.Game {
	t.Helper()
	for s := seed; s < seed+200; s++ {
		if g := rendertest.RandomGame(t, size, s, 10000); g.Position().Empties() == 0 {
			return g
		}
	}
	t.Fatalf("no full %d×%d game in 200 seeds from %d", size, size, seed)
	return nil
}

// gameWithPass returns a finished seeded random game of the given size that has a pass in
// the middle (a pass followed by a move).
func gameWithPass(t testing.TB, size int) *engine.Game {
	t.Helper()
	for seed := uint64(0); seed < 500; seed++ {
		g := rendertest.RandomGame(t, size, seed, 10000)
		moves := g.Moves()
		for i := 0; i+1 < len(moves); i++ {
			if moves[i] == engine.Pass && moves[i+1] != engine.Pass {
				return g
			}
		}
	}
	t.Fatalf("no %d×%d game with a pass in 500 seeds", size, size)
	return nil
}

// composed decodes a replay and returns the picture after each frame, composed the way a
// viewer does with disposal none: each frame's opaque pixels over the ones before. The
// pictures are in the GIF's global palette.
func composed(t *testing.T, data []byte) (*gif.GIF, []*image.Paletted) {
	t.Helper()
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the replay does not decode: %v", err)
	}
	global, ok := anim.Config.ColorModel.(color.Palette)
	if !ok {
		t.Fatal("the replay has no global palette")
	}
	canvas := image.NewPaletted(image.Rect(0, 0, anim.Config.Width, anim.Config.Height), global)
	var out []*image.Paletted
	for i, f := range anim.Image {
		if !f.Rect.In(canvas.Rect) {
			t.Fatalf("frame %d at %v is outside the picture %v", i, f.Rect, canvas.Rect)
		}
		if i == 0 && f.Rect != canvas.Rect {
			t.Fatalf("the first frame is %v, want the whole picture %v", f.Rect, canvas.Rect)
		}
		var opaque [256]bool
		for j, c := range f.Palette {
			_, _, _, a := c.RGBA()
			opaque[j] = a != 0
			if j < len(global) && a != 0 && rgbOf(c) != rgbOf(global[j]) {
				t.Fatalf("frame %d: colour %d is %v, the global palette's %v", i, j, c, global[j])
			}
		}
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
				c := f.ColorIndexAt(x, y)
				if !opaque[c] {
					if i == 0 {
						t.Fatalf("the first frame has a transparent pixel at (%d,%d)", x, y)
					}
					continue
				}
				canvas.SetColorIndex(x, y, c)
			}
		}
		out = append(out, image.NewPaletted(canvas.Rect, global))
		copy(out[len(out)-1].Pix, canvas.Pix)
	}
	return anim, out
}

// wantPicture is the picture of v as a replay of a board of v's size shows it: Image with the
// replay's options, shrunk by s.
func wantPicture(t *testing.T, v View, s int) *image.Paletted {
	t.Helper()
	img, err := Image(v, replayImage)
	if err != nil {
		t.Fatal(err)
	}
	if s == 1 {
		return img
	}
	return newShrinker(s).shrink(img)
}

// samePicture fails unless got and want have the same bounds and colours.
func samePicture(t *testing.T, what string, got, want *image.Paletted) {
	t.Helper()
	if got.Rect != want.Rect {
		t.Fatalf("%s: picture %v, want %v", what, got.Rect, want.Rect)
	}
	var gotRGB, wantRGB [256]color.RGBA
	for i, c := range got.Palette {
		gotRGB[i] = rgbOf(c)
	}
	for i, c := range want.Palette {
		wantRGB[i] = rgbOf(c)
	}
	for y := got.Rect.Min.Y; y < got.Rect.Max.Y; y++ {
		for x := got.Rect.Min.X; x < got.Rect.Max.X; x++ {
			if g, w := gotRGB[got.ColorIndexAt(x, y)], wantRGB[want.ColorIndexAt(x, y)]; g != w {
				t.Fatalf("%s: pixel (%d,%d) is %s, want %s", what, x, y, hex(g), hex(w))
			}
		}
	}
}

// replayCase checks the replay of g frame by frame: 1 + 2·Ply frames, the start position
// first, then for each disc placed the disc with its flips ringed and then the picture of the
// game after the move, the last being the picture of g; and the delays, disposal and loop.
func replayCase(t *testing.T, g *engine.Game, opt ReplayOptions, shrink int) []byte {
	t.Helper()
	data, err := Replay(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	anim, frames := composed(t, data)
	if want := 1 + 2*g.Ply(); len(frames) != want {
		t.Fatalf("%d frames for %d plies, want %d", len(frames), g.Ply(), want)
	}
	if anim.LoopCount != 0 && len(frames) > 1 {
		t.Errorf("loop count %d, want 0 (forever)", anim.LoopCount)
	}
	for i, d := range anim.Disposal {
		if d != gif.DisposalNone {
			t.Fatalf("frame %d has disposal %d, want none", i, d)
		}
	}
	full := layoutFor(g.Start().Size()).width / shrink
	if anim.Config.Width != full || anim.Config.Height != full {
		t.Fatalf("the replay is %d×%d, want %d square", anim.Config.Width, anim.Config.Height, full)
	}

	again := engine.NewGameFrom(g.Start())
	samePicture(t, "start", frames[0], wantPicture(t, ViewOf(again), shrink))
	move, pass := centis(opt.MoveDelay), 0
	if opt.MoveDelay == 0 {
		move = 70
	}
	wantDelays := []int{200}
	k := 1
	for _, m := range g.Moves() {
		before := again.Position()
		if _, err := again.Play(m); err != nil {
			t.Fatal(err)
		}
		if m == engine.Pass {
			wantDelays[len(wantDelays)-1] += move
			pass++
			continue
		}
		// The placed disc: the position before with the new disc, marked, and its flips
		// ringed in their old colour.
		text := []byte(before.BoardText())
		text[m.Row()*before.Size()+m.Col()] = before.Side().Symbol()
		p, err := engine.ParseBoard(string(text), before.Side().Opponent())
		if err != nil {
			t.Fatal(err)
		}
		after := ViewOf(again)
		placed := View{Position: p, Last: m, LastBy: before.Side(), Flipped: before.Flips(m), Run: after.Run}
		if !raceEnabled || k%12 == 1 { // under the race detector, every sixth move
			samePicture(t, fmt.Sprintf("ply %d placed", after.Ply), frames[k], wantPicture(t, placed, shrink))
			samePicture(t, fmt.Sprintf("ply %d flipped", after.Ply), frames[k+1], wantPicture(t, after, shrink))
		}
		k += 2
		wantDelays = append(wantDelays, move*2/5, move-move*2/5)
	}
	samePicture(t, "end", frames[len(frames)-1], wantPicture(t, ViewOf(g), shrink))
	wantDelays[len(wantDelays)-1] = 300
	if opt.MoveDelay == 0 {
		if fmt.Sprint(anim.Delay) != fmt.Sprint(wantDelays) {
			t.Errorf("delays %v, want %v", anim.Delay, wantDelays)
		}
	}
	t.Logf("%d×%d, %d plies, %d passes: %d frames, %d bytes", g.Start().Size(), g.Start().Size(), g.Ply(), pass, len(frames), len(data))
	return data
}

func TestReplay8(t *testing.T) {
	g := fullGame(t, 8, 1)
	if g.Ply() != 60 {
		t.Fatalf("the game has %d plies", g.Ply())
	}
	data := replayCase(t, g, ReplayOptions{}, 2)
	if len(data) >= 1<<20 {
		t.Errorf("a 60-move 8×8 replay takes %d bytes, want under 1 MB", len(data))
	}
}

func TestReplay16(t *testing.T) {
	g := rendertest.RandomGame(t, 16, 11, 10000)
	if !g.Over() {
		t.Fatal("the 16×16 game did not end")
	}
	data := replayCase(t, g, ReplayOptions{}, 1)
	if len(data) >= 4<<20 {
		t.Errorf("a full 16×16 replay takes %d bytes, want under 4 MB", len(data))
	}
}

func TestReplayPasses(t *testing.T) {
	for _, size := range []int{4, 6} {
		g := gameWithPass(t, size)
		replayCase(t, g, ReplayOptions{}, 2)
	}
}

func TestReplayShapes(t *testing.T) {
	t.Run("no moves", func(t *testing.T) {
		g, err := engine.NewGame(8)
		if err != nil {
			t.Fatal(err)
		}
		replayCase(t, g, ReplayOptions{}, 2) // one frame, held 3 s
	})
	t.Run("one move", func(t *testing.T) {
		g := rendertest.RandomGame(t, 8, 3, 1)
		replayCase(t, g, ReplayOptions{}, 2)
	})
	t.Run("from a position", func(t *testing.T) {
		g := engine.NewGameFrom(rendertest.RandomGame(t, 8, 9, 17).Position())
		for !g.Over() {
			m := engine.Pass
			if ms := g.Position().LegalMoves(); len(ms) > 0 {
				m = ms[0]
			}
			if _, err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		replayCase(t, g, ReplayOptions{}, 2)
	})
	for _, s := range []int{1, 3, 4} {
		t.Run(fmt.Sprintf("shrink %d", s), func(t *testing.T) {
			g := rendertest.RandomGame(t, 10, uint64(s), 30)
			replayCase(t, g, ReplayOptions{Shrink: s, MoveDelay: time.Second}, s)
		})
	}
	t.Run("default shrink", func(t *testing.T) {
		for _, c := range []struct{ size, shrink int }{{4, 2}, {6, 2}, {8, 2}, {10, 2}, {12, 1}, {14, 1}, {16, 1}} {
			opt, err := ReplayOptions{}.withDefaults(c.size)
			if err != nil || opt.Shrink != c.shrink {
				t.Errorf("%d×%d: shrink %d (%v), want %d", c.size, c.size, opt.Shrink, err, c.shrink)
			}
		}
	})
}

func TestReplayDelays(t *testing.T) {
	g := rendertest.RandomGame(t, 8, 4, 3)
	data, err := Replay(g, ReplayOptions{MoveDelay: time.Second, StartDelay: 500 * time.Millisecond, EndDelay: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if want := "[50 40 60 40 60 40 1000]"; fmt.Sprint(anim.Delay) != want {
		t.Errorf("delays %v, want %s", anim.Delay, want)
	}
	data, err = Replay(g, ReplayOptions{MoveDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if anim, err = gif.DecodeAll(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for i, d := range anim.Delay {
		if d < minFrameDelay {
			t.Errorf("frame %d: delay %d, want at least %d", i, d, minFrameDelay)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	good := rendertest.RandomGame(t, 8, 1, 5)
	for _, c := range []struct {
		name string
		g    *engine.Game
		opt  ReplayOptions
		want error
	}{
		{"nil game", nil, ReplayOptions{}, ErrNoGame},
		{"zero game", &engine.Game{}, ReplayOptions{}, ErrNoGame},
		{"zero position", engine.NewGameFrom(engine.Position{}), ReplayOptions{}, ErrSize},
		{"negative shrink", good, ReplayOptions{Shrink: -1}, ErrReplayOptions},
		{"big shrink", good, ReplayOptions{Shrink: MaxShrink + 1}, ErrReplayOptions},
		{"negative delay", good, ReplayOptions{MoveDelay: -time.Second}, ErrReplayOptions},
		{"long delay", good, ReplayOptions{EndDelay: time.Hour}, ErrReplayOptions},
	} {
		data, err := Replay(c.g, c.opt)
		if !errors.Is(err, c.want) || data != nil {
			t.Errorf("%s: %d bytes, error %v, want %v", c.name, len(data), err, c.want)
		}
	}
}

func TestReplayConcurrent(t *testing.T) {
	g := rendertest.RandomGame(t, 8, 6, 20)
	sameWhenConcurrent(t, "replay", func() ([]byte, error) { return Replay(g, ReplayOptions{}) })
}

// TestShrinkMatchesPlain compares the shrinker with a plain second implementation: the mean of
// each block through color.Color, and the nearest colour by a full search of the palette. The
// picture is one a replay shrinks: no hints, so no colours of the labels.
func TestShrinkMatchesPlain(t *testing.T) {
	v := ViewOf(rendertest.RandomGame(t, 6, 2, 14))
	img, err := Image(v, replayImage)
	if err != nil {
		t.Fatal(err)
	}
	usable := palette[:basicEntries]
	nearest := func(r, g, b int) color.RGBA {
		best, bestD := color.RGBA{}, -1
		for _, c := range usable {
			pc := rgbOf(c)
			dr, dg, db := r-int(pc.R), g-int(pc.G), b-int(pc.B)
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; bestD < 0 || d < bestD {
				best, bestD = pc, d
			}
		}
		return best
	}
	for _, s := range []int{2, 3} {
		got := newShrinker(s).shrink(img)
		if want := image.Rect(0, 0, img.Rect.Dx()/s, img.Rect.Dy()/s); got.Rect != want {
			t.Fatalf("shrink %d: %v, want %v", s, got.Rect, want)
		}
		for y := 0; y < got.Rect.Dy(); y++ {
			for x := 0; x < got.Rect.Dx(); x++ {
				var r, g, b int
				for dy := 0; dy < s; dy++ {
					for dx := 0; dx < s; dx++ {
						c := rgbOf(img.At(x*s+dx, y*s+dy))
						r, g, b = r+int(c.R), g+int(c.G), b+int(c.B)
					}
				}
				n := s * s
				want := nearest((r+n/2)/n, (g+n/2)/n, (b+n/2)/n)
				if g := rgbOf(got.At(x, y)); g != want {
					t.Fatalf("shrink %d: pixel (%d,%d) %s, want %s", s, x, y, hex(g), hex(want))
				}
			}
		}
	}
}

func benchmarkReplay(b *testing.B, g *engine.Game) {
	data, err := Replay(g, ReplayOptions{}) // draws the assets
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if data, err = Replay(g, ReplayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "gif-bytes")
	b.ReportMetric(float64(g.Ply()), "plies")
}

func BenchmarkReplay8(b *testing.B)  { benchmarkReplay(b, fullGame(b, 8, 1)) }
func BenchmarkReplay16(b *testing.B) { benchmarkReplay(b, rendertest.RandomGame(b, 16, 11, 10000)) }
