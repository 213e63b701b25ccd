package render

import (
	"image"
	"image/color"
	"math"
	"strconv"
)

// Where the parts of the chart lie, in pixels.
const (
	plotLeft   = 64  // the left edge of the plot area; the disc scale is left of it
	plotRight  = 780 // its right edge
	plotTop    = 52  // its top; the title and legend are above it
	plotBottom = 344 // its bottom; the ply ticks and the axis label are below it
	plotZeroY  = (plotTop + plotBottom) / 2
	// plotHalf is the pixels from the zero line to ±scale, a little short of the plot
	// area's edges, so that a value at the scale's end still reads as a line.
	plotHalf = float64(plotBottom-plotTop)/2 - 10
)

// Colours of the chart, in the board picture's scheme.
var (
	plotBackground = boardColor
	plotGrid       = color.RGBA{0x27, 0x74, 0x40, 0xff}
	plotBlack      = color.RGBA{0x14, 0x14, 0x14, 0xff}
	plotWhite      = color.RGBA{0xf4, 0xf4, 0xf4, 0xff}
	plotZero       = labelColor
	plotMark       = lastColor
	plotTurning    = flipColor
)

// estimateShade is how far an estimated value's fill is mixed towards the background.
const estimateShade = 0.45

// plotScales are the vertical scales the chart chooses from, in discs: the first that holds
// every value.
var plotScales = []int{4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}

// chart is one drawing of a Plot.
type chart struct {
	p     Plot
	img   *image.RGBA
	f     *plotFaces
	scale float64 // discs from the zero line to the top of the plot area
	n     int     // plies
}

func drawPlot(p Plot) *image.RGBA {
	c := &chart{p: p, img: image.NewRGBA(image.Rect(0, 0, PlotWidth, PlotHeight)), f: newPlotFaces(), n: len(p.Values)}
	c.scale = float64(plotScaleFor(p.Values))
	fill(c.img, c.img.Rect, frameColor)
	fill(c.img, image.Rect(plotLeft, plotTop, plotRight, plotBottom), plotBackground)
	c.grid()
	c.area()
	c.zeroLine()
	c.turning()
	c.marks()
	c.sides()
	c.header()
	return c.img
}

// plotScaleFor returns the scale that holds every value.
func plotScaleFor(values []int) int {
	most := 0
	for _, v := range values {
		d := clampDiscs(v)
		most = max(most, int(math.Ceil(math.Abs(d))))
	}
	for _, s := range plotScales {
		if most <= s {
			return s
		}
	}
	return MaxPlotDiscs
}

// clampDiscs is v (hundredths of a disc) in discs, within ±MaxPlotDiscs.
func clampDiscs(v int) float64 {
	return float64(min(max(v, -MaxPlotDiscs*100), MaxPlotDiscs*100)) / 100
}

// value is the evaluation at ply k (0…n) in discs: 0 at the start.
func (c *chart) value(k int) float64 {
	if k <= 0 {
		return 0
	}
	return clampDiscs(c.p.Values[k-1])
}

// exact reports whether the value of ply k (1…n) is drawn solid.
func (c *chart) exact(k int) bool {
	return len(c.p.Exact) == 0 || k >= 1 && c.p.Exact[k-1]
}

// plyX is the x of ply k (0…n), fractional.
func (c *chart) plyX(k float64) float64 {
	return plotLeft + k*float64(plotRight-plotLeft)/float64(c.n)
}

// valueY is the y of a value in discs, fractional.
func (c *chart) valueY(d float64) float64 { return plotZeroY - d/c.scale*plotHalf }

// grid draws the horizontal lines of the disc scale with their labels and the vertical lines
// every 10 plies with theirs.
func (c *chart) grid() {
	step := c.scale / 4
	for i := -4; i <= 4; i++ {
		d := float64(i) * step
		y := int(math.Round(c.valueY(d)))
		fill(c.img, image.Rect(plotLeft, y, plotRight, y+1), plotGrid)
		text := strconv.Itoa(int(math.Abs(d)))
		switch {
		case i > 0:
			text = "+" + text
		case i < 0:
			text = "−" + text
		}
		c.f.small.right(c.img, text, plotLeft-8, y, labelColor)
	}
	every := 10
	for float64(every)*plyWidth(c.n) < 34 {
		every *= 2
	}
	for k := 10; k <= c.n; k += 10 {
		x := int(math.Round(c.plyX(float64(k))))
		fill(c.img, image.Rect(x, plotTop, x+1, plotBottom), plotGrid)
		fill(c.img, image.Rect(x, plotBottom, x+1, plotBottom+5), labelColor)
		if k%every == 0 {
			c.f.small.centre(c.img, strconv.Itoa(k), x, plotBottom+16, labelColor)
		}
	}
	c.f.label.centre(c.img, c.f.fit(c.f.label, c.p.Labels.Move, plotRight-plotLeft), (plotLeft+plotRight)/2, PlotHeight-22, labelColor)
}

// plyWidth is the width of a ply in pixels.
func plyWidth(n int) float64 { return float64(plotRight-plotLeft) / float64(n) }

// area fills, column by column, the space between the zero line and the evaluation: dark
// where black is better, light where white is, lighter for estimates; the edge is
// anti-aliased.
func (c *chart) area() {
	for x := plotLeft; x < plotRight; x++ {
		q := (float64(x) + 0.5 - plotLeft) / plyWidth(c.n) // plies from the start
		k := min(max(int(math.Ceil(q)), 1), c.n)
		d := c.value(k-1) + (c.value(k)-c.value(k-1))*(q-float64(k-1))
		col := plotBlack
		if d < 0 {
			col = plotWhite
		}
		if !c.exact(k) {
			col = mixRGBA(col, plotBackground, estimateShade)
		}
		edge := c.valueY(d)
		lo, hi := math.Min(edge, plotZeroY), math.Max(edge, plotZeroY)
		for y := int(lo); y < int(math.Ceil(hi)) && y < plotBottom; y++ {
			if y < plotTop {
				continue
			}
			cover := math.Min(hi, float64(y+1)) - math.Max(lo, float64(y))
			blend(c.img, x, y, col, cover)
		}
	}
}

// zeroLine draws the line of an even game.
func (c *chart) zeroLine() {
	fill(c.img, image.Rect(plotLeft, plotZeroY-1, plotRight, plotZeroY+1), plotZero)
}

// turning draws the turning ply: an amber line across the plot, a dot on the value and its
// number at the top.
func (c *chart) turning() {
	k := c.p.Turning
	if k < 1 {
		return
	}
	x := c.plyX(float64(k))
	xi := int(math.Round(x))
	for y := plotTop; y < plotBottom; y++ {
		if (y-plotTop)%10 < 6 {
			fill(c.img, image.Rect(xi-1, y, xi+1, y+1), plotTurning)
		}
	}
	dot(c.img, x, c.valueY(c.value(k)), 7, plotTurning, frameColor)
	c.badge(strconv.Itoa(k), xi, plotTop+12, plotTurning, frameColor)
}

// marks draws each marked ply as a red dot on its value with its number beside it, above
// the dot for a value of black's, below for one of white's.
func (c *chart) marks() {
	for _, k := range c.p.Marks {
		x, y := c.plyX(float64(k)), c.valueY(c.value(k))
		dot(c.img, x, y, 6, plotMark, whiteLight)
		// Above for black's value, below for white's, unless it does not fit there.
		above, below := int(math.Round(y))-20, int(math.Round(y))+20
		by := above
		if c.value(k) < 0 && below+c.f.badge.size/2+3 <= plotBottom || above-c.f.badge.size/2-3 < plotTop {
			by = below
		}
		c.badge(strconv.Itoa(k), int(math.Round(x)), by, plotMark, whiteLight)
	}
}

// badge writes text in a small box of colour bg centred on (x, y), kept inside the plot area.
func (c *chart) badge(text string, x, y int, bg, fg color.RGBA) {
	w := c.f.badge.width(text) + 8
	h := c.f.badge.size + 6
	r := image.Rect(x-w/2, y-h/2, x-w/2+w, y-h/2+h)
	r = r.Add(image.Pt(max(0, plotLeft-r.Min.X)+min(0, plotRight-r.Max.X), max(0, plotTop-r.Min.Y)+min(0, plotBottom-r.Max.Y)))
	fill(c.img, r, bg)
	c.f.badge.centre(c.img, text, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, fg)
}

// sides names the colours: black's in the top left corner of the plot, white's in the bottom
// left, each beside a disc of its colour on a frame-coloured box.
func (c *chart) sides() {
	for _, s := range []struct {
		text string
		disc color.RGBA
		y    int // the box's centre
	}{
		{c.p.Labels.Black, plotBlack, plotTop + 18},
		{c.p.Labels.White, plotWhite, plotBottom - 18},
	} {
		text := c.f.fit(c.f.label, s.text, 240)
		if text == "" {
			continue
		}
		w := 8 + 16 + 6 + c.f.label.width(text) + 8
		box := image.Rect(plotLeft+6, s.y-13, plotLeft+6+w, s.y+13)
		fill(c.img, box, frameColor)
		dot(c.img, float64(box.Min.X+16), float64(s.y), 8, s.disc, s.disc)
		c.f.label.left(c.img, text, box.Min.X+30, s.y, labelColor)
	}
}

// header writes the title at the top left and the legend of the marks at the top right.
func (c *chart) header() {
	type entry struct {
		text string
		icon func(x, y int)
	}
	var legend []entry
	l := c.p.Labels
	if l.Mistakes != "" && len(c.p.Marks) > 0 {
		legend = append(legend, entry{l.Mistakes, func(x, y int) { dot(c.img, float64(x)+6, float64(y), 6, plotMark, whiteLight) }})
	}
	if l.Turning != "" && c.p.Turning >= 1 {
		legend = append(legend, entry{l.Turning, func(x, y int) {
			fill(c.img, image.Rect(x+5, y-8, x+7, y-2), plotTurning)
			fill(c.img, image.Rect(x+5, y+2, x+7, y+8), plotTurning)
		}})
	}
	if l.Exact != "" && len(c.p.Exact) > 0 && c.anyExact() {
		legend = append(legend, entry{l.Exact, func(x, y int) {
			fill(c.img, image.Rect(x, y-7, x+12, y), plotBlack)
			fill(c.img, image.Rect(x, y, x+12, y+7), plotWhite)
		}})
	}
	const y = 26
	right := plotRight
	for i := len(legend) - 1; i >= 0; i-- {
		text := c.f.fit(c.f.label, legend[i].text, 180)
		w := c.f.label.width(text)
		c.f.label.left(c.img, text, right-w, y, labelColor)
		legend[i].icon(right-w-18, y)
		right -= w + 18 + 20
	}
	c.f.title.left(c.img, c.f.fit(c.f.title, l.Title, max(0, right-16)), 16, y, labelColor)
}

func (c *chart) anyExact() bool {
	for _, e := range c.p.Exact {
		if e {
			return true
		}
	}
	return false
}

// blend paints col over the pixel (x, y) with opacity a (0…1).
func blend(img *image.RGBA, x, y int, col color.RGBA, a float64) {
	if a <= 0 || !(image.Point{x, y}).In(img.Rect) {
		return
	}
	a = math.Min(a, 1)
	i := img.PixOffset(x, y)
	px := img.Pix[i : i+3 : i+3]
	for j, v := range [3]uint8{col.R, col.G, col.B} {
		px[j] = uint8(float64(px[j]) + (float64(v)-float64(px[j]))*a + 0.5)
	}
}

func mixRGBA(a, b color.RGBA, t float64) color.RGBA {
	m := mix(toRGB(a), toRGB(b), t)
	return color.RGBA{uint8(m[0] + 0.5), uint8(m[1] + 0.5), uint8(m[2] + 0.5), 0xff}
}

// dot draws an anti-aliased disc of radius r centred on (cx, cy), filled with body and
// edged with a 2-pixel ring.
func dot(img *image.RGBA, cx, cy, r float64, body, ring color.RGBA) {
	x0, x1 := int(math.Floor(cx-r-1)), int(math.Ceil(cx+r+1))
	y0, y1 := int(math.Floor(cy-r-1)), int(math.Ceil(cy+r+1))
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			blend(img, x, y, ring, r+0.5-d)
			blend(img, x, y, body, r-2+0.5-d)
		}
	}
}
