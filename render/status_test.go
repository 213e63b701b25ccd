package render

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render/rendertest"
)

func TestStatus(t *testing.T) {
	start := NewView(engine.MustStart(8))
	g := rendertest.RandomGame(t, 8, 5, 23) // white to move after black's h7
	mid := ViewOf(g)
	over := ViewOf(rendertest.RandomGame(t, 8, 11, 1000))
	var passed View
	for seed := uint64(0); ; seed++ {
		g := rendertest.RandomGame(t, 8, seed, 200)
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
		{"mid en", "en", info(mid, playing), []string{"Last move: ⚫ h7 (1st from the right, 2nd from the bottom)\n", "To move: ⚪ Bob"}},
		{"mid ru", "ru", info(mid, playing), []string{"Последний ход: ⚫ h7 (1-й справа, 2-й снизу)\n", "Ходит: ⚪ Bob"}},
		{"hint en", "en", info(mid.WithHint(mid.Position.LegalMoves()[0]), playing), []string{"\nHint: 💡 " + mid.Position.LegalMoves()[0].String() + " (", "\nTo move: ⚪ Bob"}},
		{"hint ru", "ru", info(mid.WithHint(mid.Position.LegalMoves()[0]), playing), []string{"\nПодсказка: 💡 " + mid.Position.LegalMoves()[0].String() + " (", "\nХодит: ⚪ Bob"}},
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

// TestStatusPlace checks where the status text says a square lies: counted from the nearest
// edges on boards drawn as keyboards, corners by name, nothing on boards drawn as pictures.
func TestStatusPlace(t *testing.T) {
	for _, tc := range []struct {
		size     int
		sq, lang string
		want     string
	}{
		{8, "d3", "en", " (4th from the left, 3rd from the top)"},
		{8, "e6", "en", " (4th from the right, 3rd from the bottom)"},
		{8, "b7", "en", " (2nd from the left, 2nd from the bottom)"},
		{8, "a1", "en", " (top-left corner)"},
		{8, "h1", "en", " (top-right corner)"},
		{8, "a8", "en", " (bottom-left corner)"},
		{8, "h8", "en", " (bottom-right corner)"},
		{8, "a4", "en", " (1st from the left, 4th from the top)"},
		{8, "d3", "ru", " (4-й слева, 3-й сверху)"},
		{8, "g5", "ru", " (2-й справа, 4-й снизу)"},
		{8, "h8", "ru", " (правый нижний угол)"},
		{8, "a1", "ru", " (левый верхний угол)"},
		{6, "c4", "en", " (3rd from the left, 3rd from the bottom)"},
		{4, "b2", "en", " (2nd from the left, 2nd from the top)"},
		{10, "d3", "en", ""},
		{16, "a1", "ru", ""},
		{8, "i1", "en", ""}, // off the board
		{8, "d3", "de", " (4th from the left, 3rd from the top)"}, // other languages: English
	} {
		sq, err := engine.ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if got := Place(tc.lang, sq, tc.size); got != tc.want {
			t.Errorf("%d×%d %s %s: %q, want %q", tc.size, tc.size, tc.sq, tc.lang, got, tc.want)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := englishOrdinal(n); got != want {
			t.Errorf("englishOrdinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStatusHint checks that the hint is told only while the game goes on and only when the
// side to move may play it.
func TestStatusHint(t *testing.T) {
	start := NewView(engine.MustStart(8))
	d3, _ := engine.ParseSquare("d3")
	a1, _ := engine.ParseSquare("a1")
	if got := Status("en", StatusInfo{View: start.WithHint(d3)}); !strings.Contains(got, "\nHint: 💡 d3 (4th from the left, 3rd from the top)\nTo move: ⚫ Black") {
		t.Errorf("hint d3 at the start:\n%s", got)
	}
	for name, s := range map[string]StatusInfo{
		"stale":    {View: start.WithHint(a1)},
		"none":     {View: start},
		"cleared":  {View: start.WithHint(d3).WithHint(engine.Pass)},
		"resigned": {View: start.WithHint(d3), Result: engine.Result{Outcome: engine.WhiteWins, Reason: engine.EndResign}},
	} {
		if got := Status("en", s); strings.Contains(got, "Hint") || strings.Contains(got, HintMark) {
			t.Errorf("%s: the status tells a hint:\n%s", name, got)
		}
	}
	big := NewView(engine.MustStart(16))
	h := big.Position.LegalMoves()[0]
	if got := Status("ru", StatusInfo{View: big.WithHint(h)}); !strings.Contains(got, "\nПодсказка: 💡 "+h.String()+"\n") {
		t.Errorf("hint on 16×16:\n%s", got)
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
		g := rendertest.RandomGame(t, 6, seed, 100)
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
		s := StatusInfo{View: ViewOf(rendertest.RandomGame(t, 8, 1, 30)), Black: black, White: white, Result: r}
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

// TestTurnLine: the turn line is the last line of Status while the game goes on, in both
// languages and for either colour, and nameAt points at the name as Status shows it (cleaned
// and cut), or the colour's name when there is none.
func TestTurnLine(t *testing.T) {
	long := strings.Repeat("Ж", 100)
	mid := ViewOf(rendertest.RandomGame(t, 8, 5, 23)) // white to move
	for _, lang := range []string{"en", "ru", "xx"} {
		for _, c := range []struct {
			v           View
			black, want string // the black player's name and the name the line should end with
			white       string
		}{
			{NewView(engine.MustStart(8)), "Боб 🦊", "Боб 🦊", "Alice"},
			{NewView(engine.MustStart(8)), "Eve\nx", "Eve x", "Alice"},
			{NewView(engine.MustStart(8)), long, strings.Repeat("Ж", MaxNameRunes) + "…", "Alice"},
			{mid, "Alice", "Боб 🦊", "Боб 🦊"},
		} {
			side := c.v.Position.Side()
			name := c.black
			if side == engine.White {
				name = c.white
			}
			line, at := TurnLine(lang, side, name)
			status := Status(lang, StatusInfo{View: c.v, Black: c.black, White: c.white})
			if !strings.HasSuffix(status, "\n"+line) {
				t.Errorf("%s: Status does not end in the turn line %q:\n%s", lang, line, status)
			}
			if line[at:] != c.want {
				t.Errorf("%s: the name in %q is %q, want %q", lang, line, line[at:], c.want)
			}
		}
		line, at := TurnLine(lang, engine.White, " ")
		if want := Status(lang, StatusInfo{View: mid}); !strings.HasSuffix(want, line) || line[at:] == "" {
			t.Errorf("%s: a blank name: turn line %q (name %q), Status:\n%s", lang, line, line[at:], want)
		}
	}
}
