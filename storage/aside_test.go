package storage_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// boundGame stores a game in play bound to both players' chats and an inline message.
func boundGame(t *testing.T, s *storage.Store) *game.Game {
	t.Helper()
	ctx := context.Background()
	g := sampleGame(4)
	g.InlineID = "AgAAAPlanted"
	h := game.Hosting{Chats: []int64{g.Players[0].ChatID, g.Players[1].ChatID}, InlineID: g.InlineID}
	if _, err := s.StartGame(ctx, g, h); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestUnreadableRecordIsCorruptError(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g := boundGame(t, s)
	if err := s.PutGameRecord(ctx, g.ID, []byte("\xffnot a game")); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() error{
		"Game":         func() error { _, err := s.Game(ctx, g.ID); return err },
		"GameByChat":   func() error { _, err := s.GameByChat(ctx, g.Players[1].ChatID); return err },
		"GameByInline": func() error { _, err := s.GameByInline(ctx, g.InlineID); return err },
		"GameAndStyles": func() error {
			_, _, err := s.GameAndStyles(ctx, g.ID, g.Players[0].UserID)
			return err
		},
	} {
		err := read()
		var ce *game.CorruptError
		if !errors.As(err, &ce) || ce.GameID != g.ID || !errors.Is(err, game.ErrInvalid) {
			t.Errorf("%s of an unreadable record = %v, want a CorruptError for %s wrapping ErrInvalid", name, err, g.ID)
		}
	}
	if data, err := s.GameRecord(ctx, g.ID); err != nil || string(data) != "\xffnot a game" {
		t.Errorf("GameRecord = %q, %v", data, err)
	}
	if err := s.PutGameRecord(ctx, "bad id!", nil); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("PutGameRecord(bad id) = %v, want ErrInvalid", err)
	}
}

// TestSetAside moves records aside, undecodable ones (only the bindings named in via are known)
// and decodable ones (all the bindings the record names go), and checks what is left: only the
// aside copy, holding the original bytes, with its TTL; a binding that names another game stays.
func TestSetAside(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		plant     func(g *game.Game) []byte
		via       []game.MessageRef
		decodable bool
	}{
		{"undecodable", func(*game.Game) []byte { return []byte{1, 2, 3} },
			[]game.MessageRef{{ChatID: 123456789, MessageID: 4}}, false},
		{"illegal moves", func(g *game.Game) []byte {
			c := g.Clone()
			c.Moves = []byte{0x00, 0x00} // a1 twice: decodes, replays to nothing legal
			data, err := storage.EncodeGame(c)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := storagetest.New(t)
			g := boundGame(t, s)
			other := sampleGame(0)
			if err := s.CreateGame(ctx, other); err != nil {
				t.Fatal(err)
			}
			// Bob moved on: his chat shows another game (written as a binding is, to leave g as it was).
			bob := bindingKey(t, s, g.Players[1].ChatID, g.ID)
			if err := s.Client().Set(ctx, bob, other.ID, time.Hour).Err(); err != nil {
				t.Fatal(err)
			}
			planted := tc.plant(g)
			if err := s.PutGameRecord(ctx, g.ID, planted); err != nil {
				t.Fatal(err)
			}
			key, moved, err := s.SetAside(ctx, g.ID, tc.via...)
			if err != nil || !moved || key != s.AsideKey(g.ID) {
				t.Fatalf("SetAside = %q, %v, %v; want %q, true", key, moved, err, s.AsideKey(g.ID))
			}
			if again, moved, err := s.SetAside(ctx, g.ID); err != nil || moved || again != key {
				t.Errorf("SetAside again = %q, %v, %v; want %q, false", again, moved, err, key)
			}
			if data, err := s.AsideRecord(ctx, g.ID); err != nil || !bytes.Equal(data, planted) {
				t.Errorf("AsideRecord = %x, %v; want the planted %x", data, err, planted)
			}
			if _, err := s.Game(ctx, g.ID); !errors.Is(err, game.ErrNotFound) {
				t.Errorf("Game after SetAside = %v, want ErrNotFound", err)
			}
			// The chats are free; Bob's chat still shows his other game.
			if _, err := s.GameByChat(ctx, g.Players[0].ChatID); !errors.Is(err, game.ErrNotFound) {
				t.Errorf("Alice's chat after SetAside: %v, want ErrNotFound", err)
			}
			if _, err := s.GameByInline(ctx, g.InlineID); !errors.Is(err, game.ErrNotFound) {
				t.Errorf("the inline message after SetAside: %v, want ErrNotFound", err)
			}
			if cur, err := s.GameByChat(ctx, g.Players[1].ChatID); err != nil || cur.ID != other.ID {
				t.Errorf("Bob's chat after SetAside: %v, %v; want game %s", cur, err, other.ID)
			}
			if storagetest.Real() && tc.decodable {
				// Without a read in between, the decodable record's bindings went with it:
				// what is left is the aside copy and the other game with its binding.
				keys, err := s.MemoryUsage(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if len(keys) != 3 {
					t.Errorf("keys left: %+v, want the aside copy, the other game and its binding", keys)
				}
				for _, k := range keys {
					if k.Key == key && (k.TTL < storage.DefaultAsideTTL-time.Minute || k.TTL > storage.DefaultAsideTTL) {
						t.Errorf("aside key TTL %v, want %v", k.TTL, storage.DefaultAsideTTL)
					}
				}
			}
		})
	}
	s := storagetest.New(t)
	if _, _, err := s.SetAside(ctx, "nosuchgame"); !errors.Is(err, game.ErrNotFound) {
		t.Errorf("SetAside(no such game) = %v, want ErrNotFound", err)
	}
}

func TestAsideExpiry(t *testing.T) {
	ctx := context.Background()
	s, m := storagetest.NewEmbedded(t)
	g := boundGame(t, s)
	if err := s.PutGameRecord(ctx, g.ID, []byte("junk")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SetAside(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	m.FastForward(storage.DefaultAsideTTL - time.Minute)
	if _, err := s.AsideRecord(ctx, g.ID); err != nil {
		t.Fatalf("aside record gone before AsideTTL: %v", err)
	}
	m.FastForward(2 * time.Minute)
	if _, err := s.AsideRecord(ctx, g.ID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("aside record after AsideTTL: %v, want ErrNotFound", err)
	}
}
