package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// latencies collects durations from many goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// Summary is the distribution of a set of latencies.
type Summary struct {
	N                        int
	P50, P90, P99, P999, Max time.Duration
}

// summary sorts a copy of the latencies and reads its percentiles (nearest rank).
func (l *latencies) summary() Summary {
	l.mu.Lock()
	d := slices.Clone(l.d)
	l.mu.Unlock()
	return summarize(d)
}

// summarize returns the percentiles of d, which it sorts; all zero for an empty d.
func summarize(d []time.Duration) Summary {
	if len(d) == 0 {
		return Summary{}
	}
	slices.Sort(d)
	at := func(p float64) time.Duration {
		i := int(float64(len(d))*p+0.999999) - 1 // nearest rank
		return d[min(max(i, 0), len(d)-1)]
	}
	return Summary{N: len(d), P50: at(0.50), P90: at(0.90), P99: at(0.99), P999: at(0.999), Max: d[len(d)-1]}
}

func (s Summary) String() string {
	if s.N == 0 {
		return "n=0"
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("n=%d p50=%s p90=%s p99=%s p99.9=%s max=%s", s.N, ms(s.P50), ms(s.P90), ms(s.P99), ms(s.P999), ms(s.Max))
}

// Result is what one load run measured.
type Result struct {
	Elapsed     time.Duration
	PeopleMoves int64              // moves tapped in games between people and applied
	AIMoves     int64              // moves tapped in AI games and applied (the AI's replies not counted)
	GroupMoves  int64              // moves tapped in group games and applied
	Games       int64              // games finished
	Ack         map[string]Summary // by game kind: tap → answerCallbackQuery
	Board       map[string]Summary // by game kind: tap → every board of the game shows the move (and, in AI games, the AI's reply)
	Errors      map[string]int     // by kind of error
	APICalls    int64
	InProcess   bool          // the bots ran in this process
	CPU         time.Duration // CPU used by this process
	BotCPU      []ProcCPU     // CPU used by each bot process (-external, -targets), when known
	RedisCPU    time.Duration // CPU used by the Redis server (INFO cpu), 0 when unknown
	Bots        int
	Flood       *FloodStats   // with -flood: what the flooder sent and what became of it
	Pictures    *PictureStats // with -pictures: the fetches and the bots' memory
	Soak        *SoakStats    // with -soak: the bots' memory over the run
	Limits      *LimitStats   // with -limits: the flood limits' figures
}

// LimitStats are the figures of a run under the fake's flood limits (-limits).
type LimitStats struct {
	Speedup     int     // the fake's limits ran this many times as fast as Telegram's
	PaceSpeedup int     // the bots paced this many times as fast as Telegram's figures
	TooMany     TooMany // the 429s the fake gave: every one fails the run
	// Lag is the board lag by kind of game: from a move's applied tap to the first edit the
	// fake accepted that shows it (in AI games, the AI's reply too); see lag.go.
	Lag   map[string]Summary
	Worst map[string]LagNote // by kind of game: the move that lagged most
}

// LagNote names the move whose board lagged most, for a report that says where to look.
type LagNote struct {
	Lag  time.Duration
	Chat int64         // the board's chat (a group's id is negative)
	Ply  int           // the ply of the move tapped (AI games) or the plies played (people, group)
	At   time.Duration // when it was tapped, from the start of the run
}

// ProcCPU is the CPU time a process used during a run.
type ProcCPU struct {
	PID  int
	Name string
	CPU  time.Duration
}

// MovesPerSecond is the rate of applied taps.
func (r Result) MovesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.PeopleMoves+r.AIMoves+r.GroupMoves) / r.Elapsed.Seconds()
}

// harmless tells the errors that are no failures of their own: an edit to the content a
// message already has, which Telegram refuses with "message is not modified" and the bot
// rightly ignores. They are counted as redundant edits (Redundant) instead.
func harmless(kind string) bool { return strings.Contains(kind, "message is not modified") }

// MaxRedundantPerMove is the most redundant edits per move a run may make: each spends a
// chat's flood budget (twenty edits a minute in a group) on a board that does not change, so
// more would cost a busy group moves (issue 41).
const MaxRedundantPerMove = 0.05

// Redundant is the number of edits Telegram refused as "message is not modified".
func (r Result) Redundant() int {
	n := 0
	for k, v := range r.Errors {
		if harmless(k) {
			n += v
		}
	}
	return n
}

// RedundantPerMove is Redundant per applied tap; 0 without moves.
func (r Result) RedundantPerMove() float64 {
	moves := r.PeopleMoves + r.AIMoves + r.GroupMoves
	if moves == 0 {
		return 0
	}
	return float64(r.Redundant()) / float64(moves)
}

// ErrorCount is the number of errors of every kind but the harmless ones.
func (r Result) ErrorCount() int {
	n := 0
	for k, v := range r.Errors {
		if !harmless(k) {
			n += v
		}
	}
	return n
}

// Failed reports whether the run failed: errors other than harmless ones, more than
// MaxRedundantPerMove redundant edits a move, or a 429.
func (r Result) Failed() bool {
	return r.ErrorCount() > 0 || r.RedundantPerMove() > MaxRedundantPerMove ||
		(r.Limits != nil && r.Limits.TooMany.Total > 0)
}

// print writes the report.
func (r Result) print(w io.Writer) {
	sec := r.Elapsed.Seconds()
	fmt.Fprintf(w, "elapsed %.2fs, %d bot(s), %d API calls (%.0f/s)\n", sec, r.Bots, r.APICalls, float64(r.APICalls)/sec)
	if l := r.Limits; l != nil {
		fmt.Fprintf(w, "flood limits: the fake's at Telegram's ×%d, the bots pace at ×%d\n", l.Speedup, l.PaceSpeedup)
	}
	groups := ""
	if r.GroupMoves > 0 {
		groups = fmt.Sprintf(" + %d group", r.GroupMoves)
	}
	fmt.Fprintf(w, "moves: %d people + %d AI%s = %s moves/s; %d games finished\n", r.PeopleMoves, r.AIMoves, groups, rate(r.MovesPerSecond()), r.Games)
	for _, kind := range gameKinds {
		if s, ok := r.Ack[kind]; ok && s.N > 0 {
			fmt.Fprintf(w, "%-6s tap→answer: %v\n", kind, s)
			fmt.Fprintf(w, "%-6s tap→board:  %v\n", kind, r.Board[kind])
		}
		if l := r.Limits; l != nil && l.Lag[kind].N > 0 {
			n := l.Worst[kind]
			fmt.Fprintf(w, "%-6s board lag:  %v (worst: chat %d, ply %d, tapped at +%.1fs)\n", kind, l.Lag[kind], n.Chat, n.Ply, n.At.Seconds())
		}
	}
	if r.Limits != nil {
		r.Limits.TooMany.print(w)
	}
	if r.Flood != nil {
		r.Flood.print(w)
	}
	if r.Soak != nil {
		r.Soak.print(w)
	}
	if r.Pictures != nil {
		r.Pictures.print(w)
	}
	r.printCPU(w)
	keys := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	over := ""
	if r.RedundantPerMove() > MaxRedundantPerMove {
		over = fmt.Sprintf(" — over %.2f: the run fails", MaxRedundantPerMove)
	}
	fmt.Fprintf(w, "redundant edits (message is not modified): %d, %.4f per move%s\n", r.Redundant(), r.RedundantPerMove(), over)
	fmt.Fprintf(w, "errors: %d\n", r.ErrorCount())
	for _, k := range keys {
		note := ""
		if harmless(k) {
			note = " (a redundant edit, counted above)"
		}
		fmt.Fprintf(w, "  %s: %d%s\n", k, r.Errors[k], note)
	}
}

// rate writes a rate per second: whole numbers from 100 up, else three significant digits
// (a group paced at twenty edits a minute makes 0.33 moves a second).
func rate(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// printCPU writes the CPU table: cores used on average over the run, and CPU time per move.
func (r Result) printCPU(w io.Writer) {
	sec, moves := r.Elapsed.Seconds(), r.PeopleMoves+r.AIMoves+r.GroupMoves
	const width = 41 // of the first column
	fmt.Fprintf(w, "cpu:%*s  %s\n", width+4, "cores", "per move")
	row := func(name string, d time.Duration) {
		perMove := "-"
		if moves > 0 {
			perMove = fmt.Sprintf("%.0fµs", float64(d.Microseconds())/float64(moves))
		}
		fmt.Fprintf(w, "  %-*s %5.2f  %8s\n", width, name, d.Seconds()/sec, perMove)
	}
	self := "this process (fake Bot API + players)"
	if r.InProcess {
		self = "this process (bots + fake API + players)"
	}
	row(self, r.CPU)
	total := r.CPU
	for _, b := range r.BotCPU {
		row(fmt.Sprintf("bot pid %d (%s)", b.PID, b.Name), b.CPU)
		total += b.CPU
	}
	if !r.InProcess && len(r.BotCPU) == 0 {
		fmt.Fprintf(w, "  %-*s %5s  %8s\n", width, "bots (unknown: see -pids)", "-", "-")
	}
	if r.RedisCPU > 0 {
		row("redis-server", r.RedisCPU)
		total += r.RedisCPU
	} else {
		fmt.Fprintf(w, "  %-*s %5s  %8s\n", width, "redis-server (unknown)", "-", "-")
	}
	row(fmt.Sprintf("total (of %d cores)", runtime.NumCPU()), total)
}
