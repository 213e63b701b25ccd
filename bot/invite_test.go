package bot_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// inlineAnswer has u type query in inline mode and returns the bot's answer.
func (h *harness) inlineAnswer(u *telegramtest.Person, query string) telegramtest.InlineAnswer {
	h.t.Helper()
	qid, err := u.InlineQuery(query)
	if err != nil {
		h.t.Fatal(err)
	}
	ans, err := h.srv.WaitInlineAnswer(h.guard(), qid)
	if err != nil {
		h.t.Fatal(err)
	}
	return ans
}

// TestInlineQueryAsks: the inline query picks the size and the poster's colour ("12 white"):
// that size comes first, its post says who plays what, and the game that starts from it gives
// the poster that colour. Text the bot does not understand offers the defaults.
func TestInlineQueryAsks(t *testing.T) {
	h := newHarness(t, withPictures)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	for q, first := range map[string]string{"16×16": "g16.", "10": "g10.", "what is this": "g8.", "8 black": "g8b."} {
		ans := h.inlineAnswer(alice, q)
		if len(ans.Results) != 4 || !strings.HasPrefix(ans.Results[0].ID, first) {
			t.Errorf("query %q: results %v, want 4 with %s… first", q, ids(ans), first)
		}
	}
	ans := h.inlineAnswer(alice, "12 white")
	r := ans.Results[0]
	if !strings.HasPrefix(r.ID, "g12w.") || !strings.Contains(r.Description, "white") || !strings.Contains(r.Text+r.Caption, "Alice plays white") {
		t.Fatalf("the first result of \"12 white\" is %+v", r)
	}
	post, err := alice.ChooseInlineResult(r.ID, chat.ID())
	if err != nil {
		t.Fatal(err)
	}
	h.press(bob, post, "✅ Join")
	board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
	})
	if !toMove(board, "⚫ Bob") {
		t.Errorf("Alice asked for white, so Bob moves first:%s", dump([]telegramtest.ChatMessage{board}))
	}
}

func ids(ans telegramtest.InlineAnswer) []string {
	var out []string
	for _, r := range ans.Results {
		out = append(out, r.ID)
	}
	return out
}

// TestInlineThumbnails: with a public URL the results carry the thumbnail of their board
// there, which Pictures.Thumbnails serves as a small PNG.
func TestInlineThumbnails(t *testing.T) {
	h := newHarness(t, func(o *options) { o.PublicURL = "https://reversi.example/bot/" })
	alice := h.user("Alice", "en")
	ans := h.inlineAnswer(alice, "10")
	for _, r := range ans.Results {
		size := strings.TrimPrefix(strings.Split(r.ID, ".")[0], "g")
		want := `"thumbnail_url":"https://reversi.example/bot/thumb/` + size + `.png"`
		if !strings.Contains(string(r.Raw), want) {
			t.Errorf("result %s lacks %s: %s", r.ID, want, r.Raw)
		}
	}
	srv := httptest.NewServer(h.b.Pictures.Thumbnails())
	defer srv.Close()
	for _, size := range []string{"8", "10", "12", "16"} {
		resp, err := http.Get(srv.URL + bot.ThumbnailPath + size + ".png")
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %q", size, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		img, err := png.Decode(&body)
		if err != nil {
			t.Fatalf("%s: %v", size, err)
		}
		if b := img.Bounds(); b.Dx() != bot.ThumbnailSide || b.Dy() != bot.ThumbnailSide {
			t.Errorf("%s: thumbnail is %v", size, b)
		}
		if n := body.Len(); n > 64<<10 {
			t.Errorf("%s: %d bytes", size, n)
		}
	}
	for _, path := range []string{"7.png", "08.png", "8", "x.png", "8.png/x", "", "-8.png", "99999999999999999999.png"} {
		resp, err := http.Get(srv.URL + bot.ThumbnailPath + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%q: %d, want 404", path, resp.StatusCode)
		}
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+bot.ThumbnailPath+"8.png", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

// TestFriendMenu: "Play a friend" shows, in place, a chat picker with the invitation ready,
// a link that adds the bot to a group, and an invitation link; each leads to a game.
func TestFriendMenu(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	menu := h.startMenu(alice)
	h.press(alice, menu, "👥 Play a friend")
	menu = h.waitState(menu, "the ways to play a friend", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "To play a friend") && m.Markup != nil
	})
	pick, err := menu.Button("📨 Invite in a chat")
	if err != nil {
		t.Fatal(err)
	}
	q := pick.SwitchInlineQueryChosenChat
	if q == nil || q.Query == "" || !q.AllowUserChats || !q.AllowGroupChats {
		t.Fatalf("the chat picker button is %+v", pick)
	}
	// The picker types the query in the chosen chat: its first result posts the invitation.
	chat := h.srv.NewGroup("Friends", alice, bob)
	ans := h.inlineAnswer(alice, q.Query)
	post, err := alice.ChooseInlineResult(ans.Results[0].ID, chat.ID())
	if err != nil {
		t.Fatal(err)
	}
	if first := post.Buttons()[0][0]; first.Text != "✅ Join" {
		t.Errorf("the invitation's first button is %+v, want Join", first)
	}
	h.press(bob, post, "✅ Join")
	h.postBoard(post)

	group, err := menu.Button("👥 Add me to a group")
	if err != nil || group.URL != "https://t.me/"+telegramtest.DefaultBotUsername+"?startgroup=play" {
		t.Fatalf("the add-to-group button is %+v (%v)", group, err)
	}
	// Telegram then sends /start with the payload in the group: a lobby opens there.
	club := h.srv.NewGroup("Club", alice, bob)
	h.send(alice, club.ID(), "/start@"+telegramtest.DefaultBotUsername+" play")
	lobby := h.waitLobby(club.ID(), "Alice")
	if first := lobby.Buttons()[0][0]; first.Text != "✅ Join" {
		t.Errorf("the group lobby's first button is %+v, want Join", first)
	}

	last := h.lastID(alice.ID())
	h.press(alice, menu, "🔗 A link to forward")
	invite := h.waitMsg(alice.ID(), "the invitation to forward", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Text, "invites you to play") && m.Markup != nil
	})
	if first := invite.Buttons()[0][0]; !strings.Contains(first.URL, "?start=j") {
		t.Errorf("the invitation's first button is %+v, want the link that joins", first)
	}
}
