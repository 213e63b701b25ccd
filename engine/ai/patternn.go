package ai

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// The pattern evaluation of the large boards (10×10, 12×12, 16×16; see PATTERNS.md). The
// patterns are the regions near the corners, which keep their meaning on every size: each is
// a list of squares seen from the a1 corner, read in the board's symmetries as a base-3
// number (0 empty, 1 the side to move's disc, 2 the opponent's) that indexes a table shared
// by its instances. Each size has its own tables, one set per phase (by the fraction of the
// board filled), and a few scalar terms.

// Pattern kinds of the large boards, in the order of their tables.
const (
	patNCorner33 = iota // 3×3 corner block
	patNCorner25        // 2×5 block along an edge from a corner (a1–e1, a2–e2)
	patNEdge8X          // the 8 edge squares from a corner (a1–h1) and the X-square b2
	patNLine2           // the 8 squares of the second line from a corner (a2–h2)
	patNLine3           // the 8 squares of the third line (a3–h3)
	patNDiag8           // the diagonal from a corner, 8 squares (a1–h8)
	patNDiag7           // the 7 squares beside it (b1–h7)
	numPatternsN
)

// PatternNamesN names the large-board pattern kinds in the order of their tables.
var PatternNamesN = [numPatternsN]string{"corner3x3", "corner2x5", "edge8+X", "line2", "line3", "diag8", "diag7"}

// patternNShape lists the squares (row, column) of each kind seen from a1, digit by digit,
// and patternNSyms the symmetries its instances are read in: every kind whose instances are
// not mapped onto themselves by the a1–h8 mirror is read in all eight.
var (
	patternNShape [numPatternsN][][2]int
	patternNSyms  = [numPatternsN]int{4, 8, 8, 8, 8, 4, 8}
)

// Scalar terms after the patterns.
const (
	scalarNBias     = iota // 1
	scalarNMobility        // legal moves, side to move minus opponent
	scalarNPotMob          // empty squares next to opponent discs minus next to own discs
	scalarNDiscs           // discs, side to move minus opponent
	scalarNEdge            // discs on the edges but the corners, side to move minus opponent
	scalarNStable          // discs held stable by the edges and corners alone, side to move minus opponent
	scalarNParity          // +1 when the number of empty squares is odd, −1 otherwise
	numScalarsN
)

// NumPatternPhasesN is the number of phases of the large-board pattern evaluation: phase k
// holds the positions with between k/6 and (k+1)/6 of the squares outside the four centre
// ones filled.
const NumPatternPhasesN = 6

// patternPhaseN returns the phase of a position with e empty squares on an n×n board.
func patternPhaseN(n, e int) int {
	sq := n*n - 4
	filled := max(sq-e, 0)
	return min(filled*NumPatternPhasesN/sq, NumPatternPhasesN-1)
}

var (
	// patternNOffset[k] is where the table of kind k starts in a phase's weights.
	patternNOffset [numPatternsN]int
	// patternNPhaseLen is the length of one phase: the tables, then the scalars.
	patternNPhaseLen int
	// instancesN is the number of pattern instances on one board.
	instancesN int
	// patternNCanon[i] is the smaller of index i (offset included) and its mirror's.
	patternNCanon []int32
	// patternNGeoms[n] is the instance layout of size n.
	patternNGeoms [17]*patternGeomN
)

// maxPatternSquaresN bounds the squares of one pattern kind (pow3Bits reads up to 10 bits).
const maxPatternSquaresN = 10

// patternGeomN is the instance layout of one board size.
type patternGeomN struct {
	n int
}

func init() {
	sq := func(rows, cols int) [][2]int {
		var s [][2]int
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				s = append(s, [2]int{r, c})
			}
		}
		return s
	}
	line := func(r int) [][2]int {
		var s [][2]int
		for c := 0; c < 8; c++ {
			s = append(s, [2]int{r, c})
		}
		return s
	}
	diag := func(start, n int) [][2]int {
		var s [][2]int
		for i := 0; i < n; i++ {
			s = append(s, [2]int{i, i + start})
		}
		return s
	}
	patternNShape[patNCorner33] = sq(3, 3)
	patternNShape[patNCorner25] = sq(2, 5)
	patternNShape[patNEdge8X] = append(line(0), [2]int{1, 1})
	patternNShape[patNLine2] = line(1)
	patternNShape[patNLine3] = line(2)
	patternNShape[patNDiag8] = diag(0, 8)
	patternNShape[patNDiag7] = diag(1, 7)
	off := 0
	for k := range patternNShape {
		patternNOffset[k] = off
		off += pow3(len(patternNShape[k]))
		instancesN += patternNSyms[k]
	}
	patternNPhaseLen = off + numScalarsN
	initPatternNCanon()
	for n := 10; n <= 16; n += 2 {
		patternNGeoms[n] = newPatternGeomN(n)
	}
}

func newPatternGeomN(n int) *patternGeomN { return &patternGeomN{n: n} }

// initPatternNCanon ties the indexes that the a1–h8 mirror maps onto each other within an
// instance read in four symmetries only (the 3×3 corner; the diagonal maps onto itself digit
// by digit).
func initPatternNCanon() {
	patternNCanon = make([]int32, patternNPhaseLen)
	for i := range patternNCanon {
		patternNCanon[i] = int32(i)
	}
	for k, shape := range patternNShape {
		if patternNSyms[k] == 8 {
			continue
		}
		pos := map[[2]int]int{}
		for i, rc := range shape {
			pos[rc] = i
		}
		mirror := make([]int, len(shape)) // digit i of the mirror is digit mirror[i]
		for i, rc := range shape {
			mirror[i] = pos[[2]int{rc[1], rc[0]}]
		}
		nd := len(shape)
		var digits [maxPatternSquaresN]int
		for x := 0; x < pow3(nd); x++ {
			for i, v := 0, x; i < nd; i, v = i+1, v/3 {
				digits[i] = v % 3
			}
			y := 0
			for i := nd - 1; i >= 0; i-- {
				y = y*3 + digits[mirror[i]]
			}
			patternNCanon[patternNOffset[k]+x] = int32(patternNOffset[k] + min(x, y))
		}
	}
}

// indexes writes the table index (offset of its kind included) of every instance of (p, o)
// into out, in the layout's order (kinds in table order, then instances by symmetry), and
// returns out[:instancesN]. Every pattern lies within the 8×8 block of its corner, so each
// board's four corner blocks are cut out as 8×8 bitboards turned to put their corner on a1,
// then read like the 8×8 patterns (pattern8.go).
func (g *patternGeomN) indexes(p, o setN, out *[64]int32) []int32 {
	var vp, vo [8]uint64 // symmetry s: corner s&3 seen from a1, mirrored in its diagonal if s ≥ 4
	for s := 0; s < 4; s++ {
		vp[s], vo[s] = g.cornerBlock(p, s), g.cornerBlock(o, s)
		vp[s+4], vo[s+4] = flipDiag8(vp[s]), flipDiag8(vo[s])
	}
	n := 0
	put := func(kind int, gp, gm uint64) {
		out[n] = int32(patternNOffset[kind]) + pow3Bits[gp] + 2*pow3Bits[gm]
		n++
	}
	for s := 0; s < 4; s++ {
		put(patNCorner33, gather33(vp[s]), gather33(vo[s]))
	}
	for s := 0; s < 8; s++ {
		put(patNCorner25, gather25(vp[s]), gather25(vo[s]))
	}
	for s := 0; s < 8; s++ {
		put(patNEdge8X, vp[s]&0xff|vp[s]>>1&0x100, vo[s]&0xff|vo[s]>>1&0x100)
	}
	for s := 0; s < 8; s++ {
		put(patNLine2, vp[s]>>8&0xff, vo[s]>>8&0xff)
	}
	for s := 0; s < 8; s++ {
		put(patNLine3, vp[s]>>16&0xff, vo[s]>>16&0xff)
	}
	for s := 0; s < 4; s++ {
		put(patNDiag8, gatherDiag(vp[s], diag8Mask), gatherDiag(vo[s], diag8Mask))
	}
	for s := 0; s < 8; s++ {
		put(patNDiag7, gatherDiag(vp[s], diag7Mask)>>1, gatherDiag(vo[s], diag7Mask)>>1)
	}
	return out[:n]
}

// cornerBlock returns the 8×8 block of x at corner c (bit 0: the last row, bit 1: the last
// column) as an 8×8 bitboard with the corner on a1 (bit 0) and the board's edges on the
// block's row 1 and file a.
func (g *patternGeomN) cornerBlock(x setN, c int) uint64 {
	r0, c0 := 0, 0
	if c&1 != 0 {
		r0 = g.n - 8
	}
	if c&2 != 0 {
		c0 = g.n - 8
	}
	// Rows r0…r0+7 are the 128 bits from bit 16·r0 on.
	w, off := r0>>2, uint(r0&3)*16
	lo, hi := x.word(w), x.word(w+1)
	if off != 0 {
		lo = lo>>off | hi<<(64-off)
		hi = hi>>off | x.word(w+2)<<(64-off)
	}
	b := packRows16(lo>>uint(c0)) | packRows16(hi>>uint(c0))<<32
	if c&1 != 0 {
		b = flipRows8(b)
	}
	if c&2 != 0 {
		b = flipCols8(b)
	}
	return b
}

// packRows16 packs the low bytes of the four 16-bit rows of x into 32 bits.
func packRows16(x uint64) uint64 {
	x &= 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// scalars returns the scalar terms of (p, o) given both sides' legal moves.
func (g *patternGeomN) scalars(geo *geomN, p, o, pm, om setN) [numScalarsN]int32 {
	empty := geo.inside.andNot(p.or(o))
	var none linesN
	sp, so := geo.stableIn(p, &none), geo.stableIn(o, &none)
	return [numScalarsN]int32{
		scalarNBias:     1,
		scalarNMobility: int32(pm.count() - om.count()),
		scalarNPotMob:   int32(geo.neighbours(o).and(empty).count() - geo.neighbours(p).and(empty).count()),
		scalarNDiscs:    int32(p.count() - o.count()),
		scalarNEdge:     int32(p.and(geo.edges).count() - o.and(geo.edges).count()),
		scalarNStable:   int32(sp.count() - so.count()),
		scalarNParity:   int32(empty.count()&1*2 - 1),
	}
}

// PatternWeightsN holds the weights of the pattern evaluation of one large board size in
// hundredths of a disc: Phase[k] is the tables of every pattern kind of phase k, then the
// scalar weights.
type PatternWeightsN struct {
	Size  int
	Phase [NumPatternPhasesN][]int16
}

// NewPatternWeightsN returns all-zero weights for an n×n board; it fails unless n is an even
// size from 10 to 16.
func NewPatternWeightsN(n int) (*PatternWeightsN, error) {
	if n < 10 || n > 16 || n%2 != 0 {
		return nil, fmt.Errorf("ai: no large-board pattern evaluation for size %d", n)
	}
	w := &PatternWeightsN{Size: n}
	for k := range w.Phase {
		w.Phase[k] = make([]int16, patternNPhaseLen)
	}
	return w, nil
}

// eval returns the value of (p, o) in hundredths of a disc for p, given p's legal moves pm.
// The board's size (geo) may differ from the size w was trained on: the patterns read the
// same corner regions on every size, and the phases are fractions of the board.
func (w *PatternWeightsN) eval(geo *geomN, p, o, pm setN) int {
	g := patternNGeoms[geo.n]
	var buf [64]int32
	tab := w.Phase[patternPhaseN(geo.n, geo.n*geo.n-p.count()-o.count())]
	var v int32
	for _, i := range g.indexes(p, o, &buf) {
		v += int32(tab[i])
	}
	sc := g.scalars(geo, p, o, pm, geo.moves(o, p))
	s := tab[patternNPhaseLen-numScalarsN:]
	for i, x := range sc {
		v += int32(s[i]) * x
	}
	return clampEval(int(v))
}

// The weights file of one size: the magic, then the size, the number of phases and the length
// of a phase as little-endian uint32, then every phase's weights as little-endian int16,
// compressed with DEFLATE.
const patternNMagic = "RVPN\x01"

// MarshalBinary encodes the weights in the format of the embedded weights files.
func (w *PatternWeightsN) MarshalBinary() ([]byte, error) {
	return marshalPhases(patternNMagic, []uint32{uint32(w.Size), NumPatternPhasesN, uint32(patternNPhaseLen)},
		w.Phase[:], patternNPhaseLen)
}

// UnmarshalBinary decodes weights written by MarshalBinary; it fails with ErrPatternFile for
// data of another format, size or layout.
func (w *PatternWeightsN) UnmarshalBinary(data []byte) error {
	if !bytes.HasPrefix(data, []byte(patternNMagic)) || len(data) < len(patternNMagic)+12 {
		return ErrPatternFile
	}
	data = data[len(patternNMagic):]
	size := binary.LittleEndian.Uint32(data)
	phases, n := binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:])
	out, err := NewPatternWeightsN(int(min(size, 1000)))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPatternFile, err)
	}
	if phases != NumPatternPhasesN || n != uint32(patternNPhaseLen) {
		return fmt.Errorf("%w: %d phases of %d weights, want %d of %d", ErrPatternFile, phases, n, NumPatternPhasesN, patternNPhaseLen)
	}
	if err := unmarshalPhases(data[12:], out.Phase[:]); err != nil {
		return err
	}
	*w = *out
	return nil
}
