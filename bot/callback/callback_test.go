package callback

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

func TestCallbackEncode(t *testing.T) {
	d3 := engine.SquareAt(3, 2)
	tests := []struct {
		c    Data
		want string
	}{
		{Data{}, "1n"},
		{Data{Action: ActionMove, Game: "Ab3", Ply: 17, Square: d3}, "1mAb3:h:z"},
		{Data{Action: ActionMove, Game: "g", Square: 0}, "1mg"},
		{Data{Action: ActionPage, Game: "g_-9", Ply: 1, Page: 2}, "1pg_-9:1::2"},
		{Data{Action: ActionSize, Arg: 16}, "1s::::g"},
		{Data{Action: ActionRefresh, Game: "x", Ply: 35}, "1bx:z"},
		{Data{Action: ActionMove, Game: "x", Square: 255}, "1mx::73"},
		{Data{Action: ActionJoin, Game: "ABCDEFGHIJKL"}, "1jABCDEFGHIJKL"},
		{Data{Action: ActionMove, Game: "Ab3", Ply: 17, Square: d3, Pos: 0x2bc5d1e7f9}, "1mAb3:h:z:::" + strconv.FormatUint(0x2bc5d1e7f9, 36)},
		{Data{Action: ActionUndo, Game: "x", Pos: 1}, "1ux:::::1"},
		{Data{Action: ActionPage, Game: "x", Ply: 4, Page: 1, Pos: MaxPos}, "1px:4::1::" + strconv.FormatUint(MaxPos, 36)},
	}
	for _, tt := range tests {
		if got := tt.c.Encode(); got != tt.want {
			t.Errorf("%+v.Encode() = %q, want %q", tt.c, got, tt.want)
		}
		got, err := Parse(tt.want)
		if err != nil || got != tt.c {
			t.Errorf("Parse(%q) = %+v, %v, want %+v", tt.want, got, err, tt.c)
		}
	}
}

// TestCallbackLongest encodes the longest callback there is: every field at its maximum.
func TestCallbackLongest(t *testing.T) {
	c := Data{Action: numActions - 1, Game: strings.Repeat("Z", MaxGameID), Ply: MaxNumber,
		Square: 255, Page: MaxNumber, Arg: MaxNumber, Pos: MaxPos}
	s := c.Encode()
	if len(s) > 47 || len(s) > MaxLen {
		t.Fatalf("longest callback %q is %d bytes, want at most 47", s, len(s))
	}
	signed := c
	signed.MAC = strings.Repeat("\xff", MACLen)
	if s := signed.Encode(); len(s) > 64 || len(s) > MaxLen {
		t.Fatalf("longest signed callback %q is %d bytes, want at most 64", s, len(s))
	}
	if got, err := Parse(s); err != nil || got != c {
		t.Fatalf("Parse(%q) = %+v, %v, want %+v", s, got, err, c)
	}
}

func TestCallbackAllActions(t *testing.T) {
	seen := map[string]bool{}
	for a := Action(0); a < numActions; a++ {
		if seen[a.String()] || strings.HasPrefix(a.String(), "Action(") {
			t.Errorf("action %d has name %q, duplicate or missing", a, a)
		}
		seen[a.String()] = true
		c := Data{Action: a, Game: "G1", Ply: 3, Square: 20, Page: 1, Arg: 2, Pos: 77}
		got, err := Parse(c.Encode())
		if err != nil || got != c {
			t.Errorf("round trip of %v: %+v, %v", a, got, err)
		}
	}
	if s := numActions.String(); s != "Action(17)" {
		t.Errorf("numActions.String() = %q", s)
	}
}

func TestCallbackInvalidEncodesNoop(t *testing.T) {
	for _, c := range []Data{
		{Action: numActions},
		{Action: ActionMove, Game: "has space"},
		{Action: ActionMove, Game: strings.Repeat("a", MaxGameID+1)},
		{Action: ActionMove, Square: engine.Pass},
		{Action: ActionMove, Square: 256},
		{Action: ActionPage, Page: -1},
		{Action: ActionMove, Ply: MaxNumber + 1},
		{Action: ActionSize, Arg: -3},
		{Action: ActionMove, Pos: MaxPos + 1},
	} {
		if err := c.Validate(); !errors.Is(err, ErrData) {
			t.Errorf("%+v.Validate() = %v, want ErrData", c, err)
		}
		if got := c.Encode(); got != "1n" {
			t.Errorf("%+v.Encode() = %q, want the noop \"1n\"", c, got)
		}
	}
}

func TestParseCallbackErrors(t *testing.T) {
	for _, data := range []string{
		"", "1", "2m", "m", "1?", "1m ab", "1mab:", "1mab::", "1mab:0", "1mab:01", "1mab:A",
		"1mab:1:2:3:4:5:6", "1mab:1:74", "1mab:1:1ekj", "1mab:1:2:3:4:" + strconv.FormatUint(MaxPos+1, 36),
		"1mab:1:2:3:4:05", "1mab:1:2:3:4:", "1mab:::::", "1m:-1", "1mabcdefghijklm", "1m:zzzzzzz",
		"1mab:1:\x00", "1m\xff", strings.Repeat("1", 65), "1m:+1", "1m: 1",
	} {
		c, err := Parse(data)
		if !errors.Is(err, ErrData) {
			t.Errorf("Parse(%q) = %+v, %v, want an ErrData", data, c, err)
		}
		if c != (Data{}) {
			t.Errorf("Parse(%q) returned %+v with its error, want the zero Data", data, c)
		}
	}
	if _, err := Parse("2mab"); !errors.Is(err, ErrVersion) {
		t.Errorf("Parse(\"2mab\") = %v, want ErrVersion", err)
	}
}

func FuzzParseCallback(f *testing.F) {
	for _, s := range []string{"1n", "1mAb3:h:z", "1pg_-9:1::2", "1s::::g", "2m", "1mab:01", "1jABCDEFGHIJKL",
		"1ju3f:1:2:3:8.AAECAwQFBgcICQoL", "1j.AAECAwQFBgcICQoL", "1ju3f.AAECAwQFBgcICQo", "1ju3f.AAECAwQFBgcICQo\n",
		"1ju3f:8.AAECAwQFBgcICQoL.AAECAwQFBgcICQoL", "1ju3f:.AAECAwQFBgcICQoL", "1mAb3:h:z:::2bq7cd1f",
		"1mab:1:1ekj", "1mAb3:h:z::3mn:2bq7cd1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrData) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrData", data, err)
			}
			return
		}
		if got := c.Encode(); got != data {
			t.Fatalf("Encode(Parse(%q)) = %q", data, got)
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse(%q) = %+v which fails Validate: %v", data, c, err)
		}
	})
}

func FuzzCallbackEncode(f *testing.F) {
	f.Add(uint8(1), "Ab3", 17, int16(35), 0, 0, uint64(0), "")
	f.Add(uint8(200), "", -1, int16(-1), 1<<40, 5, uint64(1<<40), "")
	f.Add(uint8(7), "u3ewv8zk0yw", 1<<30, int16(0), 29000000, 16, uint64(MaxPos), "0123456789ab")
	f.Add(uint8(ActionMove), "Ab3xYz9Kq0", 60, int16(63), 0, 4711, uint64(MaxPos), "") // a move naming its version
	f.Fuzz(func(t *testing.T, a uint8, game string, ply int, sq int16, page, arg int, pos uint64, mac string) {
		c := Data{Action: Action(a), Game: game, Ply: ply, Square: engine.Square(sq), Page: page, Arg: arg, Pos: pos, MAC: mac}
		s := c.Encode()
		if len(s) == 0 || len(s) > MaxLen {
			t.Fatalf("%+v.Encode() = %q: %d bytes", c, s, len(s))
		}
		got, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) = %v", s, err)
		}
		if c.Validate() == nil && got != c {
			t.Fatalf("round trip of %+v gave %+v", c, got)
		}
	})
}

func BenchmarkCallback(b *testing.B) {
	c := Data{Action: ActionMove, Game: "Ab12xYz9", Ply: 60, Square: 200}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(c.Encode()); err != nil {
			b.Fatal(err)
		}
	}
}
