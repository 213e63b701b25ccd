package render

import (
	"bytes"
	"image"

	"github.com/reversibot/reversi/engine"
)

// animator turns a sequence of Views into GIF frames that each hold only what changed since
// the frame before. It repaints only the cells whose picture changes.
type animator struct {
	a *assets
	// full is the board picture of the current moment at full size; kinds is what each of
	// its cells shows (row by row).
	full  *image.Paletted
	kinds []spriteKind
	// next is the current moment at the replay's size (full itself with no shrinking);
	// shown is what the viewer sees: the frames so far composed.
	next, shown *image.Paletted
	shrink      *shrinker // nil for no shrinking
}

func newAnimator(a *assets, shrink int) *animator {
	m := &animator{
		a:     a,
		full:  image.NewPaletted(a.board.Rect, replayPalette),
		kinds: make([]spriteKind, a.l.size*a.l.size),
	}
	r := a.board.Rect
	m.next = m.full
	if shrink > 1 {
		m.shrink = newShrinker(shrink)
		r = m.shrink.shrunkBounds(r)
		m.next = image.NewPaletted(r, replayPalette)
	}
	m.shown = image.NewPaletted(r, replayPalette)
	return m
}

// frame returns the GIF frame that turns what the viewer sees into the picture of v (Image
// with replayImage, shrunk): the whole picture for the first frame, else the rectangle that
// changed, with the pixels in it that did not change transparent (no change gives one
// transparent pixel).
func (m *animator) frame(v View, first bool) *image.Paletted {
	var changed image.Rectangle
	if first {
		m.a.draw(m.full, v, replayImage)
		cells := newCellKinds(v, replayImage)
		for i := range m.kinds {
			m.kinds[i] = cells.at(engine.SquareAt(i%m.a.l.size, i/m.a.l.size))
		}
		changed = m.next.Rect
		if m.shrink != nil {
			m.shrink.into(m.next, m.full, changed)
		}
	} else {
		changed = diffRect(m.next, m.shown, m.repaint(v))
	}
	if changed.Empty() {
		changed = image.Rect(0, 0, 1, 1)
	}
	f := image.NewPaletted(changed, replayPalette)
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		i := m.next.PixOffset(changed.Min.X, y)
		j := i + changed.Dx()
		now, was, out := m.next.Pix[i:j], m.shown.Pix[i:j], f.Pix[f.PixOffset(changed.Min.X, y):]
		for x, c := range now {
			if c == was[x] && !first {
				out[x] = replayTransparent
			} else {
				out[x] = c
			}
		}
		copy(was, now)
	}
	return f
}

// repaint draws the cells of full whose picture differs in v, brings next up to date over
// them, and returns the rectangle of next that they cover.
func (m *animator) repaint(v View) image.Rectangle {
	l := m.a.l
	cells := newCellKinds(v, replayImage)
	var touched image.Rectangle
	for i := range m.kinds {
		c, r := i%l.size, i/l.size
		kind := cells.at(engine.SquareAt(c, r))
		if kind == m.kinds[i] {
			continue
		}
		m.kinds[i] = kind
		o := l.cellOrigin(c, r)
		if kind == spriteNone {
			m.a.clearCell(m.full, o)
		} else {
			m.a.blit(m.full, m.a.sprites[kind], o)
		}
		cell := image.Rect(o.X, o.Y, o.X+l.inner, o.Y+l.inner)
		if m.shrink != nil {
			cell = m.shrink.cover(cell, m.next.Rect)
			m.shrink.into(m.next, m.full, cell)
		}
		touched = touched.Union(cell)
	}
	return touched
}

// clearCell paints the interior of the cell at o as on the empty board.
func (a *assets) clearCell(img *image.Paletted, o image.Point) {
	n := a.l.inner
	for y := 0; y < n; y++ {
		i := img.PixOffset(o.X, o.Y+y)
		copy(img.Pix[i:i+n], a.board.Pix[i:i+n])
	}
}

// diffRect returns the smallest rectangle within r holding every pixel where a and b, of the
// same bounds, differ.
func diffRect(a, b *image.Paletted, r image.Rectangle) image.Rectangle {
	var out image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := a.PixOffset(r.Min.X, y)
		ra, rb := a.Pix[i:i+r.Dx()], b.Pix[i:i+r.Dx()]
		if bytes.Equal(ra, rb) {
			continue
		}
		lo, hi := 0, len(ra)
		for ra[lo] == rb[lo] {
			lo++
		}
		for ra[hi-1] == rb[hi-1] {
			hi--
		}
		out = out.Union(image.Rect(r.Min.X+lo, y, r.Min.X+hi, y+1))
	}
	return out
}
