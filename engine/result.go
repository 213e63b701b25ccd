package engine

import "fmt"

// Outcome is who won a game, if anyone has yet. The values and their order are fixed: stored
// games keep an Outcome as its number.
type Outcome uint8

// The outcomes of a game. Ongoing is also the outcome of a game that ended without a result
// (EndAbandoned).
const (
	Ongoing Outcome = iota
	BlackWins
	WhiteWins
	Draw
)

// String returns "ongoing", "black wins", "white wins" or "draw", or "Outcome(N)" for an
// unknown value.
func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case BlackWins:
		return "black wins"
	case WhiteWins:
		return "white wins"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// WinFor returns the outcome in which c wins: BlackWins or WhiteWins.
func WinFor(c Color) Outcome {
	if c&1 == White {
		return WhiteWins
	}
	return BlackWins
}

// Winner returns the colour that won; ok is false for Ongoing, Draw and unknown values.
func (o Outcome) Winner() (c Color, ok bool) {
	switch o {
	case BlackWins:
		return Black, true
	case WhiteWins:
		return White, true
	}
	return Black, false
}

// EndReason says why a game ended. The values and their order are fixed: stored games keep an
// EndReason as its number.
type EndReason uint8

// The reasons a game ends. EndNormal is also the reason of a game still being played.
const (
	// EndNormal: neither side could move, and the discs decide.
	EndNormal EndReason = iota
	// EndResign: the loser resigned.
	EndResign
	// EndTimeout: the loser ran out of time (or idled, and the opponent claimed the game).
	EndTimeout
	// EndAbandoned: the game was given up without a result (for example a lobby cancelled).
	EndAbandoned
)

// String returns "normal", "resign", "timeout" or "abandoned", or "reason(N)" for an unknown
// value.
func (r EndReason) String() string {
	switch r {
	case EndNormal:
		return "normal"
	case EndResign:
		return "resign"
	case EndTimeout:
		return "timeout"
	case EndAbandoned:
		return "abandoned"
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Result is how a game stands or ended: who won and why the game ended. The zero Result is a
// game still being played. The results a game can have (see Valid) are:
//
//   - {Ongoing, EndNormal}: still being played;
//   - {BlackWins, WhiteWins or Draw, EndNormal}: neither side could move, the discs decide;
//   - {BlackWins or WhiteWins, EndResign or EndTimeout}: the loser resigned or ran out of time;
//   - {Ongoing, EndAbandoned}: given up without a result.
//
// Result is a small comparable value: compare Results with ==.
type Result struct {
	Outcome Outcome
	Reason  EndReason
}

// Over reports whether the game has ended, with or without a result.
func (r Result) Over() bool { return r.Outcome != Ongoing || r.Reason != EndNormal }

// Winner returns the colour that won; ok is false for a draw and for a game without a winner.
func (r Result) Winner() (c Color, ok bool) { return r.Outcome.Winner() }

// Loser returns the colour that lost: the one that resigned or ran out of time when the game
// ended so, the one with fewer discs after a normal end. ok is false when nobody lost.
func (r Result) Loser() (c Color, ok bool) {
	w, ok := r.Outcome.Winner()
	return w.Opponent(), ok
}

// Valid reports whether r is one of the results a game can have (see Result).
func (r Result) Valid() bool {
	switch r.Reason {
	case EndNormal:
		return r.Outcome <= Draw
	case EndResign, EndTimeout:
		_, ok := r.Winner()
		return ok
	case EndAbandoned:
		return r.Outcome == Ongoing
	}
	return false
}

// String returns a short English description: "ongoing", "black wins", "draw",
// "white wins (resign)", "black wins (timeout)", "abandoned"; an invalid Result shows both of
// its fields, "Outcome(7) (reason(9))".
func (r Result) String() string {
	switch {
	case r.Reason == EndNormal:
		return r.Outcome.String()
	case r.Reason == EndAbandoned && r.Outcome == Ongoing:
		return "abandoned"
	}
	return r.Outcome.String() + " (" + r.Reason.String() + ")"
}
