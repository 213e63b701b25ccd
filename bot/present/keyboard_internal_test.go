package present

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/render/rendertest"
)

// checkBoardKeyboard checks the board rows of kb against v, cell by cell.
func checkBoardKeyboard(t *testing.T, kb models.InlineKeyboardMarkup, v render.View, opt KeyboardOptions) {
	t.Helper()
	p := v.Position
	n := p.Size()
	if err := ValidateKeyboard(kb); err != nil {
		t.Fatal(err)
	}
	if got, want := len(kb.InlineKeyboard), n+len(opt.Controls); got != want {
		t.Fatalf("keyboard has %d rows, want %d", got, want)
	}
	legal := p.Moves()
	hint, hinted := v.Hint()
	for r := 0; r < n; r++ {
		row := kb.InlineKeyboard[r]
		if len(row) != n {
			t.Fatalf("row %d has %d buttons, want %d", r+1, len(row), n)
		}
		for c, b := range row {
			sq := engine.SquareAt(c, r)
			cb, err := callback.Parse(b.CallbackData)
			if err != nil {
				t.Fatalf("%v: %v", sq, err)
			}
			if cb.Square != sq || cb.Game != opt.Game || cb.Ply != v.Ply {
				t.Errorf("%v: callback %+v, want square %v, game %q, ply %d", sq, cb, sq, opt.Game, v.Ply)
			}
			col, occupied := p.At(sq)
			black, white := strings.Count(b.Text, render.BlackDisc), strings.Count(b.Text, render.WhiteDisc)
			switch {
			case occupied && col == engine.Black && (black != 1 || white != 0),
				occupied && col == engine.White && (white != 1 || black != 0),
				!occupied && black+white != 0:
				t.Errorf("%v: text %q for disc %v (occupied %v)", sq, b.Text, col, occupied)
			}
			// One symbol, no brackets: nothing for a narrow button to cut. Every disc, the
			// last one placed too, is exactly its colour's symbol.
			if utf8.RuneCountInString(b.Text) != 1 || strings.ContainsAny(b.Text, "()[]") {
				t.Errorf("%v: text %q is not one symbol", sq, b.Text)
			}
			want := EmptyMark
			switch {
			case occupied && col == engine.Black:
				want = render.BlackDisc
			case occupied:
				want = render.WhiteDisc
			case hinted && sq == hint:
				want = render.HintMark
			case legal.Has(sq):
				want = LegalMark
			}
			if b.Text != want {
				t.Errorf("%v: text %q, want %q (legal %v, hint %v %v)", sq, b.Text, want, legal.Has(sq), hint, hinted)
			}
			wantAction := callback.ActionNoop
			if !occupied && !p.GameOver() {
				wantAction = callback.ActionMove
			}
			if cb.Action != wantAction {
				t.Errorf("%v: action %v, want %v", sq, cb.Action, wantAction)
			}
			// A move names the position it is made on; a noop names none.
			if wantPos := map[bool]uint64{true: p.Tag()}[cb.Action == callback.ActionMove]; cb.Pos != wantPos {
				t.Errorf("%v: position %d, want %d", sq, cb.Pos, wantPos)
			}
		}
	}
	for i, row := range kb.InlineKeyboard[n:] {
		for j, b := range row {
			if b != opt.Controls[i][j] {
				t.Errorf("control %d,%d = %+v, want %+v", i, j, b, opt.Controls[i][j])
			}
			if strings.Contains(b.Text, render.BlackDisc) || strings.Contains(b.Text, render.WhiteDisc) {
				t.Errorf("control %q shows a disc symbol", b.Text)
			}
		}
	}
}

func TestKeyboardStart(t *testing.T) {
	v := render.NewView(engine.MustStart(8))
	opt := KeyboardOptions{Game: "g1"}
	kb, err := Keyboard(v, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkBoardKeyboard(t, kb, v, opt)
	// The start: white on d4 and e5, black on d5 and e4; black may play d3, c4, f5, e6.
	for _, tc := range []struct {
		sq   string
		text string
	}{{"d4", render.WhiteDisc}, {"e5", render.WhiteDisc}, {"d5", render.BlackDisc}, {"e4", render.BlackDisc},
		{"d3", LegalMark}, {"c4", LegalMark}, {"f5", LegalMark}, {"e6", LegalMark}, {"a1", EmptyMark}, {"h8", EmptyMark}} {
		sq, _ := engine.ParseSquare(tc.sq)
		if got := kb.InlineKeyboard[sq.Row()][sq.Col()].Text; got != tc.text {
			t.Errorf("%s shows %q, want %q", tc.sq, got, tc.text)
		}
	}
	// d3 names the start position by its tag, so that the move is played there only.
	if got, want := kb.InlineKeyboard[2][3].CallbackData, "1mg1::z:::"+strconv.FormatUint(v.Position.Tag(), 36); got != want {
		t.Errorf("d3 carries %q, want %q", got, want)
	}
}

// TestMarks checks the button texts themselves: one symbol each, all different, and only the
// discs show a disc symbol.
func TestMarks(t *testing.T) {
	marks := []string{render.BlackDisc, render.WhiteDisc, LegalMark, render.HintMark, EmptyMark}
	seen := map[string]bool{}
	for i, m := range marks {
		if utf8.RuneCountInString(m) != 1 || blank(m) {
			t.Errorf("mark %q is not one visible symbol", m)
		}
		if seen[m] {
			t.Errorf("mark %q is used twice", m)
		}
		seen[m] = true
		if i >= 2 && (strings.Contains(m, render.BlackDisc) || strings.Contains(m, render.WhiteDisc)) {
			t.Errorf("mark %q shows a disc symbol", m)
		}
	}
}

// TestKeyboardHint checks that the hinted square shows HintMark and still plays, and that a
// hint the side to move cannot play, or none, shows nothing.
func TestKeyboardHint(t *testing.T) {
	sq := func(s string) engine.Square {
		q, err := engine.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	start := render.NewView(engine.MustStart(8))
	text := func(v render.View, s string) string {
		kb, err := Keyboard(v, KeyboardOptions{Game: "g1"})
		if err != nil {
			t.Fatal(err)
		}
		checkBoardKeyboard(t, kb, v, KeyboardOptions{Game: "g1"})
		b := kb.InlineKeyboard[sq(s).Row()][sq(s).Col()]
		if cb, _ := callback.Parse(b.CallbackData); !v.Position.GameOver() && b.Text != render.BlackDisc && b.Text != render.WhiteDisc && cb.Action != callback.ActionMove {
			t.Errorf("%s carries %+v, want a move", s, cb)
		}
		return b.Text
	}
	hinted := start.WithHint(sq("c4"))
	if h, ok := hinted.Hint(); !ok || h != sq("c4") {
		t.Fatalf("Hint() = %v, %v, want c4", h, ok)
	}
	for _, tc := range []struct {
		v        render.View
		sq, want string
	}{
		{hinted, "c4", render.HintMark},
		{hinted, "d3", LegalMark},
		{hinted, "a1", EmptyMark},
		{start, "c4", LegalMark},
		{start.WithHint(sq("a1")), "a1", EmptyMark}, // not a legal move: stale
		{start.WithHint(sq("d4")), "d4", render.WhiteDisc},
		{hinted.WithHint(engine.Pass), "c4", LegalMark},       // cleared
		{start.WithHint(engine.Square(200)), "c4", LegalMark}, // off the board
	} {
		if got := text(tc.v, tc.sq); got != tc.want {
			h, ok := tc.v.Hint()
			t.Errorf("hint %v %v: %s shows %q, want %q", h, ok, tc.sq, got, tc.want)
		}
	}
	// The zero View and a View by NewView or ViewOf suggest nothing.
	if _, ok := (render.View{}).Hint(); ok {
		t.Error("the zero View has a hint")
	}
	if _, ok := render.ViewOf(rendertest.RandomGame(t, 8, 5, 23)).Hint(); ok {
		t.Error("ViewOf has a hint")
	}
	// A hint in a random position: exactly one HintMark, on the hinted square.
	for seed := uint64(0); seed < 8; seed++ {
		v := render.ViewOf(rendertest.RandomGame(t, 8, seed, 10+int(seed)*5))
		moves := v.Position.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		v = v.WithHint(moves[len(moves)/2])
		kb, err := Keyboard(v, KeyboardOptions{Game: "g1"})
		if err != nil {
			t.Fatal(err)
		}
		checkBoardKeyboard(t, kb, v, KeyboardOptions{Game: "g1"})
		if n := strings.Count(fmt.Sprint(kb.InlineKeyboard), render.HintMark); n != 1 {
			t.Errorf("seed %d: %d hint marks, want 1", seed, n)
		}
	}
}

func TestKeyboardPositions(t *testing.T) {
	for _, size := range []int{4, 6, 8} {
		for seed := uint64(0); seed < 8; seed++ {
			g := rendertest.RandomGame(t, size, seed, int(seed)*size*size/8+int(seed)%3)
			v := render.ViewOf(g)
			opt := KeyboardOptions{Game: fmt.Sprintf("s%d", seed), Controls: controlRows(int(seed) * 3)}
			kb, err := Keyboard(v, opt)
			if err != nil {
				t.Fatalf("size %d seed %d: %v", size, seed, err)
			}
			checkBoardKeyboard(t, kb, v, opt)
		}
	}
}

func TestKeyboardFinished(t *testing.T) {
	g := rendertest.RandomGame(t, 4, 1, 100)
	if !g.Over() {
		t.Fatal("the 4×4 game did not finish")
	}
	v := render.ViewOf(g)
	kb, err := Keyboard(v, KeyboardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkBoardKeyboard(t, kb, v, KeyboardOptions{})
}

func TestKeyboardErrors(t *testing.T) {
	v := render.NewView(engine.MustStart(8))
	for _, tc := range []struct {
		name string
		v    render.View
		opt  KeyboardOptions
		want error
	}{
		{"10x10", render.NewView(engine.MustStart(10)), KeyboardOptions{}, ErrKeyboardTooBig},
		{"zero view", render.View{}, KeyboardOptions{}, render.ErrSize},
		{"bad game id", v, KeyboardOptions{Game: "a b"}, callback.ErrData},
		{"37 controls", v, KeyboardOptions{Controls: controlRows(37)}, ErrTooManyControls},
		{"9 in a row", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{controlRows(9)[0], controlRows(9)[1]}}, nil},
		{"wide row", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{append(controlRows(8)[0], controlRows(1)[0]...)}}, ErrKeyboard},
		{"empty row", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{{}}}, ErrKeyboard},
		{"no data", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{{{Text: "x"}}}}, ErrKeyboard},
		{"long data", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{{{Text: "x", CallbackData: strings.Repeat("d", 65)}}}}, ErrKeyboard},
		{"blank text", v, KeyboardOptions{Controls: [][]models.InlineKeyboardButton{{{Text: " ", CallbackData: "1n"}}}}, ErrKeyboard},
	} {
		_, err := Keyboard(tc.v, tc.opt)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: Keyboard = %v, want %v", tc.name, err, tc.want)
		}
	}
	// The largest control rows that fit: 36 buttons beside the 64 of the board.
	kb, err := Keyboard(v, KeyboardOptions{Controls: controlRows(36)})
	if err != nil {
		t.Fatal(err)
	}
	if n := countButtons(kb.InlineKeyboard); n != MaxButtons {
		t.Errorf("board with 36 controls has %d buttons, want %d", n, MaxButtons)
	}
	// A URL button needs no callback data.
	url := [][]models.InlineKeyboardButton{{{Text: "rules", URL: "https://example.org"}}}
	if _, err := Keyboard(v, KeyboardOptions{Controls: url}); err != nil {
		t.Errorf("URL control: %v", err)
	}
}

// pickerPagesOf returns every page of the move picker of v.
func pickerPagesOf(t *testing.T, v render.View, opt KeyboardOptions) []models.InlineKeyboardMarkup {
	t.Helper()
	var out []models.InlineKeyboardMarkup
	for page := 0; ; page++ {
		kb, err := MovePicker(v, page, opt)
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if err := ValidateKeyboard(kb); err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		out = append(out, kb)
		// The last page is the one without a working "next" button.
		nav := navRow(kb, opt)
		if nav == nil {
			return out
		}
		next, err := callback.Parse(nav[2].CallbackData)
		if err != nil {
			t.Fatal(err)
		}
		if next.Action != callback.ActionPage {
			return out
		}
		if next.Pos != v.Position.Tag() {
			t.Fatalf("page %d: next names the position %d, want %d", page, next.Pos, v.Position.Tag())
		}
		if next.Page != page+1 {
			t.Fatalf("page %d: next goes to %d", page, next.Page)
		}
		if page > 300 {
			t.Fatal("too many pages")
		}
	}
}

// navRow returns the navigation row of a picker page, nil when it has none.
func navRow(kb models.InlineKeyboardMarkup, opt KeyboardOptions) []models.InlineKeyboardButton {
	rows := kb.InlineKeyboard[:len(kb.InlineKeyboard)-len(opt.Controls)]
	if len(rows) == 0 {
		return nil
	}
	last := rows[len(rows)-1]
	if cb, err := callback.Parse(last[0].CallbackData); err == nil && cb.Action != callback.ActionMove {
		return last
	}
	return nil
}

// checkPicker checks that the pages of v's picker list exactly its legal moves, each once, in
// rows of at most 5, each button showing its label and name ("7 · k12") with the labels
// counting on over the pages.
func checkPicker(t *testing.T, v render.View, opt KeyboardOptions) int {
	t.Helper()
	pages := pickerPagesOf(t, v, opt)
	var listed []engine.Square
	for i, kb := range pages {
		for _, row := range kb.InlineKeyboard[:len(kb.InlineKeyboard)-len(opt.Controls)] {
			if cb, _ := callback.Parse(row[0].CallbackData); cb.Action == callback.ActionMove && len(row) > 5 {
				t.Errorf("page %d: a row of %d moves, want 5 at most", i, len(row))
			}
			for _, b := range row {
				cb, err := callback.Parse(b.CallbackData)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(b.Text, render.BlackDisc) || strings.Contains(b.Text, render.WhiteDisc) {
					t.Errorf("picker button %q shows a disc symbol", b.Text)
				}
				if cb.Action != callback.ActionMove {
					continue
				}
				// The move's label (its number in the list of all legal moves) and its name.
				want := cb.Square.String()
				if len(listed) < render.MaxMoveLabels {
					want = fmt.Sprintf("%d · %s", len(listed)+1, cb.Square)
				}
				if b.Text != want || cb.Game != opt.Game || cb.Ply != v.Ply || cb.Pos != v.Position.Tag() {
					t.Errorf("page %d: button %q carries %+v, want the text %q", i, b.Text, cb, want)
				}
				listed = append(listed, cb.Square)
			}
		}
		if len(pages) > 1 {
			nav := navRow(kb, opt)
			if nav == nil || nav[1].Text != fmt.Sprintf("%d/%d", i+1, len(pages)) {
				t.Errorf("page %d: navigation %+v", i, nav)
			}
		}
	}
	want := v.Position.LegalMoves()
	if fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("picker lists %v, want %v", listed, want)
	}
	return len(pages)
}

func TestMovePickerAllSizes(t *testing.T) {
	for _, size := range sizes {
		full := render.NewView(rendertest.Fullest(t, size))
		t.Logf("%d×%d: fullest position has %d legal moves: %v", size, size, full.Position.MoveCount(), full.Position)
		views := []render.View{render.NewView(engine.MustStart(size)), full}
		for seed := uint64(0); seed < 4; seed++ {
			views = append(views, render.ViewOf(rendertest.RandomGame(t, size, seed, int(seed+1)*size*size/5)))
		}
		for _, v := range views {
			for _, ctl := range []int{0, 5, 36, 60, MaxButtons - pickerNav - 1} {
				opt := KeyboardOptions{Game: "abcdefghijkl", Controls: controlRows(ctl)}
				checkPicker(t, v, opt)
				if FitsKeyboard(size) && ctl <= MaxButtons-size*size {
					kb, err := Keyboard(v, opt)
					if err != nil {
						t.Fatal(err)
					}
					checkBoardKeyboard(t, kb, v, opt)
				}
				kb, picture, err := Markup(v, 0, opt)
				if err != nil && !(FitsKeyboard(size) && errors.Is(err, ErrTooManyControls)) {
					t.Fatalf("Markup %d×%d with %d controls: %v", size, size, ctl, err)
				}
				if err == nil {
					if picture == FitsKeyboard(size) {
						t.Errorf("Markup %d×%d: picture %v", size, size, picture)
					}
					if err := ValidateKeyboard(kb); err != nil {
						t.Error(err)
					}
				}
			}
		}
	}
}

// TestPickerPagesArithmetic proves the page arithmetic for every move count a board can have
// and every number of control buttons the picker accepts.
func TestPickerPagesArithmetic(t *testing.T) {
	for ctl := 0; ctl <= MaxButtons-pickerNav-1; ctl++ {
		for n := 0; n <= 256; n++ {
			per, pages, err := pickerPages(n, ctl)
			if err != nil {
				t.Fatalf("pickerPages(%d, %d): %v", n, ctl, err)
			}
			nav := 0
			if pages > 1 {
				nav = pickerNav
			}
			if per < 1 || per > maxPageMoves || per+nav+ctl > MaxButtons || per*pages < n || per*(pages-1) >= max(n, 1) {
				t.Fatalf("pickerPages(%d, %d) = %d per page, %d pages", n, ctl, per, pages)
			}
		}
	}
	if _, err := MovePicker(render.View{}, 0, KeyboardOptions{}); !errors.Is(err, render.ErrSize) {
		t.Errorf("MovePicker of the zero View = %v, want ErrSize", err)
	}
	if _, _, err := Markup(render.View{}, 0, KeyboardOptions{}); !errors.Is(err, render.ErrSize) {
		t.Errorf("Markup of the zero View = %v, want ErrSize", err)
	}
	if _, err := MovePicker(render.NewView(engine.MustStart(16)), 0, KeyboardOptions{Controls: controlRows(97)}); !errors.Is(err, ErrTooManyControls) {
		t.Errorf("MovePicker with 97 controls = %v, want ErrTooManyControls", err)
	}
}

func TestMovePickerPaging(t *testing.T) {
	v := render.NewView(rendertest.Fullest(t, 16))
	opt := KeyboardOptions{Game: "g", Controls: controlRows(60), Prev: "‹", Next: "›"}
	pages := checkPicker(t, v, opt)
	if pages < 2 {
		t.Fatalf("%d legal moves with 60 controls fit one page", v.Position.MoveCount())
	}
	first, _ := MovePicker(v, 0, opt)
	nav := navRow(first, opt)
	if nav[0].Text != EmptyMark || nav[2].Text != "›" {
		t.Errorf("first page navigation %q %q %q", nav[0].Text, nav[1].Text, nav[2].Text)
	}
	// Out-of-range pages show the nearest one.
	last, _ := MovePicker(v, pages-1, opt)
	beyond, _ := MovePicker(v, pages+5, opt)
	if fmt.Sprint(last) != fmt.Sprint(beyond) {
		t.Error("a page past the end differs from the last page")
	}
	before, _ := MovePicker(v, -3, opt)
	if fmt.Sprint(first) != fmt.Sprint(before) {
		t.Error("a negative page differs from the first page")
	}
	nav = navRow(last, opt)
	if nav[0].Text != "‹" || nav[2].Text != EmptyMark {
		t.Errorf("last page navigation %q %q %q", nav[0].Text, nav[1].Text, nav[2].Text)
	}
	if cb, _ := callback.Parse(nav[0].CallbackData); cb.Action != callback.ActionPage || cb.Page != pages-2 {
		t.Errorf("prev of the last page carries %+v", cb)
	}
}

func TestMovePickerNoMoves(t *testing.T) {
	g := rendertest.RandomGame(t, 10, 3, 1000)
	if !g.Over() {
		t.Fatal("the game did not finish")
	}
	opt := KeyboardOptions{Controls: controlRows(3)}
	kb, err := MovePicker(render.ViewOf(g), 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(kb.InlineKeyboard) != 1 {
		t.Errorf("finished game's picker has %d rows, want only the controls", len(kb.InlineKeyboard))
	}
}

func BenchmarkKeyboard8(b *testing.B) {
	v := render.ViewOf(rendertest.RandomGame(b, 8, 5, 23))
	opt := KeyboardOptions{Game: "Ab12xYz9", Controls: controlRows(4)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Keyboard(v, opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMovePicker16(b *testing.B) {
	v := render.NewView(rendertest.Fullest(b, 16))
	opt := KeyboardOptions{Game: "Ab12xYz9", Controls: controlRows(4)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MovePicker(v, 1, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// HideMoves leaves the marks out but keeps the moves on the squares; Over leaves both out.
func TestKeyboardHideMovesAndOver(t *testing.T) {
	start, err := engine.Start(8)
	if err != nil {
		t.Fatal(err)
	}
	d3, err := engine.ParseSquare("d3")
	if err != nil {
		t.Fatal(err)
	}
	v := render.View{Position: start, Last: engine.Pass}.WithHint(d3)
	count := func(kb models.InlineKeyboardMarkup) (marks, moves int) {
		for _, row := range kb.InlineKeyboard[:8] {
			for _, b := range row {
				if b.Text == LegalMark || b.Text == render.HintMark {
					marks++
				}
				if c, err := callback.Parse(b.CallbackData); err == nil && c.Action == callback.ActionMove {
					moves++
				}
			}
		}
		return marks, moves
	}
	for _, tc := range []struct {
		name         string
		opt          KeyboardOptions
		marks, moves int
	}{
		{"shown", KeyboardOptions{Game: "g1"}, 4, 60},
		{"hidden", KeyboardOptions{Game: "g1", HideMoves: true}, 0, 60},
		{"over", KeyboardOptions{Game: "g1", Over: true}, 0, 0},
	} {
		kb, err := Keyboard(v, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if marks, moves := count(kb); marks != tc.marks || moves != tc.moves {
			t.Errorf("%s: %d marks, %d move buttons; want %d, %d", tc.name, marks, moves, tc.marks, tc.moves)
		}
	}
}
