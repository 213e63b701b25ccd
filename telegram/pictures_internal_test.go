package telegram

import (
	"strconv"
	"testing"

	"github.com/reversibot/reversi/game"
)

// TestPictureNames: the names the bot makes read back as what they name; a name it cannot make
// reads as none.
func TestPictureNames(t *testing.T) {
	p := newPictures("123:token")
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
	if a, b := p.mac(g.ID, g.Moves), newPictures("123:other").mac(g.ID, g.Moves); a == b {
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
