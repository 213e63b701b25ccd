package game_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// FuzzSteps drives one game per input with arbitrary steps (moves on any square and ply, by
// players, spectators and the AI's id; undo, hint, resign, idle claims, AI replies, rematch):
// nothing panics, every error is one of the documented sentinels, and after every step the
// stored game replays to the reported position.
func FuzzSteps(f *testing.F) {
	f.Add([]byte{0x00, 0x23, 0x10, 0x32, 0x20, 0x00})
	f.Add([]byte{0x01, 0x12, 0x21, 0x05, 0x15, 0x35, 0x40, 0x50})
	f.Add([]byte{0xff, 0x7f, 0x80, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77})
	e := newEnv(f)
	var chats atomic.Int64
	users := []int64{alice.UserID, bob.UserID, carol.UserID, 0}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 200 {
			return
		}
		e.t = t
		chat := 5000 + chats.Add(1)
		me := game.Player{UserID: alice.UserID, Name: "Alice", ChatID: chat}
		var r *game.Snapshot
		var err error
		if data[0]&1 == 0 {
			r, err = e.svc.NewAIGame(e.ctx, me, chat, 4+2*int(data[0]>>1&1), 1+int(data[0]>>2)%game.MaxLevel, game.Choice(int(data[0]>>5)%3-1))
		} else {
			r, err = e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: me, ChatID: -chat, Size: 4 + 2*int(data[0]>>1&1), Color: game.Choice(int(data[0]>>5)%3 - 1)})
			if err == nil {
				r, err = e.svc.Join(e.ctx, r.Game.ID, bob)
			}
		}
		if err != nil {
			t.Fatalf("start: %v", err)
		}
		id := r.Game.ID
		for i := 1; i+1 < len(data); i += 2 {
			op, arg := data[i], data[i+1]
			user := users[int(op>>4)%len(users)]
			ply := int(arg>>4) - 1
			switch op % 8 {
			case 0, 1, 2:
				_, err = e.svc.Move(e.ctx, id, user, engine.Square(arg), ply)
			case 3:
				if cur, err2 := e.svc.Game(e.ctx, id); err2 == nil {
					if _, p, ok := cur.Turn(); ok && len(cur.Pos.LegalMoves()) > 0 {
						ms := cur.Pos.LegalMoves()
						_, err = e.svc.Move(e.ctx, id, p.UserID, ms[int(arg)%len(ms)], game.Ply(cur.Game))
					}
				}
			case 4:
				_, err = e.svc.AIReply(e.ctx, id)
			case 5:
				_, err = e.svc.Undo(e.ctx, id, user, ply)
			case 6:
				_, err = e.svc.Hint(e.ctx, id, user)
			case 7:
				switch arg % 4 {
				case 0:
					_, err = e.svc.Resign(e.ctx, id, user)
				case 1:
					_, err = e.svc.ClaimIdle(e.ctx, id, user)
				case 2:
					if n, err2 := e.svc.Rematch(e.ctx, id, user); err2 == nil {
						id = n.Game.ID
					} else {
						err = err2
					}
				default:
					_, err = e.svc.Current(e.ctx, chat)
				}
			}
			if err != nil && game.ErrorCode(err) == "internal" {
				t.Fatalf("step %d (op %d): undocumented error %v", i, op%8, err)
			}
			cur, err2 := e.svc.Game(e.ctx, id)
			if err2 != nil {
				t.Fatalf("Game: %v", err2)
			}
			checkConsistent(t, cur)
		}
	})
}

func TestCodes(t *testing.T) {
	seen := map[game.Code]bool{}
	for _, c := range game.Codes() {
		if c == "" || seen[c] {
			t.Fatalf("code %q empty or repeated", c)
		}
		seen[c] = true
	}
	if game.ErrorCode(nil) != "" || game.ErrorCode(errors.New("x")) != "internal" {
		t.Fatal("Code of nil or an unknown error")
	}
	if got := game.ErrorCode(&game.IdleError{}); got != "not_idle" {
		t.Fatalf("Code(IdleError) = %q", got)
	}
	for _, tc := range []struct {
		in   string
		want game.Choice
		ok   bool
	}{{"black", game.ChooseBlack, true}, {"WHITE", game.ChooseWhite, true}, {"Белые", game.ChooseWhite, true},
		{"ЧЁРНЫЕ", game.ChooseBlack, true}, {"", game.ChooseRandom, true}, {"green", game.ChooseRandom, false}} {
		if got, ok := game.ParseChoice(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseChoice(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"black", "w", "случайно", "Ё", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := game.ParseChoice(s)
		if c < game.ChooseRandom || c > game.ChooseWhite || (!ok && c != game.ChooseRandom) {
			t.Fatalf("ParseChoice(%q) = %v, %v", s, c, ok)
		}
	})
}
