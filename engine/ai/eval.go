package ai

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/bits"
	"sync"
)

// The evaluation is linear in a few features that know the game, with weights that depend on
// the board size and on how full the board is. The weights come from self-play (see Tune and
// the command in engine/ai/cmd/tune) and are embedded from weights.json.

// Feature indexes. Every feature is the side to move's value minus the opponent's, except the
// bias and parity.
const (
	featBias     = iota // always 1: the value of having the move
	featCorner          // corners held
	featX               // X-squares (diagonally next to an empty corner)
	featC               // C-squares (on the edge next to an empty corner)
	featMobility        // legal moves
	featPotMob          // empty squares next to opponent discs, minus next to own discs
	featStable          // discs that can never flip
	featParity          // +1 when the number of empty squares is odd, −1 otherwise
	featDiscs           // discs
	featEdge            // other edge squares
	numFeatures
)

// FeatureNames names the evaluation features in the order of the weights.
var FeatureNames = [numFeatures]string{"bias", "corner", "x-square", "c-square", "mobility",
	"potential-mobility", "stable", "parity", "discs", "edge"}

// NumPhases is the number of game phases (by board fullness) that carry their own weights; a
// position between two phases blends their weights linearly.
const NumPhases = 6

// SizeWeights holds the evaluation weights of one board size: Phases[k][f] is the value, in
// discs, of one unit of feature f at phase k (k = 0 at the start, NumPhases−1 at a full board).
type SizeWeights struct {
	Size    int                             `json:"size"`
	Phases  [NumPhases][numFeatures]float64 `json:"phases"`
	Games   int                             `json:"games,omitempty"`
	Samples int                             `json:"samples,omitempty"`
}

// Weights is a full set of evaluation weights, one entry per tuned board size; sizes without an
// entry use the nearest tuned size.
type Weights struct {
	Note  string        `json:"note,omitempty"`
	Sizes []SizeWeights `json:"sizes"`
}

//go:embed weights.json
var weightsJSON []byte

// evalTable is a ready-to-use evaluation for one board size: table[empties][f] in hundredths of
// a disc per unit of feature f.
type evalTable struct {
	size  int
	table [][numFeatures]int32
	// pat, when set (8×8 only), replaces the linear evaluation by the pattern evaluation.
	pat *PatternWeights8
	// patN, when set (large boards only), replaces the linear evaluation by the large-board
	// pattern evaluation.
	patN *PatternWeightsN
}

var (
	evalOnce   sync.Once
	evalTables [17]*evalTable
	evalErr    error
)

// DefaultWeights returns the embedded weights.
func DefaultWeights() (Weights, error) {
	var w Weights
	if err := json.Unmarshal(weightsJSON, &w); err != nil {
		return Weights{}, fmt.Errorf("ai: embedded weights: %w", err)
	}
	return w, nil
}

// tablesFor builds the evaluation tables of every size from w.
func tablesFor(w Weights) ([17]*evalTable, error) {
	var out [17]*evalTable
	if len(w.Sizes) == 0 {
		return out, fmt.Errorf("ai: no weights")
	}
	for n := 4; n <= 16; n += 2 {
		best := -1
		for i, s := range w.Sizes {
			if best < 0 || absInt(s.Size-n) < absInt(w.Sizes[best].Size-n) {
				best = i
			}
		}
		out[n] = buildTable(n, &w.Sizes[best])
	}
	return out, nil
}

func buildTable(n int, sw *SizeWeights) *evalTable {
	sq := n * n
	t := &evalTable{size: n, table: make([][numFeatures]int32, sq+1)}
	for e := 0; e <= sq; e++ {
		k0, k1, frac := phaseOf(n, e)
		for f := 0; f < numFeatures; f++ {
			v := (1-frac)*sw.Phases[k0][f] + frac*sw.Phases[k1][f]
			t.table[e][f] = int32(roundF(v * 100))
		}
	}
	return t
}

// phaseOf places a position with e empty squares on an n×n board between two phases.
func phaseOf(n, e int) (k0, k1 int, frac float64) {
	sq := n * n
	t := float64(sq-4-e) / float64(sq-4)
	if t < 0 {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	x := t * (NumPhases - 1)
	k0 = int(x)
	if k0 >= NumPhases-1 {
		return NumPhases - 1, NumPhases - 1, 0
	}
	return k0, k0 + 1, x - float64(k0)
}

func roundF(v float64) float64 {
	if v < 0 {
		return -roundF(-v)
	}
	return float64(int64(v + 0.5))
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// defaultTables returns the tables of the embedded weights.
func defaultTables() ([17]*evalTable, error) {
	evalOnce.Do(func() {
		decodes.Add(1)
		w, err := DefaultWeights()
		if err != nil {
			evalErr = err
			return
		}
		evalTables, evalErr = tablesFor(w)
	})
	return evalTables, evalErr
}

// Eval names an evaluation function.
type Eval int

// The evaluations.
const (
	// EvalDefault is the package's default evaluation (DefaultEval).
	EvalDefault Eval = iota
	// EvalLinear is linear in ten hand-picked features, with weights per board size and
	// phase (weights.json).
	EvalLinear
	// EvalPattern is the pattern evaluation: patterns8.bin on 8×8, the large-board patterns
	// (patterns10.bin, patterns12.bin, patterns16.bin: DefaultPatternWeightsN) on the large
	// sizes that have them, EvalLinear on the others (14×14).
	EvalPattern
)

// DefaultEval is the evaluation that EvalDefault stands for: the pattern evaluation, with which
// level 6 on 8×8 beat level 6 with the linear one in 59 of 80 games (18 lost) within the same
// budget (PATTERNS.md).
const DefaultEval = EvalPattern

// String returns the evaluation's name as ParseEval reads it: "default", "linear" or
// "pattern".
func (e Eval) String() string {
	switch e {
	case EvalDefault:
		return "default"
	case EvalLinear:
		return "linear"
	case EvalPattern:
		return "pattern"
	}
	return fmt.Sprintf("Eval(%d)", int(e))
}

// ParseEval returns the evaluation named s (see Eval.String).
func ParseEval(s string) (Eval, error) {
	for e := EvalDefault; e <= EvalPattern; e++ {
		if e.String() == s {
			return e, nil
		}
	}
	return 0, fmt.Errorf("ai: unknown evaluation %q (want default, linear or pattern)", s)
}

var (
	patTablesOnce sync.Once
	patTables     [17]*evalTable
	patTablesErr  error
)

// tablesForEval returns the tables of evaluation e.
func tablesForEval(e Eval) ([17]*evalTable, error) {
	if e == EvalDefault {
		e = DefaultEval
	}
	lin, err := defaultTables()
	if err != nil || e == EvalLinear {
		return lin, err
	}
	if e != EvalPattern {
		return lin, fmt.Errorf("ai: unknown evaluation %v", e)
	}
	patTablesOnce.Do(func() {
		pw, err := DefaultPatternWeights8()
		if err != nil {
			patTablesErr = err
			return
		}
		patTables = lin
		t8 := *lin[8]
		t8.pat = pw
		patTables[8] = &t8
		for n := 10; n <= 16; n += 2 {
			wn, ok, err := DefaultPatternWeightsN(n)
			if err != nil {
				patTablesErr = err
				return
			}
			if ok {
				tn := *lin[n]
				tn.patN = wn
				patTables[n] = &tn
			}
		}
	})
	return patTables, patTablesErr
}

// Square classes of the 8×8 board.
const (
	corners8 = 0x8100000000000081
	edges8   = (fileA8 | fileH8 | rank1 | rank8) &^ corners8
)

// xsq8/csq8[i] are the X- and C-squares of corner i (a1, h1, a8, h8).
var (
	cornerBit8 = [4]uint64{1 << 0, 1 << 7, 1 << 56, 1 << 63}
	xsq8       = [4]uint64{1 << 9, 1 << 14, 1 << 49, 1 << 54}
	csq8       = [4]uint64{1<<1 | 1<<8, 1<<6 | 1<<15, 1<<48 | 1<<57, 1<<55 | 1<<62}
)

// features8 computes the features of (p, o); pm and om are the legal moves of each side.
func features8(p, o, pm, om uint64, f *[numFeatures]int32) {
	empty := ^(p | o)
	var xs, cs uint64
	for i := 0; i < 4; i++ {
		if empty&cornerBit8[i] != 0 {
			xs |= xsq8[i]
			cs |= csq8[i]
		}
	}
	ne := popcnt(empty)
	f[featBias] = 1
	f[featCorner] = int32(popcnt(p&corners8) - popcnt(o&corners8))
	f[featX] = int32(popcnt(p&xs) - popcnt(o&xs))
	f[featC] = int32(popcnt(p&cs) - popcnt(o&cs))
	f[featMobility] = int32(popcnt(pm) - popcnt(om))
	f[featPotMob] = int32(popcnt(neighbours8(o)&empty) - popcnt(neighbours8(p)&empty))
	f[featStable] = int32(popcnt(stable8(p, o)) - popcnt(stable8(o, p)))
	f[featParity] = int32(ne&1*2 - 1)
	f[featDiscs] = int32(popcnt(p) - popcnt(o))
	f[featEdge] = int32(popcnt(p&edges8) - popcnt(o&edges8))
}

// eval8 scores (p, o) in hundredths of a disc for p, given p's legal moves pm.
func eval8(t *evalTable, p, o, pm uint64) int {
	if t.pat != nil {
		return t.pat.eval(p, o, pm)
	}
	var f [numFeatures]int32
	om := moves8(o, p)
	features8(p, o, pm, om, &f)
	w := &t.table[bits.OnesCount64(^(p | o))]
	var v int32
	for i := range f {
		v += w[i] * f[i]
	}
	return clampEval(int(v))
}

// Midgame scores stay inside ±evalLimit so they never reach exact-score territory.
const evalLimit = 6300

func clampEval(v int) int {
	if v > evalLimit {
		return evalLimit
	}
	if v < -evalLimit {
		return -evalLimit
	}
	return v
}
