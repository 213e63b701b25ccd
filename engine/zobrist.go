package engine

// zobrist holds the random keys of Position.Hash: one per colour and square, one per board size
// and one for white to move. They come from a fixed seed so hashes are stable across runs.
var zobrist struct {
	disc  [2][256]uint64
	size  [MaxSize + 1]uint64
	white uint64
}

func init() {
	state := uint64(0x5eed0f0be11015)
	next := func() uint64 { // splitmix64
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for c := range zobrist.disc {
		for i := range zobrist.disc[c] {
			zobrist.disc[c][i] = next()
		}
	}
	for i := range zobrist.size {
		zobrist.size[i] = next()
	}
	zobrist.white = next()
}

// Hash returns a Zobrist hash of the position: equal positions (same size, discs and side to
// move) hash equal, and different ones almost never do. ZobristDisc lets a search update it
// incrementally.
func (p Position) Hash() uint64 {
	h := zobrist.size[p.size]
	if p.side == White {
		h ^= zobrist.white
	}
	for c := Black; c <= White; c++ {
		for i, w := range p.Discs(c) {
			for w != 0 {
				h ^= zobrist.disc[c][i<<6+trailingZeros(w)]
				w &= w - 1
			}
		}
	}
	return h
}

// ZobristDisc returns the hash key of a disc of colour c on sq; ZobristWhiteToMove the key of
// white to move. Position.Hash is the XOR of the keys of its discs, its side and its size.
// A colour other than Black or White, or a Square that is not Valid, has the key 0.
func ZobristDisc(c Color, sq Square) uint64 {
	if (c != Black && c != White) || !sq.Valid() {
		return 0
	}
	return zobrist.disc[c][sq]
}

// ZobristWhiteToMove is the hash key toggled when the side to move is white.
func ZobristWhiteToMove() uint64 { return zobrist.white }
