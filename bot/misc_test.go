package bot_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

func TestStartMenu(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("Alice", "en")
	menu := h.startMenu(alice)
	h.press(alice, menu, "🤖 Play the bot")
	menu = h.waitState(menu, "size menu", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "board size") })
	h.press(alice, menu, "12×12")
	menu = h.waitState(menu, "level menu", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "bot's level") })
	h.press(alice, menu, "2. Novice")
	menu = h.waitState(menu, "colour menu", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "colour") })
	last := h.lastID(alice.ID())
	h.press(alice, menu, "⚪ White")
	board := h.boardIn(alice.ID(), last)
	if !board.HasPhoto() {
		t.Fatalf("12×12 board is not a picture")
	}
	// The AI plays black and moves first: the board the player sees is after its move.
	board = h.waitState(board, "AI's first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	if !toMove(board, render.WhiteDisc+" Alice") {
		t.Errorf("not Alice's turn after the AI's first move:%s", dump([]telegramtest.ChatMessage{board}))
	}
	// The picture is a PNG the fake kept.
	if len(board.Photo) == 0 || string(board.Photo[1:4]) != "PNG" {
		t.Errorf("board photo is not a PNG (%d bytes)", len(board.Photo))
	}
}

func TestUndoHintResign(t *testing.T) {
	for _, size := range []int{8, 16} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", "en")
			board := h.aiBoard(alice, alice.ID(), fmt.Sprintf("/ai %d 2 black", size))
			// Undo before any move: nothing to undo.
			if a := h.press(alice, board, "↩ Undo"); !strings.Contains(a.Text, "no move of yours") {
				t.Errorf("early undo answered %q", a.Text)
			}
			// Hint names a legal square (firstMover hints the highest).
			moves := legalMoves(board)
			a := h.press(alice, board, "💡 Hint")
			want := "Try " + moveName(t, moves[len(moves)-1]) + "."
			if a.Text != want {
				t.Errorf("hint %q, want %q", a.Text, want)
			}
			// Move, AI answers, undo takes both back.
			h.pressData(alice, board, moves[0].CallbackData)
			board = h.waitState(board, "AI replied", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
			h.press(alice, board, "↩ Undo")
			board = h.waitState(board, "undone", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
			// Resign, once each side has moved, ends the game (asking first); the board
			// shows it and offers a rematch.
			h.pressData(alice, board, legalMoves(board)[0].CallbackData)
			board = h.waitState(board, "AI replied again", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
			h.resign(alice, board)
			board = h.waitState(board, "resigned", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "resigns") })
			if _, err := board.Button("🔁 Rematch"); err != nil {
				t.Errorf("no rematch after resigning: %v", err)
			}
			// Typed move after the end: a clear answer.
			h.send(alice, alice.ID(), "d3")
			h.waitText(alice.ID(), "There is no game here")
			// Rematch against the AI: a new board.
			last := h.lastID(alice.ID())
			h.press(alice, board, "🔁 Rematch")
			h.boardIn(alice.ID(), last)
		})
	}
}

// moveName is the square a move button plays.
func moveName(t *testing.T, b models.InlineKeyboardButton) string {
	t.Helper()
	c, err := callback.Parse(b.CallbackData)
	if err != nil {
		t.Fatal(err)
	}
	return c.Square.String()
}

func TestTypedMovesAndCommands(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 3 black")
	// Garbage, unknown commands, bad squares, occupied and illegal squares: clear answers,
	// nothing changes.
	for _, c := range []struct{ send, want string }{
		{"hello there", "Type a move like d3"},
		{"/frobnicate", "do not know that command"},
		{"/move", "Usage: /move d3"},
		{"/move z99", "“z99” is not a square"},
		{"d4", "taken"},
		{"a1", "cannot move there"},
		{"p16", "“p16” is not on this board: columns go from a to h, rows from 1 to 8"},
		{"/ai 7", "“7” is not a board size"},
		{"/ai 8 1 purple", "I do not understand “purple”"},
		{"/ai 8 1", "already going on"},
	} {
		h.send(alice, alice.ID(), c.send)
		h.waitText(alice.ID(), c.want)
	}
	if cur := h.current(board); cur.Edits != board.Edits {
		t.Errorf("board edited by bad input:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	// A typed move plays, and /move in any form too.
	h.send(alice, alice.ID(), "D3")
	board = h.waitState(board, "typed move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	h.send(alice, alice.ID(), "/move@"+telegramtest.DefaultBotUsername+" "+moveName(t, legalMoves(board)[0]))
	h.waitState(board, "/move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 4 })
	// /board posts it again; the old message's buttons are then stale.
	last := h.lastID(alice.ID())
	h.send(alice, alice.ID(), "/board")
	fresh := h.boardIn(alice.ID(), last)
	if boardPly(fresh) != 4 {
		t.Errorf("reposted board at ply %d", boardPly(fresh))
	}
	h.send(alice, alice.ID(), "/rules")
	h.waitText(alice.ID(), "How to play Reversi")
	h.send(alice, alice.ID(), "/lang ru")
	h.waitText(alice.ID(), "Буду говорить по-русски")
	h.send(alice, alice.ID(), "/help")
	h.waitText(alice.ID(), "Что я умею")
	h.send(alice, alice.ID(), "/rules")
	h.waitText(alice.ID(), "Как играть в реверси")
	h.send(alice, alice.ID(), "/lang")
	menu := h.waitText(alice.ID(), "Язык здесь: русский")
	h.press(alice, menu, "English")
	h.waitState(menu, "language set", func(m telegramtest.ChatMessage) bool { return strings.HasPrefix(m.Text, "Language here: English") })
	h.send(alice, alice.ID(), "/resign")
	h.waitState(fresh, "resigned", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "resigns") })
	h.send(alice, alice.ID(), "/stats")
	st := h.waitText(alice.ID(), "Alice — rating")
	if !strings.Contains(st.Text, "Casual: 0 wins, 1 loss, 0 draws") {
		t.Errorf("stats: %q", st.Text)
	}
	h.send(alice, alice.ID(), "/top")
	h.waitText(alice.ID(), "Nobody has finished a rated game")

	// Commands were registered in both languages.
	if en, ru := h.srv.Commands(""), h.srv.Commands("ru"); len(en) < 10 || len(ru) != len(en) {
		t.Errorf("setMyCommands: %d en, %d ru", len(en), len(ru))
	}
}

func TestBadCallbacks(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	start := engine.MustStart(8).Tag() // the position the board shows
	forged := []struct{ data, want string }{
		{"garbage", "could not understand"},
		{"", "could not understand"},
		{"9zzz", "could not understand"},
		{callback.Data{Action: callback.ActionMove, Game: "NoSuchGame", Square: 0x23}.Encode(), "There is no game"},
		{callback.Data{Action: callback.ActionMove, Game: id, Ply: 7, Square: 0x23}.Encode(), "about to be redrawn"},
		{callback.Data{Action: callback.ActionMove, Game: id, Square: 0x33, Pos: start}.Encode(), "taken"},
		{callback.Data{Action: callback.ActionMove, Game: id, Square: 0x00, Pos: start}.Encode(), "cannot move there"},
		{callback.Data{Action: callback.ActionMove, Game: id, Square: 0xff, Pos: start}.Encode(), "not on this board"},
		{callback.Data{Action: callback.ActionNoop, Game: id, Square: 0x33}.Encode(), "taken"},
		{callback.Data{Action: callback.ActionSize, Arg: 9}.Encode(), "Board sizes"},
		{callback.Data{Action: callback.ActionLevel, Page: 8, Arg: 9}.Encode(), "Levels go from 1 to 6"},
		{callback.Data{Action: callback.ActionLang, Arg: 7}.Encode(), "could not understand"},
		{callback.Data{Action: callback.ActionJoin, Game: id}.Encode(), "you are already playing it"},
		{callback.Data{Action: callback.ActionRematch, Game: id}.Encode(), "still going"},
		{callback.Data{Action: callback.ActionClaim, Game: id}.Encode(), "games between people"},
	}
	for _, f := range forged {
		qid, err := alice.PressData(alice.ID(), board.ID, f.data)
		if err != nil {
			t.Fatal(err)
		}
		a := h.waitAnswer(qid)
		if !strings.Contains(a.Text, f.want) {
			t.Errorf("callback %q answered %q, want %q", f.data, a.Text, f.want)
		}
	}
	// Someone else's taps on Alice's AI game are a spectator's.
	qid, err := bob.PressData(bob.ID(), 1, callback.Data{Action: callback.ActionMove, Game: id, Square: 0x23}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if a := h.waitAnswer(qid); !strings.Contains(a.Text, "only the two players") {
		t.Errorf("stranger's move answered %q", a.Text)
	}
	// (A forged move catches the board up, which draws it again: the same board, its move
	// buttons naming the game's version since the board was recorded.)
	if cur := h.current(board); cur.Content() != board.Content() || discsOf(cur) != discsOf(board) || boardPly(cur) != 0 {
		t.Errorf("forged taps changed the board:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	// Every query was answered exactly once (the fake rejects a second answer).
	for _, c := range h.srv.CallLog() {
		if c.Method == "answerCallbackQuery" && c.Code != 200 {
			t.Errorf("answerCallbackQuery failed: %s", c.Description)
		}
	}
}

func TestTwoTapsAtOnce(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	moves := legalMoves(board)
	// Two different legal squares tapped on the same board at once, and the same square twice.
	var ids []string
	for _, b := range []models.InlineKeyboardButton{moves[0], moves[1], moves[1]} {
		qid, err := alice.Press(board, b.CallbackData)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, qid)
	}
	ok := 0
	for _, id := range ids {
		if applied(h.waitAnswer(id)) {
			ok++
		}
	}
	if ok != 1 {
		t.Errorf("%d of 3 simultaneous taps applied, want exactly 1", ok)
	}
	board = h.waitState(board, "one move and the reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	if got := strings.Count(fmt.Sprint(board.Buttons()), render.BlackDisc) + strings.Count(fmt.Sprint(board.Buttons()), render.WhiteDisc); got != 6 {
		t.Errorf("board shows %d discs after one move each, want 6", got)
	}
}

func TestIdleClaim(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab := h.joinedBoard(alice, bob, "/new 8 white")
	// Bob plays black and is to move; Alice claims too early.
	a := h.press(alice, ab, "⏰ Claim win")
	if !strings.Contains(a.Text, "does not move within 1 h") {
		t.Errorf("early claim answered %q", a.Text)
	}
	// Bob's own board has no claim button on his turn; a claim sent anyway (an old board, a
	// modified client) is told why it fails.
	bb := h.boardIn(bob.ID(), 0)
	if _, err := bb.Button("⏰ Claim win"); err == nil {
		t.Errorf("Bob's board offers a claim on his own turn")
	}
	claim, err := ab.Button("⏰ Claim win")
	if err != nil {
		t.Fatalf("Alice's board, Bob to move, has no claim button: %v", err)
	}
	qid, err := bob.PressData(bob.ID(), bb.ID, claim.CallbackData)
	if err != nil {
		t.Fatal(err)
	}
	if a := h.waitAnswer(qid); !a.ShowAlert || !strings.Contains(a.Text, "It is your turn") {
		t.Errorf("claim on own turn answered %+v", a)
	}
	// A move each (a claim before it would abort the game, unrated), then Bob keeps Alice
	// waiting.
	final := playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb, "Bob"}}, 2)
	ab, bb = final[0], final[1]
	h.clock.Add(time.Hour + time.Minute)
	h.press(alice, ab, "⏰ Claim win")
	h.waitState(bb, "timeout on Bob's board", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "ran out of time") })
	h.waitState(ab, "timeout on Alice's board", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "ran out of time") })
}

func TestRestartMidGame(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.pressData(alice, board, legalMoves(board)[0].CallbackData)
	board = h.waitState(board, "reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	// Stop this process and start another over the same store and Bot API.
	h.stop()
	h.start()
	final, _, _ := playToEnd(h, alice, board, render.BlackDisc+" Alice")
	if gameID(final) != gameID(board) {
		t.Errorf("game changed across the restart")
	}
}

func TestEditRetriedAfter429(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	before := len(h.srv.CallLog())
	h.srv.FailNext("editMessageText", 1, 429, 1)
	h.pressData(alice, board, legalMoves(board)[0].CallbackData)
	h.waitState(board, "the board after a 429", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	// The edit of the player's move met the 429 and waited retry_after; meanwhile the AI
	// answered, and the retry drew the newest board: the board after the player's move alone
	// was never sent (coalesced), and nothing failed for good.
	var failed, ok int
	for _, c := range h.srv.CallLog()[before:] {
		if c.Method != "editMessageText" {
			continue
		}
		switch {
		case c.Code == 429:
			failed++
		case c.Code == 200:
			ok++
		}
	}
	if failed != 1 || ok != 1 {
		t.Errorf("editMessageText: %d failed with 429, %d succeeded; want 1 and 1 (coalesced)", failed, ok)
	}
	if strings.Contains(h.logs.String(), "level=WARN msg=edit") {
		t.Errorf("an edit failed:\n%s", h.logs.String())
	}
}

func TestWebhook(t *testing.T) {
	h := newHarness(t)
	h.stop() // no polling: the webhook takes over
	b, err := bot.Start(context.Background(), h.botOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := b.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	}()
	hook := httptest.NewServer(b.WebhookHandler("s3cret"))
	defer hook.Close()
	for _, secret := range []string{"", "wrong"} {
		req, _ := http.NewRequest(http.MethodPost, hook.URL, strings.NewReader(`{"update_id":1}`))
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("secret %q: status %d, want 401", secret, resp.StatusCode)
		}
	}
	if err := b.SetWebhook(context.Background(), hook.URL, "s3cret"); err != nil {
		t.Fatal(err)
	}
	alice := h.srv.NewUser("Alice", "en")
	h.send(alice, alice.ID(), "/rules")
	h.waitText(alice.ID(), "How to play Reversi")
}

func TestShutdownRejectsNewUpdates(t *testing.T) {
	h := newHarness(t)
	h.stop()
	h.b.ProcessUpdate(context.Background(), &models.Update{ID: 99, Message: &models.Message{Text: "/help",
		Chat: models.Chat{ID: 5, Type: models.ChatTypePrivate}, From: &models.User{ID: 5}}})
	if n := h.srv.Calls("sendMessage"); n != 0 {
		t.Errorf("%d messages sent after Shutdown", n)
	}
}

// gateMover is an AI that waits at the gate until the test opens it.
type gateMover struct {
	entered chan struct{}
	gate    chan struct{}
}

func (g gateMover) Move(ctx context.Context, pos engine.Position, _ int) (engine.Square, error) {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return engine.Pass, ctx.Err()
	}
	return pos.Moves().First(), nil
}

func (g gateMover) Hint(_ context.Context, pos engine.Position) (engine.Square, error) {
	return pos.Moves().First(), nil
}

func TestShutdownWaitsForUpdatesInFlight(t *testing.T) {
	mover := gateMover{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	h := newHarness(t, func(o *options) { o.Mover = mover })
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.pressData(alice, board, legalMoves(board)[0].CallbackData) // answered before the AI thinks
	<-mover.entered                                              // the AI is thinking: the update is in flight
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done <- h.b.Shutdown(ctx)
	}()
	select {
	case err := <-done:
		t.Fatalf("Shutdown returned (%v) while an update was in flight", err)
	default:
	}
	close(mover.gate)
	if err := <-done; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	// By the time Shutdown returned, the update was applied and shown in full.
	if cur := h.current(board); boardPly(cur) != 2 {
		t.Errorf("after Shutdown the board is at ply %d, want 2 (move and reply)", boardPly(cur))
	}
}

func TestDuplicateUpdateAppliedOnce(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	u := &models.Update{ID: 424242, Message: &models.Message{ID: 99, Text: "/rules",
		Chat: models.Chat{ID: alice.ID(), Type: models.ChatTypePrivate}, From: &models.User{ID: alice.ID(), FirstName: "Alice"}}}
	before := h.srv.Calls("sendMessage")
	h.b.ProcessUpdate(context.Background(), u)
	h.b.ProcessUpdate(context.Background(), u) // a webhook retry, or a second process
	if got := h.srv.Calls("sendMessage") - before; got != 1 {
		t.Errorf("update handled %d times, want 1", got)
	}
}

func TestGroupLanguage(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	g := h.srv.NewGroup("Клуб", alice, bob)
	h.send(alice, g.ID(), "/lang@"+telegramtest.DefaultBotUsername+" ru")
	h.waitText(g.ID(), "Буду говорить по-русски")
	h.send(bob, g.ID(), "/new")
	lobby := h.waitLobby(g.ID(), "хочет сыграть")
	last := h.lastID(g.ID())
	h.press(alice, lobby, "✅ Присоединиться")
	board := h.boardIn(g.ID(), last)
	if !strings.Contains(board.Text, "Ходит") {
		t.Errorf("group board not in the group's language:%s", dump([]telegramtest.ChatMessage{board}))
	}
	// Alerts go to the tapping user in their own language.
	carol := h.user("Carol", "en")
	g.Add(carol)
	if a := h.pressData(carol, board, legalMoves(board)[0].CallbackData); !strings.Contains(a.Text, "only the two players") {
		t.Errorf("spectator alert %q", a.Text)
	}
	// The private chat keeps the user's own language.
	h.send(alice, alice.ID(), "/rules")
	h.waitText(alice.ID(), "How to play Reversi")
}

func TestTokenNeverLogged(t *testing.T) {
	h := newHarness(t)
	// A Bot API server that cannot be reached: the library's error carries the URL.
	opts := h.botOptions()
	opts.APIURL = "http://127.0.0.1:1"
	_, err := bot.New(context.Background(), opts)
	if err == nil {
		t.Fatal("New succeeded without a server")
	}
	if strings.Contains(err.Error(), h.srv.Token()) {
		t.Errorf("error shows the token: %v", err)
	}
	alice := h.user("Alice", "en")
	h.srv.FailNext("sendMessage", 1, 500, 0)
	h.send(alice, alice.ID(), "/rules")
	h.send(alice, alice.ID(), "/help")
	h.waitText(alice.ID(), "What I can do")
	if strings.Contains(h.logs.String(), h.srv.Token()) || strings.Contains(h.logs.String(), "AAFakeToken") {
		t.Errorf("the log shows the token:\n%s", h.logs.String())
	}
}

func TestAIMoveOwedAcrossRestart(t *testing.T) {
	mover := gateMover{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	h := newHarness(t, func(o *options) { o.Mover = mover })
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.pressData(alice, board, legalMoves(board)[0].CallbackData)
	<-mover.entered
	// The process is stopped hard while the AI thinks: the search is abandoned.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.b.Shutdown(ctx); err == nil {
		t.Fatal("Shutdown with an ended context reported no error")
	}
	h.stop()
	// A new process. The board may not even show the player's move (its edit was cut off
	// too); the player's next tap brings it up to date and wakes the AI, which owes its move.
	h.opts.Mover = firstMover{}
	h.start()
	board = h.current(board)
	a := h.pressData(alice, board, anyMove(t, board).CallbackData)
	if !strings.Contains(a.Text, "not your turn") && !strings.Contains(a.Text, "has changed") {
		t.Errorf("tap while the AI owes a move answered %q", a.Text)
	}
	h.waitState(board, "the AI's owed move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
}

func TestMainMenuEntries(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("Alice", "en")
	menu := h.startMenu(alice)
	h.press(alice, menu, "📖 Rules")
	h.waitText(alice.ID(), "How to play Reversi")
	h.press(alice, menu, "📊 My stats")
	h.waitText(alice.ID(), "No finished games yet")
	h.press(alice, menu, "👥 Play a friend")
	friend := h.waitState(menu, "the ways to play a friend", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "To play a friend") })
	h.press(alice, friend, "« Back")
	menu = h.waitState(menu, "the main menu again", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "What shall we play?") })
	h.press(alice, menu, "🎲 Random opponent")
	search := h.waitState(menu, "the size choice", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "look for an opponent") })
	h.press(alice, search, "8×8")
	h.waitState(menu, "the search in the menu's message", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Looking for an opponent") })
	menu = h.startMenuText(alice, "What shall we play?")
	h.press(alice, menu, "🌐 Язык: русский")
	h.waitState(menu, "language switched", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Во что сыграем?") })
	h.send(alice, alice.ID(), "/cancel")
	h.waitText(alice.ID(), "Поиск соперника прекращён")
}

// TestAIBusyIsTold: when the AI cannot answer within the handling of the tap (every worker
// busy, or no remote worker there), the player is told so, and a tap on the board later wakes
// the AI, which then plays its owed move.
func TestAIBusyIsTold(t *testing.T) {
	mover := gateMover{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	h := newHarness(t, func(o *options) { o.Mover = mover; o.HandlerTimeout = 300 * time.Millisecond })
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.pressData(alice, board, legalMoves(board)[0].CallbackData)
	<-mover.entered
	h.waitText(alice.ID(), "I am busy")
	close(mover.gate) // the AI answers at once from now on
	board = h.current(board)
	h.pressData(alice, board, anyMove(t, board).CallbackData) // the board marks no moves: the AI is to move
	h.waitState(board, "the AI's owed move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
}
