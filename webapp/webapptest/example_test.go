package webapptest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

// A test of a full flow opens the Mini App as Telegram does, taps a square and waits for the
// opponent's answer to show. (base is where the test serves webapp's Handler, gameID a game
// of user's; TestMain calls webapptest.VerifyTestMain.)
func Example() {
	var t *testing.T // the test's
	base, gameID, token := "http://127.0.0.1:8080/app/", "Gm1", "123:ABC"
	user := webapp.User{ID: 101, FirstName: "Alice", LanguageCode: "en"}

	initData := webapptest.SignInitData(token, user, "", time.Now())
	page := webapptest.Shared(t).Open(t, webapptest.PageURL(base+"?g="+gameID,
		webapptest.Launch{InitData: initData}), webapptest.PageOptions{})
	b := page.Until(t, "the board", func(b webapptest.Board) bool { return b.State == "ready" })
	if err := page.Tap(b.Legal[0]); err != nil {
		t.Fatal(err)
	}
	b = page.Until(t, "the answer", func(nb webapptest.Board) bool { return nb.Ply == b.Ply+2 })
	fmt.Println(b.Status, b.At("d3") == 'X')
	png, _ := page.Screenshot()
	_ = png
}
