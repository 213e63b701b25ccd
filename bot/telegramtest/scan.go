package telegramtest

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// scanner reads JSON from s at i. Every method reports false for input outside the fast
// path's subset.
type scanner struct {
	s string
	i int
	// loose is set when ws skips anything, escaped when str reads a character that
	// keyboardJSON would escape; the keyboard's decoder clears and reads them.
	loose, escaped bool
}

// ws skips JSON whitespace.
func (p *scanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
			p.loose = true
		default:
			return
		}
	}
}

// eat consumes c if it comes next.
func (p *scanner) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters, in valid UTF-8.
func (p *scanner) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start, ascii := p.i, true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			v := p.s[start:p.i]
			p.i++
			if !ascii && !utf8.ValidString(v) {
				return "", false // encoding/json would replace the bad bytes
			}
			return v, true
		case c == '\\' || c < 0x20:
			return "", false
		case c == '<' || c == '>' || c == '&':
			p.escaped = true
		case c >= utf8.RuneSelf:
			ascii = false
			// U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
			if c == 0xE2 && p.i+2 < len(p.s) && p.s[p.i+1] == 0x80 && p.s[p.i+2]&^1 == 0xA8 {
				p.escaped = true
			}
		}
		p.i++
	}
	return "", false
}

// open consumes the opening bracket c ('[' or '{') and what follows up to the first
// element; empty reports an empty container, its closing bracket consumed too.
func (p *scanner) open(c byte) (empty, ok bool) {
	if !p.eat(c) {
		return false, false
	}
	p.ws()
	if p.eat(c + 2) { // ']' is '[' + 2, '}' is '{' + 2
		return true, true
	}
	return false, true
}

// next consumes what follows an element of a container closed by end: a comma (more) or
// end itself.
func (p *scanner) next(end byte) (more, ok bool) {
	p.ws()
	if p.eat(end) {
		return false, true
	}
	if !p.eat(',') {
		return false, false
	}
	p.ws()
	return true, true
}

// key reads an object member's key and its colon, stopping at the value.
func (p *scanner) key() (string, bool) {
	k, ok := p.str()
	if !ok {
		return "", false
	}
	p.ws()
	if !p.eat(':') {
		return "", false
	}
	p.ws()
	return k, true
}

// maxSkipDepth bounds the nesting skip follows; deeper input is left to encoding/json.
const maxSkipDepth = 64

// token consumes a JSON string with any escapes and returns it with its quotes, and whether
// it is plain: no escapes and valid UTF-8, so that its text between the quotes is its value.
func (p *scanner) token() (tok string, plain bool, ok bool) {
	if !p.eat('"') {
		return "", false, false
	}
	start, plain, ascii := p.i-1, true, true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			tok = p.s[start:p.i]
			if !ascii && !utf8.ValidString(tok) {
				plain = false
			}
			return tok, plain, true
		case c < 0x20:
			return "", false, false
		case c == '\\':
			plain = false
			if p.i+1 >= len(p.s) {
				return "", false, false
			}
			switch p.s[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.s) {
					return "", false, false
				}
				for _, h := range []byte(p.s[p.i+2 : p.i+6]) {
					if !isHex(h) {
						return "", false, false
					}
				}
				p.i += 6
			default:
				return "", false, false
			}
			continue
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false, false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// skip consumes one JSON value of any kind, checking its syntax.
func (p *scanner) skip(depth int) bool {
	if depth > maxSkipDepth || p.i >= len(p.s) {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '"':
		_, _, ok := p.token()
		return ok
	case c == '{' || c == '[':
		empty, ok := p.open(c)
		for more := !empty; ok && more; more, ok = p.next(c + 2) {
			if c == '{' {
				if _, _, tok := p.token(); !tok {
					return false
				}
				p.ws()
				if !p.eat(':') {
					return false
				}
				p.ws()
			}
			if !p.skip(depth + 1) {
				return false
			}
		}
		return ok
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit {
				p.i += len(lit)
				return true
			}
		}
		return false
	}
}

// number consumes a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *scanner) number() bool {
	p.eat('-')
	digits := func() int {
		n := 0
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.eat('0') {
		// no more digits may follow a leading zero; the caller sees them as garbage
	} else if digits() == 0 {
		return false
	}
	if p.eat('.') && digits() == 0 {
		return false
	}
	if p.eat('e') || p.eat('E') {
		if !p.eat('+') {
			p.eat('-')
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// fastJSONBody adds the fields of a JSON object body to fields as decodeJSONBody does (a
// string field by its value, null as "", any other by its JSON text; the last of repeated
// keys counts). It reports false, changing nothing, for a body it leaves to encoding/json:
// anything but one object, a key with escapes, nesting deeper than maxSkipDepth, invalid JSON.
// A reply_markup object the keyboard's fast path takes is decoded on the way, into markup
// (when not nil): the keyboard is then read once.
func fastJSONBody(body string, fields map[string]string, markup *parsedMarkup) bool {
	var buf [12]pair
	pairs := buf[:0]
	p := scanner{s: body}
	p.ws()
	empty, ok := p.open('{')
	for more := !empty; ok && more; more, ok = p.next('}') {
		if !p.member(&pairs) {
			return false
		}
	}
	p.ws()
	if !ok || p.i != len(p.s) {
		return false
	}
	for _, v := range pairs {
		fields[v.k] = v.v
		if v.mk != nil && markup != nil {
			*markup = parsedMarkup{raw: v.v, mk: v.mk}
			if v.canon {
				markup.json = []byte(v.v)
			}
		}
	}
	return true
}

// parsedMarkup is a reply_markup decoded with the request, its text, and its JSON as
// keyboardJSON writes it when the text is already that (else nil).
type parsedMarkup struct {
	raw  string
	mk   *models.InlineKeyboardMarkup
	json []byte
}

// pair is a field of a request body; mk is its keyboard when it is a reply_markup the
// keyboard's fast path took, and canon tells whether v is then that keyboard's JSON.
type pair struct {
	k, v  string
	mk    *models.InlineKeyboardMarkup
	canon bool
}

// member reads one member of a request body's object into pairs (replacing an earlier
// one of the same key).
func (p *scanner) member(pairs *[]pair) bool {
	k, ok := p.key()
	if !ok {
		return false
	}
	v := pair{k: k}
	start := p.i
	if p.i < len(p.s) && p.s[p.i] == '"' {
		tok, plain, ok := p.token()
		if !ok {
			return false
		}
		if plain {
			v.v = tok[1 : len(tok)-1]
		} else if json.Unmarshal([]byte(tok), &v.v) != nil {
			return false
		}
	} else {
		if k == "reply_markup" {
			q := *p
			if mk, canon, ok := q.keyboard(); ok {
				v.mk, p.i = mk, q.i
				if canon {
					v.canon = true
				}
			}
		}
		if v.mk == nil && !p.skip(1) {
			return false
		}
		if v.v = p.s[start:p.i]; v.v == "null" {
			v.v = "" // what encoding/json makes of null for a string
		}
	}
	for i := range *pairs {
		if (*pairs)[i].k == k {
			(*pairs)[i] = v
			return true
		}
	}
	*pairs = append(*pairs, v)
	return true
}
