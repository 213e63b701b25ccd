package storage_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestRequeue: a waiter put back after a failed pairing is paired by the next Enqueue; one who
// queued again meanwhile keeps that entry.
func TestRequeue(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	a := game.Waiter{UserID: 1, ChatID: 1, Name: "Ann", Lang: "en"}
	b := game.Waiter{UserID: 2, ChatID: 2, Name: "Бо"}
	if ok, err := s.Requeue(ctx, 8, a); err != nil || !ok {
		t.Fatalf("Requeue(a) = %v, %v; want queued", ok, err)
	}
	if ok, err := s.Requeue(ctx, 8, a); err != nil || ok {
		t.Fatalf("Requeue(a) again = %v, %v; want false (waiting already)", ok, err)
	}
	if opp, err := s.Enqueue(ctx, 8, b); err != nil || opp == nil || *opp != a {
		t.Fatalf("Enqueue(b) = %+v, %v; want a", opp, err)
	}
	// a waits for 10 by now: putting a back for 8 changes nothing.
	if _, err := s.Enqueue(ctx, 10, a); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Requeue(ctx, 8, a); err != nil || ok {
		t.Fatalf("Requeue(a) while a waits for 10 = %v, %v; want false", ok, err)
	}
	if opp, err := s.Enqueue(ctx, 8, b); err != nil || opp != nil {
		t.Fatalf("Enqueue(b, 8) = %+v, %v; want queued (a waits for 10)", opp, err)
	}
}
