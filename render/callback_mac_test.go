package render

import (
	"errors"
	"strings"
	"testing"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

func TestSignedCallbackRoundTrip(t *testing.T) {
	s := NewCallbackSigner(testKey)
	for _, c := range []Callback{
		{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 12345, Page: 29000000, Arg: 16},
		{Action: ActionJoin},
		{Action: numActions - 1, Game: strings.Repeat("Z", MaxGameID), Ply: MaxCallbackNumber,
			Square: 255, Page: MaxCallbackNumber, Arg: MaxCallbackNumber},
	} {
		signed := s.Sign(c)
		if len(signed.MAC) != CallbackMACLen {
			t.Fatalf("Sign(%+v).MAC has %d bytes", c, len(signed.MAC))
		}
		data := signed.Encode()
		if len(data) > MaxCallbackLen {
			t.Errorf("signed %+v encodes to %d bytes, more than %d", c, len(data), MaxCallbackLen)
		}
		if !strings.HasPrefix(data, c.Encode()+".") {
			t.Errorf("signed encoding %q does not extend the unsigned %q", data, c.Encode())
		}
		got, err := ParseCallback(data)
		if err != nil || got != signed {
			t.Fatalf("ParseCallback(%q) = %+v, %v, want %+v", data, got, err, signed)
		}
		if !s.Verify(got) {
			t.Errorf("Verify(ParseCallback(%q)) = false", data)
		}
	}
}

// TestCallbackVerifyRefuses: every change of a signed callback, an absent MAC and another key
// fail Verify.
func TestCallbackVerifyRefuses(t *testing.T) {
	s := NewCallbackSigner(testKey)
	good := s.Sign(Callback{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 77, Page: 29000000, Arg: 8})
	changed := map[string]func(c *Callback){
		"creator": func(c *Callback) { c.Game = "u3ewv8zk0yx" },
		"size":    func(c *Callback) { c.Arg = 16 },
		"nonce":   func(c *Callback) { c.Ply++ },
		"time":    func(c *Callback) { c.Page-- },
		"square":  func(c *Callback) { c.Square = 1 },
		"action":  func(c *Callback) { c.Action = ActionMove },
		"no MAC":  func(c *Callback) { c.MAC = "" },
		"MAC bit": func(c *Callback) { b := []byte(c.MAC); b[len(b)-1] ^= 1; c.MAC = string(b) },
		"zeros":   func(c *Callback) { c.MAC = strings.Repeat("\x00", CallbackMACLen) },
	}
	for name, change := range changed {
		c := good
		change(&c)
		if s.Verify(c) {
			t.Errorf("Verify accepts the signed callback with its %s changed: %+v", name, c)
		}
		// What a client can send is an encoding: the same holds after the round trip.
		if p, err := ParseCallback(c.Encode()); err == nil && s.Verify(p) {
			t.Errorf("Verify accepts %q (%s changed)", c.Encode(), name)
		}
	}
	if NewCallbackSigner([]byte("another key, also 32 bytes long!")).Verify(good) {
		t.Error("a signer with another key accepts the callback")
	}
	if (CallbackSigner{}).Verify(good) || (CallbackSigner{}).Sign(good).MAC != "" {
		t.Error("the zero signer signs or verifies")
	}
	if s.Verify(Callback{Action: numActions, MAC: good.MAC}) {
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
		c, err := ParseCallback(data)
		if !errors.Is(err, ErrCallback) || c != (Callback{}) {
			t.Errorf("ParseCallback(%q) = %+v, %v, want the zero Callback and an ErrCallback", data, c, err)
		}
	}
	if err := (Callback{MAC: "short"}).Validate(); !errors.Is(err, ErrCallback) {
		t.Errorf("Validate of a 5-byte MAC = %v, want ErrCallback", err)
	}
}

// FuzzCallbackSigner: a signed callback survives its encoding, and any one byte changed in that
// encoding is either refused by ParseCallback or fails Verify.
func FuzzCallbackSigner(f *testing.F) {
	f.Add("u3ewv8zk0yw", 77, 29000000, 8, 5, byte(1))
	f.Add("", 0, 0, 0, 0, byte(0x80))
	f.Fuzz(func(t *testing.T, game string, ply, page, arg, at int, flip byte) {
		s := NewCallbackSigner(testKey)
		c := s.Sign(Callback{Action: ActionJoin, Game: game, Ply: ply, Page: page, Arg: arg})
		if c.Validate() != nil || c.MAC == "" {
			return
		}
		data := c.Encode()
		got, err := ParseCallback(data)
		if err != nil || got != c || !s.Verify(got) {
			t.Fatalf("ParseCallback(%q) = %+v, %v; verified %v", data, got, err, err == nil && s.Verify(got))
		}
		if flip == 0 {
			return
		}
		b := []byte(data)
		i := (at%len(b) + len(b)) % len(b)
		b[i] ^= flip
		if p, err := ParseCallback(string(b)); err == nil && s.Verify(p) {
			t.Fatalf("%q (byte %d of %q changed) parses to %+v and verifies", b, i, data, p)
		}
	})
}

func BenchmarkCallbackVerify(b *testing.B) {
	s := NewCallbackSigner(testKey)
	data := s.Sign(Callback{Action: ActionJoin, Game: "u3ewv8zk0yw", Ply: 77, Page: 29000000, Arg: 8}).Encode()
	b.ReportAllocs()
	for b.Loop() {
		c, err := ParseCallback(data)
		if err != nil || !s.Verify(c) {
			b.Fatal("does not verify")
		}
	}
}
