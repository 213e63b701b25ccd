package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
)

// ErrPlot is returned by EvalPlot for a Plot it cannot draw: no values, too many, or marks
// and exactness that do not match them.
var ErrPlot = errors.New("render: invalid plot")

// Plot is the course of a game's evaluation, as EvalPlot draws it.
type Plot struct {
	// Values[i] is the evaluation after ply i+1 (the (i+1)-th disc placed), in hundredths of
	// a disc from black's point of view: positive when black is better. The chart starts at
	// 0 before the first ply. Values beyond ±MaxPlotDiscs discs are drawn at that bound.
	Values []int
	// Exact, when not empty, has one entry a value: true for an exact value (a solved
	// endgame), drawn solid; the others are estimates, drawn lighter. Empty means all solid.
	Exact []bool
	// Marks are plies (1…len(Values)) to mark with a red dot and their number, such as the
	// biggest mistakes.
	Marks []int
	// Turning is the ply (1…len(Values)) where the game turned, marked with an amber line,
	// dot and number; 0 or less (-1) for none.
	Turning int
	// Labels are the texts of the chart, already in the reader's language.
	Labels PlotLabels
}

// PlotLabels are the texts of an evaluation chart. Any may be empty, which leaves it out.
// Control characters show as spaces; a text too long for its place is cut with "…".
type PlotLabels struct {
	Title    string // above the chart, such as "Evaluation"
	Black    string // beside a black disc in the upper half, where black is better
	White    string // beside a white disc in the lower half
	Move     string // under the ply axis, such as "move"
	Mistakes string // legend of the red marks, shown when there are marks
	Turning  string // legend of the amber turning mark, shown when there is one
	Exact    string // legend of the solid fill, shown when some values are exact
}

// The size of the chart and the bounds of what it shows.
const (
	PlotWidth    = 800
	PlotHeight   = 400
	MaxPlotPlies = 1000 // the most Values a Plot may hold
	MaxPlotDiscs = 256  // the largest advantage shown, in discs (a 16×16 board's)
)

// EvalPlotImage draws p as a chart PlotWidth×PlotHeight pixels: the title and a legend on top,
// then the evaluation against the ply, with black's advantage filled dark above the zero line
// and white's light below it (estimates lighter than exact values), a vertical scale in discs
// that fits the largest value, ply ticks every 10, the marks as red dots with their number
// and the turning ply as an amber line. Errors wrap ErrPlot.
func EvalPlotImage(p Plot) (*image.RGBA, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return drawPlot(p), nil
}

// EncodeEvalPlot writes the chart of p (see EvalPlotImage) to w as a PNG.
func EncodeEvalPlot(w io.Writer, p Plot) error {
	img, err := EvalPlotImage(p)
	if err != nil {
		return err
	}
	return pngEncoder.Encode(w, img)
}

// EvalPlot returns the chart of p (see EvalPlotImage) encoded as a PNG of about 30 KB.
func EvalPlot(p Plot) ([]byte, error) {
	var buf bytes.Buffer
	if err := EncodeEvalPlot(&buf, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// check reports what makes p undrawable.
func (p Plot) check() error {
	n := len(p.Values)
	switch {
	case n == 0:
		return fmt.Errorf("%w: no values", ErrPlot)
	case n > MaxPlotPlies:
		return fmt.Errorf("%w: %d values, at most %d", ErrPlot, n, MaxPlotPlies)
	case len(p.Exact) != 0 && len(p.Exact) != n:
		return fmt.Errorf("%w: %d exactness flags for %d values", ErrPlot, len(p.Exact), n)
	case len(p.Marks) > MaxPlotPlies:
		return fmt.Errorf("%w: %d marks, at most %d", ErrPlot, len(p.Marks), MaxPlotPlies)
	case p.Turning > n:
		return fmt.Errorf("%w: turning ply %d of %d", ErrPlot, p.Turning, n)
	}
	for _, m := range p.Marks {
		if m < 1 || m > n {
			return fmt.Errorf("%w: mark at ply %d of %d", ErrPlot, m, n)
		}
	}
	return nil
}
