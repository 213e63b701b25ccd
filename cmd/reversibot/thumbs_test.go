package main

import (
	"image/png"
	"net/http"
	"testing"

	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/telegram/telegramtest"
)

// TestThumbnailsServedOnListenAddr: in long polling with PUBLIC_URL set, LISTEN_ADDR serves
// the inline results' thumbnails under PUBLIC_URL's path.
func TestThumbnailsServedOnListenAddr(t *testing.T) {
	srv := telegramtest.Start(t)
	var logs gametest.LogBuffer
	m := startMain(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token(), "TELEGRAM_API_URL": srv.URL(), "METRICS_ADDR": "off",
		"LISTEN_ADDR": "127.0.0.1:0", "PUBLIC_URL": "https://reversi.example/pub",
	}, &logs)
	if len(m.servers) != 1 {
		t.Fatalf("%d servers, want the thumbnails' one", len(m.servers))
	}
	base := "http://" + m.servers[0].Addr
	resp, err := http.Get(base + "/pub/thumb/12.png")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET the thumbnail: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if _, err := png.Decode(resp.Body); err != nil {
		t.Fatalf("the thumbnail is no PNG: %v", err)
	}
	for _, path := range []string{"/thumb/12.png", "/pub/thumb/13.png"} {
		r, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, r.StatusCode)
		}
	}
}
