package bot_test

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// miniAppButton returns the button of m that opens the Mini App (a web_app button or a link to
// t.me/<bot>/<app>), false when it has none.
func miniAppButton(m telegramtest.ChatMessage) (models.InlineKeyboardButton, bool) {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.WebApp != nil || strings.Contains(b.URL, "startapp=") {
				return b, true
			}
		}
	}
	return models.InlineKeyboardButton{}, false
}

// TestMiniAppButtons: with a public HTTPS address every board in play offers the Mini App: a
// web_app button opening the page with the game's ID in a private chat, a direct link to the
// app made in BotFather in a group and an inline post (where Telegram refuses web_app
// buttons: the fake does too); a finished board offers none, and neither does a bot whose
// address is plain HTTP or that names no app (outside private chats).
func TestMiniAppButtons(t *testing.T) {
	h := newHarness(t, func(o *options) {
		o.PublicURL, o.MiniAppName = "https://reversi.example/bot", "board"
	})
	alice, bob := h.user("Alice", "en"), h.user("Bob", "ru")

	board := h.aiBoard(alice, alice.ID(), "/ai 16")
	id := gameID(board)
	btn, ok := miniAppButton(board)
	if !ok || btn.WebApp == nil || btn.WebApp.URL != "https://reversi.example/bot/app/?g="+id || btn.Text != "🎯 Open board" {
		t.Fatalf("private AI board: Mini App button %+v (found %v)\n%s", btn, ok, dump([]telegramtest.ChatMessage{board}))
	}
	board8 := h.aiBoard(bob, bob.ID(), "/ai 8")
	if btn, ok := miniAppButton(board8); !ok || btn.WebApp == nil || btn.Text != "🎯 Открыть доску" {
		t.Errorf("private 8×8 board in Russian: Mini App button %+v (found %v)", btn, ok)
	}

	group := h.srv.NewGroup("Club", alice, bob)
	gboard := h.groupGame(alice, bob, group.ID())
	gid := gameID(gboard)
	btn, ok = miniAppButton(gboard)
	want := "https://t.me/" + telegramtest.DefaultBotUsername + "/board?startapp=" + gid
	if !ok || btn.WebApp != nil || btn.URL != want {
		t.Errorf("group board: Mini App button %+v (found %v), want a link to %s", btn, ok, want)
	}

	post := h.postInline(alice, 8, group.ID())
	h.press(bob, post, "✅ Join")
	iboard := h.postBoard(post)
	btn, ok = miniAppButton(iboard)
	if !ok || btn.WebApp != nil || !strings.HasPrefix(btn.URL, "https://t.me/"+telegramtest.DefaultBotUsername+"/board?startapp=") {
		t.Errorf("inline board: Mini App button %+v (found %v)", btn, ok)
	}

	h.resign(bob, iboard)
	over := h.waitState(iboard, "the resigned board", finished)
	if btn, ok := miniAppButton(over); ok {
		t.Errorf("a finished board offers the Mini App: %+v", btn)
	}

	plain := newHarness(t, func(o *options) { o.PublicURL = "http://reversi.example" })
	carol := plain.user("Carol", "en")
	if btn, ok := miniAppButton(plain.aiBoard(carol, carol.ID(), "/ai 10")); ok {
		t.Errorf("a bot on plain HTTP offers a web_app button (Telegram refuses it): %+v", btn)
	}
	noApp := newHarness(t, func(o *options) { o.PublicURL = "https://reversi.example" })
	dan, eve := noApp.user("Dan", "en"), noApp.user("Eve", "en")
	if _, ok := miniAppButton(noApp.aiBoard(dan, dan.ID(), "/ai 8")); !ok {
		t.Error("a private board without an app name lacks the web_app button")
	}
	club := noApp.srv.NewGroup("Club", dan, eve)
	if btn, ok := miniAppButton(noApp.groupGame(dan, eve, club.ID())); ok {
		t.Errorf("a group board links to a Mini App that has no name: %+v", btn)
	}
}

// withPictures gives the bot a public address, so that it posts large inline boards as
// pictures (the fake fetches none).
func withPictures(o *options) { o.PublicURL = "https://reversi.example" }

// lateHandler serves the handler set after the server started (the bot's, whose public
// address is the server's).
type lateHandler struct {
	mu sync.Mutex
	h  http.Handler
}

func (l *lateHandler) set(h http.Handler) { l.mu.Lock(); l.h = h; l.mu.Unlock() }

func (l *lateHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	h := l.h
	l.mu.Unlock()
	if h == nil {
		http.Error(w, "not yet", http.StatusServiceUnavailable)
		return
	}
	h.ServeHTTP(w, r)
}

// fetchPicture GETs u and returns its status and body.
func fetchPicture(t *testing.T, u string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// TestInlineLargeBoardPictures: with a public address an invitation to a 16×16 game is
// posted as the picture of the starting board, and every board of the game after it is the
// picture of its position, at an address the bot serves (editMessageMedia by URL, the only
// way an inline message takes a picture). An address shows the one position it was made
// for; one the bot did not make is a 404.
func TestInlineLargeBoardPictures(t *testing.T) {
	late := &lateHandler{}
	pics := httptest.NewServer(late)
	defer pics.Close()
	h := newHarness(t, func(o *options) { o.PublicURL = pics.URL })
	late.set(http.StripPrefix("", h.b.Pictures.Handler()))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)

	ans := h.inlineAnswer(alice, "16")
	first := ans.Results[0]
	if first.Type != "photo" || first.PhotoURL != pics.URL+bot.PicturePath+"start/16.jpg" || !strings.Contains(first.Caption, "16×16") {
		t.Fatalf("the first result of \"16\" is %+v", first)
	}
	for _, r := range ans.Results {
		if r.Type == "article" && r.Markup == nil {
			t.Errorf("a bot with pictures says large boards need them: %+v", r)
		}
	}
	status, body := fetchPicture(t, first.PhotoURL)
	if img, err := jpeg.Decode(bytes.NewReader(body)); status != 200 || err != nil || img.Bounds().Dx() < 800 {
		t.Fatalf("starting picture: %d, %v", status, err)
	}

	post, err := alice.ChooseInlineResult(first.ID, chat.ID())
	if err != nil {
		t.Fatal(err)
	}
	if post.PhotoURL != first.PhotoURL || post.InlineID == "" {
		t.Fatalf("the post is %+v", post)
	}
	h.press(bob, post, "✅ Join")
	board := h.postBoard(post)
	id := gameID(board)
	if !strings.HasPrefix(board.PhotoURL, pics.URL+bot.PicturePath+id+"/0-") || strings.Contains(board.Caption, "🟩") {
		t.Fatalf("the board after the join: photo %q, caption:\n%s", board.PhotoURL, board.Caption)
	}
	at0 := board.PhotoURL
	status, body = fetchPicture(t, at0)
	if _, err := jpeg.Decode(bytes.NewReader(body)); status != 200 || err != nil {
		t.Fatalf("board picture at ply 0: %d, %v", status, err)
	}

	mover := alice
	if toMove(board, "⚫ Bob") {
		mover = bob
	}
	moves := legalMoves(board)
	if len(moves) == 0 {
		t.Fatalf("no move buttons:\n%s", dump([]telegramtest.ChatMessage{board}))
	}
	h.pressData(mover, board, moves[0].CallbackData)
	board = h.waitState(board, "the board after a move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	if !strings.HasPrefix(board.PhotoURL, pics.URL+bot.PicturePath+id+"/1-") {
		t.Fatalf("the board after a move shows %q", board.PhotoURL)
	}
	if status, _ := fetchPicture(t, board.PhotoURL); status != 200 {
		t.Errorf("board picture at ply 1: %d", status)
	}
	if status, _ := fetchPicture(t, at0); status != 200 {
		t.Errorf("the address of ply 0 no longer serves its picture: %d", status)
	}

	// Addresses the bot did not make.
	mac := at0[strings.LastIndex(at0, "-")+1 : len(at0)-len(".jpg")]
	for _, name := range []string{
		id + "/1-" + mac + ".jpg",                           // another ply under ply 0's MAC
		id + "/0-" + strings.Repeat("A", len(mac)) + ".jpg", // a forged MAC
		"ZZZZZZZZZZ/0-" + mac + ".jpg",                      // another game
		id + "/2-" + mac + ".jpg", id + "/-1-" + mac + ".jpg", id + "/00-" + mac + ".jpg",
		id + "/0-" + mac + ".png", id + "/0-" + mac, id, "", "start/7.jpg", "start/16.png", "start/016.jpg",
		strings.Repeat("x", 200),
	} {
		if status, _ := fetchPicture(t, pics.URL+bot.PicturePath+name); status != http.StatusNotFound {
			t.Errorf("%q: %d, want 404", name, status)
		}
	}
}

// TestInlineLargeWithoutPicture: a bot with no public address cannot show a picture in an
// inline message, so it offers no large board there and says so plainly (first, when the
// query asked for a large size) instead of posting a grid of symbols.
func TestInlineLargeWithoutPicture(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "ru"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	ans := h.inlineAnswer(bob, "16")
	if len(ans.Results) == 0 || ans.Results[0].Type != "article" || ans.Results[0].Markup != nil ||
		!strings.Contains(ans.Results[0].Text, "cannot show in inline posts") || !strings.Contains(ans.Results[0].Text, "/new 16") {
		t.Fatalf("the first result of \"16\" is %+v", ans.Results)
	}
	for _, r := range ans.Results {
		if strings.HasPrefix(r.ID, "g10") || strings.HasPrefix(r.ID, "g12") || strings.HasPrefix(r.ID, "g16") {
			t.Errorf("a large board is offered without pictures: %+v", r)
		}
	}
	if got := h.inlineAnswer(bob, ""); len(got.Results) != 2 || !strings.HasPrefix(got.Results[0].ID, "g8") {
		t.Errorf("the empty query offers %v, want the 8×8 game first, then the note", ids(got))
	} else if raw := string(got.Results[0].Raw); strings.Contains(raw, "thumbnail_url") {
		t.Errorf("a bot without a public URL sent a thumbnail: %s", raw)
	}
	ru := h.inlineAnswer(alice, "12")
	if !strings.Contains(ru.Results[0].Text, "инлайн") {
		t.Errorf("the note in Russian: %+v", ru.Results[0])
	}
	post, err := bob.ChooseInlineResult(ans.Results[0].ID, chat.ID())
	if err != nil {
		t.Fatal(err)
	}
	if post.InlineID != "" || post.Markup != nil {
		t.Errorf("the note posted a message with buttons: %+v", post)
	}
}

// TestMiniAppMove: a move made through the Mini App's side of the bot is a tapped square: the
// same refusals (a stranger, a stale ply, an illegal square), the chat board follows, the AI
// replies, and every step is reported to OnGameChange.
func TestMiniAppMove(t *testing.T) {
	changes := make(chan *game.Game, 64)
	h := newHarness(t, func(o *options) {
		o.OnGameChange = func(g *game.Game) {
			select {
			case changes <- g:
			default:
			}
		}
	})
	alice, mallory := h.user("Alice", "en"), h.user("Mallory", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 10 black")
	id := gameID(board)
	app := h.b.MiniApp()
	ctx := h.guard()
	res, err := app.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	legal := res.Pos.LegalMoves()
	illegal := engine.SquareAt(0, 0)
	pos := res.Pos.Tag()
	for _, c := range []struct {
		user int64
		sq   engine.Square
		pos  uint64
		want error
	}{
		{mallory.ID(), legal[0], pos, game.ErrNotYourGame},
		{alice.ID(), legal[0], pos ^ 1, game.ErrStale},
		{alice.ID(), legal[0], 0, game.ErrStale},
		{alice.ID(), illegal, pos, game.ErrIllegal},
	} {
		if _, err := app.Move(ctx, id, c.user, c.sq, c.pos); !errors.Is(err, c.want) {
			t.Errorf("Move(user %d, %v, position %d) = %v, want %v", c.user, c.sq, c.pos, err, c.want)
		}
	}
	h.unchanged("refused Mini App moves", id, res.Game.Version, len(res.Game.Boards))

	played, err := app.Move(ctx, id, alice.ID(), legal[0], pos)
	if err != nil || len(played.Played) == 0 || played.Played[0].Square != legal[0] {
		t.Fatalf("Move(%v) = %+v, %v", legal[0], played, err)
	}
	board = h.waitState(board, "the chat board after the Mini App's move and the AI's reply", func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == 2
	})
	if !strings.Contains(board.Caption, legal[0].String()) && !strings.Contains(board.Caption, "To move: ⚫") {
		t.Errorf("the chat board after the move:\n%s", dump([]telegramtest.ChatMessage{board}))
	}
	seen := map[int]bool{}
	for len(seen) < 2 {
		select {
		case g := <-changes:
			if g.ID == id {
				seen[len(g.Moves)] = true
			}
		case <-ctx.Done():
			t.Fatalf("OnGameChange saw plies %v of game %s, want 1 and 2", seen, id)
		}
	}
	if app.Lang(ctx, alice.ID()) != "" {
		t.Errorf("Lang of a user who chose none = %q", app.Lang(ctx, alice.ID()))
	}
	h.send(alice, alice.ID(), "/lang ru")
	h.waitText(alice.ID(), "по-русски")
	if got := app.Lang(ctx, alice.ID()); got != "ru" {
		t.Errorf("Lang after /lang ru = %q", got)
	}
}

// TestMiniAppAllow: the Mini App's requests spend the user's budget of updates, shared with
// their updates, and one user's spending leaves another's alone.
func TestMiniAppAllow(t *testing.T) {
	h := newHarness(t, func(o *options) {
		o.Budget = bot.Budget{Rate: 1, Per: time.Hour, Burst: 3}
	})
	app := h.b.MiniApp()
	ctx := context.Background()
	allowed := 0
	for range 10 {
		if app.Allow(ctx, 42) {
			allowed++
		}
	}
	if allowed < 3 || allowed > 4 {
		t.Errorf("%d of 10 requests allowed in a burst of 3", allowed)
	}
	if !app.Allow(ctx, 43) {
		t.Error("another user is refused")
	}
	if free := h.b.MiniApp(); free == nil || !newHarness(t).b.MiniApp().Allow(ctx, 42) {
		t.Error("a bot without a budget refuses a request")
	}
}

// groupGame has a open a lobby in the group chat and b join it, and returns the board.
func (h *harness) groupGame(a, b *telegramtest.Person, chat int64) telegramtest.ChatMessage {
	h.t.Helper()
	lobby := h.openLobby(a, chat)
	return h.boardAfter(chat, func() { h.press(b, lobby, "✅ Join") })
}
