package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
)

// static holds the page: index.html (filled by fillIndex when it is loaded), app.css and app.js,
// served as they are.
//
//go:embed static
var static embed.FS

// asset is one file of the page, ready to serve: raw and gzipped, with its ETag.
type asset struct {
	ctype string
	etag  string
	raw   []byte
	gz    []byte
}

// contentSecurity is the page's Content-Security-Policy: its own files, Telegram's script,
// and requests to its own API only.
const contentSecurity = "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

func loadAssets() (map[string]*asset, error) {
	out := map[string]*asset{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		if path.Base(p) == "index.html" {
			if raw, err = fillIndex(raw); err != nil {
				return err
			}
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		sum := sha256.Sum256(raw)
		a := &asset{raw: raw, gz: gz.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		switch path.Ext(p) {
		case ".html":
			a.ctype = "text/html; charset=utf-8"
		case ".js":
			a.ctype = "text/javascript; charset=utf-8"
		case ".css":
			a.ctype = "text/css; charset=utf-8"
		default:
			a.ctype = http.DetectContentType(raw)
		}
		out[path.Base(p)] = a
		return nil
	})
	return out, err
}

// The markers of index.html that fillIndex fills: each must be there once.
const (
	markLang  = "{{lang}}"  // html's lang: the Default language, until the page knows the user's
	markTitle = "{{title}}" // the title in the Default language, until the page knows the user's
	markTexts = "{{texts}}" // the catalogue of the page's texts (PageTexts), as JSON
)

// fillIndex fills the markers of index.html.
func fillIndex(raw []byte) ([]byte, error) {
	texts, err := json.Marshal(pageCatalogue()) // escapes <, > and &: nothing can end the script
	if err != nil {
		return nil, err
	}
	s := string(raw)
	for _, m := range []string{markLang, markTitle, markTexts} {
		if n := strings.Count(s, m); n != 1 {
			return nil, fmt.Errorf("webapp: index.html has %s %d times, want once", m, n)
		}
	}
	s = strings.NewReplacer(markLang, i18n.Default, markTitle, html.EscapeString(i18n.T(i18n.Default, i18n.KeyAppTitle)),
		markTexts, string(texts)).Replace(s)
	return []byte(s), nil
}

// PageWeight returns the size in bytes of the page's files: as they are and gzipped (as they
// are sent to a browser that accepts gzip).
func PageWeight() (raw, gzipped int) {
	assets, err := loadAssets()
	if err != nil {
		return 0, 0
	}
	for _, a := range assets {
		raw += len(a.raw)
		gzipped += len(a.gz)
	}
	return raw, gzipped
}

// serveAsset serves the page's file name: revalidated on every load (ETag), gzipped when the
// browser accepts it.
func (s *Server) serveAsset(name string) http.HandlerFunc {
	a := s.assets[name]
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", a.ctype)
		h.Set("ETag", a.etag)
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if name == "index.html" {
			h.Set("Content-Security-Policy", contentSecurity)
			h.Set("Referrer-Policy", "no-referrer")
		}
		if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := a.raw
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			body = a.gz
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	}
}
