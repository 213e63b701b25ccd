package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestClaimInvitation(t *testing.T) {
	ctx := context.Background()
	s, m := storagetest.NewEmbedded(t)
	claim := func(creator, nonce int64, inline string) bool {
		t.Helper()
		ok, err := s.ClaimInvitation(ctx, creator, nonce, inline, time.Hour)
		if err != nil {
			t.Fatalf("ClaimInvitation(%d, %d, %q): %v", creator, nonce, inline, err)
		}
		return ok
	}
	if !claim(7, 100, "AgAA-first") {
		t.Fatal("the first message cannot claim the invitation")
	}
	if !claim(7, 100, "AgAA-first") {
		t.Fatal("the first message cannot claim the invitation again (a tap and chosen_inline_result)")
	}
	if claim(7, 100, "AgAA-copy") {
		t.Error("a second message claimed the invitation")
	}
	if !claim(7, 101, "AgAA-copy") || !claim(8, 100, "AgAA-other") {
		t.Error("another nonce or another creator is another invitation")
	}
	m.FastForward(time.Hour + time.Second)
	if !claim(7, 100, "AgAA-copy") {
		t.Error("the claim outlived its TTL")
	}
	for _, bad := range []string{"", "has space", "{x}"} {
		if _, err := s.ClaimInvitation(ctx, 7, 1, bad, time.Hour); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("ClaimInvitation(%q) = %v, want ErrInvalid", bad, err)
		}
	}
}
