package bot_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// units is the length of s as Telegram counts it.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

// TestBadArgumentsGetTheUsage: a command with an argument it cannot take is answered, in the
// user's language, with what is wrong with that argument, quoted, and the command's usage;
// a 4,000-character argument is quoted by its first few characters only.
func TestBadArgumentsGetTheUsage(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("ж", 4000)
	for _, lang := range i18n.Langs() {
		u := h.user("Dana", lang)
		usage := func(usage, problem i18n.Key, args ...any) string {
			return present.Usage(lang, usage, problem, args...).Text
		}
		ask := func(send, want string) {
			t.Helper()
			last := h.lastID(u.ID())
			h.send(u, u.ID(), send)
			got := h.waitMsg(u.ID(), "the answer to "+send[:min(len(send), 20)], func(m telegramtest.ChatMessage) bool { return m.ID > last })
			if got.Text != want {
				t.Errorf("%s: %.30q answered\n%q\nwant\n%q", lang, send, got.Text, want)
			}
		}
		for _, c := range []struct {
			send           string
			usage, problem i18n.Key
			word           string
		}{
			{"/ai 8 9", i18n.KeyUsageAI, i18n.KeyArgBadLevel, "9"},
			{"/ai 7", i18n.KeyUsageAI, i18n.KeyArgBadSize, "7"},
			{"/ai 8 3 purple", i18n.KeyUsageAI, i18n.KeyArgUnknown, "purple"},
			{"/new 9", i18n.KeyUsageNew, i18n.KeyArgBadSize, "9"},
			{"/new 3", i18n.KeyUsageNew, i18n.KeyArgBadSize, "3"},
			{"/find 99", i18n.KeyUsageFind, i18n.KeyArgBadSize, "99"},
			{"/move zz", i18n.KeyUsageMove, i18n.KeyArgNotSquare, "zz"},
			{"/move d3 e4", i18n.KeyUsageMove, i18n.KeyArgUnknown, "d3 e4"},
		} {
			ask(c.send, usage(c.usage, c.problem, c.word))
		}
		ask("/move", usage(i18n.KeyUsageMove, ""))
		// Long arguments: the answer is the usage with a short quote.
		for _, c := range []struct {
			send         string
			usage, probl i18n.Key
		}{
			{"/ai 8 3 " + long, i18n.KeyUsageAI, i18n.KeyArgUnknown},
			{"/new " + long, i18n.KeyUsageNew, i18n.KeyArgUnknown},
			{"/move " + long, i18n.KeyUsageMove, i18n.KeyArgNotSquare},
		} {
			last := h.lastID(u.ID())
			h.send(u, u.ID(), c.send)
			got := h.waitMsg(u.ID(), "the answer to a long argument", func(m telegramtest.ChatMessage) bool { return m.ID > last })
			if !strings.HasSuffix(got.Text, i18n.T(lang, c.usage)) {
				t.Errorf("%s: %.20q… answered %q, without the usage", lang, c.send, got.Text)
			}
			if n, max := units(got.Text), units(usage(c.usage, c.probl, ""))+32; n > max || strings.Contains(got.Text, strings.Repeat("ж", 32)) {
				t.Errorf("%s: %.20q… answered with %d units (at most %d): %q", lang, c.send, n, max, got.Text)
			}
		}
		// A language it does not know: the language menu, which echoes nothing of it.
		last := h.lastID(u.ID())
		h.send(u, u.ID(), "/lang "+long)
		got := h.waitMsg(u.ID(), "the answer to a long language", func(m telegramtest.ChatMessage) bool { return m.ID > last })
		if !strings.Contains(got.Text, i18n.T(lang, i18n.KeyLangCurrent)) || strings.Contains(got.Text, "жжж") {
			t.Errorf("%s: /lang %.20q… answered %q", lang, long, got.Text)
		}
		// A square that is not on the board of the chat's game, typed or sent with /move.
		h.aiBoard(u, u.ID(), "/ai 8 1 black")
		ask("d9", usage(i18n.KeyUsageMove, i18n.KeyArgOffBoard, "d9", "h", 8))
		ask("/move k1", usage(i18n.KeyUsageMove, i18n.KeyArgOffBoard, "k1", "h", 8))
		h.send(u, u.ID(), "/resign")
	}
}

// TestOwnInvitation: the creator who opens their own invitation reads that it is theirs, to
// be forwarded; once a friend has joined, both players opening it again read that the game
// is theirs and under way, and only a third person reads that someone else joined.
func TestOwnInvitation(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "ru"), h.user("Carol", "en")
	h.send(alice, alice.ID(), "/new 8")
	invite := h.waitLobby(alice.ID(), "invites you to play")
	open := func(u *telegramtest.Person, want string) {
		t.Helper()
		last := h.lastID(u.ID())
		h.openLink(u, invite, "▶ Play")
		got := h.waitMsg(u.ID(), "the answer to the link", func(m telegramtest.ChatMessage) bool { return m.ID > last })
		if got.Text != want {
			t.Errorf("%s opening the invitation read %q, want %q", u.Model().FirstName, got.Text, want)
		}
	}
	open(alice, i18n.T(i18n.EN, i18n.KeyErrOwnInvite))
	last := h.lastID(bob.ID())
	h.openLink(bob, invite, "▶ Play")
	h.boardIn(bob.ID(), last)
	open(alice, i18n.T(i18n.EN, i18n.KeyErrInYourGame))
	open(bob, i18n.T(i18n.RU, i18n.KeyErrInYourGame))
	open(carol, i18n.T(i18n.EN, i18n.KeyErrLobbyTaken))
}

// TestOwnGroupLobby: in a group, the creator tapping Join on their open lobby reads that it is
// their own; after the game began, a player tapping it reads that the game is theirs.
func TestOwnGroupLobby(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g := h.srv.NewGroup("Club", alice, bob, carol)
	lobby := h.openLobby(alice, g.ID())
	if a := h.press(alice, lobby, "✅ Join"); a.Text != i18n.T(i18n.EN, i18n.KeyErrOwnLobby) {
		t.Errorf("the creator's Join answered %q", a.Text)
	}
	h.boardAfter(g.ID(), func() { h.pressHandled(l, bob, lobby, "✅ Join") })
	join := lobby.Buttons()[0][0].CallbackData
	for _, u := range []*telegramtest.Person{alice, bob} {
		if a := h.forge(l, u, lobby, join); a.Text != i18n.T(i18n.EN, i18n.KeyErrInYourGame) {
			t.Errorf("%s's late Join answered %q", u.Model().FirstName, a.Text)
		}
	}
	if a := h.forge(l, carol, lobby, join); a.Text != i18n.T(i18n.EN, i18n.KeyErrLobbyTaken) {
		t.Errorf("a stranger's late Join answered %q", a.Text)
	}
}

// TestTopTellsNamesakesApart: /top in a group where two players are called Alex numbers them
// and marks the line of whoever asked, and its title says what the numbers are.
func TestTopTellsNamesakesApart(t *testing.T) {
	h := newHarness(t)
	alex1, alex2, carol := h.user("Alex", "en"), h.user("Alex", "ru"), h.user("Carol", "en")
	g := h.srv.NewGroup("Club", alex1, alex2, carol)
	for i, pair := range [][2]*telegramtest.Person{{alex1, alex2}, {alex1, carol}} {
		fin := &game.Game{ID: "top" + string(rune('A'+i)), Size: 8, Flow: game.FlowGroup, Status: game.StatusFinished,
			Players: [2]game.Player{{UserID: pair[0].ID(), Name: "Alex"}, {UserID: pair[1].ID(), Name: pair[1].Model().FirstName}},
			ChatID:  g.ID(), Outcome: game.OutcomeBlack, Reason: game.EndResign}
		if _, err := h.store.RecordResult(context.Background(), fin); err != nil {
			t.Fatal(err)
		}
	}
	// The group has no language of its own: each answer is in the asker's.
	for _, asker := range []*telegramtest.Person{alex1, alex2} {
		lang := asker.Model().LanguageCode
		last := h.lastID(g.ID())
		h.send(asker, g.ID(), "/top@"+telegramtest.DefaultBotUsername)
		top := h.waitMsg(g.ID(), "/top", func(m telegramtest.ChatMessage) bool { return m.ID > last })
		lines := strings.Split(top.Text, "\n")
		if len(lines) != 4 || lines[0] != i18n.T(lang, i18n.KeyTopGroup) {
			t.Fatalf("/top by user %d:\n%s", asker.ID(), top.Text)
		}
		// alex1 won both games and leads; the lower user id is Alex (1).
		first, second := "Alex (1)", "Alex (2)"
		if alex1.ID() > alex2.ID() {
			first, second = second, first
		}
		want := []string{"1. " + first + " — ", "3. " + second + " — "}
		if !strings.HasPrefix(lines[1], want[0]) || !strings.HasPrefix(lines[3], want[1]) || !strings.HasPrefix(lines[2], "2. Carol — ") {
			t.Errorf("/top does not tell the two Alexes apart:\n%s", top.Text)
		}
		mine := lines[1]
		if asker == alex2 {
			mine = lines[3]
		}
		if !strings.HasSuffix(mine, i18n.T(lang, i18n.KeyTopYou, "")) || strings.Count(top.Text, "←") != 1 {
			t.Errorf("/top by user %d does not mark their line alone:\n%s", asker.ID(), top.Text)
		}
	}
}

// TestUndoSaysHowManyMoves: taking back a move against the bot answers how many moves went
// back (the player's and the bot's reply), in words.
func TestUndoSaysHowManyMoves(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "ru")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	if a := h.pressData(alice, board, legalMoves(board)[0].CallbackData); !applied(a) {
		t.Fatalf("move answered %+v", a)
	}
	board = h.waitState(board, "the bot's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	undo, err := board.Button(i18n.T(i18n.RU, i18n.KeyBtnUndo))
	if err != nil {
		t.Fatal(err)
	}
	a := h.pressData(alice, board, undo.CallbackData)
	if a.Text != "Отменено 2 хода." || a.ShowAlert {
		t.Errorf("undo answered %+v, want a toast that 2 moves went back", a)
	}
	h.waitState(board, "the board taken back", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
}
