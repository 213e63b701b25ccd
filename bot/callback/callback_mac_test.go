package callback

import (
	"errors"
	"strings"
	"testing"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

func TestSignedCallbackRoundTrip(t *testing.T) {
	s := NewSigner(testKey)
	for _, c := range []Data{
		{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 12345, Page: 29000000, Arg: 16},
		{Action: ActionJoin},
		{Action: numActions - 1, Game: strings.Repeat("Z", MaxGameID), Ply: MaxNumber,
			Square: 255, Page: MaxNumber, Arg: MaxNumber},
	} {
		signed := s.Sign(c)
		if len(signed.MAC) != MACLen {
			t.Fatalf("Sign(%+v).MAC has %d bytes", c, len(signed.MAC))
		}
		data := signed.Encode()
		if len(data) > MaxLen {
			t.Errorf("signed %+v encodes to %d bytes, more than %d", c, len(data), MaxLen)
		}
		if !strings.HasPrefix(data, c.Encode()+".") {
			t.Errorf("signed encoding %q does not extend the unsigned %q", data, c.Encode())
		}
		got, err := Parse(data)
		if err != nil || got != signed {
			t.Fatalf("Parse(%q) = %+v, %v, want %+v", data, got, err, signed)
		}
		if !s.Verify(got) {
			t.Errorf("Verify(Parse(%q)) = false", data)
		}
	}
}

// TestCallbackVerifyRefuses: every change of a signed callback, an absent MAC and another key
// fail Verify.
func TestCallbackVerifyRefuses(t *testing.T) {
	s := NewSigner(testKey)
	good := s.Sign(Data{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 77, Page: 29000000, Arg: 8})
	changed := map[string]func(c *Data){
		"creator": func(c *Data) { c.Game = "u3ewv8zk0yx" },
		"size":    func(c *Data) { c.Arg = 16 },
		"nonce":   func(c *Data) { c.Ply++ },
		"time":    func(c *Data) { c.Page-- },
		"square":  func(c *Data) { c.Square = 1 },
		"action":  func(c *Data) { c.Action = ActionMove },
		"no MAC":  func(c *Data) { c.MAC = "" },
		"MAC bit": func(c *Data) { b := []byte(c.MAC); b[len(b)-1] ^= 1; c.MAC = string(b) },
		"zeros":   func(c *Data) { c.MAC = strings.Repeat("\x00", MACLen) },
	}
	for name, change := range changed {
		c := good
		change(&c)
		if s.Verify(c) {
			t.Errorf("Verify accepts the signed callback with its %s changed: %+v", name, c)
		}
		// What a client can send is an encoding: the same holds after the round trip.
		if p, err := Parse(c.Encode()); err == nil && s.Verify(p) {
			t.Errorf("Verify accepts %q (%s changed)", c.Encode(), name)
		}
	}
	if NewSigner([]byte("another key, also 32 bytes long!")).Verify(good) {
		t.Error("a signer with another key accepts the callback")
	}
	if (Signer{}).Verify(good) || (Signer{}).Sign(good).MAC != "" {
		t.Error("the zero signer signs or verifies")
	}
	if s.Verify(Data{Action: numActions, MAC: good.MAC}) {
		t.Error("Verify accepts an invalid callback")
	}
}

func TestParseSignedCallbackErrors(t *testing.T) {
	for _, data := range []string{
		"1ju3f.", "1ju3f.AAECAwQFBgcICQo", "1ju3f.AAECAwQFBgcICQoLD", "1ju3f.AAECAwQFBgcICQo=",
		"1ju3f.AAECAwQFBgcICQo+", "1ju3f.AAECAwQFBgcICQo/", "1ju3f.AAECAwQFBgcICQo\n", "1ju3f.\nAAECAwQFBgcICQo",
		"1ju3f:8.AAECAwQFBgcICQoL.AAECAwQFBgcICQoL", "1ju3f:.AAECAwQFBgcICQoL", "1j.u3f:8AAECAwQFBgcICQoL",
		"1ju3f:8..AAECAwQFBgcICQo", "1ju3.f:8",
	} {
		c, err := Parse(data)
		if !errors.Is(err, ErrData) || c != (Data{}) {
			t.Errorf("Parse(%q) = %+v, %v, want the zero Data and an ErrData", data, c, err)
		}
	}
	if err := (Data{MAC: "short"}).Validate(); !errors.Is(err, ErrData) {
		t.Errorf("Validate of a 5-byte MAC = %v, want ErrData", err)
	}
}

// FuzzCallbackSigner: a signed callback survives its encoding, and any one byte changed in that
// encoding is either refused by Parse or fails Verify.
func FuzzCallbackSigner(f *testing.F) {
	f.Add("u3ewv8zk0yw", 77, 29000000, 8, 5, byte(1))
	f.Add("", 0, 0, 0, 0, byte(0x80))
	f.Fuzz(func(t *testing.T, game string, ply, page, arg, at int, flip byte) {
		s := NewSigner(testKey)
		c := s.Sign(Data{Action: ActionJoin, Game: game, Ply: ply, Page: page, Arg: arg})
		if c.Validate() != nil || c.MAC == "" {
			return
		}
		data := c.Encode()
		got, err := Parse(data)
		if err != nil || got != c || !s.Verify(got) {
			t.Fatalf("Parse(%q) = %+v, %v; verified %v", data, got, err, err == nil && s.Verify(got))
		}
		if flip == 0 {
			return
		}
		b := []byte(data)
		i := (at%len(b) + len(b)) % len(b)
		b[i] ^= flip
		if p, err := Parse(string(b)); err == nil && s.Verify(p) {
			t.Fatalf("%q (byte %d of %q changed) parses to %+v and verifies", b, i, data, p)
		}
	})
}

func BenchmarkCallbackVerify(b *testing.B) {
	s := NewSigner(testKey)
	data := s.Sign(Data{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 77, Page: 29000000, Arg: 8}).Encode()
	b.ReportAllocs()
	for b.Loop() {
		c, err := Parse(data)
		if err != nil || !s.Verify(c) {
			b.Fatal("does not verify")
		}
	}
}
