package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedSquares returns the squares of s sorted, for comparing with the reference's lists.
func sortedSquares(s []Square) []Square {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// checkAgainstRef compares everything the engine says about p with the reference board b: the
// side to move, disc counts, legal moves, the flips of every legal move, an illegal move,
// passes, the end of the game and its result. On 8×8 it also holds the multi-word code to the
// same answers. It returns the legal moves.
func checkAgainstRef(t *testing.T, where string, p Position, b *refBoard, rng *rand.Rand) []Square {
	t.Helper()
	if p.Side() != b.side() {
		t.Fatalf("%s: side %v, reference %v", where, p.Side(), b.side())
	}
	if got, want := p.Count(Black), b.count(refBlack); got != want {
		t.Fatalf("%s: Count(Black) = %d, reference %d", where, got, want)
	}
	if got, want := p.Count(White), b.count(refWhite); got != want {
		t.Fatalf("%s: Count(White) = %d, reference %d", where, got, want)
	}
	want := b.moves(b.turn)
	got := p.LegalMoves()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: %v\nLegalMoves = %v\nreference  %v", where, p, got, want)
	}
	if p.MoveCount() != len(want) || p.HasMoves() != (len(want) > 0) {
		t.Fatalf("%s: MoveCount %d, HasMoves %v, reference has %d moves", where, p.MoveCount(), p.HasMoves(), len(want))
	}
	size := p.Size()
	if size == 8 {
		me, you := spread8(p.b8[p.side]), spread8(p.b8[p.side^1])
		if g := movesN(8, me, you).Squares(); !slices.Equal(g, want) {
			t.Fatalf("%s: movesN on 8×8 = %v, reference %v", where, g, want)
		}
	}
	for _, sq := range want {
		wf := sortedSquares(b.flips(b.turn, sq.Col(), sq.Row()))
		if gf := p.Flips(sq).Squares(); !slices.Equal(gf, wf) {
			t.Fatalf("%s: %v\nFlips(%v) = %v\nreference  %v", where, p, sq, gf, wf)
		}
		if size == 8 {
			me, you := spread8(p.b8[p.side]), spread8(p.b8[p.side^1])
			if gf := flipsN(8, me, you, sq).Squares(); !slices.Equal(gf, wf) {
				t.Fatalf("%s: flipsN on 8×8 (%v) = %v, reference %v", where, sq, gf, wf)
			}
		}
		if !p.IsLegal(sq) {
			t.Fatalf("%s: IsLegal(%v) = false for a reference move", where, sq)
		}
	}
	// One square that is not a legal move must flip nothing and be refused.
	sq := SquareAt(rng.IntN(size), rng.IntN(size))
	if !slices.Contains(want, sq) {
		if !p.Flips(sq).Empty() || p.IsLegal(sq) {
			t.Fatalf("%s: %v: illegal %v flips %v, IsLegal %v", where, p, sq, p.Flips(sq).Squares(), p.IsLegal(sq))
		}
		if _, _, err := p.Play(sq); err == nil {
			t.Fatalf("%s: %v: Play(%v) accepted an illegal move", where, p, sq)
		}
	}
	refOver := len(want) == 0 && len(b.moves(refOther(b.turn))) == 0
	refPass := len(want) == 0 && !refOver
	if p.GameOver() != refOver || p.MustPass() != refPass || p.IsLegal(Pass) != refPass {
		t.Fatalf("%s: %v: GameOver %v MustPass %v, reference over %v pass %v", where, p, p.GameOver(), p.MustPass(), refOver, refPass)
	}
	refOutcome := Ongoing
	if refOver {
		refOutcome = OutcomeOf(b.count(refBlack), b.count(refWhite))
	}
	if got := p.Outcome(); got != refOutcome {
		t.Fatalf("%s: Outcome = %v, reference %v", where, got, refOutcome)
	}
	return want
}

// TestDifferentialRandomGames plays seeded random games on every size and compares the engine
// with the reference at every ply.
func TestDifferentialRandomGames(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		// About the same number of plies for every size: many short games on small boards.
		games := 40000 / (size * size)
		if testing.Short() {
			games /= 8
		}
		games = max(games, 8)
		t.Run(sizeName(size), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(size), 2026))
			passes, ends := 0, 0
			for g := range games {
				p, b := MustStart(size), refStart(size)
				for ply := 0; ; ply++ {
					where := "game " + itoa(g) + " ply " + itoa(ply)
					moves := checkAgainstRef(t, where, p, &b, rng)
					if p.GameOver() {
						ends++
						break
					}
					if len(moves) == 0 {
						passes++
						q, f, err := p.Play(Pass)
						if err != nil || !f.Empty() || q.Side() == p.Side() {
							t.Fatalf("%s: Play(Pass) = %v, %v, %v", where, q, f, err)
						}
						p, b.turn = q, refOther(b.turn)
						continue
					}
					if _, _, err := p.Play(Pass); err == nil {
						t.Fatalf("%s: Play(Pass) accepted with moves to play", where)
					}
					m := moves[rng.IntN(len(moves))]
					q, f, err := p.Play(m)
					if err != nil {
						t.Fatalf("%s: Play(%v): %v", where, m, err)
					}
					if !slices.Equal(f.Squares(), sortedSquares(b.flips(b.turn, m.Col(), m.Row()))) {
						t.Fatalf("%s: Play(%v) flipped %v", where, m, f.Squares())
					}
					p = q
					b.play(m)
				}
			}
			if ends != games {
				t.Errorf("%d games ended, want %d", ends, games)
			}
			t.Logf("%d games, %d passes", games, passes)
		})
	}
}

// TestDifferentialRandomBoards compares legal moves and flips on random fillings of every size,
// which reach shapes (long runs, full edges, lopsided boards) random games seldom do.
func TestDifferentialRandomBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	n := 3000
	if testing.Short() {
		n = 400
	}
	for i := range n {
		size := MinSize + 2*rng.IntN((MaxSize-MinSize)/2+1)
		b := refBoard{size: size, turn: refBlack + rng.IntN(2)}
		fill := rng.Float64()
		blackShare := rng.Float64()
		for r := 0; r < size; r++ {
			for c := 0; c < size; c++ {
				if rng.Float64() < fill {
					if rng.Float64() < blackShare {
						b.cells[r][c] = refBlack
					} else {
						b.cells[r][c] = refWhite
					}
				}
			}
		}
		p, err := ParseBoard(b.text(), b.side())
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstRef(t, "board "+itoa(i), p, &b, rng)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestExportedKernels checks MovesN and FlipsN against Position on every size, and their answers
// to bad input.
func TestExportedKernels(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		for _, p := range midgames(t, size, 20) {
			me, you := p.Discs(p.Side()), p.Discs(p.Side().Opponent())
			if got := MovesN(size, me, you); got != p.Moves() {
				t.Fatalf("MovesN(%d, %v) = %v, want %v", size, p, got.Squares(), p.LegalMoves())
			}
			for _, sq := range p.LegalMoves() {
				if got := FlipsN(size, me, you, sq); got != p.Flips(sq) {
					t.Fatalf("FlipsN(%d, %v, %v) = %v, want %v", size, p, sq, got.Squares(), p.Flips(sq).Squares())
				}
			}
			if size == 8 {
				b, w, _ := p.Bitboards8()
				if spread8(Moves8(b, w)) != p.Moves() {
					t.Fatalf("Moves8 and Moves differ on %v", p)
				}
			}
		}
	}
	full := Set{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	if !MovesN(7, full, Set{}).Empty() || !MovesN(-2, Set{}, full).Empty() || !FlipsN(8, Set{}, full, SquareAt(9, 0)).Empty() || !FlipsN(99, Set{}, full, 0).Empty() || !FlipsN(8, Set{}, full, Pass).Empty() {
		t.Error("MovesN or FlipsN answered bad input")
	}
	// Discs off the board are ignored by MovesN.
	p := MustStart(6)
	me, you := p.Discs(Black), p.Discs(White)
	if got := MovesN(6, me.Add(SquareAt(7, 2)), you.Add(SquareAt(6, 2))); got != p.Moves() {
		t.Errorf("MovesN with discs past the edge = %v, want %v", got.Squares(), p.LegalMoves())
	}
}
