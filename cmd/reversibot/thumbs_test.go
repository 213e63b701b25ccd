package main

import (
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
)

// TestThumbnailsServedOnListenAddr: in long polling with PUBLIC_URL set, LISTEN_ADDR serves
// the inline results' thumbnails and the boards' pictures under PUBLIC_URL's path.
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
	pic, err := http.Get(base + "/pub/pic/start/16.jpg")
	if err != nil {
		t.Fatal(err)
	}
	defer pic.Body.Close()
	if _, err := jpeg.Decode(pic.Body); err != nil || pic.StatusCode != 200 {
		t.Fatalf("GET the starting picture of 16×16: %d, %v", pic.StatusCode, err)
	}
	for _, path := range []string{"/thumb/12.png", "/pub/thumb/13.png", "/pic/start/16.jpg", "/pub/pic/start/13.jpg"} {
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

// TestMiniAppServedOnListenAddr: with PUBLIC_URL set, LISTEN_ADDR serves the Mini App's page
// under PUBLIC_URL's path (the address without its slash redirects there, keeping the game)
// and its API, which refuses a request without signed initData.
func TestMiniAppServedOnListenAddr(t *testing.T) {
	srv := telegramtest.Start(t)
	var logs gametest.LogBuffer
	m := startMain(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token(), "TELEGRAM_API_URL": srv.URL(), "METRICS_ADDR": "off",
		"LISTEN_ADDR": "127.0.0.1:0", "PUBLIC_URL": "https://reversi.example/pub", "MINIAPP_NAME": "board",
	}, &logs)
	base := "http://" + m.servers[0].Addr
	page, err := http.Get(base + "/pub/app/?g=abc")
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if page.StatusCode != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET the page: %d %q", page.StatusCode, page.Header.Get("Content-Type"))
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	redirect, err := noFollow.Get(base + "/pub/app?g=abc")
	if err != nil {
		t.Fatal(err)
	}
	redirect.Body.Close()
	if redirect.StatusCode != http.StatusMovedPermanently || redirect.Header.Get("Location") != "/pub/app/?g=abc" {
		t.Errorf("GET /pub/app: %d to %q", redirect.StatusCode, redirect.Header.Get("Location"))
	}
	api, err := http.Get(base + "/pub/app/api/state?g=abc")
	if err != nil {
		t.Fatal(err)
	}
	api.Body.Close()
	if api.StatusCode != http.StatusUnauthorized {
		t.Errorf("the API without initData: %d, want 401", api.StatusCode)
	}
}
