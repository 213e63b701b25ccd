package storage_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/reversibot/reversi/storage"
)

// sampleGame returns an 8×8 game between two people in progress with n moves.
func sampleGame(n int) *storage.Game {
	g := &storage.Game{
		Size:   8,
		Flow:   storage.FlowInvite,
		Status: storage.StatusPlaying,
		Players: [2]storage.Player{
			{UserID: 123456789, Name: "Alice Liddell", ChatID: 123456789, Lang: "en"},
			{UserID: 987654321, Name: "Борис", ChatID: 987654321, Lang: "ru"},
		},
		CreatorColor: -1,
		ChatID:       123456789,
		Boards:       []storage.BoardRef{{ChatID: 123456789, MessageID: 4242}, {ChatID: 987654321, MessageID: 77}},
		Lang:         "en",
	}
	for i := range n {
		g.Moves = append(g.Moves, byte((i/8)%8)<<4|byte(i%8))
	}
	return g
}

// fullGame16 returns a finished 16×16 group game with 252 moves.
func fullGame16() *storage.Game {
	g := &storage.Game{
		Size:   16,
		Flow:   storage.FlowGroup,
		Status: storage.StatusFinished,
		Players: [2]storage.Player{
			{UserID: 5123456789, Name: "Alexander the Great", Lang: "en"},
			{UserID: 6123456789, Name: "Екатерина Великая", Lang: "ru"},
		},
		ChatID:  -1001234567890,
		Boards:  []storage.BoardRef{{ChatID: -1001234567890, MessageID: 1234567}},
		Lang:    "ru",
		Outcome: storage.OutcomeWhite,
		Reason:  storage.EndNormal,
	}
	for i := range 252 {
		g.Moves = append(g.Moves, byte(i/16)<<4|byte(i%16))
	}
	return g
}

func TestGameRoundTrip(t *testing.T) {
	created := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	withTimes := sampleGame(30)
	withTimes.Version = 31
	withTimes.Created, withTimes.Updated = created, created.Add(90*time.Minute)
	ai := &storage.Game{Size: 10, Flow: storage.FlowAI, Status: storage.StatusLobby, AILevel: 7,
		Players: [2]storage.Player{{UserID: 1}, {}}, CreatorColor: 1, InlineID: "AgAAAD0xAAD-abc_12",
		Boards: []storage.BoardRef{{InlineID: "AgAAAD0xAAD-abc_12"}}}
	tests := map[string]*storage.Game{
		"8x8 in progress":  withTimes,
		"16x16 full":       fullGame16(),
		"AI lobby, inline": ai,
		"empty 4x4":        {Size: 4},
	}
	for name, g := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := g.MarshalBinary()
			if err != nil {
				t.Fatalf("MarshalBinary: %v", err)
			}
			var got storage.Game
			if err := got.UnmarshalBinary(data); err != nil {
				t.Fatalf("UnmarshalBinary: %v", err)
			}
			if !reflect.DeepEqual(normal(&got), normal(g)) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, *g)
			}
			t.Logf("%d bytes", len(data))
		})
	}
}

// normal returns a copy of g with empty slices as nil and times in UTC, for comparing.
func normal(g *storage.Game) *storage.Game {
	c := g.Clone()
	if len(c.Moves) == 0 {
		c.Moves = nil
	}
	if len(c.Boards) == 0 {
		c.Boards = nil
	}
	c.Created, c.Updated = c.Created.UTC(), c.Updated.UTC()
	return c
}

func TestMarshalRejects(t *testing.T) {
	tests := map[string]func(g *storage.Game){
		"odd size":        func(g *storage.Game) { g.Size = 7 },
		"size 18":         func(g *storage.Game) { g.Size = 18 },
		"move off board":  func(g *storage.Game) { g.Moves = append(g.Moves, 0x08) },
		"row off board":   func(g *storage.Game) { g.Moves = append(g.Moves, 0x80) },
		"too many moves":  func(g *storage.Game) { g.Moves = make([]byte, 65) },
		"bad flow":        func(g *storage.Game) { g.Flow = 9 },
		"bad status":      func(g *storage.Game) { g.Status = 3 },
		"bad colour":      func(g *storage.Game) { g.CreatorColor = 2 },
		"negative level":  func(g *storage.Game) { g.AILevel = -1 },
		"huge version":    func(g *storage.Game) { g.Version = 1 << 32 },
		"long name":       func(g *storage.Game) { g.Players[0].Name = string(make([]byte, 2000)) },
		"too many boards": func(g *storage.Game) { g.Boards = make([]storage.BoardRef, 33) },
		"before 1970":     func(g *storage.Game) { g.Created = time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC) },
	}
	for name, spoil := range tests {
		t.Run(name, func(t *testing.T) {
			g := sampleGame(10)
			spoil(g)
			if _, err := g.MarshalBinary(); !errors.Is(err, storage.ErrInvalid) {
				t.Errorf("MarshalBinary = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestUnmarshalRejectsDamage(t *testing.T) {
	data, err := fullGame16().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Every truncation must fail cleanly, and so must trailing garbage and a new format.
	for n := range len(data) {
		var g storage.Game
		if err := g.UnmarshalBinary(data[:n]); !errors.Is(err, storage.ErrInvalid) {
			t.Fatalf("UnmarshalBinary(first %d of %d bytes) = %v, want ErrInvalid", n, len(data), err)
		}
	}
	var g storage.Game
	if err := g.UnmarshalBinary(append(append([]byte(nil), data...), 0)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("trailing byte: %v, want ErrInvalid", err)
	}
	other := append([]byte(nil), data...)
	other[0] = 2
	if err := g.UnmarshalBinary(other); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("format 2: %v, want ErrInvalid", err)
	}
}

func FuzzGameDecode(f *testing.F) {
	for _, g := range []*storage.Game{sampleGame(0), sampleGame(40), fullGame16(), {Size: 6, Moves: []byte{0x55}}} {
		g.Created = time.Unix(1790000000, 0)
		g.Updated = g.Created.Add(time.Hour)
		data, err := g.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 1, 8, 0, 0, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g storage.Game
		if err := g.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, storage.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		// Whatever decodes must encode again and decode to the same game.
		again, err := g.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded game does not encode: %v\n%+v", err, g)
		}
		var g2 storage.Game
		if err := g2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded game does not decode: %v", err)
		}
		if !reflect.DeepEqual(normal(&g), normal(&g2)) {
			t.Fatalf("round trip changed the game:\n%+v\n%+v", g, g2)
		}
	})
}
