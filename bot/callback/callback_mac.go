package callback

import (
	"crypto/hmac"
	"crypto/sha256"
)

// Signer signs callbacks with a key, so that a callback the bot reads back can be
// known to be one it wrote: anyone can send any callback data, but without the key nobody can
// make a MAC that Verify accepts. It covers every field of the callback. The zero value has no
// key and verifies nothing.
type Signer struct {
	key []byte
}

// NewSigner returns a signer with key, which should hold at least 32 random (or
// derived) bytes that only the bot knows. The signer keeps a copy.
func NewSigner(key []byte) Signer {
	return Signer{key: append([]byte(nil), key...)}
}

// Sign returns c with its MAC set over all its other fields. A Data that fails Validate
// (its MAC aside) is returned unsigned, as it is.
func (s Signer) Sign(c Data) Data {
	c.MAC = ""
	if len(s.key) == 0 || c.Validate() != nil {
		return c
	}
	c.MAC = string(s.mac(c))
	return c
}

// Verify reports whether c carries the MAC that Sign gives its other fields. The comparison
// takes the same time wherever the MACs differ.
func (s Signer) Verify(c Data) bool {
	if len(s.key) == 0 || len(c.MAC) != MACLen || c.Validate() != nil {
		return false
	}
	return hmac.Equal(s.mac(c), []byte(c.MAC))
}

// mac is the first MACLen bytes of HMAC-SHA256 over the unsigned encoding of c.
func (s Signer) mac(c Data) []byte {
	c.MAC = ""
	var buf [MaxLen]byte
	m := hmac.New(sha256.New, s.key)
	m.Write(c.appendTo(buf[:0]))
	return m.Sum(nil)[:MACLen]
}
