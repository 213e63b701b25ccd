package telegramtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/go-telegram/bot/models"
)

// maxRequestBytes bounds a request body (Telegram takes photos up to 10 MB).
const maxRequestBytes = 50 << 20

// copyBuffers are the buffers request bodies are read through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// request is a decoded Bot API call: text fields and uploaded files.
type request struct {
	fields map[string]string
	files  map[string]upload
	markup parsedMarkup // the reply_markup, when decoded with a JSON body
}

// replyMarkup is parseMarkup of the reply_markup field (decoded with the body when it could
// be), with the keyboard's JSON when the field holds it as keyboardJSON writes it (else nil).
func (r *request) replyMarkup() (*models.InlineKeyboardMarkup, []byte, *apiError) {
	raw := r.str("reply_markup")
	if r.markup.mk != nil && r.markup.raw == raw {
		return r.markup.mk, r.markup.json, nil
	}
	if mk, canon, ok := fastKeyboard(raw); ok {
		if canon {
			return mk, []byte(raw), nil
		}
		return mk, nil, nil
	}
	mk, err := parseMarkupJSON(raw)
	return mk, nil, err
}

type upload struct {
	name string
	data []byte
}

func (r *request) has(k string) bool {
	_, ok := r.fields[k]
	return ok
}

func (r *request) str(k string) string { return r.fields[k] }

// int64 parses field k; missing or malformed fields read as 0, false.
func (r *request) int64(k string) (int64, bool) {
	v, ok := r.fields[k]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n, err == nil
}

func (r *request) int(k string) int {
	n, ok := r.int64(k)
	if !ok || n > 1<<31-1 || n < -1<<31 {
		return 0
	}
	return int(n)
}

func (r *request) bool(k string) bool {
	switch strings.ToLower(strings.TrimSpace(r.fields[k])) {
	case "true", "1":
		return true
	}
	return false
}

// summary renders the request for the call log. Without files it is the
// request's own fields, which nothing changes once the request is decoded.
func (r *request) summary() map[string]string {
	if len(r.files) == 0 {
		return r.fields
	}
	out := make(map[string]string, len(r.fields)+len(r.files))
	for k, v := range r.fields {
		out[k] = v
	}
	for k, f := range r.files {
		out[k] = fmt.Sprintf("<file %s, %d bytes>", f.name, len(f.data))
	}
	return out
}

// parseRequest decodes a request the way the Bot API accepts it: the query
// string, then a multipart/form-data, URL-encoded or JSON body. It never
// returns a nil request; a body it cannot decode gives a Bad Request error.
func parseRequest(r *http.Request) (*request, *apiError) {
	req := &request{fields: map[string]string{}, files: map[string]upload{}}
	for k, vs := range r.URL.Query() {
		if len(vs) > 0 {
			req.fields[k] = vs[0]
		}
	}
	if r.Body == nil {
		return req, nil
	}
	// The body is read into a string once, sized by Content-Length when given: the fields
	// decoded from it are substrings of it, without copies.
	var body strings.Builder
	if n := r.ContentLength; n > 0 && n <= maxRequestBytes {
		body.Grow(int(n))
	}
	buf := copyBuffers.Get().(*[]byte)
	_, err := io.CopyBuffer(&body, io.LimitReader(r.Body, maxRequestBytes+1), *buf)
	copyBuffers.Put(buf)
	if err != nil {
		return req, badRequest("can't read request body")
	}
	if body.Len() > maxRequestBytes {
		return req, &apiError{code: http.StatusRequestEntityTooLarge, desc: "Request Entity Too Large"}
	}
	if perr := decodeBody(req, r.Header.Get("Content-Type"), body.String()); perr != nil {
		return req, perr
	}
	return req, nil
}

// decodeBody adds the fields of body, of the given content type, to req.
func decodeBody(req *request, contentType string, body string) *apiError {
	if len(strings.TrimSpace(body)) == 0 {
		return nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = ""
	}
	switch mt {
	case "multipart/form-data":
		mr := multipart.NewReader(strings.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return badRequest("can't parse multipart body: %v", err)
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return badRequest("can't parse multipart body: %v", err)
			}
			name := p.FormName()
			if name == "" {
				continue
			}
			if p.FileName() != "" {
				req.files[name] = upload{name: p.FileName(), data: data}
			} else {
				req.fields[name] = string(data)
			}
		}
	case "application/json":
		if !fastJSONBody(body, req.fields, &req.markup) {
			return decodeJSONBody(req.fields, []byte(body))
		}
	default: // application/x-www-form-urlencoded, or anything else: try it as a form
		vals, err := url.ParseQuery(body)
		if err != nil {
			return badRequest("can't parse request body")
		}
		for k, vs := range vals {
			if len(vs) > 0 {
				req.fields[k] = vs[0]
			}
		}
	}
	return nil
}

// decodeJSONBody adds the fields of a JSON object body to fields: a string field by its
// value, null as "", any other by its JSON text. fastJSONBody is its fast path.
func decodeJSONBody(fields map[string]string, body []byte) *apiError {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return badRequest("can't parse JSON encoded request body")
	}
	for k, raw := range obj {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			fields[k] = s
		} else {
			fields[k] = string(raw) // not a string; null reads as "" above
		}
	}
	return nil
}
