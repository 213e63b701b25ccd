package pictures

import (
	"bytes"
	"image/jpeg"
	"math"
	"strconv"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// TestPictureNames: the names the bot makes read back as what they name; a name it cannot make
// reads as none.
func TestPictureNames(t *testing.T) {
	p := newPictures("123:token", DefaultCache, newDrawer(1, nil))
	g := &game.Game{ID: "AbCdEf0123", Moves: []byte{0x23, 0x24, 0x33}}
	for ply := 0; ply <= len(g.Moves); ply++ {
		name := p.name(g, ply)
		pn, ok := parsePictureName(name)
		if !ok || pn.game != g.ID || pn.ply != ply || pn.mac != p.mac(g.ID, g.Moves[:ply]) || pn.start != 0 {
			t.Errorf("parsePictureName(%q) = %+v, %v", name, pn, ok)
		}
	}
	for _, size := range game.Sizes {
		name := "start/" + strconv.Itoa(size) + ".jpg"
		if pn, ok := parsePictureName(name); !ok || pn.start != size {
			t.Errorf("parsePictureName(%q) = %+v, %v", name, pn, ok)
		}
	}
	if a, b := p.mac(g.ID, g.Moves[:2]), p.mac(g.ID, []byte{0x23, 0x25}); a == b {
		t.Error("two positions at one ply share a MAC")
	}
	if a, b := p.mac(g.ID, g.Moves), newPictures("123:other", DefaultCache, newDrawer(1, nil)).mac(g.ID, g.Moves); a == b {
		t.Error("two tokens make the same MAC")
	}
	for _, name := range []string{"", "start/", "start/8", "start/08.jpg", "start/9.jpg", "start/+8.jpg",
		"x/0-AAAAAAAAAAAAAAAA.jpg/", "AbCdEf0123/0-AAAA.jpg", "AbCdEf0123/-0-AAAAAAAAAAAAAAAA.jpg",
		"AbCdEf0123/+1-AAAAAAAAAAAAAAAA.jpg", "Ab{d}/1-AAAAAAAAAAAAAAAA.jpg", "AbCdEf0123/1-AAAAAAAAAAAAAAAA.png",
		"AbCdEf0123/99999999999999999999-AAAAAAAAAAAAAAAA.jpg"} {
		if pn, ok := parsePictureName(name); ok {
			t.Errorf("parsePictureName(%q) = %+v, want none", name, pn)
		}
	}
}

// FuzzPictureName: any name either reads as none or as a name the bot writes back the same.
func FuzzPictureName(f *testing.F) {
	for _, s := range []string{"start/16.jpg", "AbCdEf0123/12-AAAAAAAAAAAAAAAA.jpg", "a/-1-x.jpg", "start/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		pn, ok := parsePictureName(name)
		if !ok {
			return
		}
		var back string
		if pn.start > 0 {
			back = "start/" + strconv.Itoa(pn.start) + ".jpg"
		} else {
			back = pn.game + "/" + strconv.Itoa(pn.ply) + "-" + pn.mac + ".jpg"
		}
		if back != name {
			t.Errorf("parsePictureName(%q) = %+v, which names %q", name, pn, back)
		}
	})
}

// BenchmarkInlinePicture draws and encodes the JPEG an inline message of a 16×16 board in
// play shows (what Pictures.Handler serves for a name it has not kept).
func BenchmarkInlinePicture(b *testing.B) {
	eg, err := engine.NewGame(16)
	if err != nil {
		b.Fatal(err)
	}
	for range 40 {
		moves := eg.Position().LegalMoves()
		if len(moves) == 0 {
			break
		}
		if _, err := eg.Play(moves[len(moves)/2]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	var n int
	var s drawScratch // a drawing worker's
	for b.Loop() {
		data, err := encodePicture(eg, false, &s)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "bytes")
}

// TestInlinePictureIsTheBoard: the JPEG of a position is render's picture of it, but for the
// JPEG's small losses.
func TestInlinePictureIsTheBoard(t *testing.T) {
	eg, err := engine.ReplayBytes(10, []byte{0x34, 0x35, 0x36})
	if err != nil {
		t.Fatal(err)
	}
	data, err := encodePicture(eg, false, &drawScratch{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want, err := render.Image(render.ViewOf(eg), render.ImageOptions{Flipped: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("JPEG %v, picture %v", got.Bounds(), want.Bounds())
	}
	var diff, n float64
	for y := want.Bounds().Min.Y; y < want.Bounds().Max.Y; y += 3 {
		for x := want.Bounds().Min.X; x < want.Bounds().Max.X; x += 3 {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			for _, d := range [3]int64{int64(r1) - int64(r2), int64(g1) - int64(g2), int64(b1) - int64(b2)} {
				diff += math.Abs(float64(d) / 257)
				n++
			}
		}
	}
	if mean := diff / n; mean > 4 {
		t.Errorf("the JPEG differs from the picture by %.1f levels a channel on average", mean)
	}
}
