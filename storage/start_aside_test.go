package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// headerless are records the start and join scripts see are no game from their header: too
// short, an unknown format, a status no game has.
var headerless = map[string][]byte{
	"short":    []byte("\x01\x00\x00garbage"),
	"format":   []byte("\x09garbage, but long enough"),
	"status":   []byte("\x02garbage, not a game"), // byte 10 is 'n': status 6
	"one byte": {1},
}

// wantCorrupt checks that err is a *CorruptError naming game id and wrapping ErrInvalid.
func wantCorrupt(t *testing.T, what string, err error, id string) {
	t.Helper()
	var ce *game.CorruptError
	if !errors.As(err, &ce) || ce.GameID != id || !errors.Is(err, game.ErrInvalid) {
		t.Fatalf("%s = %v, want a CorruptError for %s wrapping ErrInvalid", what, err, id)
	}
}

// plant stores rec, unchecked, as the record of game id in s.
func plant(t *testing.T, s *storage.Store, id string, rec []byte) {
	t.Helper()
	if err := s.PutGameRecord(context.Background(), id, rec); err != nil {
		t.Fatal(err)
	}
}

// TestStartGameUnreadableInTheWay: a chat bound to a record that cannot be read, an inline
// message showing one, or a rematch that is one make StartGame fail with a *CorruptError
// naming that game, with nothing written, so that the caller sets it aside (for the operator)
// before the chat is taken; after SetAside the start works.
func TestStartGameUnreadableInTheWay(t *testing.T) {
	ctx := context.Background()
	for name, rec := range headerless {
		t.Run(name, func(t *testing.T) {
			s := storagetest.New(t)
			// A chat's game.
			old := sampleGame(0)
			startIn(t, s, old, 600, 601)
			plant(t, s, old.ID, rec)
			before := countGames(t, s, bindingKey(t, s, 600, old.ID))
			_, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{602, 601}})
			wantCorrupt(t, "StartGame over an unreadable game", err, old.ID)
			if after := countGames(t, s, bindingKey(t, s, 600, old.ID)); after != before {
				t.Fatalf("a refused start left %d game records, want %d", after, before)
			}
			if _, err := s.GameByChat(ctx, 602); !errors.Is(err, game.ErrNotFound) {
				t.Fatalf("a refused start bound chat 602: %v", err)
			}
			bindingKey(t, s, 601, old.ID) // still bound to the unreadable game
			if _, _, err := s.SetAside(ctx, old.ID, game.MessageRef{ChatID: 601}); err != nil {
				t.Fatal(err)
			}
			g := sampleGame(0)
			if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{602, 601}}); err != nil {
				t.Fatalf("StartGame after SetAside: %v", err)
			}
			wantShows(t, s, 601, g.ID)

			// An inline message's game.
			inl := &game.Game{Size: 8, Flow: game.FlowInline, Status: game.StatusLobby, InlineID: "AgAAAbad",
				Players: [2]game.Player{{UserID: 1, Name: "A"}}}
			h := game.Hosting{InlineID: inl.InlineID}
			if _, err := s.StartGame(ctx, inl, h); err != nil {
				t.Fatal(err)
			}
			plant(t, s, inl.ID, rec)
			ex, err := s.StartGame(ctx, inl.Clone(), h)
			wantCorrupt(t, "StartGame on an inline message showing an unreadable game", err, inl.ID)
			if ex != nil {
				t.Fatalf("StartGame gave back %+v with its error", ex)
			}

			// A rematch already made that cannot be read.
			fin := finished("", 1, 2, game.OutcomeDraw)
			fin.Size, fin.Flow, fin.ChatID = 8, game.FlowGroup, -70
			startIn(t, s, fin, -70)
			rh := game.Hosting{Chats: []int64{-70}, RematchOf: fin.ID}
			re := sampleGame(0)
			if _, err := s.StartGame(ctx, re, rh); err != nil {
				t.Fatal(err)
			}
			plant(t, s, re.ID, rec)
			_, err = s.StartGame(ctx, sampleGame(0), rh)
			wantCorrupt(t, "a second rematch when the first cannot be read", err, re.ID)
		})
	}
}

// TestStartGameUnreadableBody: the scripts read only a record's header. One whose header is a
// lobby's or a game's in play is busy (the caller reads it to learn it is unreadable); one
// whose header is a finished game's counts as finished, and its binding is replaced.
func TestStartGameUnreadableBody(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, st := range []game.Status{game.StatusPlaying, game.StatusFinished} {
		old := sampleGame(4)
		old.Status = st
		startIn(t, s, old, 700)
		rec, err := s.GameRecord(ctx, old.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutGameRecord(ctx, old.ID, append(rec[:20:20], 0xff, 0xff)); err != nil { // a cut-off body
			t.Fatal(err)
		}
		if _, err := s.GameByChat(ctx, 700); !errors.As(err, new(*game.CorruptError)) {
			t.Fatalf("the planted record reads: %v", err)
		}
		g := sampleGame(0)
		_, err = s.StartGame(ctx, g, game.Hosting{Chats: []int64{700}})
		if st == game.StatusPlaying {
			var busy *game.BusyError
			if !errors.As(err, &busy) || busy.ChatID != 700 {
				t.Fatalf("StartGame over a game in play with an unreadable body = %v, want a BusyError", err)
			}
			if _, _, err := s.SetAside(ctx, old.ID, game.MessageRef{ChatID: 700}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("StartGame over a finished game with an unreadable body = %v, want it replaced", err)
		}
		wantShows(t, s, 700, g.ID)
	}
}

// TestJoinGameUnreadableInTheWay: a joiner's chat bound to a record that cannot be read makes
// JoinGame fail with a *CorruptError naming it, and change nothing.
func TestJoinGameUnreadableInTheWay(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	lobby, join, old := newInviteInTheWay(t, s)
	plant(t, s, old.ID, headerless["short"])
	wantCorrupt(t, "JoinGame with the joiner's chat on an unreadable game", s.JoinGame(ctx, join, []int64{1, 2}), old.ID)
	wantJoinRefused(t, s, lobby, join)
	if _, _, err := s.SetAside(ctx, old.ID, game.MessageRef{ChatID: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinGame(ctx, join, []int64{1, 2}); err != nil {
		t.Fatalf("JoinGame after SetAside: %v", err)
	}
	wantShows(t, s, 2, lobby.ID)
}
