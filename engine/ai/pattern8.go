package ai

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"
)

// The pattern evaluation of 8×8 (see PATTERNS.md). A pattern is a fixed list of squares; its
// instance on a board is read as a base-3 number (digit 0 empty, 1 the side to move's disc, 2
// the opponent's) that indexes a table of weights. Every pattern is read from the a1 corner of
// the board seen in several symmetries, so the instances of one pattern (the four edges, the
// four corners, ...) share one table, and each phase of the game (by empty squares) has its own
// tables. A few scalar terms (mobility, potential mobility, a bias) complete the sum.

// Pattern kinds, in the order of their tables.
const (
	patCorner33 = iota // 3×3 corner block
	patCorner25        // 2×5 block along an edge from a corner (a1–e1, a2–e2)
	patEdge2X          // an edge and its two X-squares
	patRow2            // the second line (a2–h2)
	patRow3            // the third line
	patRow4            // the fourth line
	patDiag8           // a1–h8
	patDiag7           // b1–h7
	patDiag6           // c1–h6
	patDiag5           // d1–h5
	patDiag4           // e1–h4
	numPatterns
)

// patternSquares is the number of squares of each pattern kind.
var patternSquares = [numPatterns]int{9, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4}

// patternInstances is how many instances of each kind a board holds.
var patternInstances = [numPatterns]int{4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4}

// PatternNames names the pattern kinds in the order of their tables.
var PatternNames = [numPatterns]string{"corner3x3", "corner2x5", "edge+2X", "line2", "line3",
	"line4", "diag8", "diag7", "diag6", "diag5", "diag4"}

// Scalar terms after the patterns.
const (
	scalarBias     = iota // 1
	scalarMobility        // legal moves, side to move minus opponent
	scalarPotMob          // empty squares next to opponent discs minus next to own discs
	numScalars
)

// NumPatternPhases is the number of phases of the pattern evaluation: phase k covers the
// positions with 60−8k ≥ empties > 52−8k (phase 7 also the full board).
const NumPatternPhases = 8

// patternPhase returns the phase of a position with e empty squares on 8×8.
func patternPhase(e int) int { return min((60-e)/8, NumPatternPhases-1) }

// patternOffset[k] is where the table of kind k starts in a phase's weights; patternPhaseLen
// is the length of one phase (patterns, then the scalars).
var (
	patternOffset   [numPatterns]int
	patternPhaseLen int
	// instancesPerPosition is the number of pattern instances on one board.
	instancesPerPosition int
)

// pow3Bits[x] reads the bits of x (up to 10) as base-3 digits: Σ bit_i·3^i.
var pow3Bits [1 << 10]int32

func init() {
	off := 0
	for k := 0; k < numPatterns; k++ {
		patternOffset[k] = off
		off += pow3(patternSquares[k])
		instancesPerPosition += patternInstances[k]
	}
	patternPhaseLen = off + numScalars
	for x := range pow3Bits {
		v, d := int32(0), int32(1)
		for i := 0; i < 10; i++ {
			if x>>i&1 != 0 {
				v += d
			}
			d *= 3
		}
		pow3Bits[x] = v
	}
	initPatternMirror()
}

// patternMirror[k] is the order in which the digits of kind k are read in its mirror image:
// the board's symmetries map an instance read one way onto an instance read the other way
// (an edge from a1 to h1 onto one from h1 to a1), so a table of kind k must give an index and
// its mirror the same weight for the evaluation to be symmetric. Nil: no such pairs.
var patternMirror [numPatterns][]int

// patternCanon[i] is the smaller of index i (offset included) and its mirror's.
var patternCanon []int32

func initPatternMirror() {
	rev := func(n int) []int {
		m := make([]int, n)
		for i := range m {
			m[i] = n - 1 - i
		}
		return m
	}
	patternMirror[patCorner33] = []int{0, 3, 6, 1, 4, 7, 2, 5, 8}
	patternMirror[patEdge2X] = append(rev(8), 9, 8)
	for k := patRow2; k < numPatterns; k++ {
		patternMirror[k] = rev(patternSquares[k])
	}
	patternCanon = make([]int32, patternPhaseLen)
	for i := range patternCanon {
		patternCanon[i] = int32(i)
	}
	for k := 0; k < numPatterns; k++ {
		m := patternMirror[k]
		if m == nil {
			continue
		}
		n := patternSquares[k]
		var digits [10]int
		for x := 0; x < pow3(n); x++ {
			for i, v := 0, x; i < n; i, v = i+1, v/3 {
				digits[i] = v % 3
			}
			y := 0
			for i := n - 1; i >= 0; i-- {
				y = y*3 + digits[m[i]]
			}
			patternCanon[patternOffset[k]+x] = int32(patternOffset[k] + min(x, y))
		}
	}
}

func pow3(n int) int {
	v := 1
	for i := 0; i < n; i++ {
		v *= 3
	}
	return v
}

// flipDiag8 mirrors a bitboard in its a1–h8 diagonal (bit r*8+c goes to c*8+r).
func flipDiag8(x uint64) uint64 {
	t := 0x0f0f0f0f00000000 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = 0x3333000033330000 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = 0x5500550055005500 & (x ^ x<<7)
	x ^= t ^ t>>7
	return x
}

// flipRows8 mirrors a bitboard top to bottom (row r goes to row 7−r).
func flipRows8(x uint64) uint64 { return bits.ReverseBytes64(x) }

// flipCols8 mirrors a bitboard left to right (column c goes to column 7−c).
func flipCols8(x uint64) uint64 { return bits.ReverseBytes64(bits.Reverse64(x)) }

// The gathering functions read a pattern's squares of one bitboard, seen from the a1 corner,
// into the low bits of an integer in the pattern's square order.
func gather33(x uint64) uint64 { return x&7 | x>>5&0x38 | x>>10&0x1c0 }
func gather25(x uint64) uint64 { return x&0x1f | x>>3&0x3e0 }
func gatherE2X(x uint64) uint64 {
	return x&0xff | x>>1&0x100 | x>>5&0x200
}

// gatherDiag collects the squares of a mask with at most one square per column into a byte
// (bit c for column c): multiplying by the A file adds every row into the top row without
// carries.
func gatherDiag(x, mask uint64) uint64 { return (x & mask) * fileA8 >> 56 }

const (
	diag8Mask = 0x8040201008040201
	diag7Mask = 0x0080402010080402
	diag6Mask = 0x0000804020100804
	diag5Mask = 0x0000008040201008
	diag4Mask = 0x0000000080402010
)

// patternIndexes8 writes the table index (offset of its kind included) of every pattern
// instance of (p, o) into idx, in a fixed order; it returns idx[:instancesPerPosition].
func patternIndexes8(p, o uint64, idx *[48]int32) []int32 {
	// The eight symmetries of each board: the four corners seen as a1, then the same mirrored
	// in the diagonal.
	var sp, so [8]uint64
	sp[0], so[0] = p, o
	sp[1], so[1] = flipRows8(p), flipRows8(o)
	sp[2], so[2] = flipCols8(p), flipCols8(o)
	sp[3], so[3] = bits.Reverse64(p), bits.Reverse64(o)
	tp, to := flipDiag8(p), flipDiag8(o)
	sp[4], so[4] = tp, to
	sp[5], so[5] = flipRows8(tp), flipRows8(to)
	sp[6], so[6] = flipCols8(tp), flipCols8(to)
	sp[7], so[7] = bits.Reverse64(tp), bits.Reverse64(to)
	n := 0
	put := func(kind int, gp, gm uint64) {
		idx[n] = int32(patternOffset[kind]) + pow3Bits[gp] + 2*pow3Bits[gm]
		n++
	}
	for s := 0; s < 4; s++ {
		put(patCorner33, gather33(sp[s]), gather33(so[s]))
	}
	for s := 0; s < 8; s++ {
		put(patCorner25, gather25(sp[s]), gather25(so[s]))
	}
	// Lines: the edges are row 1 of a1 (rank 1), of a8 (rank 8), and of the mirrored boards
	// a1 (file a) and its row flip (file h).
	for _, s := range [4]int{0, 1, 4, 5} {
		x, y := sp[s], so[s]
		put(patEdge2X, gatherE2X(x), gatherE2X(y))
		put(patRow2, x>>8&0xff, y>>8&0xff)
		put(patRow3, x>>16&0xff, y>>16&0xff)
		put(patRow4, x>>24&0xff, y>>24&0xff)
	}
	put(patDiag8, gatherDiag(p, diag8Mask), gatherDiag(o, diag8Mask))
	put(patDiag8, gatherDiag(sp[2], diag8Mask), gatherDiag(so[2], diag8Mask))
	for s := 0; s < 4; s++ {
		x, y := sp[s], so[s]
		put(patDiag7, gatherDiag(x, diag7Mask)>>1, gatherDiag(y, diag7Mask)>>1)
		put(patDiag6, gatherDiag(x, diag6Mask)>>2, gatherDiag(y, diag6Mask)>>2)
		put(patDiag5, gatherDiag(x, diag5Mask)>>3, gatherDiag(y, diag5Mask)>>3)
		put(patDiag4, gatherDiag(x, diag4Mask)>>4, gatherDiag(y, diag4Mask)>>4)
	}
	return idx[:n]
}

// patternScalars8 returns the scalar terms of (p, o) given both sides' legal moves.
func patternScalars8(p, o, pm, om uint64) [numScalars]int32 {
	empty := ^(p | o)
	return [numScalars]int32{
		scalarBias:     1,
		scalarMobility: int32(popcnt(pm) - popcnt(om)),
		scalarPotMob:   int32(popcnt(neighbours8(o)&empty) - popcnt(neighbours8(p)&empty)),
	}
}

// PatternWeights8 holds the weights of the 8×8 pattern evaluation in hundredths of a disc:
// Phase[k] is the tables of every pattern kind of phase k, then the scalar weights.
type PatternWeights8 struct {
	Phase [NumPatternPhases][]int16
}

// NewPatternWeights8 returns all-zero weights.
func NewPatternWeights8() *PatternWeights8 {
	w := &PatternWeights8{}
	for k := range w.Phase {
		w.Phase[k] = make([]int16, patternPhaseLen)
	}
	return w
}

// eval returns the value of (p, o) in hundredths of a disc for p, given p's legal moves pm.
func (w *PatternWeights8) eval(p, o, pm uint64) int {
	var idx [48]int32
	tab := w.Phase[patternPhase(popcnt(^(p | o)))]
	var v int32
	for _, i := range patternIndexes8(p, o, &idx) {
		v += int32(tab[i])
	}
	sc := patternScalars8(p, o, pm, moves8(o, p))
	s := tab[patternPhaseLen-numScalars:]
	for i, x := range sc {
		v += int32(s[i]) * x
	}
	return clampEval(int(v))
}

// The weights file: the magic, then the number of phases and the length of a phase as
// little-endian uint32, then every phase's weights as little-endian int16, compressed with
// DEFLATE.
const patternMagic = "RVP8\x01"

// ErrPatternFile is returned for a weights file that is not one this version reads.
var ErrPatternFile = errors.New("ai: bad pattern weights file")

// MarshalBinary encodes the weights in the format of the embedded weights file.
func (w *PatternWeights8) MarshalBinary() ([]byte, error) {
	return marshalPhases(patternMagic, []uint32{NumPatternPhases, uint32(patternPhaseLen)}, w.Phase[:], patternPhaseLen)
}

// UnmarshalBinary decodes weights written by MarshalBinary; it fails with ErrPatternFile
// for data of another format or layout.
func (w *PatternWeights8) UnmarshalBinary(data []byte) error {
	if !bytes.HasPrefix(data, []byte(patternMagic)) || len(data) < len(patternMagic)+8 {
		return ErrPatternFile
	}
	data = data[len(patternMagic):]
	phases, n := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:])
	if phases != NumPatternPhases || n != uint32(patternPhaseLen) {
		return fmt.Errorf("%w: %d phases of %d weights, want %d of %d", ErrPatternFile, phases, n, NumPatternPhases, patternPhaseLen)
	}
	out := NewPatternWeights8()
	if err := unmarshalPhases(data[8:], out.Phase[:]); err != nil {
		return err
	}
	*w = *out
	return nil
}

// marshalPhases writes a weights file: magic, the header words (little-endian uint32), then
// the phases of n int16 weights each through DEFLATE. It refuses a phase of another length.
func marshalPhases(magic string, header []uint32, phases [][]int16, n int) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	binary.Write(&buf, binary.LittleEndian, header)
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	for _, ph := range phases {
		if len(ph) != n {
			return nil, fmt.Errorf("ai: pattern weights: a phase of %d weights, want %d", len(ph), n)
		}
		if err := binary.Write(zw, binary.LittleEndian, ph); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unmarshalPhases fills the phases (each already of its length) from data, the DEFLATE part
// of a weights file, failing with ErrPatternFile when data is short, corrupt or longer.
func unmarshalPhases(data []byte, phases [][]int16) error {
	zr := flate.NewReader(bytes.NewReader(data))
	for k := range phases {
		if err := binary.Read(zr, binary.LittleEndian, phases[k]); err != nil {
			return fmt.Errorf("%w: %v", ErrPatternFile, err)
		}
	}
	if n, _ := zr.Read(make([]byte, 1)); n != 0 {
		return fmt.Errorf("%w: trailing data", ErrPatternFile)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return fmt.Errorf("%w: %v", ErrPatternFile, err)
	}
	return nil
}

//go:embed patterns8.bin
var patternFile []byte

// DefaultPatternWeights8 returns the embedded 8×8 pattern weights, loaded once; callers must
// not modify them.
func DefaultPatternWeights8() (*PatternWeights8, error) { return defaultPatterns8() }

var defaultPatterns8 = sync.OnceValues(func() (*PatternWeights8, error) {
	return loadEmbedded[PatternWeights8](patternFile, "pattern weights")
})

// loadEmbedded decodes data, a file embedded in the binary, into a new T; the error names
// what the file holds.
func loadEmbedded[T any, PT interface {
	*T
	encoding.BinaryUnmarshaler
}](data []byte, what string) (*T, error) {
	decodes.Add(1)
	v := PT(new(T))
	if err := v.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("ai: embedded %s: %w", what, err)
	}
	return v, nil
}
