package storage_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// sampleGame returns an 8×8 game between two people in progress with n moves.
func sampleGame(n int) *game.Game {
	g := &game.Game{
		Size:   8,
		Flow:   game.FlowInvite,
		Status: game.StatusPlaying,
		Players: [2]game.Player{
			{UserID: 123456789, Name: "Alice Liddell", ChatID: 123456789, Lang: "en"},
			{UserID: 987654321, Name: "Борис", ChatID: 987654321, Lang: "ru"},
		},
		CreatorColor: -1,
		ChatID:       123456789,
		Boards:       []game.MessageRef{{ChatID: 123456789, MessageID: 4242}, {ChatID: 987654321, MessageID: 77}},
		Lang:         "en",
	}
	for i := range n {
		g.Moves = append(g.Moves, byte((i/8)%8)<<4|byte(i%8))
	}
	return g
}

// fullGame16 returns a finished 16×16 group game with 252 moves.
func fullGame16() *game.Game {
	g := &game.Game{
		Size:   16,
		Flow:   game.FlowGroup,
		Status: game.StatusFinished,
		Players: [2]game.Player{
			{UserID: 5123456789, Name: "Alexander the Great", Lang: "en"},
			{UserID: 6123456789, Name: "Екатерина Великая", Lang: "ru"},
		},
		ChatID:  -1001234567890,
		Boards:  []game.MessageRef{{ChatID: -1001234567890, MessageID: 1234567}},
		Lang:    "ru",
		Outcome: game.OutcomeWhite,
		Reason:  game.EndNormal,
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
	ai := &game.Game{Size: 10, Flow: game.FlowAI, Status: game.StatusLobby, AILevel: 7,
		Players: [2]game.Player{{UserID: 1}, {}}, CreatorColor: 1, InlineID: "AgAAAD0xAAD-abc_12",
		Boards: []game.MessageRef{{InlineID: "AgAAAD0xAAD-abc_12"}}}
	tests := map[string]*game.Game{
		"8x8 in progress":  withTimes,
		"16x16 full":       fullGame16(),
		"AI lobby, inline": ai,
		"empty 4x4":        {Size: 4},
		"last move, image": func() *game.Game {
			g := sampleGame(5)
			g.Created, g.Updated = created, created.Add(time.Hour)
			g.LastMoveAt = created.Add(30 * time.Minute)
			g.Style = game.StyleImage
			return g
		}(),
		"image style only": {Size: 8, Style: game.StyleImage},
		"last move only":   {Size: 8, LastMoveAt: created},
		"rated, offered": func() *game.Game {
			g := sampleGame(12)
			g.Status, g.Outcome, g.Reason = game.StatusFinished, game.OutcomeWhite, game.EndResign
			g.Rating = game.RatingChange{Rated: true, Before: [2]int{1216, 1184}, After: [2]int{1199, -3}}
			g.Rematch, g.RematchBy, g.RematchAt = game.RematchOffered, 987654321, created.Add(time.Minute)
			return g
		}(),
		"declined only": {Size: 8, Status: game.StatusFinished, Rematch: game.RematchDeclined},
		"rated only": {Size: 8, Status: game.StatusFinished,
			Rating: game.RatingChange{Rated: true, Before: [2]int{1200, 1200}, After: [2]int{1200, 1200}}},
	}
	for name, g := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := storage.EncodeGame(g)
			if err != nil {
				t.Fatalf("EncodeGame: %v", err)
			}
			var got game.Game
			if err := storage.DecodeGame(&got, data); err != nil {
				t.Fatalf("DecodeGame: %v", err)
			}
			if !reflect.DeepEqual(normal(&got), normal(g)) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, *g)
			}
			t.Logf("%d bytes", len(data))
		})
	}
}

// normal returns a copy of g with empty slices as nil and times in UTC, for comparing.
func normal(g *game.Game) *game.Game {
	c := g.Clone()
	if len(c.Moves) == 0 {
		c.Moves = nil
	}
	if len(c.Boards) == 0 {
		c.Boards = nil
	}
	c.Created, c.Updated, c.LastMoveAt = c.Created.UTC(), c.Updated.UTC(), c.LastMoveAt.UTC()
	c.RematchAt = c.RematchAt.UTC()
	return c
}

func TestMarshalRejects(t *testing.T) {
	tests := map[string]func(g *game.Game){
		"odd size":        func(g *game.Game) { g.Size = 7 },
		"size 18":         func(g *game.Game) { g.Size = 18 },
		"move off board":  func(g *game.Game) { g.Moves = append(g.Moves, 0x08) },
		"row off board":   func(g *game.Game) { g.Moves = append(g.Moves, 0x80) },
		"too many moves":  func(g *game.Game) { g.Moves = make([]byte, 65) },
		"bad flow":        func(g *game.Game) { g.Flow = 9 },
		"bad status":      func(g *game.Game) { g.Status = 3 },
		"bad colour":      func(g *game.Game) { g.CreatorColor = 2 },
		"negative level":  func(g *game.Game) { g.AILevel = -1 },
		"huge version":    func(g *game.Game) { g.Version = 1 << 32 },
		"long name":       func(g *game.Game) { g.Players[0].Name = string(make([]byte, 2000)) },
		"too many boards": func(g *game.Game) { g.Boards = make([]game.MessageRef, 33) },
		"before 1970":     func(g *game.Game) { g.Created = time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC) },
		"last move 1960":  func(g *game.Game) { g.LastMoveAt = time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC) },
		"bad style":       func(g *game.Game) { g.Style = 2 },
	}
	for name, spoil := range tests {
		t.Run(name, func(t *testing.T) {
			g := sampleGame(10)
			spoil(g)
			if _, err := storage.EncodeGame(g); !errors.Is(err, game.ErrInvalid) {
				t.Errorf("EncodeGame = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestUnmarshalRejectsDamage(t *testing.T) {
	data, err := storage.EncodeGame(fullGame16())
	if err != nil {
		t.Fatal(err)
	}
	// Every truncation must fail cleanly, and so must trailing garbage and a new format.
	for n := range len(data) {
		var g game.Game
		if err := storage.DecodeGame(&g, data[:n]); !errors.Is(err, game.ErrInvalid) {
			t.Fatalf("DecodeGame(first %d of %d bytes) = %v, want ErrInvalid", n, len(data), err)
		}
	}
	var g game.Game
	if err := storage.DecodeGame(&g, append(append([]byte(nil), data...), 0)); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("trailing byte: %v, want ErrInvalid", err)
	}
	other := append([]byte(nil), data...)
	other[0] = 3
	if err := storage.DecodeGame(&g, other); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("format 3: %v, want ErrInvalid", err)
	}
	// A version 1 record claiming version 2 lacks the appended fields.
	other[0] = 2
	if err := storage.DecodeGame(&g, other); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("format 2 without its fields: %v, want ErrInvalid", err)
	}
	// A version 2 record with an unknown style.
	v2 := sampleGame(3)
	v2.Style = game.StyleImage
	data, err = storage.EncodeGame(v2)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] = 9
	if err := storage.DecodeGame(&g, data); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("style 9: %v, want ErrInvalid", err)
	}
}

// TestGameFormatCompatible checks that a record written before LastMoveAt and Style existed
// (format 1) still decodes, and that a game without them still encodes in format 1.
func TestGameFormatCompatible(t *testing.T) {
	// sampleGame(2) with Version 3, Created 2026-11-29 12:00 UTC, Updated 90 s later, as
	// format 1 wrote it (produced by the encoder of commit 97a99a9).
	old := []byte{0x1, 0x0, 0x0, 0x0, 0x3, 0x0, 0x0, 0x0, 0x0, 0x8, 0x11, 0x0, 0xff, 0x0,
		0xaa, 0xb4, 0xde, 0x75, 0xd, 'A', 'l', 'i', 'c', 'e', ' ', 'L', 'i', 'd', 'd', 'e', 'l', 'l',
		0xaa, 0xb4, 0xde, 0x75, 0x2, 'e', 'n',
		0xe2, 0xa2, 0xf3, 0xad, 0x7, 0xa, 0xd0, 0x91, 0xd0, 0xbe, 0xd1, 0x80, 0xd0, 0xb8, 0xd1, 0x81,
		0xe2, 0xa2, 0xf3, 0xad, 0x7, 0x2, 'r', 'u',
		0xaa, 0xb4, 0xde, 0x75, 0x0, 0x2, 'e', 'n',
		0x2, 0xaa, 0xb4, 0xde, 0x75, 0xa4, 0x42, 0x0, 0xe2, 0xa2, 0xf3, 0xad, 0x7, 0x9a, 0x1, 0x0,
		0x80, 0xcf, 0xe0, 0xb0, 0xd, 0xb4, 0x1,
		0x2, 0x0, 0x1}
	want := sampleGame(2)
	want.Version = 3
	want.Created = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	want.Updated = want.Created.Add(90 * time.Second)
	data, err := storage.EncodeGame(want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(data, old) {
		t.Errorf("EncodeGame of a game without the new fields =\n%#v\nwant the format 1 record\n%#v", data, old)
	}
	var got game.Game
	if err := storage.DecodeGame(&got, old); err != nil {
		t.Fatalf("DecodeGame(format 1) = %v", err)
	}
	if !reflect.DeepEqual(normal(&got), normal(want)) {
		t.Errorf("format 1 record decoded as\n%+v\nwant\n%+v", got, *want)
	}
	// Setting a new field switches to format 2 and costs a few bytes.
	want.LastMoveAt = want.Updated
	if data, err = storage.EncodeGame(want); err != nil || data[0] != 2 || len(data) != len(old)+6 {
		t.Errorf("with LastMoveAt: format %d, %d bytes, %v; want format 2, %d bytes", data[0], len(data), err, len(old)+6)
	}
	// The end of a game between people (a rating change, a rematch offer) is format 3, and
	// what format 2 decodes to encodes as format 2 still; format 3 is format 2 extended.
	want.Status, want.Outcome = game.StatusFinished, game.OutcomeBlack
	v2, err := storage.EncodeGame(want)
	if err != nil {
		t.Fatal(err)
	}
	if v2[0] != 2 {
		t.Errorf("a finished game without rating or offer: format %d; want 2", v2[0])
	}
	want.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1200}, After: [2]int{1216, 1184}}
	if data, err = storage.EncodeGame(want); err != nil || data[0] != 3 || !bytes.Equal(data[1:len(v2)], v2[1:]) {
		t.Errorf("with a rating change: format %d, %v; want format 3", data[0], err)
	}
	var got3 game.Game
	if err := storage.DecodeGame(&got3, data); err != nil || got3.Rating != want.Rating {
		t.Errorf("format 3 decoded as %+v, %v", got3.Rating, err)
	}
	// A format 3 record with a rating flag other than 0 or 1 does not decode. (The flag
	// follows the format 2 record; ratings near 1200 take two bytes each.)
	bad := append([]byte(nil), data...)
	bad[len(v2)] = 2
	if err := storage.DecodeGame(&got3, bad); err == nil {
		t.Errorf("format 3 record with rating flag 2 decoded")
	}
}

func FuzzGameDecode(f *testing.F) {
	for _, g := range []*game.Game{sampleGame(0), sampleGame(40), fullGame16(), {Size: 6, Moves: []byte{0x55}}} {
		g.Created = time.Unix(1790000000, 0)
		g.Updated = g.Created.Add(time.Hour)
		data, err := storage.EncodeGame(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	v2 := sampleGame(7)
	v2.LastMoveAt, v2.Style = time.Unix(1790000600, 0), game.StyleImage
	if data, err := storage.EncodeGame(v2); err == nil {
		f.Add(data)
	}
	v3 := sampleGame(9)
	v3.Status, v3.Outcome = game.StatusFinished, game.OutcomeDraw
	v3.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1300}, After: [2]int{1210, 1290}}
	v3.Rematch, v3.RematchBy, v3.RematchAt = game.RematchOffered, 5, time.Unix(1790000700, 0)
	if data, err := storage.EncodeGame(v3); err == nil {
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 1, 8, 0, 0, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g game.Game
		if err := storage.DecodeGame(&g, data); err != nil {
			if !errors.Is(err, game.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		// Whatever decodes must encode again and decode to the same game.
		again, err := storage.EncodeGame(&g)
		if err != nil {
			t.Fatalf("decoded game does not encode: %v\n%+v", err, g)
		}
		var g2 game.Game
		if err := storage.DecodeGame(&g2, again); err != nil {
			t.Fatalf("re-encoded game does not decode: %v", err)
		}
		if !reflect.DeepEqual(normal(&g), normal(&g2)) {
			t.Fatalf("round trip changed the game:\n%+v\n%+v", g, g2)
		}
	})
}
