package gametest

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestInvitations checks that the stores newStore makes keep the contract of
// game.Invitations: an invitation opens a game in one message only, bad arguments are
// refused, and a creator's claims beyond game.UserInvitations are forgotten, the oldest first.
func TestInvitations(t *testing.T, newStore func(t *testing.T) game.Invitations) {
	t.Helper()
	t.Run("Claims", func(t *testing.T) { testInvitations(t, newStore(t)) })
	t.Run("ClaimCap", func(t *testing.T) { testClaimCap(t, newStore(t)) })
}

// GamesWithReviews is a store of games that keeps their reviews: what TestReviews checks,
// since a review lives no longer than its game.
type GamesWithReviews interface {
	game.Games
	game.Reviews
}

// TestReviews checks that the stores newStore makes keep the contract of game.Reviews: a
// review is kept as it was, no longer than its game, and a chat's last finished game is the
// one set last.
func TestReviews(t *testing.T, newStore func(t *testing.T) GamesWithReviews) {
	t.Helper()
	t.Run("Reviews", func(t *testing.T) { testReviews(t, newStore(t)) })
}

// testInvitations: an invitation opens a game in the first message that claims it, and only
// there.
func testInvitations(t *testing.T, iv game.Invitations) {
	claim := func(creator, nonce int64, inline string) bool {
		t.Helper()
		ok, err := iv.ClaimInvitation(bg, creator, nonce, inline, time.Minute)
		if err != nil {
			t.Fatalf("ClaimInvitation(%d, %d, %q): %v", creator, nonce, inline, err)
		}
		return ok
	}
	if !claim(1, 7, "AAAAAQ") {
		t.Fatal("the first message to claim an invitation must hold it")
	}
	if !claim(1, 7, "AAAAAQ") {
		t.Fatal("the message that holds an invitation must hold it when it claims it again")
	}
	if claim(1, 7, "AAAAAg") {
		t.Fatal("a second message claimed an invitation bound already")
	}
	if !claim(1, 8, "AAAAAg") || !claim(2, 7, "AAAAAg") {
		t.Fatal("another nonce or another creator is another invitation")
	}
	_, err := iv.ClaimInvitation(bg, 1, 9, "AAAAAQ", 0)
	wantCode(t, "ClaimInvitation without a TTL", err, game.ErrInvalid)
	for _, bad := range []string{"", "has space", "{x}"} {
		_, err = iv.ClaimInvitation(bg, 1, 9, bad, time.Minute)
		wantCode(t, "ClaimInvitation of message "+strconv.Quote(bad), err, game.ErrInvalid)
	}
}

// testReviews: a review kept is read back as it was, a game without one has none, a game that
// is gone keeps none, and bad arguments are refused.
func testReviews(t *testing.T, s GamesWithReviews) {
	rv := s
	if _, err := rv.LoadReview(bg, "NoReview1"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview of a game never reviewed = %v, want ErrNotFound", err)
	}
	data := []byte{0, 1, 2, 0xff, 'r'}
	// A review is kept no longer than its game: none for a game that is gone.
	if err := rv.SaveReview(bg, "NoGame1", data, time.Hour); err != nil {
		t.Fatalf("SaveReview of a game that is gone: %v", err)
	}
	if _, err := rv.LoadReview(bg, "NoGame1"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview of a game that is gone = %v, want ErrNotFound", err)
	}
	g := finishFor(t, s, 1, -100, game.Hosting{})
	if err := rv.SaveReview(bg, g.ID, data, time.Hour); err != nil {
		t.Fatalf("SaveReview: %v", err)
	}
	data[0] = 9 // the store keeps its own copy
	got, err := rv.LoadReview(bg, g.ID)
	if err != nil || string(got) != "\x00\x01\x02\xffr" {
		t.Fatalf("LoadReview = %q, %v", got, err)
	}
	wantCode(t, "SaveReview without a TTL", rv.SaveReview(bg, "Reviewed2", data, 0), game.ErrInvalid)
	if _, err := rv.LastGame(bg, -100); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LastGame of a chat without one = %v, want ErrNotFound", err)
	}
	for _, id := range []string{"First1", "Second2"} {
		if err := rv.SetLastGame(bg, -100, id, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if id, err := rv.LastGame(bg, -100); err != nil || id != "Second2" {
		t.Fatalf("LastGame = %q, %v; want the game set last", id, err)
	}
	wantCode(t, "SetLastGame of a bad id", rv.SetLastGame(bg, -100, "{x}", time.Hour), game.ErrInvalid)
	wantCode(t, "SaveReview of a bad id", rv.SaveReview(bg, "{x}", data, time.Hour), game.ErrInvalid)
}
