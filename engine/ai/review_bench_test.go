package ai

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
)

// reviewGame is a game of testdata/review_games.txt.
type reviewGame struct {
	line int
	game *engine.Game
}

// reviewGames reads testdata/review_games.txt: SIZE RECORD per line, # comments.
func reviewGames(t testing.TB) []reviewGame {
	t.Helper()
	f, err := os.Open("testdata/review_games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gs []reviewGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		size, rec, _ := strings.Cut(line, " ")
		s, err := strconv.Atoi(size)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		g, err := engine.ReplayRecord(s, rec)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		gs = append(gs, reviewGame{line: n, game: g})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestReviewGamesFile: the benchmark games are complete games (the 8×8 ones of 60 moves).
func TestReviewGamesFile(t *testing.T) {
	for _, rg := range reviewGames(t) {
		g := rg.game
		if !g.Over() || g.Start().Size() == 8 && g.Ply() != 60 {
			t.Errorf("line %d: %d×%d game of %d plies, over %v", rg.line, g.Start().Size(), g.Start().Size(), g.Ply(), g.Over())
		}
	}
}

// benchReview reviews g with the default options b.N times, one step after the other, and
// reports the mean midgame step and the exact steps' total.
func benchReview(b *testing.B, g *engine.Game) {
	var mid, exact time.Duration
	var midSteps int
	for b.Loop() {
		r, err := NewReview(g, ReviewOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < r.Steps(); i++ {
			start := time.Now()
			if err := r.Step(context.Background(), i); err != nil {
				b.Fatal(err)
			}
			if el := time.Since(start); r.plan[i].exact {
				exact += el
			} else {
				mid += el
				midSteps++
			}
		}
		if _, err := r.Result(); err != nil {
			b.Fatal(err)
		}
	}
	if midSteps > 0 {
		b.ReportMetric(float64(mid.Milliseconds())/float64(midSteps), "mid-ms/step")
	}
	b.ReportMetric(float64(exact.Milliseconds())/float64(b.N), "exact-ms")
	b.ReportMetric(float64(g.Ply()), "plies")
}

// firstGame returns the first game of the given size in testdata/review_games.txt.
func firstGame(b *testing.B, size int) *engine.Game {
	for _, rg := range reviewGames(b) {
		if rg.game.Start().Size() == size {
			return rg.game
		}
	}
	b.Fatalf("no %d×%d game", size, size)
	return nil
}

// BenchmarkReview8 reviews a full 60-move 8×8 game; run it with
// GOMAXPROCS=1 nice -n 19 go test -run '^$' -bench 'Review8$' -benchtime 1x ./engine/ai/
func BenchmarkReview8(b *testing.B) { benchReview(b, firstGame(b, 8)) }

// BenchmarkReview16 reviews a full 16×16 game (252 moves).
func BenchmarkReview16(b *testing.B) { benchReview(b, firstGame(b, 16)) }

// BenchmarkReviewGames reviews every game of testdata/review_games.txt, for EstimateReview.
func BenchmarkReviewGames(b *testing.B) {
	for _, rg := range reviewGames(b) {
		size := rg.game.Start().Size()
		b.Run(fmt.Sprintf("%dx%d-line%d", size, size, rg.line), func(b *testing.B) { benchReview(b, rg.game) })
	}
}
