package render

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reversibot/reversi/engine"
)

func TestStatus(t *testing.T) {
	start := NewView(engine.MustStart(8))
	g := playRandom(t, 8, 5, 23) // white to move after black's h7
	mid := ViewOf(g)
	over := ViewOf(playRandom(t, 8, 11, 1000))
	var passed View
	for seed := uint64(0); ; seed++ {
		g := playRandom(t, 8, seed, 200)
		for g.Len() > 0 && !g.Position().MustPass() {
			_ = g.Undo()
		}
		if g.Len() > 0 {
			_, _ = g.Play(engine.Pass)
			passed = ViewOf(g)
			break
		}
	}
	info := func(v View, r engine.Result) StatusInfo {
		return StatusInfo{View: v, Black: "Alice", White: "Bob", Result: r}
	}
	type R = engine.Result
	playing := R{}
	nb, nw := over.Position.Count(engine.Black), over.Position.Count(engine.White)
	winner := "⚫ Alice"
	if nw > nb {
		winner = "⚪ Bob"
	}
	tests := []struct {
		name, lang string
		s          StatusInfo
		want       []string
	}{
		{"start en", "en", info(start, playing), []string{"⚫ Alice — 2\n⚪ Bob — 2\nTo move: ⚫ Alice"}},
		{"start ru", "ru", info(start, playing), []string{"⚫ Alice — 2\n⚪ Bob — 2\nХодит: ⚫ Alice"}},
		{"unknown lang", "de", info(start, playing), []string{"To move: ⚫ Alice"}},
		{"mid en", "en", info(mid, playing), []string{"Last move: ⚫ h7\n", "To move: ⚪ Bob"}},
		{"mid ru", "ru", info(mid, playing), []string{"Последний ход: ⚫ h7\n", "Ходит: ⚪ Bob"}},
		{"pass en", "en", info(passed, playing), []string{" has no legal move and passes.\nTo move: "}},
		{"pass ru", "ru", info(passed, playing), []string{": нет ходов, пропуск хода.\nХодит: "}},
		{"over en", "en", info(over, playing), []string{"Game over. " + winner + " wins, "}},
		{"over ru", "ru", info(over, R{Outcome: over.Position.Outcome()}), []string{"Игра окончена. Победа: " + winner + ", "}},
		{"resign en", "en", info(mid, R{Outcome: engine.BlackWins, Reason: engine.EndResign}), []string{"⚪ Bob resigns. ⚫ Alice wins."}},
		{"resign ru", "ru", info(mid, R{Outcome: engine.WhiteWins, Reason: engine.EndResign}), []string{"⚫ Alice: сдача. Победа: ⚪ Bob."}},
		{"timeout en", "en", info(mid, R{Outcome: engine.WhiteWins, Reason: engine.EndTimeout}), []string{"⚫ Alice ran out of time. ⚪ Bob wins."}},
		{"timeout ru", "ru", info(mid, R{Outcome: engine.BlackWins, Reason: engine.EndTimeout}), []string{"⚪ Bob: время вышло. Победа: ⚫ Alice."}},
		{"cancel en", "en", info(mid, R{Reason: engine.EndAbandoned}), []string{"The game was cancelled."}},
		{"cancel ru", "ru", info(mid, R{Reason: engine.EndAbandoned}), []string{"Игра отменена."}},
		{"no names en", "en", StatusInfo{View: start}, []string{"⚫ Black — 2\n⚪ White — 2\nTo move: ⚫ Black"}},
		{"no names ru", "ru", StatusInfo{View: start}, []string{"⚫ Чёрные — 2\n⚪ Белые — 2\nХодит: ⚫ Чёрные"}},
		{"zero", "en", StatusInfo{}, []string{"No board."}},
		{"unknown reason", "en", info(mid, R{Reason: 77}), []string{"To move: ⚪ Bob"}},
		{"unknown outcome", "en", info(mid, R{Outcome: 9}), []string{"To move: ⚪ Bob"}},
		{"unknown reason over", "en", info(over, R{Outcome: engine.WhiteWins, Reason: 77}), []string{"Game over. " + winner + " wins, "}},
		{"normal end mid-game", "en", info(mid, R{Outcome: engine.Draw}), []string{"Game over. "}},
		{"resign without winner", "en", info(mid, R{Outcome: engine.Draw, Reason: engine.EndResign}), []string{"The game was cancelled."}},
		{"timeout without winner", "en", info(over, R{Reason: engine.EndTimeout}), []string{"The game was cancelled."}},
		{"abandoned with winner", "en", info(mid, R{Outcome: engine.BlackWins, Reason: engine.EndAbandoned}), []string{"The game was cancelled."}},
		{"pass then resign", "en", info(passed, R{Outcome: engine.BlackWins, Reason: engine.EndResign}), []string{"⚪ Bob resigns. ⚫ Alice wins."}},
	}
	for _, tt := range tests {
		got := Status(tt.lang, tt.s)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: Status =\n%s\nwant it to contain\n%s", tt.name, got, w)
			}
		}
	}
	// The score of a finished game.
	if got := Status("en", info(over, playing)); !strings.Contains(got, strconv.Itoa(nb)+" : "+strconv.Itoa(nw)) {
		t.Errorf("finished game's status lacks the score %d : %d:\n%s", nb, nw, got)
	}
}

func TestStatusDraw(t *testing.T) {
	p, err := engine.ParseBoard(strings.Repeat("XOXOOXOX", 2), engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "Game over. Draw, 8 : 8.", "ru": "Игра окончена. Ничья, 8 : 8."} {
		if got := Status(lang, StatusInfo{View: NewView(p)}); !strings.HasSuffix(got, want) {
			t.Errorf("Status(%s) of a draw =\n%s\nwant it to end in %q", lang, got, want)
		}
	}
}

func TestStatusNames(t *testing.T) {
	long := strings.Repeat("Ж", 200)
	s := StatusInfo{View: NewView(engine.MustStart(16)), Black: "Eve\nline2\u202e\x00", White: long}
	got := Status("en", s)
	if !strings.Contains(got, "⚫ Eve line2 — 2") {
		t.Errorf("control characters not replaced:\n%q", got)
	}
	if !strings.Contains(got, "⚪ "+strings.Repeat("Ж", MaxNameRunes)+"… — 2") {
		t.Errorf("long name not cut:\n%s", got)
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("status has %d line breaks, want 2:\n%s", n, got)
	}
	if !utf8.ValidString(Status("ru", StatusInfo{View: s.View, Black: "\xff\xfe"})) {
		t.Error("invalid UTF-8 in a name gives invalid UTF-8 out")
	}
}

// TestStatusPassEnded checks that a game that ended on a pass does not tell the pass.
func TestStatusPassEnded(t *testing.T) {
	for seed := uint64(0); seed < 500; seed++ {
		g := playRandom(t, 6, seed, 100)
		for g.Len() > 0 && !g.Position().MustPass() {
			_ = g.Undo()
		}
		if g.Len() == 0 {
			continue
		}
		_, _ = g.Play(engine.Pass)
		v := ViewOf(g)
		r := engine.Result{Outcome: engine.WinFor(v.Position.Side()), Reason: engine.EndResign}
		if got := Status("en", StatusInfo{View: v, Result: r}); strings.Contains(got, "passes") || !strings.Contains(got, "resigns") {
			t.Errorf("a resignation after a pass reads\n%s", got)
		}
		if got := Status("en", StatusInfo{View: v}); !strings.Contains(got, "passes") {
			t.Errorf("a pass in a game going on reads\n%s", got)
		}
		return
	}
	t.Fatal("no 6×6 game with a pass")
}

func FuzzStatus(f *testing.F) {
	f.Add("Alice", "Bob", "ru", uint8(2), uint8(1), uint8(0), uint8(0))
	f.Add("\x00\n", "", "en", uint8(9), uint8(0), uint8(2), uint8(1))
	f.Add("", "B", "en", uint8(0), uint8(0), uint8(7), uint8(9))
	// The two unused bytes were the old End and Loser fields; they stay so the corpus reads.
	f.Fuzz(func(t *testing.T, black, white, lang string, _, _, outcome, reason uint8) {
		r := engine.Result{Outcome: engine.Outcome(outcome), Reason: engine.EndReason(reason)}
		s := StatusInfo{View: ViewOf(playRandom(t, 8, 1, 30)), Black: black, White: white, Result: r}
		got := Status(lang, s)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 1024 {
			t.Fatalf("Status = %q", got)
		}
		en := Status("en", s)
		if r.Valid() && r.Over() && strings.Contains(en, "To move") || !r.Over() && !strings.Contains(en, "To move") {
			t.Fatalf("Status of %v = %q", r, got)
		}
	})
}
