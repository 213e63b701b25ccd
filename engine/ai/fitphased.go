package ai

import (
	"context"
	"io"
	"math"
)

// phasedRow is one sample of a fit of phased pattern weights: its phase, the canonical
// indexes of its pattern instances, its scalar terms and its target in discs.
type phasedRow struct {
	phase int
	idx   []int32
	sc    []float64
	y     float64
}

// phasedFit is the least-squares problem of pattern weights laid out in phases of phaseLen
// parameters each, a phase ending with the weights of its scalar terms (as many as a row has):
// phase k's weights start at k·phaseLen. The 8×8 fit and the large boards' pose theirs in it.
type phasedFit struct {
	phaseLen int
	rows     []phasedRow
}

// dot returns row r's value under weights w.
func (f *phasedFit) dot(r *phasedRow, w []float64) float64 {
	base := r.phase * f.phaseLen
	var v float64
	for _, i := range r.idx {
		v += w[base+int(i)]
	}
	s := base + f.phaseLen - len(r.sc)
	for i, x := range r.sc {
		v += w[s+i] * x
	}
	return v
}

// addRow adds c times row r's features to g.
func (f *phasedFit) addRow(r *phasedRow, c float64, g []float64) {
	base := r.phase * f.phaseLen
	for _, i := range r.idx {
		g[base+int(i)] += c
	}
	s := base + f.phaseLen - len(r.sc)
	for i, x := range r.sc {
		g[s+i] += c * x
	}
}

// rms is the root-mean-square error of w on the rows, in discs.
func (f *phasedFit) rms(w []float64) float64 {
	if len(f.rows) == 0 {
		return 0
	}
	var s float64
	for i := range f.rows {
		d := f.rows[i].y - f.dot(&f.rows[i], w)
		s += d * d
	}
	return math.Sqrt(s / float64(len(f.rows)))
}

// solve fits the weights of phases phases by regularised least squares (the normal
// equations solved by conjugate gradients with the diagonal of AᵀA + λI as preconditioner)
// and stores them into out, one slice of phaseLen weights a phase, as hundredths of a disc
// (clamped to int16) in the order canon maps to the canonical parameters. It returns the
// root-mean-square error of the weights as stored, in discs.
func (f *phasedFit) solve(ctx context.Context, out [][]int16, canon []int32, cfg PatternFitConfig, log io.Writer) (float64, error) {
	n := len(out) * f.phaseLen
	lambda := cfg.Lambda
	diag := make([]float64, n)
	for i := range f.rows {
		r := &f.rows[i]
		base := r.phase * f.phaseLen
		for _, j := range r.idx {
			diag[base+int(j)]++
		}
		s := base + f.phaseLen - len(r.sc)
		for j, x := range r.sc {
			diag[s+j] += x * x
		}
	}
	for j := range diag {
		diag[j] += lambda
	}
	w, err := leastSquares{weights: n, rows: len(f.rows), lambda: lambda, diag: diag,
		target: func(i int) float64 { return f.rows[i].y },
		addRow: func(i int, c float64, into []float64) { f.addRow(&f.rows[i], c, into) },
		dot:    func(i int, w []float64) float64 { return f.dot(&f.rows[i], w) },
		rms:    f.rms,
	}.solve(ctx, cfg.Iterations, log)
	if err != nil {
		return 0, err
	}
	wq := make([]float64, n) // the weights as stored
	for k := range out {
		for i := range out[k] {
			v := math.Round(w[k*f.phaseLen+int(canon[i])] * 100)
			out[k][i] = int16(max(min(v, math.MaxInt16), math.MinInt16))
			wq[k*f.phaseLen+i] = float64(out[k][i]) / 100
		}
	}
	return f.rms(wq), nil
}
