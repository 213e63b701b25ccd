package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"
)

// plotMiddle is a column near the middle of the plot area, off the grid lines.
const plotMiddle = (plotLeft+plotRight)/2 + 5

func decodePlot(t *testing.T, p Plot) image.Image {
	t.Helper()
	data, err := EvalPlot(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the plot does not decode: %v", err)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, PlotWidth, PlotHeight) {
		t.Fatalf("the plot is %v, want %d×%d", b, PlotWidth, PlotHeight)
	}
	return img
}

func constant(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// columnHas reports whether any pixel of column x between y0 and y1 has colour c.
func columnHas(img image.Image, x, y0, y1 int, c color.RGBA) bool {
	for y := y0; y < y1; y++ {
		if rgbOf(img.At(x, y)) == c {
			return true
		}
	}
	return false
}

func TestEvalPlotSides(t *testing.T) {
	labels := PlotLabels{Title: "Evaluation", Black: "Black", White: "White", Move: "move"}
	// +10 discs throughout: the scale is ±12, so the fill reaches 10/12 of the way up.
	img := decodePlot(t, Plot{Values: constant(40, 1000), Labels: labels})
	top := plotZeroY - int(math.Round(10.0/12*plotHalf))
	for _, y := range []int{plotZeroY - 3, top + 2, (plotZeroY + top) / 2} {
		if got := rgbOf(img.At(plotMiddle, y)); got != plotBlack {
			t.Errorf("black ahead: (%d,%d) is %s, want black's %s", plotMiddle, y, hex(got), hex(plotBlack))
		}
	}
	if got := rgbOf(img.At(plotMiddle, top-3)); got != plotBackground {
		t.Errorf("black ahead: above the fill (%d,%d) is %s, want the background %s", plotMiddle, top-3, hex(got), hex(plotBackground))
	}
	if got := rgbOf(img.At(plotMiddle, plotZeroY+3)); got != plotBackground {
		t.Errorf("black ahead: below zero (%d,%d) is %s, want the background", plotMiddle, plotZeroY+3, hex(got))
	}
	if columnHas(img, plotMiddle, plotZeroY+1, plotBottom, plotWhite) {
		t.Error("black ahead: white's colour below the zero line")
	}
	if got := rgbOf(img.At(plotMiddle, plotZeroY)); got != plotZero {
		t.Errorf("the zero line is %s, want %s", hex(got), hex(plotZero))
	}

	// White ahead by 40 discs: scale ±48.
	img = decodePlot(t, Plot{Values: constant(60, -4000), Labels: labels})
	bottom := plotZeroY + int(math.Round(40.0/48*plotHalf))
	if got := rgbOf(img.At(plotMiddle, bottom-2)); got != plotWhite {
		t.Errorf("white ahead: (%d,%d) is %s, want white's %s", plotMiddle, bottom-2, hex(got), hex(plotWhite))
	}
	if got := rgbOf(img.At(plotMiddle, bottom+3)); got != plotBackground {
		t.Errorf("white ahead: under the fill (%d,%d) is %s, want the background", plotMiddle, bottom+3, hex(got))
	}
	if columnHas(img, plotMiddle, plotTop, plotZeroY-1, plotBlack) {
		t.Error("white ahead: black's colour above the zero line")
	}
}

func TestEvalPlotExact(t *testing.T) {
	// The first half estimated, the second exact.
	exact := make([]bool, 40)
	for i := 20; i < 40; i++ {
		exact[i] = true
	}
	img := decodePlot(t, Plot{Values: constant(40, 600), Exact: exact})
	y := plotZeroY - 10
	light := mixRGBA(plotBlack, plotBackground, estimateShade)
	if got := rgbOf(img.At(plotLeft+(plotRight-plotLeft)/4, y)); got != light {
		t.Errorf("an estimate is %s, want %s", hex(got), hex(light))
	}
	if got := rgbOf(img.At(plotLeft+(plotRight-plotLeft)*3/4, y)); got != plotBlack {
		t.Errorf("an exact value is %s, want %s", hex(got), hex(plotBlack))
	}
}

func TestEvalPlotScale(t *testing.T) {
	for _, c := range []struct {
		values []int
		want   int
	}{
		{[]int{0}, 4}, {[]int{400}, 4}, {[]int{401}, 8}, {[]int{-1250, 300}, 16},
		{[]int{6400}, 64}, {[]int{-6401}, 96}, {[]int{math.MaxInt}, 256}, {[]int{math.MinInt}, 256},
	} {
		if got := plotScaleFor(c.values); got != c.want {
			t.Errorf("scale of %v: ±%d, want ±%d", c.values, got, c.want)
		}
	}
}

func TestEvalPlotMarks(t *testing.T) {
	values := make([]int, 60)
	for i := range values {
		values[i] = (i - 30) * 50 // from −15 to +14.5 discs
	}
	p := Plot{Values: values, Marks: []int{10, 50}, Turning: 31}
	img := decodePlot(t, p)
	c := &chart{p: p, n: len(values), scale: float64(plotScaleFor(values))}
	for _, k := range p.Marks {
		x, y := int(c.plyX(float64(k))), int(c.valueY(c.value(k)))
		if got := rgbOf(img.At(x, y)); got != plotMark {
			t.Errorf("mark at ply %d: the dot (%d,%d) is %s, want %s", k, x, y, hex(got), hex(plotMark))
		}
	}
	x := int(math.Round(c.plyX(31)))
	if got := rgbOf(img.At(x, plotTop+30)); got != plotTurning {
		t.Errorf("the turning line at (%d,%d) is %s, want %s", x, plotTop+30, hex(got), hex(plotTurning))
	}
	// Without marks nothing is red or amber there.
	img = decodePlot(t, Plot{Values: values, Turning: -1})
	if columnHas(img, x, plotTop, plotBottom, plotTurning) {
		t.Error("an amber line with no turning ply")
	}
}

func TestEvalPlotCyrillic(t *testing.T) {
	const russian = "Оценка Чёрные Белые ход ошибки перелом точно ЁЖЩЪЭЮЯ −…"
	bold, regular := plotFonts()
	if bold == nil || regular == nil {
		t.Fatal("the embedded chart fonts did not load")
	}
	for name, f := range map[string]*sfnt.Font{"bold": bold, "regular": regular} {
		var buf sfnt.Buffer
		for _, r := range russian {
			if r == ' ' {
				continue
			}
			if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
				t.Errorf("%s has no glyph for %q", name, r)
			}
		}
	}
	// The title is drawn: bright pixels in the title band with it, none without it.
	bright := func(img image.Image) int {
		n := 0
		for y := 0; y < 40; y++ {
			for x := 0; x < 400; x++ {
				if luma(rgbOf(img.At(x, y))) > 0xa0 {
					n++
				}
			}
		}
		return n
	}
	with := decodePlot(t, Plot{Values: []int{100}, Labels: PlotLabels{Title: "Оценка"}})
	without := decodePlot(t, Plot{Values: []int{100}})
	if b, o := bright(with), bright(without); b < 100 || o != 0 {
		t.Errorf("the Cyrillic title paints %d bright pixels, none %d", b, o)
	}
}

func TestPlotFit(t *testing.T) {
	f := newPlotFaces()
	if got := f.fit(f.label, "  a\x00b\nc\xffd  ", 500); got != "a b c d" {
		t.Errorf("cleaned %q, want %q", got, "a b c d")
	}
	long := strings.Repeat("Чёрные ", 50)
	got := f.fit(f.label, long, 120)
	if !strings.HasSuffix(got, "…") || f.label.width(got) > 120 || !utf8.ValidString(got) {
		t.Errorf("cut %q (%d pixels), want at most 120 pixels ending in …", got, f.label.width(got))
	}
	if got := f.fit(f.label, long, 0); got != "" {
		t.Errorf("no room gives %q, want nothing", got)
	}
}

func TestEvalPlotErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Plot
	}{
		{"no values", Plot{}},
		{"empty values", Plot{Values: []int{}}},
		{"too many values", Plot{Values: make([]int, MaxPlotPlies+1)}},
		{"short exact", Plot{Values: []int{1, 2}, Exact: []bool{true}}},
		{"long exact", Plot{Values: []int{1}, Exact: []bool{true, false}}},
		{"mark 0", Plot{Values: []int{1, 2}, Marks: []int{0}}},
		{"mark past the end", Plot{Values: []int{1, 2}, Marks: []int{3}}},
		{"negative mark", Plot{Values: []int{1, 2}, Marks: []int{-1}}},
		{"too many marks", Plot{Values: []int{1}, Marks: constant(MaxPlotPlies+1, 1)}},
		{"turning past the end", Plot{Values: []int{1, 2}, Turning: 3}},
	} {
		data, err := EvalPlot(c.p)
		if !errors.Is(err, ErrPlot) || data != nil {
			t.Errorf("%s: %d bytes, error %v, want ErrPlot", c.name, len(data), err)
		}
	}
	for _, p := range []Plot{{Values: []int{5}, Turning: -1}, {Values: []int{5}, Turning: 0}, {Values: []int{5}, Turning: 1, Marks: []int{1, 1}}} {
		if _, err := EvalPlot(p); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

func TestEvalPlotConcurrent(t *testing.T) {
	p := Plot{Values: []int{100, -200, 300, 900, -50}, Marks: []int{2}, Turning: 3, Labels: PlotLabels{Title: "Оценка", Black: "Чёрные", White: "Белые", Move: "ход"}}
	sameWhenConcurrent(t, "plot", func() ([]byte, error) { return EvalPlot(p) })
}

// FuzzEvalPlot draws plots of arbitrary values, marks and labels: never a panic, and either
// an ErrPlot or a PNG of the stated size.
func FuzzEvalPlot(f *testing.F) {
	f.Add([]byte{10, 250, 3, 128}, int64(100), []byte{1, 2}, 2, "Оценка", []byte{1, 0})
	f.Add([]byte{0}, int64(math.MaxInt64), []byte{}, -1, "", []byte{})
	f.Add([]byte{255, 255, 0, 0, 127}, int64(-7), []byte{0, 9}, 70, "\xff\x00title", []byte{1})
	f.Fuzz(func(t *testing.T, raw []byte, unit int64, marks []byte, turning int, title string, exact []byte) {
		values := make([]int, len(raw))
		for i, b := range raw {
			values[i] = int(int8(b)) * int(unit)
		}
		p := Plot{Values: values, Turning: turning, Labels: PlotLabels{Title: title, Black: title, White: title, Move: title, Mistakes: title, Turning: title, Exact: title}}
		for _, m := range marks {
			p.Marks = append(p.Marks, int(m))
		}
		for _, e := range exact {
			p.Exact = append(p.Exact, e&1 == 1)
		}
		data, err := EvalPlot(p)
		if err != nil {
			if !errors.Is(err, ErrPlot) {
				t.Fatalf("error %v, want ErrPlot", err)
			}
			return
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != PlotWidth || cfg.Height != PlotHeight {
			t.Fatalf("PNG %v×%v (%v), want %d×%d", cfg.Width, cfg.Height, err, PlotWidth, PlotHeight)
		}
	})
}

func BenchmarkEvalPlot(b *testing.B) {
	p := docPlot()
	b.ReportAllocs()
	var data []byte
	for b.Loop() {
		var err error
		if data, err = EvalPlot(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "png-bytes")
}
