package webapp_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

// The reference initData: its hashes were computed with openssl, outside Go:
//
//	SECRET=$(printf %s "$TOKEN" | openssl dgst -sha256 -hmac WebAppData -binary | xxd -p -c 64)
//	printf %s "$DCS" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$SECRET
//
// refHashWithSig covers the signature field, refHashNoSig leaves it out.
const (
	refInitData    = "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%D0%96%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1764590400&signature=abc_DEF-123&hash="
	refHashWithSig = "df61224ad5e53d3baba5725b011aa9e90e2375d01ed38b4d3ee577fa8ae4b6e2"
	refHashNoSig   = "971e5b3d35ae9197280fea4b9fc35796d1e3f0fdf5369be2030840aae0bdbbbf"
)

var refNow = time.Date(2025, 12, 1, 12, 1, 0, 0, time.UTC)

func TestValidateReference(t *testing.T) {
	for _, h := range []string{refHashWithSig, refHashNoSig} {
		d, err := webapp.ValidateInitData(refInitData+h, token, refNow, 0)
		if err != nil {
			t.Fatalf("hash %s…: %v", h[:8], err)
		}
		want := webapp.User{ID: 279058397, FirstName: "Vladislav Ж", LastName: "Kibenko", Username: "vdkfrost",
			LanguageCode: "ru", IsPremium: true}
		if d.User != want {
			t.Errorf("User = %+v, want %+v", d.User, want)
		}
		if !d.AuthDate.Equal(time.Unix(1764590400, 0)) || d.QueryID != "AAHdF6IQAAAAAN0XohDhrOrc" {
			t.Errorf("AuthDate %v, QueryID %q", d.AuthDate, d.QueryID)
		}
	}
	// The same hash under another token, or with another signature for the variant that
	// covers it, is refused.
	if _, err := webapp.ValidateInitData(refInitData+refHashWithSig, otherToken, refNow, 0); !errors.Is(err, webapp.ErrInitDataBad) {
		t.Errorf("another bot's token: %v, want ErrInitDataBad", err)
	}
	changed := strings.Replace(refInitData, "signature=abc", "signature=abd", 1)
	if _, err := webapp.ValidateInitData(changed+refHashWithSig, token, refNow, 0); !errors.Is(err, webapp.ErrInitDataBad) {
		t.Errorf("signature changed under a hash that covers it: %v, want ErrInitDataBad", err)
	}
	// A hash that leaves signature out does not vouch for it: a changed signature still
	// validates, which is harmless, since nothing reads it.
	if _, err := webapp.ValidateInitData(changed+refHashNoSig, token, refNow, 0); err != nil {
		t.Errorf("signature changed under a hash that leaves it out: %v", err)
	}
}

// TestSignInitData checks webapptest's signer against the validator: what it signs
// validates and decodes to what was signed, for both launches.
func TestSignInitData(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	u := webapp.User{ID: 42, FirstName: "Анна & Co = 100%", LastName: "O'Brien+", Username: "anna", LanguageCode: "ru-RU",
		PhotoURL: "https://t.me/i/userpic/320/x.svg"}
	for _, start := range []string{"", "Gm4x9_Q-"} {
		raw := webapptest.SignInitData(token, u, start, now.Add(-time.Hour))
		d, err := webapp.ValidateInitData(raw, token, now, 0)
		if err != nil {
			t.Fatalf("start %q: %v\n%s", start, err, raw)
		}
		if d.User != u || d.StartParam != start || !d.AuthDate.Equal(now.Add(-time.Hour)) {
			t.Errorf("start %q: decoded %+v", start, d)
		}
		if strings.Contains(raw, "+") {
			t.Errorf("a space or a plus sign left unescaped: %s", raw)
		}
		if (start == "") != (d.QueryID != "") || (start != "") != (d.ChatType != "" && d.ChatInstance != "") {
			t.Errorf("start %q: query_id %q, chat_type %q, chat_instance %q", start, d.QueryID, d.ChatType, d.ChatInstance)
		}
	}
}

// signed returns fields signed with token, for the table below.
func signed(fields ...webapptest.Field) string { return webapptest.SignFields(token, fields) }

func userField(json string) webapptest.Field { return webapptest.Field{Key: "user", Value: json} }

func TestValidateRefusals(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	date := func(d time.Time) webapptest.Field {
		return webapptest.Field{Key: "auth_date", Value: itoa(d.Unix())}
	}
	okUser := userField(`{"id":7,"first_name":"Eve"}`)
	good := signed(okUser, date(now))
	if _, err := webapp.ValidateInitData(good, token, now, 0); err != nil {
		t.Fatalf("the good initData of this table: %v", err)
	}
	forgedID := strings.Replace(good, "%22id%22%3A7", "%22id%22%3A8", 1)
	if forgedID == good {
		t.Fatal("no user id to change")
	}
	h := good[strings.LastIndex(good, "=")+1:]
	flip := "0"
	if h[0] == '0' {
		flip = "1"
	}
	cases := []struct {
		name string
		raw  string
		want error
	}{
		{"empty", "", webapp.ErrInitDataBad},
		{"forged hash", good[:len(good)-len(h)] + flip + h[1:], webapp.ErrInitDataBad},
		{"another bot's token", webapptest.SignFields(otherToken, []webapptest.Field{okUser, date(now)}), webapp.ErrInitDataBad},
		{"user id changed", forgedID, webapp.ErrInitDataBad},
		{"hash of the data without the user", strings.Replace(signed(date(now)), "auth_date", okUser.Key+"="+url.QueryEscape(okUser.Value)+"&auth_date", 1), webapp.ErrInitDataBad},
		{"no hash", good[:strings.LastIndex(good, "&hash=")], webapp.ErrInitDataBad},
		{"empty hash", webapptest.SignFields(token, []webapptest.Field{okUser, date(now), {Key: "hash", Value: ""}}), webapp.ErrInitDataBad},
		{"hash not hex", webapptest.SignFields(token, []webapptest.Field{okUser, date(now), {Key: "hash", Value: strings.Repeat("zz", 32)}}), webapp.ErrInitDataBad},
		{"hash too short", good[:len(good)-2], webapp.ErrInitDataBad},
		{"uppercase hash", good[:len(good)-len(h)] + strings.ToUpper(h), nil}, // hex is hex
		{"no auth_date", signed(okUser), webapp.ErrInitDataBad},
		{"auth_date not a number", signed(okUser, webapptest.Field{Key: "auth_date", Value: "+1764590400"}), webapp.ErrInitDataBad},
		{"auth_date empty", signed(okUser, webapptest.Field{Key: "auth_date", Value: ""}), webapp.ErrInitDataBad},
		{"no user", signed(date(now)), webapp.ErrInitDataBad},
		{"user not JSON", signed(userField(`{"id":7,`), date(now)), webapp.ErrInitDataBad},
		{"user a JSON array", signed(userField(`[{"id":7}]`), date(now)), webapp.ErrInitDataBad},
		{"user JSON and more", signed(userField(`{"id":7}{"id":8}`), date(now)), webapp.ErrInitDataBad},
		{"user id a string", signed(userField(`{"id":"7"}`), date(now)), webapp.ErrInitDataBad},
		{"user without id", signed(userField(`{"first_name":"Eve"}`), date(now)), webapp.ErrInitDataBad},
		{"user id zero", signed(userField(`{"id":0}`), date(now)), webapp.ErrInitDataBad},
		{"user id negative", signed(userField(`{"id":-5}`), date(now)), webapp.ErrInitDataBad},
		{"receiver not JSON", signed(okUser, date(now), webapptest.Field{Key: "receiver", Value: "x"}), webapp.ErrInitDataBad},
		{"chat not JSON", signed(okUser, date(now), webapptest.Field{Key: "chat", Value: "[]"}), webapp.ErrInitDataBad},
		{"can_send_after not a number", signed(okUser, date(now), webapptest.Field{Key: "can_send_after", Value: "1e3"}), webapp.ErrInitDataBad},
		{"duplicate user, signed as Telegram would not", good + "&user=" + url.QueryEscape(`{"id":8}`), webapp.ErrInitDataBad},
		{"duplicate hash", good + "&hash=" + h, webapp.ErrInitDataBad},
		{"duplicate auth_date", signed(okUser, date(now), date(now)), webapp.ErrInitDataBad},
		{"a field without =", good + "&junk", webapp.ErrInitDataBad},
		{"an empty field", good + "&", webapp.ErrInitDataBad},
		{"an empty key", good + "&=x", webapp.ErrInitDataBad},
		{"a bad escape", good + "&x=%zz", webapp.ErrInitDataBad},
		{"a line break in a value", signed(okUser, date(now), webapptest.Field{Key: "start_param", Value: "a\nhash=1"}), webapp.ErrInitDataBad},
		{"a line break in a key", signed(okUser, date(now), webapptest.Field{Key: "a\nb", Value: "1"}), webapp.ErrInitDataBad},
		{"too many fields", good + strings.Repeat("&k=v", 40), webapp.ErrInitDataBad},
		{"huge", good + "&pad=" + strings.Repeat("a", webapp.MaxInitDataLen), webapp.ErrInitDataBad},
		{"just old enough", signed(okUser, date(now.Add(-webapp.DefaultMaxAge))), nil},
		{"expired", signed(okUser, date(now.Add(-webapp.DefaultMaxAge-time.Second))), webapp.ErrInitDataExpired},
		{"a minute ahead", signed(okUser, date(now.Add(webapp.MaxClockSkew))), nil},
		{"from the future", signed(okUser, date(now.Add(webapp.MaxClockSkew+time.Second))), webapp.ErrInitDataExpired},
		{"from 1970", signed(okUser, webapptest.Field{Key: "auth_date", Value: "0"}), webapp.ErrInitDataExpired},
		{"unknown fields are signed data too", signed(okUser, date(now), webapptest.Field{Key: "new_field", Value: "x"}), nil},
		{"signature left out of the hash", webapptest.SignFields(token, []webapptest.Field{okUser, date(now), {Key: "signature", Value: "sig"}}, "signature"), nil},
		{"signature in the hash", signed(okUser, date(now), webapptest.Field{Key: "signature", Value: "sig"}), nil},
		{"another field left out of the hash", webapptest.SignFields(token, []webapptest.Field{okUser, date(now), {Key: "query_id", Value: "q"}}, "query_id"), webapp.ErrInitDataBad},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := webapp.ValidateInitData(c.raw, token, now, 0)
			switch {
			case c.want == nil && err != nil:
				t.Fatalf("ValidateInitData = %v, want no error", err)
			case c.want != nil && !errors.Is(err, c.want):
				t.Fatalf("ValidateInitData = %v, want %v", err, c.want)
			}
			if err == nil {
				return
			}
			var ie *webapp.InitDataError
			if !errors.As(err, &ie) || ie.Reason == "" {
				t.Errorf("error %v is no *InitDataError with a reason", err)
			}
			if strings.Contains(err.Error(), token) || len(h) > 0 && strings.Contains(err.Error(), h) {
				t.Errorf("the error %q quotes the token or the hash", err)
			}
		})
	}
}

func TestValidateMaxAge(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	raw := webapptest.SignInitData(token, webapp.User{ID: 7}, "", now.Add(-2*time.Hour))
	if _, err := webapp.ValidateInitData(raw, token, now, time.Hour); !errors.Is(err, webapp.ErrInitDataExpired) {
		t.Errorf("2 h old with a max age of 1 h: %v, want ErrInitDataExpired", err)
	}
	if _, err := webapp.ValidateInitData(raw, token, now, 3*time.Hour); err != nil {
		t.Errorf("2 h old with a max age of 3 h: %v", err)
	}
}

// FuzzValidateInitData feeds the validator anything: it must never panic, and what it accepts
// must be what was signed: a user with an id, a date in the window.
func FuzzValidateInitData(f *testing.F) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f.Add(refInitData + refHashWithSig)
	f.Add(webapptest.SignInitData(token, webapp.User{ID: 7, FirstName: "Eve"}, "", now))
	f.Add(webapptest.SignInitData(token, webapp.User{ID: 8, FirstName: "Ёж"}, "g1", now))
	f.Add("a=b&a=c")
	f.Add("hash=&user=%7B%7D&auth_date=1")
	f.Add("%")
	f.Fuzz(func(t *testing.T, raw string) {
		d, err := webapp.ValidateInitData(raw, token, now, 0)
		if err != nil {
			if !errors.Is(err, webapp.ErrInitDataBad) && !errors.Is(err, webapp.ErrInitDataExpired) {
				t.Fatalf("error %v is neither sentinel", err)
			}
			return
		}
		if d.User.ID <= 0 || now.Sub(d.AuthDate) > webapp.DefaultMaxAge || d.AuthDate.Sub(now) > webapp.MaxClockSkew {
			t.Fatalf("accepted %+v", d)
		}
	})
}

// FuzzTamper changes one byte of a signed initData: whatever still validates must decode to
// exactly what was signed (a change that only re-spells the same data, like %2A for %2a).
func FuzzTamper(f *testing.F) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	u := webapp.User{ID: 7, FirstName: "Eve Ж", Username: "eve", LanguageCode: "en"}
	raw := webapptest.SignInitData(token, u, "Gm1", now)
	want, err := webapp.ValidateInitData(raw, token, now, 0)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint16(0), byte('x'))
	f.Add(uint16(len(raw)-1), byte('0'))
	f.Add(uint16(strings.Index(raw, "%22id")), byte('%'))
	f.Fuzz(func(t *testing.T, at uint16, b byte) {
		i := int(at) % len(raw)
		if raw[i] == b {
			return
		}
		got, err := webapp.ValidateInitData(raw[:i]+string([]byte{b})+raw[i+1:], token, now, 0)
		if err != nil {
			return
		}
		if got.User != want.User || got.StartParam != want.StartParam || !got.AuthDate.Equal(want.AuthDate) ||
			got.ChatInstance != want.ChatInstance || got.ChatType != want.ChatType {
			t.Fatalf("byte %d changed to %q: validated as %+v, signed %+v", i, b, got, want)
		}
	})
}

func BenchmarkValidateInitData(b *testing.B) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	raw := webapptest.SignInitData(token, webapp.User{ID: 7, FirstName: "Eve", LanguageCode: "en"}, "Gm1", now)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := webapp.ValidateInitData(raw, token, now, 0); err != nil {
			b.Fatal(err)
		}
	}
}
