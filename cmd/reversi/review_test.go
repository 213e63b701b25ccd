package main

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// firstMoveGame plays the first legal move (in square order) until the end, or plies discs.
func firstMoveGame(t *testing.T, size, plies int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() && g.Ply() < plies {
		if g.Position().MustPass() {
			g.Play(engine.Pass)
			continue
		}
		if _, err := g.Play(g.Position().LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// reviewLine is a parsed move line of "reversi review".
type reviewLine struct {
	ply                int
	mover              string
	played, best       engine.Square
	playedScore, score float64
	loss               float64
	how                string
}

// parseReview splits the output into its move lines and the rest.
func parseReview(t *testing.T, out string) ([]reviewLine, []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(strings.TrimSpace(lines[0]), "ply mover played") {
		t.Fatalf("no header:\n%s", out)
	}
	var ms []reviewLine
	i := 1
	for ; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		ply, err := strconv.Atoi(f[0])
		if err != nil {
			break
		}
		if len(f) < 8 {
			t.Fatalf("line %q", lines[i])
		}
		var m reviewLine
		m.ply, m.mover, m.how = ply, f[1], strings.Join(f[7:], " ")
		var errs [5]error
		m.played, errs[0] = engine.ParseSquare(f[2])
		m.playedScore, errs[1] = strconv.ParseFloat(f[3], 64)
		m.best, errs[2] = engine.ParseSquare(f[4])
		m.score, errs[3] = strconv.ParseFloat(f[5], 64)
		m.loss, errs[4] = strconv.ParseFloat(f[6], 64)
		for _, err := range errs {
			if err != nil {
				t.Fatalf("line %q: %v", lines[i], err)
			}
		}
		ms = append(ms, m)
	}
	return ms, lines[i:]
}

// TestReviewCommand reviews a whole 4×4 game, every position solved: each line's scores are
// the solver's values of the position before the move and after it, and the summary follows.
func TestReviewCommand(t *testing.T) {
	g := firstMoveGame(t, 4, 100)
	code, out, errOut := runPerftCmd("review", "-size", "4", "-j", "3", g.Record())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ms, rest := parseReview(t, out)
	if len(ms) != g.Ply() {
		t.Fatalf("%d move lines for %d plies:\n%s", len(ms), g.Ply(), out)
	}
	p := g.Start()
	k := 0
	for _, sq := range g.Moves() {
		if sq != engine.Pass {
			m := ms[k]
			k++
			_, best, err := ai.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			q, _, _ := p.Play(sq)
			played := -q.FinalScore()
			if !q.GameOver() {
				_, v, _ := ai.Solve(context.Background(), q)
				played = -v
			}
			loss := float64(best - played)
			if m.played == m.best {
				loss = 0
			}
			if m.ply != k || m.mover != p.Side().String() || m.played != sq || m.score != float64(best) ||
				m.playedScore != float64(played) || m.loss != loss || m.how != "exact" || !p.IsLegal(m.best) {
				t.Errorf("ply %d: %+v, want %v %v %+d, best %+d, loss %v, exact", k, m, p.Side(), sq, played, best, loss)
			}
		}
		p, _, _ = p.Play(sq)
	}
	summary := strings.Join(rest, "\n")
	for _, want := range []string{"black's biggest mistakes", "white's biggest mistakes", "turning point: "} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if !strings.Contains(errOut, "about") {
		t.Errorf("stderr %q gives no estimate", errOut)
	}
}

// TestReviewCommandStdin reads an unfinished 8×8 game from standard input and searches it.
func TestReviewCommandStdin(t *testing.T) {
	g := firstMoveGame(t, 8, 12)
	var out, errb strings.Builder
	code := run([]string{"review", "-depth", "2", "-exact", "-1", "-n", "1"}, strings.NewReader(" "+g.Record()+"\n"), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	ms, rest := parseReview(t, out.String())
	if len(ms) != 12 {
		t.Fatalf("%d move lines, want 12:\n%s", len(ms), out.String())
	}
	for _, m := range ms {
		if m.how != "depth 2" || m.loss < 0 {
			t.Errorf("%+v, want a depth-2 search and no negative loss", m)
		}
	}
	if mistakes := strings.Count(strings.Join(rest, "\n"), "  ply "); mistakes > 2 {
		t.Errorf("%d mistakes listed with -n 1:\n%s", mistakes, out.String())
	}
}

func TestReviewCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		in   string
		code int
		want string
	}{
		{[]string{"review", "f5d6c9"}, "", 1, "move 3"},
		{[]string{"review", "f5x6"}, "", 1, "square"},
		{[]string{"review"}, "", 1, "no moves"},
		{[]string{"review", "-size", "7", "f5"}, "", 2, "-size"},
		{[]string{"review", "-j", "0", "f5"}, "", 2, "-j"},
		{[]string{"review", "-bogus"}, "", 2, "bogus"},
	} {
		var out, errb strings.Builder
		code := run(c.args, strings.NewReader(c.in), &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errb.String(), c.code, c.want)
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"review", "-h"}, nil, &out, &errb); code != 0 || !strings.Contains(errb.String(), "usage: reversi review") {
		t.Errorf("-h: exit %d, %q", code, errb.String())
	}
}
