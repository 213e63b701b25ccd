package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/storage/storagetest"
)

// TestClaimInvitationExpires: what a claim means is the store contract's (gametest's
// "Invitations", run on Redis in contract_test.go); here, that Redis forgets a claim after its
// TTL, which the contract cannot wait for.
func TestClaimInvitationExpires(t *testing.T) {
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
	if !claim(7, 100, "AgAA-first") || claim(7, 100, "AgAA-copy") {
		t.Fatal("the first message must hold the invitation and a second must not")
	}
	m.FastForward(time.Hour + time.Second)
	if !claim(7, 100, "AgAA-copy") {
		t.Error("the claim outlived its TTL")
	}
}
