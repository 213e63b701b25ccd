package render

import (
	"bytes"
	"image"
	"testing"
)

// TestImageInto: drawn into a picture of another scene, or of another size, or into none,
// every scene comes out pixel for pixel as Image draws it; a picture of the right size is
// drawn into, not replaced.
func TestImageInto(t *testing.T) {
	var dst *image.Paletted
	for _, sc := range append(scenes(t), scenes(t)...) {
		want, err := Image(sc.v, sc.opt)
		if err != nil {
			t.Fatal(err)
		}
		reuse := dst != nil && dst.Rect == want.Rect
		got, err := ImageInto(dst, sc.v, sc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if reuse && &got.Pix[0] != &dst.Pix[0] {
			t.Errorf("%s: a picture of the right size was replaced", sc.name)
		}
		if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) || len(got.Palette) != len(want.Palette) {
			t.Fatalf("%s: ImageInto differs from Image", sc.name)
		}
		dst = got
	}
	if _, err := ImageInto(dst, View{}, ImageOptions{}); err == nil {
		t.Error("ImageInto of the zero View: no error")
	}
}
