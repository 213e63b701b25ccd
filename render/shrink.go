package render

import (
	"image"
	"image/color"
)

// shrinker makes a paletted picture smaller by a whole factor: each s×s block of the source
// becomes one pixel whose colour is the block's mean, matched to the nearest colour of the
// palette. A block of one colour keeps it without a look-up, which is most of a board.
type shrinker struct {
	s   int
	rgb [256][3]uint32 // the palette's colours
	q   *quantizer     // not safe for concurrent use: one shrinker per caller
}

func newShrinker(s int) *shrinker {
	k := &shrinker{s: s, q: newQuantizer()}
	for i, c := range palette {
		n := c.(color.NRGBA)
		k.rgb[i] = [3]uint32{uint32(n.R), uint32(n.G), uint32(n.B)}
	}
	return k
}

// shrunkBounds is the size of the shrunk picture of src: the blocks that fit whole.
func (k *shrinker) shrunkBounds(src image.Rectangle) image.Rectangle {
	return image.Rect(0, 0, src.Dx()/k.s, src.Dy()/k.s)
}

// cover returns the blocks (in the shrunk picture's pixels) that hold any pixel of r, a
// rectangle of the source, cut to the shrunk picture dst.
func (k *shrinker) cover(r image.Rectangle, dst image.Rectangle) image.Rectangle {
	s := k.s
	return image.Rect(r.Min.X/s, r.Min.Y/s, (r.Max.X+s-1)/s, (r.Max.Y+s-1)/s).Intersect(dst)
}

// into writes the shrunk pixels of the rectangle r of dst (in dst's pixels) from src, whose
// origin is (0, 0) and which holds every block of r.
func (k *shrinker) into(dst, src *image.Paletted, r image.Rectangle) {
	s := k.s
	n := uint32(s * s)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		out := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := r.Min.X; x < r.Max.X; x++ {
			top := src.PixOffset(x*s, y*s)
			first := src.Pix[top]
			same := true
			var sr, sg, sb uint32
			for dy := 0; dy < s; dy++ {
				row := src.Pix[top+dy*src.Stride : top+dy*src.Stride+s]
				for _, i := range row {
					same = same && i == first
					c := &k.rgb[i]
					sr += c[0]
					sg += c[1]
					sb += c[2]
				}
			}
			if same {
				out[x-r.Min.X] = first
				continue
			}
			out[x-r.Min.X] = k.q.index(uint8((sr+n/2)/n), uint8((sg+n/2)/n), uint8((sb+n/2)/n))
		}
	}
}

// shrink returns the whole of src shrunk; src's origin must be (0, 0).
func (k *shrinker) shrink(src *image.Paletted) *image.Paletted {
	dst := image.NewPaletted(k.shrunkBounds(src.Rect), src.Palette)
	k.into(dst, src, dst.Rect)
	return dst
}
