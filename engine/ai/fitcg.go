package ai

import (
	"context"
	"fmt"
	"io"
)

// leastSquares is a regularised least-squares problem over sparse rows, as the pattern fits
// pose it: minimise Σ (y_i − row_i·w)² + λ Σ w².
type leastSquares struct {
	weights, rows int
	lambda        float64
	diag          []float64 // the diagonal of AᵀA + λI, the preconditioner
	target        func(i int) float64
	addRow        func(i int, c float64, into []float64) // into += c · row i
	dot           func(i int, w []float64) float64       // row i · w
	rms           func(w []float64) float64              // for the log
}

// solve runs up to iterations steps of conjugate gradients on the normal equations
// (AᵀA + λI) w = Aᵀy with the diagonal as preconditioner, from w = 0, and returns w; every
// tenth step (and the last) it logs the fit's error to log when log is not nil. It stops
// early when the residual vanishes, and with ctx's error when ctx ends.
func (p leastSquares) solve(ctx context.Context, iterations int, log io.Writer) ([]float64, error) {
	n := p.weights
	w := make([]float64, n)
	res := make([]float64, n) // Aᵀy − (AᵀA + λI)w, with w = 0
	for i := range p.rows {
		p.addRow(i, p.target(i), res)
	}
	z := make([]float64, n)
	rz := 0.0
	for j := range z {
		z[j] = res[j] / p.diag[j]
		rz += res[j] * z[j]
	}
	dir := append([]float64(nil), z...)
	q := make([]float64, n)
	for it := 0; it < iterations && rz > 0; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := range q {
			q[j] = p.lambda * dir[j]
		}
		for i := range p.rows {
			p.addRow(i, p.dot(i, dir), q)
		}
		pq := 0.0
		for j := range q {
			pq += dir[j] * q[j]
		}
		if pq <= 0 {
			break
		}
		alpha := rz / pq
		rzNew := 0.0
		for j := range w {
			w[j] += alpha * dir[j]
			res[j] -= alpha * q[j]
			z[j] = res[j] / p.diag[j]
			rzNew += res[j] * z[j]
		}
		beta := rzNew / rz
		rz = rzNew
		for j := range dir {
			dir[j] = z[j] + beta*dir[j]
		}
		if log != nil && ((it+1)%10 == 0 || it+1 == iterations) {
			fmt.Fprintf(log, "fit: iteration %d: rms %.3f discs\n", it+1, p.rms(w))
		}
	}
	return w, nil
}
