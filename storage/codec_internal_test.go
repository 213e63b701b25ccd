package storage

import (
	"errors"
	"testing"

	"github.com/reversibot/reversi/game"
)

func FuzzWaiterDecode(f *testing.F) {
	for _, w := range []game.Waiter{{}, {UserID: 1, ChatID: 1, Name: "Ann", Lang: "en"}, {UserID: -5, ChatID: 1 << 50, Name: "Пётр"}, {UserID: 7, ChatID: 7, Lang: "ru", MsgID: 1 << 30}} {
		data, err := encodeWaiter(w)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte{1, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := decodeWaiter(data)
		if err != nil {
			if !errors.Is(err, game.ErrInvalid) {
				t.Fatalf("error %v does not wrap game.ErrInvalid", err)
			}
			return
		}
		again, err := encodeWaiter(w)
		if err != nil {
			t.Fatalf("decoded waiter does not encode: %v", err)
		}
		w2, err := decodeWaiter(again)
		if err != nil || w2 != w {
			t.Fatalf("round trip: %+v, %v; want %+v", w2, err, w)
		}
	})
}

func TestValidIDs(t *testing.T) {
	for i := 0; i < 100; i++ {
		if id := newID(); !game.ValidID(id) || len(id) != idLen {
			t.Fatalf("newID() = %q, not a valid id", id)
		}
	}
	for _, id := range []string{"", "abc}", "{x}", "a b", "toolongtoolong", "ä"} {
		if game.ValidID(id) {
			t.Errorf("game.ValidID(%q) = true, want false", id)
		}
	}
}
